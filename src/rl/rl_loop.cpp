#include "rl/rl_loop.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

constexpr const char* kStateFile = "rl-state.json";

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Writes `text` to `path` atomically (OutputFile: temporary name, fsync, rename).
void writeAtomically(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

json toJson(const Generation& g) {
  json j = {{"number", g.number},
            {"net", g.net},
            {"candidate", g.candidate},
            {"parent", g.parent},
            {"selfplay_games", g.selfplayGames},
            {"selfplay_positions", g.selfplayPositions},
            {"selfplay_targets", g.selfplayTargets},
            {"selfplay_seconds", g.selfplaySeconds},
            {"train_seconds", g.trainSeconds},
            {"gate_seconds", g.gateSeconds},
            {"gate_wins", g.gateWins},
            {"gate_draws", g.gateDraws},
            {"gate_losses", g.gateLosses},
            {"gate_elo", std::isfinite(g.gateElo) ? json(g.gateElo) : json(g.gateElo > 0 ? "inf" : "-inf")},
            {"gate_error", std::isfinite(g.gateError) ? json(g.gateError) : json("inf")},
            {"promoted", g.promoted},
            {"anchor_wins", g.anchorWins},
            {"anchor_draws", g.anchorDraws},
            {"anchor_losses", g.anchorLosses}};
  if (g.anchorElo) j["anchor_elo"] = std::isfinite(*g.anchorElo) ? json(*g.anchorElo) : json(*g.anchorElo > 0 ? "inf" : "-inf");
  if (g.anchorError) j["anchor_error"] = std::isfinite(*g.anchorError) ? json(*g.anchorError) : json("inf");
  return j;
}

double number(const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    throw Error("'" + s + "' is not a number");
  }
  return v.get<double>();
}

Generation fromJson(const json& j) {
  Generation g;
  g.number = j.at("number").get<int>();
  g.net = j.at("net").get<std::string>();
  g.candidate = j.at("candidate").get<std::string>();
  g.parent = j.at("parent").get<std::string>();
  g.selfplayGames = j.at("selfplay_games").get<u64>();
  g.selfplayPositions = j.at("selfplay_positions").get<u64>();
  g.selfplayTargets = j.at("selfplay_targets").get<u64>();
  g.selfplaySeconds = j.at("selfplay_seconds").get<double>();
  g.trainSeconds = j.at("train_seconds").get<double>();
  g.gateSeconds = j.at("gate_seconds").get<double>();
  g.gateWins = j.at("gate_wins").get<int>();
  g.gateDraws = j.at("gate_draws").get<int>();
  g.gateLosses = j.at("gate_losses").get<int>();
  g.gateElo = number(j.at("gate_elo"));
  g.gateError = number(j.at("gate_error"));
  g.promoted = j.at("promoted").get<bool>();
  g.anchorWins = j.at("anchor_wins").get<int>();
  g.anchorDraws = j.at("anchor_draws").get<int>();
  g.anchorLosses = j.at("anchor_losses").get<int>();
  if (j.contains("anchor_elo")) g.anchorElo = number(j.at("anchor_elo"));
  if (j.contains("anchor_error")) g.anchorError = number(j.at("anchor_error"));
  return g;
}

std::string eloText(double elo, double error) {
  if (!std::isfinite(elo)) return elo > 0 ? "+inf" : "-inf";
  return std::isfinite(error) ? fmt::format("{:+.1f} ± {:.1f}", elo, error) : fmt::format("{:+.1f}", elo);
}

std::string shortNet(const std::string& net) { return net.empty() ? "uniform" : fs::path(net).stem().string(); }

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

/// The MCTS engine of a network ("" = uniform backend) for matches.
match::EngineConfig mctsEngine(const RlConfig& c, const std::string& name, const std::string& net) {
  match::EngineConfig e;
  e.name = name;
  e.command = c.janus;
  e.options = {{"Search", "mcts"}, {"Threads", "1"}};
  if (net.empty())
    e.options.emplace_back("MCTS Backend", "uniform");
  else
    e.options.emplace_back("MCTS WeightsFile", fs::absolute(net).string());
  return e;
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
  if (!(c.promoteScore > 0.5 && c.promoteScore <= 1.0)) throw fail("--promote-score must be in (0.5, 1]");
  if (c.anchorEvery < 1 || c.anchorGames < 2) throw fail("--anchor-every must be >= 1 and --anchor-games >= 2");
  if (c.trainer.empty() || ::access(c.trainer.c_str(), X_OK) != 0)
    throw fail(fmt::format("the trainer '{}' is not an executable (janus-train-az is built with libtorch)", c.trainer));
  if (c.janus.empty() || ::access(c.janus.c_str(), X_OK) != 0) throw fail(fmt::format("'{}' is not an executable", c.janus));
  if (!c.initNet.empty()) (void)mcts::pvnet::PvNetwork::fromFile(c.initNet);  // throws naming what is wrong
  if (!c.anchor.empty()) (void)match::parseEngineSpec(c.anchor);
  selfplay::checkConfig(c.selfplay);
}

void writeReport(const RlConfig& c, const RlState& s) {
  writeAtomically((fs::path(c.dir) / "rl-report.md").string(), reportMarkdown(s.history));
  training::ChartSeries gate{"gating Elo (candidate vs best)", "#1f77b4", {}}, cumulative{"cumulative Elo vs generation 0", "#d62728", {}},
      anchor{"best vs anchor", "#2ca02c", {}};
  const std::vector<double> cum = cumulativeElo(s.history);
  for (size_t i = 0; i < s.history.size(); ++i) {
    const Generation& g = s.history[i];
    if (g.number > 0 && std::isfinite(g.gateElo)) gate.points.emplace_back(g.number, g.gateElo);
    cumulative.points.emplace_back(g.number, cum[i]);
    if (g.anchorElo && std::isfinite(*g.anchorElo)) anchor.points.emplace_back(g.number, *g.anchorElo);
  }
  writeAtomically((fs::path(c.dir) / "rl-elo.svg").string(),
                  training::lineChartSvg("Janus MCTS reinforcement learning", "generation", "Elo", {gate, cumulative, anchor}));
}

}  // namespace

std::vector<std::string> trainingWindow(const std::string& dir, int generation, int window) {
  std::vector<std::string> files;
  for (int g = std::max(1, generation - window + 1); g <= generation; ++g)
    for (const std::string& f : selfplayFiles(dir, g)) files.push_back(f);
  return files;
}

std::optional<RlState> loadState(const std::string& dir) {
  const std::string path = (fs::path(dir) / kStateFile).string();
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const json j = json::parse(in);
    RlState s;
    s.generation = j.at("generation").get<int>();
    s.step = j.at("step").get<std::string>();
    s.best = j.at("best").get<std::string>();
    for (const json& g : j.at("history")) s.history.push_back(fromJson(g));
    s.current = fromJson(j.at("current"));
    if (s.step != "selfplay" && s.step != "train" && s.step != "gate" && s.step != "anchor")
      throw Error("unknown step '" + s.step + "'");
    return s;
  } catch (const std::exception& e) {
    throw Error(fmt::format("'{}': {}", path, e.what()));
  }
}

void saveState(const std::string& dir, const RlState& s) {
  json history = json::array();
  for (const Generation& g : s.history) history.push_back(toJson(g));
  const json j = {{"generation", s.generation}, {"step", s.step}, {"best", s.best}, {"history", history},
                  {"current", toJson(s.current)}};
  writeAtomically((fs::path(dir) / kStateFile).string(), j.dump(2) + "\n");
}

std::vector<double> cumulativeElo(const std::vector<Generation>& history) {
  std::vector<double> out;
  double sum = 0;
  for (const Generation& g : history) {
    if (g.number > 0 && g.promoted) sum += g.gateElo;
    out.push_back(sum);
  }
  return out;
}

std::string reportMarkdown(const std::vector<Generation>& history) {
  std::string t =
      "| gen | best network | candidate | self-play games / positions / targets | self-play s | train s | gate W/D/L | "
      "gate Elo | promoted | cumulative Elo | vs anchor W/D/L | anchor Elo |\n"
      "| ---: | --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- | ---: |\n";
  const std::vector<double> cum = cumulativeElo(history);
  for (size_t i = 0; i < history.size(); ++i) {
    const Generation& g = history[i];
    const bool zero = g.number == 0;
    t += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:+.1f} | {} | {} |\n", g.number, shortNet(g.net),
                     zero ? "-" : shortNet(g.candidate),
                     zero ? "-" : fmt::format("{} / {} / {}", g.selfplayGames, g.selfplayPositions, g.selfplayTargets),
                     zero ? "-" : fmt::format("{:.0f}", g.selfplaySeconds), zero ? "-" : fmt::format("{:.0f}", g.trainSeconds),
                     zero ? "-" : fmt::format("{}/{}/{}", g.gateWins, g.gateDraws, g.gateLosses),
                     zero ? "-" : eloText(g.gateElo, g.gateError), zero ? "-" : (g.promoted ? "yes" : "no"), cum[i],
                     g.anchorElo ? fmt::format("{}/{}/{}", g.anchorWins, g.anchorDraws, g.anchorLosses) : "-",
                     g.anchorElo ? eloText(*g.anchorElo, g.anchorError.value_or(INFINITY)) : "-");
  }
  return t;
}

RlState runLoop(const RlConfig& c, std::ostream& out) {
  checkConfig(c);
  fs::create_directories(c.dir);
  auto anchorMatch = [&](Generation& g, const std::string& net) {
    match::MatchConfig m;
    m.engines[0] = mctsEngine(c, "janus-" + shortNet(net), net);
    m.engines[1] = match::parseEngineSpec(c.anchor);
    m.timeControl = match::TimeControl::parse(c.anchorTc);
    m.games = c.anchorGames;
    m.concurrency = c.concurrency;
    m.openingsPath = c.openings;
    m.quiet = true;
    m.pgnOut = (fs::path(c.dir) / fmt::format("gen-{:03d}", g.number) / "anchor.pgn").string();
    m.resume = true;  // a resumed anchor match keeps the games it finished
    fs::create_directories(fs::path(m.pgnOut).parent_path());
    std::ostringstream log;
    const match::MatchResult r = match::Match(m, log).run();
    const match::EloEstimate e = match::trinomialElo(r.wins, r.draws, r.losses);
    g.anchorWins = r.wins;
    g.anchorDraws = r.draws;
    g.anchorLosses = r.losses;
    g.anchorElo = e.elo;
    g.anchorError = e.errorMargin;
    out << fmt::format("rl: generation {} anchor: {} vs {}: +{} ={} -{}, Elo {}\n", g.number, shortNet(net),
                       m.engines[1].name.empty() ? c.anchor : m.engines[1].name, r.wins, r.draws, r.losses,
                       eloText(e.elo, e.errorMargin))
        << std::flush;
  };

  RlState s;
  if (auto loaded = loadState(c.dir)) {
    s = *loaded;
    out << fmt::format("rl: resuming {} at generation {}, step {} (best {})\n", c.dir, s.generation, s.step, shortNet(s.best))
        << std::flush;
  } else {
    Generation zero;
    zero.number = 0;
    zero.net = c.initNet.empty() ? "" : fs::absolute(c.initNet).string();
    zero.promoted = true;
    s.best = zero.net;
    s.history.push_back(zero);
    s.current.number = 1;
    out << fmt::format("rl: new run in {}, generation 0 = {}\n", c.dir, shortNet(s.best)) << std::flush;
    saveState(c.dir, s);
  }
  // Generation 0 (the baseline) and every finished generation due an anchor match that has none:
  // a run that gets --anchor later is measured as if it had had it from the start.
  for (Generation& done : s.history)
    if (anchorDue(c, done.number) && !done.anchorElo) {
      anchorMatch(done, done.net);
      saveState(c.dir, s);
    }
  writeReport(c, s);


  while (s.generation <= c.generations) {
    const int gen = s.generation;
    Generation& g = s.current;
    g.number = gen;
    const fs::path genDir = fs::path(c.dir) / fmt::format("gen-{:03d}", gen);
    fs::create_directories(genDir);

    if (s.step == "selfplay") {
      g.parent = s.best;
      selfplay::SelfplayConfig sc = c.selfplay;
      sc.games = c.gamesPerGeneration;
      sc.backend = s.best.empty() ? "uniform" : "pvnet";
      sc.weights = s.best;
      sc.seed = c.selfplay.seed * 1000003ULL + u64(gen);
      const double t0 = now();
      const selfplay::SelfplayProgress p =
          selfplay::generateSelfplay(sc, {(genDir / "selfplay").string(), c.chunkGames, 1, 1, true});
      g.selfplaySeconds += now() - t0;
      g.selfplayGames = 0;
      g.selfplayPositions = 0;
      g.selfplayTargets = 0;
      for (const std::string& f : selfplayFiles(c.dir, gen)) {
        selfplay::SelfplayReader reader(f);
        selfplay::SelfplayGame game;
        while (reader.next(game)) {
          ++g.selfplayGames;
          g.selfplayPositions += game.plies.size();
          for (const auto& ply : game.plies) g.selfplayTargets += ply.fullSearch();
        }
      }
      out << fmt::format("rl: generation {} selfplay: {} games, {} positions ({} targets) in {:.0f} s ({:.0f} games/h, "
                         "{:.1f} positions/s this session)\n",
                         gen, g.selfplayGames, g.selfplayPositions, g.selfplayTargets, g.selfplaySeconds,
                         p.seconds > 0 ? double(p.gamesDone) * 3600.0 / p.seconds : 0.0,
                         p.seconds > 0 ? double(p.plies) / p.seconds : 0.0)
          << std::flush;
      s.step = "train";
      saveState(c.dir, s);
      writeReport(c, s);
    }

    if (s.step == "train") {
      std::vector<std::string> argv = {c.trainer, "--data"};
      for (const std::string& f : trainingWindow(c.dir, gen, c.window)) argv.push_back(f);
      const fs::path trainDir = genDir / "train";
      argv.insert(argv.end(), {"--out-dir", trainDir.string(), "--description", fmt::format("rl gen {}", gen)});
      if (fs::exists(trainDir / "checkpoint.pt")) argv.push_back("--resume");
      else if (!s.best.empty()) argv.insert(argv.end(), {"--init", s.best});
      argv.insert(argv.end(), c.trainArgs.begin(), c.trainArgs.end());
      const double t0 = now();
      const int status = runLogged(argv, (genDir / "train.log").string());
      g.trainSeconds += now() - t0;
      if (status != 0)
        throw Error(fmt::format("rl: generation {}: the trainer failed (exit {}); see {}", gen, status,
                                (genDir / "train.log").string()));
      // The candidate: the newest network the trainer exported.
      fs::path newest;
      fs::file_time_type newestTime{};
      for (const auto& e : fs::directory_iterator(trainDir))
        if (e.path().extension() == ".jpv" && (newest.empty() || e.last_write_time() > newestTime)) {
          newest = e.path();
          newestTime = e.last_write_time();
        }
      if (newest.empty()) throw Error(fmt::format("rl: generation {}: the trainer wrote no .jpv network into {}", gen, trainDir.string()));
      (void)mcts::pvnet::PvNetwork::fromFile(newest.string());
      g.candidate = fs::absolute(newest).string();
      out << fmt::format("rl: generation {} train: {} in {:.0f} s (log {})\n", gen, shortNet(g.candidate), g.trainSeconds,
                         (genDir / "train.log").string())
          << std::flush;
      s.step = "gate";
      saveState(c.dir, s);
    }

    if (s.step == "gate") {
      match::MatchConfig m;
      m.engines[0] = mctsEngine(c, fmt::format("gen{}-{}", gen, shortNet(g.candidate)), g.candidate);
      m.engines[1] = mctsEngine(c, fmt::format("best-{}", shortNet(s.best)), s.best);
      m.timeControl.nodes = u64(c.gateVisits);
      m.games = c.gateGames;
      m.concurrency = c.concurrency;
      m.openingsPath = c.openings;
      m.sprt = c.gateSprt;
      m.quiet = true;
      m.pgnOut = (genDir / "gate.pgn").string();
      m.resume = true;  // a resumed gate keeps the games it finished
      std::ostringstream log;
      const double t0 = now();
      const match::MatchResult r = match::Match(m, log).run();
      g.gateSeconds = now() - t0;
      writeAtomically((genDir / "gate.txt").string(), log.str());
      const match::EloEstimate e = match::trinomialElo(r.wins, r.draws, r.losses);
      g.gateWins = r.wins;
      g.gateDraws = r.draws;
      g.gateLosses = r.losses;
      g.gateElo = e.elo;
      g.gateError = e.errorMargin;
      const int games = r.wins + r.draws + r.losses;
      const double score = games ? (r.wins + 0.5 * r.draws) / games : 0.0;
      g.promoted = r.decision == match::SprtDecision::kAcceptH1 ||
                   (r.decision == match::SprtDecision::kContinue && score >= c.promoteScore);
      if (g.promoted) s.best = g.candidate;
      g.net = s.best;
      out << fmt::format("rl: generation {} gate: {} vs {}: +{} ={} -{} ({:.1f}%), Elo {}, SPRT {}: {}\n", gen,
                         shortNet(g.candidate), shortNet(g.parent), r.wins, r.draws, r.losses, 100 * score,
                         eloText(e.elo, e.errorMargin),
                         r.decision == match::SprtDecision::kAcceptH1   ? "H1 accepted"
                         : r.decision == match::SprtDecision::kAcceptH0 ? "H0 accepted"
                                                                        : "undecided",
                         g.promoted ? "promoted" : "rejected")
          << std::flush;
      s.step = "anchor";
      saveState(c.dir, s);
    }

    if (s.step == "anchor") {
      if (anchorDue(c, gen)) anchorMatch(g, s.best);
      s.history.push_back(g);
      s.current = Generation{};
      s.current.number = gen + 1;
      s.generation = gen + 1;
      s.step = "selfplay";
      saveState(c.dir, s);
      writeReport(c, s);
    }
  }
  writeReport(c, s);
  out << "rl: done; report " << (fs::path(c.dir) / "rl-report.md").string() << ", plot "
      << (fs::path(c.dir) / "rl-elo.svg").string() << "\n";
  return s;
}

}  // namespace janus::rl
