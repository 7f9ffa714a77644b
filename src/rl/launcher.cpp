// The loop's child processes and the Slurm launcher (launcher.h).

#include "rl/launcher.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "mcts/face_options.h"
#include "util/error.h"

namespace janus::rl {

namespace fs = std::filesystem;

ChildRun runMeasured(const std::vector<std::string>& argv, const std::string& logPath) {
  const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("cannot open '{}': {}", logPath, std::strerror(errno)));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    throw Error(fmt::format("cannot start '{}': {}", argv[0], std::strerror(errno)));
  }
  if (pid == 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execv(args[0], args.data());
    const std::string msg = fmt::format("cannot run '{}': {}\n", argv[0], std::strerror(errno));
    (void)!::write(2, msg.data(), msg.size());
    ::_exit(127);
  }
  ::close(fd);
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
          seconds(usage.ru_utime) + seconds(usage.ru_stime)};
}

int runLogged(const std::vector<std::string>& argv, const std::string& logPath) { return runMeasured(argv, logPath).status; }

std::string findProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string d;
  while (std::getline(dirs, d, ':')) {
    if (d.empty()) continue;
    const fs::path candidate = fs::path(d) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return fs::absolute(candidate).string();
  }
  return "";
}

/// `s` as one word of a POSIX shell command line.
static std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

/// Runs `argv` (runLogged through the temporary file `scratch`); returns its exit status and
/// its output (stdout and stderr).
static std::pair<int, std::string> runCaptured(const std::vector<std::string>& argv, const fs::path& scratch) {
  std::error_code ec;
  fs::remove(scratch, ec);
  const int status = runLogged(argv, scratch.string());
  std::ifstream in(scratch);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(scratch, ec);
  return {status, text.str()};
}

static std::string joined(const std::vector<int>& v, const char* sep) {
  std::string s;
  for (int x : v) {
    if (!s.empty()) s += sep;
    s += std::to_string(x);
  }
  return s;
}

std::vector<std::string> selfplayTaskCommand(const selfplay::SelfplayConfig& sc, const std::string& janus,
                                             const std::string& dir, int chunkGames) {
  if (sc.tablebases) throw Error("rl: the slurm launcher cannot pass tablebases to the self-play tasks");
  std::vector<std::string> argv = {janus, "selfplay", "--output-dir", dir, "--resume", "--quiet",
                                   "--games", std::to_string(sc.games), "--chunk-games", std::to_string(chunkGames),
                                   "--threads", std::to_string(sc.threads), "--backend", sc.backend};
  if (!sc.weights.empty()) argv.insert(argv.end(), {"--weights", sc.weights});
  for (const auto& [key, value] : sc.backendParams) {
    if (key != "policy-temperature")
      throw Error(fmt::format("rl: the slurm launcher cannot pass the backend parameter '{}' to the self-play tasks", key));
    argv.insert(argv.end(), {"--policy-temperature", value});
  }
  // fmt's "{}" of a double is the shortest text that reads back as the same double.
  argv.insert(argv.end(), {"--visits", std::to_string(sc.visits), "--fast-visits", std::to_string(sc.fastVisits),
                           "--full-fraction", fmt::format("{}", sc.fullFraction), "--temperature-plies",
                           std::to_string(sc.temperaturePlies), "--temperature", fmt::format("{}", sc.temperature),
                           "--resign-q", fmt::format("{}", sc.resignQ), "--resign-plies", std::to_string(sc.resignPlies),
                           "--no-resign-fraction", fmt::format("{}", sc.noResignFraction), "--max-plies",
                           std::to_string(sc.maxPlies), "--batch", std::to_string(sc.batch), "--seed",
                           std::to_string(sc.seed)});
  if (!sc.openings.empty()) argv.insert(argv.end(), {"--openings", sc.openings});
  argv.insert(argv.end(), {"--value", sc.value});
  if (sc.value == "nnue" && !sc.evalFile.empty()) argv.insert(argv.end(), {"--eval-file", sc.evalFile});
  if (sc.value == "nnue" && !sc.valueFile.empty()) argv.insert(argv.end(), {"--value-file", sc.valueFile});
  // The face's settings that differ from the default face's, by the table (mcts/face_options.h).
  for (const auto& [name, value] : mcts::changedFaceOptions(sc.face)) argv.insert(argv.end(), {"--mcts-option", name + "=" + value});
  return argv;
}

std::vector<int> missingSelfplayShards(const std::string& dir, int chunks, int shards) {
  std::vector<int> missing;
  for (int k = 0; k < chunks; ++k) {
    const int shard = k % shards + 1;
    if (!fs::exists(fs::path(dir) / selfplay::chunkFileName(u64(k))) &&
        std::find(missing.begin(), missing.end(), shard) == missing.end())
      missing.push_back(shard);
  }
  std::sort(missing.begin(), missing.end());
  return missing;
}

/// Whether Slurm job `job` is still pending or running (squeue). A job squeue no longer knows
/// has ended; any other squeue failure is an error.
static bool jobQueued(const std::string& job, const fs::path& dir) {
  const std::string squeue = findProgram("squeue");
  const auto [status, output] = runCaptured({squeue, "-h", "-j", job, "-o", "%i"}, dir / "squeue.out");
  if (status != 0) {
    if (output.find("Invalid job id") != std::string::npos) return false;
    throw Error(fmt::format("rl: squeue -j {} failed (exit {}): {}", job, status, output));
  }
  return output.find_first_not_of(" \n") != std::string::npos;
}

static void waitForJob(const RlConfig& c, const std::string& job, const fs::path& dir) {
  while (jobQueued(job, dir))
    std::this_thread::sleep_for(std::chrono::duration<double>(c.slurmPollSeconds));
}


/// The slurm launcher: the shards with missing chunks as a job array of `janus selfplay` tasks
/// (sbatch), waited for by polling squeue; again while chunks are missing, at most
/// slurmSubmissions times. The array's job id is kept in DIR/slurm-job.txt, so that a loop that
/// was killed while it waited waits for that job when it resumes instead of doubling it.
/// Returns how it went, for the step's line.
std::string selfplaySlurm(const RlConfig& c, std::ostream& out, int gen, const selfplay::SelfplayConfig& sc,
                        const fs::path& dir) {
  const int chunks = c.gamesPerGeneration / c.chunkGames;
  const int shards = std::min(c.slurmShards, chunks);
  const std::string sbatch = findProgram("sbatch");
  fs::create_directories(dir / "slurm-logs");
  const fs::path jobFile = dir / "slurm-job.txt";
  if (fs::exists(jobFile)) {
    std::ifstream in(jobFile);
    std::string job;
    if (in >> job && jobQueued(job, dir)) {
      out << fmt::format("rl: generation {} selfplay: waiting for Slurm job {} of an earlier session\n", gen, job)
            << std::flush;
      waitForJob(c, job, dir);
    }
  }
  std::string command;
  for (const std::string& word : selfplayTaskCommand(sc, c.janus, dir.string(), c.chunkGames))
    command += shellQuote(word) + " ";
  command += fmt::format("--shard \"$SLURM_ARRAY_TASK_ID/{}\"", shards);
  std::vector<std::string> jobs;
  for (int submission = 1;; ++submission) {
    const std::vector<int> missing = missingSelfplayShards(dir.string(), chunks, shards);
    if (missing.empty()) break;
    if (submission > c.slurmSubmissions)
      throw Error(fmt::format("rl: generation {} self-play: shards {} of {} still lack chunks after {} Slurm "
                              "submissions; the tasks' logs are in {}",
                              gen, joined(missing, ","), shards, c.slurmSubmissions, (dir / "slurm-logs").string()));
    std::vector<std::string> argv = {sbatch,
                                     "--parsable",
                                     "--array=" + joined(missing, ","),
                                     fmt::format("--job-name=janus-rl-gen{:03d}", gen),
                                     fmt::format("--cpus-per-task={}", sc.threads),
                                     "--output=" + (dir / "slurm-logs" / "%A_%a.log").string()};
    argv.insert(argv.end(), c.sbatchArgs.begin(), c.sbatchArgs.end());
    argv.push_back("--wrap=" + command);
    const auto [status, output] = runCaptured(argv, dir / "sbatch.out");
    // sbatch --parsable prints "jobid" or "jobid;cluster" as its last line.
    std::string job;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) job = line.substr(0, line.find(';'));
    if (status != 0 || job.empty() || !std::all_of(job.begin(), job.end(), ::isdigit))
      throw Error(fmt::format("rl: generation {} self-play: sbatch failed (exit {}): {}", gen, status, output));
    writeAtomically(jobFile.string(), job + "\n");
    out << fmt::format("rl: generation {} selfplay: Slurm array job {} (shards {} of {})\n", gen, job,
                         joined(missing, ","), shards)
          << std::flush;
    waitForJob(c, job, dir);
    jobs.push_back(job);
  }
  std::string list;
  for (const std::string& j : jobs) {
    if (!list.empty()) list += ",";
    list += j;
  }
  return fmt::format("Slurm, {} shards, {} submission(s){}", shards, jobs.size(), jobs.empty() ? "" : " (jobs " + list + ")");
}


}  // namespace janus::rl
