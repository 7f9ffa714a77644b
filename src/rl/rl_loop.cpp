#include "rl/rl_loop.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "match/match.h"
#include "mcts/pvnet.h"
#include "training/report.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::rl {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}


/// Runs `argv` with stdout and stderr appended to `logPath`; returns its exit status. Throws if
/// it cannot be started.
int runLogged(const std::vector<std::string>& argv, const std::string& logPath) {
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
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// The absolute path of program `name` found in PATH, "" if it is not there.
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
std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

/// Runs `argv` (runLogged through the temporary file `scratch`); returns its exit status and
/// its output (stdout and stderr).
std::pair<int, std::string> runCaptured(const std::vector<std::string>& argv, const fs::path& scratch) {
  std::error_code ec;
  fs::remove(scratch, ec);
  const int status = runLogged(argv, scratch.string());
  std::ifstream in(scratch);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(scratch, ec);
  return {status, text.str()};
}

std::string joined(const std::vector<int>& v, const char* sep) {
  std::string s;
  for (int x : v) {
    if (!s.empty()) s += sep;
    s += std::to_string(x);
  }
  return s;
}

/// The self-play chunk files of generation g.
std::vector<std::string> selfplayFiles(const std::string& dir, int g) {
  std::vector<std::string> files;
  const fs::path d = fs::path(dir) / fmt::format("gen-{:03d}", g) / "selfplay";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(d, ec))
    if (e.path().filename().string().starts_with("chunk-") && e.path().extension() == ".zst") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// Whether generation `gen` gets a match against the anchor: generation 0 (the baseline), every
/// --anchor-every generations and the last one (--generations), when the run has an anchor.
bool anchorDue(const RlConfig& c, int gen) {
  return !c.anchor.empty() && (gen % c.anchorEvery == 0 || gen == c.generations);
}

void checkConfig(const RlConfig& c) {
  auto fail = [](const std::string& what) { return Error("rl: " + what); };
  if (c.dir.empty()) throw fail("no run directory (--dir)");
  if (c.generations < 1) throw fail("--generations must be at least 1");
  if (c.gamesPerGeneration < 1 || c.chunkGames < 1 || c.gamesPerGeneration % c.chunkGames != 0)
    throw fail(fmt::format("--games-per-gen {} must be a positive multiple of --chunk-games {}", c.gamesPerGeneration,
                           c.chunkGames));
  if (c.window < 1) throw fail("--window must be at least 1");
  if (c.gateGames < 2 || c.gateVisits < 1) throw fail("--gate-games must be at least 2 and --gate-visits at least 1");
  if (c.gen0Games < 2) throw fail("--gen0-games must be at least 2");
  if (c.anchorEvery < 1 || c.anchorGames < 2) throw fail("--anchor-every must be >= 1 and --anchor-games >= 2");
  if (c.trainer.empty() || ::access(c.trainer.c_str(), X_OK) != 0)
    throw fail(fmt::format("the trainer '{}' is not an executable (janus-train-az is built with libtorch)", c.trainer));
  if (c.janus.empty() || ::access(c.janus.c_str(), X_OK) != 0) throw fail(fmt::format("'{}' is not an executable", c.janus));
  if (!c.initNet.empty()) (void)mcts::pvnet::PvNetwork::fromFile(c.initNet);  // throws naming what is wrong
  if (!c.anchor.empty()) (void)match::parseEngineSpec(c.anchor);
  for (const std::string& f : c.heldout)
    if (!fs::is_regular_file(f)) throw fail(fmt::format("--heldout '{}' is not a file", f));
  selfplay::checkConfig(c.selfplay);
  if (c.launcher != "local" && c.launcher != "slurm") throw fail(fmt::format("--launcher '{}' is neither local nor slurm", c.launcher));
  if (c.launcher == "slurm") {
    if (c.slurmShards < 1 || c.slurmSubmissions < 1 || !(c.slurmPollSeconds > 0))
      throw fail("--slurm-shards must be at least 1 and the poll interval positive");
    for (const char* program : {"sbatch", "squeue"})
      if (findProgram(program).empty())
        throw fail(fmt::format("--launcher slurm needs {} in PATH (Slurm's client commands, Debian's slurm-client)", program));
  }
}

void writeReport(const RlConfig& c, const RlState& s) {
  writeAtomically((fs::path(c.dir) / "rl-report.md").string(), reportMarkdown(s.history));
  training::ChartSeries gate{"gating Elo (candidate vs best)", "#1f77b4", {}},
      gen0{"best vs generation 0 (direct match)", "#d62728", {}}, anchor{"best vs anchor", "#2ca02c", {}};
  for (const Generation& g : s.history) {
    if (g.number > 0 && std::isfinite(g.gateElo)) gate.points.emplace_back(g.number, g.gateElo);
    if (g.number == 0) gen0.points.emplace_back(0, 0.0);
    else if (g.gen0Elo && std::isfinite(*g.gen0Elo)) gen0.points.emplace_back(g.number, *g.gen0Elo);
    if (g.anchorElo && std::isfinite(*g.anchorElo)) anchor.points.emplace_back(g.number, *g.anchorElo);
  }
  writeAtomically((fs::path(c.dir) / "rl-elo.svg").string(),
                  training::lineChartSvg("Janus MCTS reinforcement learning", "generation", "Elo", {gate, gen0, anchor}));
}

}  // namespace

match::EngineConfig mctsMatchEngine(const RlConfig& c, const std::string& name, const std::string& net) {
  match::EngineConfig e;
  e.name = name;
  e.command = c.janus;
  e.options = {{"Search", "mcts"}, {"Threads", "1"}};
  // The matches play the face the self-play played: the same leaf values and leaf searches.
  const selfplay::SelfplayConfig& sc = c.selfplay;
  e.options.emplace_back("MCTS Value", sc.value);
  if (sc.value == "nnue") {
    if (!sc.evalFile.empty()) e.options.emplace_back("EvalFile", fs::absolute(sc.evalFile).string());
    e.options.emplace_back("MCTS QS Depth", std::to_string(sc.leaf.maxPly));
    e.options.emplace_back("MCTS Prior Temperature", std::to_string(sc.leaf.priorTemperature));
    e.options.emplace_back("MCTS Hint Visits", std::to_string(sc.leaf.hintVisits));
  }
  if (net.empty())
    e.options.emplace_back("MCTS Backend", "uniform");
  else
    e.options.emplace_back("MCTS WeightsFile", fs::absolute(net).string());
  return e;
}

std::vector<std::string> trainingWindow(const std::string& dir, int generation, int window) {
  std::vector<std::string> files;
  for (int g = std::max(1, generation - window + 1); g <= generation; ++g)
    for (const std::string& f : selfplayFiles(dir, g)) files.push_back(f);
  return files;
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
  if (sc.value == "nnue") {
    if (!sc.evalFile.empty()) argv.insert(argv.end(), {"--eval-file", sc.evalFile});
    argv.insert(argv.end(), {"--qs-depth", std::to_string(sc.leaf.maxPly), "--prior-temperature",
                             std::to_string(sc.leaf.priorTemperature), "--hint-visits",
                             std::to_string(sc.leaf.hintVisits)});
  }
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

namespace {

/// One run of the loop: the configuration, the state and the four steps of a generation.
class Loop {
 public:
  Loop(const RlConfig& c, std::ostream& out) : m_c(c), m_out(out) {}

  RlState run() {
    checkConfig(m_c);
    fs::create_directories(m_c.dir);
    start();
    while (m_s.generation <= m_c.generations) {
      Generation& g = m_s.current;
      g.number = m_s.generation;
      fs::create_directories(genDir());
      if (m_s.step == "selfplay") selfplay(g);
      if (m_s.step == "train") train(g);
      if (m_s.step == "gate") gate(g);
      if (m_s.step == "measure") measure(g);
    }
    writeReport(m_c, m_s);
    m_out << "rl: done; report " << (fs::path(m_c.dir) / "rl-report.md").string() << ", plot "
          << (fs::path(m_c.dir) / "rl-elo.svg").string() << "\n";
    return m_s;
  }

 private:
  const RlConfig& m_c;
  std::ostream& m_out;
  RlState m_s;

  [[nodiscard]] fs::path genDir(int gen) const { return fs::path(m_c.dir) / fmt::format("gen-{:03d}", gen); }
  [[nodiscard]] fs::path genDir() const { return genDir(m_s.generation); }

  void advance(const std::string& step) {
    m_s.step = step;
    saveState(m_c.dir, m_s);
    writeReport(m_c, m_s);
  }

  /// A match of MCTS engine `first` against `second`, resumed from its PGN if it exists.
  match::MatchResult play(match::EngineConfig first, match::EngineConfig second, const match::TimeControl& tc, int games,
                          const std::optional<match::SprtConfig>& sprt, const fs::path& pgn, std::string* log = nullptr) {
    match::MatchConfig m;
    m.engines[0] = std::move(first);
    m.engines[1] = std::move(second);
    m.timeControl = tc;
    m.games = games;
    m.concurrency = m_c.concurrency;
    m.openingsPath = m_c.openings;
    m.sprt = sprt;
    m.quiet = true;
    m.pgnOut = pgn.string();
    m.resume = true;  // a resumed match keeps the games it finished
    fs::create_directories(pgn.parent_path());
    std::ostringstream text;
    const match::MatchResult r = match::Match(m, text).run();
    if (log) *log = text.str();
    return r;
  }

  [[nodiscard]] match::TimeControl gateNodes() const {
    match::TimeControl tc;
    tc.nodes = u64(m_c.gateVisits);
    return tc;
  }

  /// Writes `r`'s W/D/L and Elo estimate into one of Generation's results (gate, gen0, anchor:
  /// `Elo` is double or std::optional<double>) and returns the estimate.
  template <typename Elo>
  static match::EloEstimate record(const match::MatchResult& r, int& wins, int& draws, int& losses, Elo& elo,
                                   Elo& error) {
    const match::EloEstimate e = match::trinomialElo(r.wins, r.draws, r.losses);
    wins = r.wins;
    draws = r.draws;
    losses = r.losses;
    elo = e.elo;
    error = e.errorMargin;
    return e;
  }

  /// A new run's generation 0, or the state of the run being resumed; then the anchor matches
  /// that finished generations are due and lack (a run given --anchor later is measured as if
  /// it had had it from the start).
  void start() {
    if (auto loaded = loadState(m_c.dir)) {
      m_s = *loaded;
      m_out << fmt::format("rl: resuming {} at generation {}, step {} (best {})\n", m_c.dir, m_s.generation, m_s.step,
                           shortNet(m_s.best))
            << std::flush;
    } else {
      Generation zero;
      zero.number = 0;
      zero.net = m_c.initNet.empty() ? "" : fs::absolute(m_c.initNet).string();
      zero.promoted = true;
      m_s.best = zero.net;
      m_s.history.push_back(zero);
      m_s.current.number = 1;
      m_out << fmt::format("rl: new run in {}, generation 0 = {}\n", m_c.dir, shortNet(m_s.best)) << std::flush;
      saveState(m_c.dir, m_s);
    }
    for (Generation& done : m_s.history) {
      if (anchorDue(m_c, done.number) && !done.anchorElo) {
        anchorMatch(done, done.net);
        saveState(m_c.dir, m_s);
      }
      // A run given --heldout later is evaluated as if it had had it from the start.
      const std::string& net = done.number == 0 ? done.net : done.candidate;
      if (!m_c.heldout.empty() && !done.heldout && !net.empty()) {
        done.heldout = evaluateHeldout(done.number, net);
        saveState(m_c.dir, m_s);
      }
    }
    writeReport(m_c, m_s);
  }

  /// `janus-train-az --evaluate` of network `net` (generation `gen`'s) on the held-out games; the
  /// CSV and the log stay in RUN/gen-NNN/.
  HeldoutFigures evaluateHeldout(int gen, const std::string& net) {
    const fs::path dir = genDir(gen);
    fs::create_directories(dir);
    const std::string csv = (dir / "heldout.csv").string(), logPath = (dir / "heldout.log").string();
    std::vector<std::string> argv = {m_c.trainer, "--evaluate", net, "--evaluate-csv", csv, "--lambda", "1", "--threads",
                                     std::to_string(std::max(1, m_c.selfplay.threads)), "--data"};
    argv.insert(argv.end(), m_c.heldout.begin(), m_c.heldout.end());
    const int status = runLogged(argv, logPath);
    if (status != 0)
      throw Error(fmt::format("rl: generation {}: the held-out evaluation failed (exit {}); see {}", gen, status, logPath));
    const HeldoutFigures h = readHeldoutCsv(csv);
    m_out << fmt::format("rl: generation {} held-out: {} on {} positions: policy CE {:.4f}, top-1 {:.1f}%, value CE {:.4f}\n",
                         gen, shortNet(net), h.positions, h.policyCe, 100 * h.top1, h.valueCe)
          << std::flush;
    return h;
  }

  struct SelfplayCount {
    u64 games = 0, positions = 0, targets = 0;
  };

  /// Games, positions and policy targets (full searches) in generation `gen`'s self-play chunks.
  SelfplayCount countSelfplay(int gen) const {
    SelfplayCount c;
    for (const std::string& f : selfplayFiles(m_c.dir, gen)) {
      selfplay::SelfplayReader reader(f);
      selfplay::SelfplayGame game;
      while (reader.next(game)) {
        ++c.games;
        c.positions += game.plies.size();
        for (const auto& ply : game.plies) c.targets += ply.fullSearch();
      }
    }
    return c;
  }

  /// Step 1: the best network's self-play games.
  void selfplay(Generation& g) {
    const int gen = g.number;
    g.parent = m_s.best;
    selfplay::SelfplayConfig sc = m_c.selfplay;
    sc.games = m_c.gamesPerGeneration;
    sc.backend = m_s.best.empty() ? "uniform" : "pvnet";
    sc.weights = m_s.best;
    sc.seed = m_c.selfplay.seed * 1000003ULL + u64(gen);
    const u64 positionsBefore = countSelfplay(gen).positions;
    const double t0 = now();
    std::string how;
    if (m_c.launcher == "slurm") {
      how = selfplaySlurm(gen, sc, fs::absolute(genDir() / "selfplay"));
    } else {
      const selfplay::SelfplayProgress p =
          selfplay::generateSelfplay(sc, {(genDir() / "selfplay").string(), m_c.chunkGames, 1, 1, true});
      how = fmt::format("{:.0f} games/h, {:.1f} positions/s this session",
                        p.seconds > 0 ? double(p.gamesDone) * 3600.0 / p.seconds : 0.0,
                        p.seconds > 0 ? double(p.plies) / p.seconds : 0.0);
    }
    g.selfplaySeconds += now() - t0;
    const SelfplayCount count = countSelfplay(gen);
    g.selfplayGames = count.games;
    g.selfplayPositions = count.positions;
    g.selfplayTargets = count.targets;
    g.selfplayTimedPositions += count.positions - positionsBefore;
    if (m_c.launcher == "slurm" && g.selfplayGames != u64(m_c.gamesPerGeneration))
      throw Error(fmt::format("rl: generation {} self-play: {} games in {}, expected {}", gen, g.selfplayGames,
                              (genDir() / "selfplay").string(), m_c.gamesPerGeneration));
    m_out << fmt::format("rl: generation {} selfplay: {} games, {} positions ({} targets) in {:.0f} s ({})\n", gen,
                         g.selfplayGames, g.selfplayPositions, g.selfplayTargets, g.selfplaySeconds, how)
          << std::flush;
    advance("train");
  }

  /// The slurm launcher: the shards with missing chunks as a job array of `janus selfplay` tasks
  /// (sbatch), waited for by polling squeue; again while chunks are missing, at most
  /// slurmSubmissions times. The array's job id is kept in DIR/slurm-job.txt, so that a loop that
  /// was killed while it waited waits for that job when it resumes instead of doubling it.
  /// Returns how it went, for the step's line.
  std::string selfplaySlurm(int gen, const selfplay::SelfplayConfig& sc, const fs::path& dir) {
    const int chunks = m_c.gamesPerGeneration / m_c.chunkGames;
    const int shards = std::min(m_c.slurmShards, chunks);
    const std::string sbatch = findProgram("sbatch");
    fs::create_directories(dir / "slurm-logs");
    const fs::path jobFile = dir / "slurm-job.txt";
    if (fs::exists(jobFile)) {
      std::ifstream in(jobFile);
      std::string job;
      if (in >> job && jobQueued(job, dir)) {
        m_out << fmt::format("rl: generation {} selfplay: waiting for Slurm job {} of an earlier session\n", gen, job)
              << std::flush;
        waitForJob(job, dir);
      }
    }
    std::string command;
    for (const std::string& word : selfplayTaskCommand(sc, m_c.janus, dir.string(), m_c.chunkGames))
      command += shellQuote(word) + " ";
    command += fmt::format("--shard \"$SLURM_ARRAY_TASK_ID/{}\"", shards);
    std::vector<std::string> jobs;
    for (int submission = 1;; ++submission) {
      const std::vector<int> missing = missingSelfplayShards(dir.string(), chunks, shards);
      if (missing.empty()) break;
      if (submission > m_c.slurmSubmissions)
        throw Error(fmt::format("rl: generation {} self-play: shards {} of {} still lack chunks after {} Slurm "
                                "submissions; the tasks' logs are in {}",
                                gen, joined(missing, ","), shards, m_c.slurmSubmissions, (dir / "slurm-logs").string()));
      std::vector<std::string> argv = {sbatch,
                                       "--parsable",
                                       "--array=" + joined(missing, ","),
                                       fmt::format("--job-name=janus-rl-gen{:03d}", gen),
                                       fmt::format("--cpus-per-task={}", sc.threads),
                                       "--output=" + (dir / "slurm-logs" / "%A_%a.log").string()};
      argv.insert(argv.end(), m_c.sbatchArgs.begin(), m_c.sbatchArgs.end());
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
      m_out << fmt::format("rl: generation {} selfplay: Slurm array job {} (shards {} of {})\n", gen, job,
                           joined(missing, ","), shards)
            << std::flush;
      waitForJob(job, dir);
      jobs.push_back(job);
    }
    std::string list;
    for (const std::string& j : jobs) {
      if (!list.empty()) list += ",";
      list += j;
    }
    return fmt::format("Slurm, {} shards, {} submission(s){}", shards, jobs.size(), jobs.empty() ? "" : " (jobs " + list + ")");
  }

  /// Whether Slurm job `job` is still pending or running (squeue). A job squeue no longer knows
  /// has ended; any other squeue failure is an error.
  bool jobQueued(const std::string& job, const fs::path& dir) const {
    const std::string squeue = findProgram("squeue");
    const auto [status, output] = runCaptured({squeue, "-h", "-j", job, "-o", "%i"}, dir / "squeue.out");
    if (status != 0) {
      if (output.find("Invalid job id") != std::string::npos) return false;
      throw Error(fmt::format("rl: squeue -j {} failed (exit {}): {}", job, status, output));
    }
    return output.find_first_not_of(" \n") != std::string::npos;
  }

  void waitForJob(const std::string& job, const fs::path& dir) const {
    while (jobQueued(job, dir))
      std::this_thread::sleep_for(std::chrono::duration<double>(m_c.slurmPollSeconds));
  }

  /// Step 2: janus-train-az on the window's records, from the best network's weights.
  void train(Generation& g) {
    const int gen = g.number;
    std::vector<std::string> argv = {m_c.trainer, "--data"};
    for (const std::string& f : trainingWindow(m_c.dir, gen, m_c.window)) argv.push_back(f);
    const fs::path trainDir = genDir() / "train";
    argv.insert(argv.end(), {"--out-dir", trainDir.string(), "--description", fmt::format("rl gen {}", gen)});
    if (fs::exists(trainDir / "checkpoint.pt")) argv.push_back("--resume");
    else if (!m_s.best.empty()) argv.insert(argv.end(), {"--init", m_s.best});
    argv.insert(argv.end(), m_c.trainArgs.begin(), m_c.trainArgs.end());
    const double t0 = now();
    const std::string logPath = (genDir() / "train.log").string();
    const int status = runLogged(argv, logPath);
    g.trainSeconds += now() - t0;
    if (status != 0) throw Error(fmt::format("rl: generation {}: the trainer failed (exit {}); see {}", gen, status, logPath));
    // The candidate: the newest network the trainer exported.
    fs::path newest;
    fs::file_time_type newestTime{};
    for (const auto& e : fs::directory_iterator(trainDir))
      if (e.path().extension() == ".jpv" && (newest.empty() || e.last_write_time() > newestTime)) {
        newest = e.path();
        newestTime = e.last_write_time();
      }
    if (newest.empty())
      throw Error(fmt::format("rl: generation {}: the trainer wrote no .jpv network into {}", gen, trainDir.string()));
    (void)mcts::pvnet::PvNetwork::fromFile(newest.string());
    g.candidate = fs::absolute(newest).string();
    m_out << fmt::format("rl: generation {} train: {} in {:.0f} s (log {})\n", gen, shortNet(g.candidate), g.trainSeconds,
                         logPath)
          << std::flush;
    if (!m_c.heldout.empty()) g.heldout = evaluateHeldout(gen, g.candidate);
    m_s.step = "gate";
    saveState(m_c.dir, m_s);
  }

  /// Step 3: the candidate against the best by SPRT; promoted only on H1.
  void gate(Generation& g) {
    const int gen = g.number;
    std::string log;
    const double t0 = now();
    const match::MatchResult r =
        play(mctsMatchEngine(m_c, fmt::format("gen{}-{}", gen, shortNet(g.candidate)), g.candidate),
             mctsMatchEngine(m_c, fmt::format("best-{}", shortNet(m_s.best)), m_s.best), gateNodes(), m_c.gateGames,
             m_c.gateSprt, genDir() / "gate.pgn", &log);
    g.gateSeconds = now() - t0;
    writeAtomically((genDir() / "gate.txt").string(), log);
    const match::EloEstimate e = record(r, g.gateWins, g.gateDraws, g.gateLosses, g.gateElo, g.gateError);
    const int games = r.wins + r.draws + r.losses;
    const double score = games ? (r.wins + 0.5 * r.draws) / games : 0.0;
    g.promoted = r.decision == match::SprtDecision::kAcceptH1;
    if (g.promoted) m_s.best = g.candidate;
    g.net = m_s.best;
    m_out << fmt::format("rl: generation {} gate: {} vs {}: +{} ={} -{} ({:.1f}%), Elo {}, SPRT {}: {}\n", gen,
                         shortNet(g.candidate), shortNet(g.parent), r.wins, r.draws, r.losses, 100 * score,
                         eloText(e.elo, e.errorMargin),
                         r.decision == match::SprtDecision::kAcceptH1   ? "H1 accepted"
                         : r.decision == match::SprtDecision::kAcceptH0 ? "H0 accepted"
                                                                        : "undecided",
                         g.promoted ? "promoted" : "rejected")
          << std::flush;
    m_s.step = "measure";
    saveState(m_c.dir, m_s);
  }

  /// Step 4: the best network against generation 0's (a direct match when it is new, else the
  /// measurement of the generation it comes from), and against the anchor when due.
  void measure(Generation& g) {
    const int gen = g.number;
    const Generation& zero = m_s.history.front();
    const Generation* same = nullptr;  // the latest finished generation with the same best network
    for (const Generation& h : m_s.history)
      if (h.net == g.net) same = &h;
    if (same && same->number > 0) {
      g.gen0Elo = same->gen0Elo;
      g.gen0Error = same->gen0Error;
      g.gen0Wins = same->gen0Wins;
      g.gen0Draws = same->gen0Draws;
      g.gen0Losses = same->gen0Losses;
    } else if (g.net != zero.net) {
      const match::MatchResult r =
          play(mctsMatchEngine(m_c, fmt::format("gen{}-{}", gen, shortNet(g.net)), g.net),
               mctsMatchEngine(m_c, fmt::format("gen0-{}", shortNet(zero.net)), zero.net), gateNodes(), m_c.gen0Games,
               std::nullopt, genDir() / "gen0.pgn");
      const match::EloEstimate e = record(r, g.gen0Wins, g.gen0Draws, g.gen0Losses, g.gen0Elo, g.gen0Error);
      m_out << fmt::format("rl: generation {} vs generation 0: {} vs {}: +{} ={} -{}, Elo {}\n", gen, shortNet(g.net),
                           shortNet(zero.net), r.wins, r.draws, r.losses, eloText(e.elo, e.errorMargin))
            << std::flush;
    }
    saveState(m_c.dir, m_s);
    if (anchorDue(m_c, gen)) anchorMatch(g, m_s.best);
    m_s.history.push_back(g);
    m_s.current = Generation{};
    m_s.current.number = gen + 1;
    m_s.generation = gen + 1;
    advance("selfplay");
  }

  /// `net` against the outside anchor at the anchor's clock; the result goes into `g`.
  void anchorMatch(Generation& g, const std::string& net) {
    const match::EngineConfig anchor = match::parseEngineSpec(m_c.anchor);
    const match::MatchResult r = play(mctsMatchEngine(m_c, "janus-" + shortNet(net), net), anchor,
                                      match::TimeControl::parse(m_c.anchorTc), m_c.anchorGames, std::nullopt,
                                      genDir(g.number) / "anchor.pgn");
    const match::EloEstimate e = record(r, g.anchorWins, g.anchorDraws, g.anchorLosses, g.anchorElo, g.anchorError);
    m_out << fmt::format("rl: generation {} anchor: {} vs {}: +{} ={} -{}, Elo {}\n", g.number, shortNet(net),
                         anchor.name.empty() ? m_c.anchor : anchor.name, r.wins, r.draws, r.losses,
                         eloText(e.elo, e.errorMargin))
          << std::flush;
  }
};

}  // namespace

RlState runLoop(const RlConfig& c, std::ostream& out) { return Loop(c, out).run(); }

}  // namespace janus::rl
