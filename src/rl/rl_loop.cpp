#include "rl/rl_loop.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "match/match.h"
#include "match/openings.h"
#include "mcts/pvnet.h"
#include "nnue/network.h"
#include "rl/ab_face.h"
#include "rl/launcher.h"
#include "records/janusdat.h"
#include "selfplay/export.h"
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

/// The output of a match of the loop, line by line: the per-game progress lines of janus match
/// ("[12/400] Game 12: ... Elo ... | LLR ...") go to `progress` with a prefix, at most one a minute
/// (and the first), the rest (header and summary) to `summary`.
class ProgressRouter : public std::streambuf {
 public:
  ProgressRouter(std::ostream& summary, std::ostream& progress, std::string prefix)
      : m_summary(summary), m_progress(progress), m_prefix(std::move(prefix)) {}

 protected:
  int overflow(int ch) override {
    if (ch == traits_type::eof()) return 0;
    if (ch != '\n') {
      m_line += char(ch);
      return ch;
    }
    if (m_line.starts_with("[")) {
      if (now() - m_last >= 60) {
        m_last = now();
        m_progress << m_prefix << m_line << "\n" << std::flush;
      }
    } else {
      m_summary << m_line << "\n";
    }
    m_line.clear();
    return ch;
  }
  int sync() override {
    if (!m_line.empty()) overflow('\n');
    return 0;
  }

 private:
  std::ostream& m_summary;
  std::ostream& m_progress;
  std::string m_prefix, m_line;
  double m_last = -1e9;
};


/// The self-play chunk files of generation g (in its folder `sub`: selfplay or data).
std::vector<std::string> selfplayFiles(const std::string& dir, int g, const std::string& sub = "selfplay") {
  std::vector<std::string> files;
  const fs::path d = fs::path(dir) / fmt::format("gen-{:03d}", g) / sub;
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
                  training::lineChartSvg(c.face == "ab" ? "Janus alpha-beta (NNUE) self-play generations"
                                                                : "Janus MCTS reinforcement learning", "generation", "Elo", {gate, gen0, anchor}));
}

}  // namespace

match::EngineConfig mctsMatchEngine(const RlConfig& c, const std::string& name, const std::string& net,
                                    const std::string& valueNet) {
  match::EngineConfig e;
  e.name = name;
  e.command = c.janus;
  e.args = {"--show-hidden"};  // declares the tuning options set below (mcts/face_options.h)
  e.options = {{"Search", "mcts"}, {"Threads", "1"}};
  // The matches play the face the self-play played: the same leaf values and every tuning setting
  // of the face's table (mcts/face_options.h), each as its engine option.
  const selfplay::SelfplayConfig& sc = c.selfplay;
  e.options.emplace_back("MCTS Value", sc.value);
  if (sc.value == "nnue" && !sc.evalFile.empty()) e.options.emplace_back("EvalFile", fs::absolute(sc.evalFile).string());
  if (!valueNet.empty()) e.options.emplace_back("MCTS ValueFile", fs::absolute(valueNet).string());
  for (const mcts::FaceOption& o : mcts::faceOptions()) e.options.emplace_back(o.name, mcts::faceOptionText(o, sc.face));
  if (net.empty())
    e.options.emplace_back("MCTS Backend", "uniform");
  else
    e.options.emplace_back("MCTS WeightsFile", fs::absolute(net).string());
  return e;
}

std::vector<std::string> trainingWindow(const std::string& dir, int generation, int window, const std::string& sub) {
  std::vector<std::string> files;
  for (int g = std::max(1, generation - window + 1); g <= generation; ++g)
    for (const std::string& f : selfplayFiles(dir, g, sub)) files.push_back(f);
  return files;
}

std::string storedPath(const std::string& path) {
  if (path.empty()) return path;
  const fs::path absolute = fs::absolute(path).lexically_normal();
  const fs::path relative = absolute.lexically_relative(fs::current_path());
  if (!relative.empty() && *relative.begin() != "..") return relative.string();
  return absolute.string();
}

namespace {

/// One run of the loop: the configuration, the state and the four steps of a generation.
class Loop {
 public:
  Loop(const RlConfig& c, std::ostream& out) : m_c(c), m_out(out) {}

  RlState run() {
    checkRlConfig(m_c);
    fs::create_directories(m_c.dir);
    start();
    while (m_s.generation <= m_c.generations && !outOfTime()) {
      Generation& g = m_s.current;
      g.number = m_s.generation;
      fs::create_directories(genDir());
      if (m_s.step == "selfplay") selfplay(g);
      if (m_s.step == "train" && !outOfTime()) train(g);
      if (m_s.step == "train-value" && !outOfTime()) trainValue(g);
      if (m_s.step == "gate" && !outOfTime()) gate(g);
      if (m_s.step == "measure" && !outOfTime()) measure(g);
    }
    writeReport(m_c, m_s);
    if (m_s.generation <= m_c.generations)
      m_out << fmt::format("rl: --hours {} reached: stopped before generation {}'s step {} (the same command resumes there)\n",
                           m_c.hours, m_s.generation, m_s.step);
    m_out << "rl: done; report " << (fs::path(m_c.dir) / "rl-report.md").string() << ", plot "
          << (fs::path(m_c.dir) / "rl-elo.svg").string() << "\n";
    return m_s;
  }

 private:
  const RlConfig& m_c;
  std::ostream& m_out;
  RlState m_s;
  const double m_start = now();

  [[nodiscard]] bool ab() const { return m_c.face == "ab"; }
  /// mcts: whether a value network learns with the policy (RlConfig::valueInit).
  [[nodiscard]] bool valueOn() const { return !m_c.valueInit.empty(); }
  [[nodiscard]] bool outOfTime() const { return m_c.hours > 0 && now() - m_start >= m_c.hours * 3600; }
  [[nodiscard]] fs::path genDir(int gen) const { return fs::path(m_c.dir) / fmt::format("gen-{:03d}", gen); }
  [[nodiscard]] fs::path genDir() const { return genDir(m_s.generation); }
  /// Generation `gen`'s data and training runs (disposable): under dataDir, or dir without one.
  [[nodiscard]] fs::path dataRoot() const { return m_c.dataDir.empty() ? m_c.dir : m_c.dataDir; }
  [[nodiscard]] fs::path genData(int gen) const { return dataRoot() / fmt::format("gen-{:03d}", gen); }
  [[nodiscard]] fs::path genData() const { return genData(m_s.generation); }
  /// The subfolder of a generation's self-play records.
  [[nodiscard]] const char* recordsSub() const { return ab() ? "data" : "selfplay"; }

  /// The engine of the loop's matches for network `net` (mcts: with value network `valueNet`):
  /// the face the self-play played. An alpha-beta network of `speed` relative to the other
  /// side's plays gateNodes x speed nodes.
  [[nodiscard]] match::EngineConfig engine(const std::string& name, const std::string& net, double speed = 1,
                                           const std::string& valueNet = "") const {
    if (!ab()) return mctsMatchEngine(m_c, name, net, valueNet);
    match::EngineConfig e = abMatchEngine(m_c, name, net);
    if (speed != 1) e.nodes = abScaledNodes(m_c.gateNodes, speed);
    return e;
  }

  /// ab: the search speed of `net` relative to generation 0's network (Generation::candidateSpeed).
  [[nodiscard]] double speedOf(const std::string& net) const {
    if (net == m_s.history.front().net) return 1;
    for (const Generation& h : m_s.history)
      if (h.candidate == net) return h.candidateSpeed;
    return m_s.current.candidate == net ? m_s.current.candidateSpeed : 1;
  }

  void advance(const std::string& step) {
    m_s.step = step;
    saveState(m_c.dir, m_s);
    writeReport(m_c, m_s);
  }

  /// A match of generation `gen`'s engine `first` against `second`, resumed from its PGN if it
  /// exists. The alpha-beta face shuffles the book with matchSeed + gen (its games at fixed nodes
  /// are otherwise the same in every generation's matches).
  match::MatchResult play(int gen, match::EngineConfig first, match::EngineConfig second, const match::TimeControl& tc,
                          int games, const std::optional<match::SprtConfig>& sprt, const fs::path& pgn,
                          std::string* log = nullptr) {
    match::MatchConfig m;
    m.engines[0] = std::move(first);
    m.engines[1] = std::move(second);
    m.timeControl = tc;
    m.games = games;
    m.concurrency = m_c.concurrency;
    m.openingsPath = m_c.openings;
    if (ab()) {
      m.randomOpenings = true;
      m.seed = m_c.matchSeed + u64(gen);
    }
    m.sprt = sprt;
    m.quiet = false;  // its per-game lines feed the progress lines (ProgressRouter)
    m.pgnOut = pgn.string();
    m.resume = true;  // a resumed match keeps the games it finished
    fs::create_directories(pgn.parent_path());
    restorePgn(pgn);
    std::ostringstream text;
    ProgressRouter router(text, m_out, fmt::format("rl: generation {} {}: ", gen, pgn.stem().string()));
    std::ostream routed(&router);
    const match::MatchResult r = match::Match(m, routed).run();
    routed.flush();
    snapshotPgn(pgn);
    if (log) *log = text.str();
    return r;
  }

  /// A match PGN is committed as its zstd snapshot PGN.zst (a quarter of the size; git ignores
  /// the plain file): a plain PGN missing beside its snapshot (a new clone) is unpacked from it,
  /// so the match resumes with the snapshot's games.
  static void restorePgn(const fs::path& pgn) {
    const fs::path zst = pgn.string() + ".zst";
    if (fs::exists(pgn) || !fs::exists(zst)) return;
    const std::unique_ptr<std::istream> in = openInputFile(zst.string());
    std::ostringstream text;
    text << in->rdbuf();
    writeAtomically(pgn.string(), text.str());
  }

  /// Writes PGN.zst from the PGN (atomically); also run at a session's end before a commit
  /// (tools/rl-ab.sh --snapshot), since a match killed midway writes none.
  static void snapshotPgn(const fs::path& pgn) {
    if (!fs::exists(pgn)) return;
    std::ifstream in(pgn, std::ios::binary);
    OutputFile out(pgn.string() + ".zst", true, 19);
    out << in.rdbuf();
    out.commit();
  }

  /// The gates' and generation-0 matches' limit: playouts (mcts: go playouts, whatever the
  /// alpha-beta hints search) or nodes (ab) per move.
  [[nodiscard]] match::TimeControl gateNodes() const {
    match::TimeControl tc;
    if (ab())
      tc.nodes = m_c.gateNodes;
    else
      tc.playouts = u64(m_c.gateVisits);
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
      if (m_s.bestValue.empty() == valueOn())
        throw Error(fmt::format("rl: the run in {} {} a value network: {}", m_c.dir,
                                valueOn() ? "was started without" : "trains",
                                valueOn() ? "--value-init cannot be added to it" : "give its --value-init"));
      m_out << fmt::format("rl: resuming {} at generation {}, step {} (best {})\n", m_c.dir, m_s.generation, m_s.step,
                           shortNet(m_s.best))
            << std::flush;
    } else {
      Generation zero;
      zero.number = 0;
      zero.net = storedPath(m_c.initNet);
      zero.valueNet = storedPath(m_c.valueInit);
      zero.promoted = true;
      m_s.best = zero.net;
      m_s.bestValue = zero.valueNet;
      m_s.history.push_back(zero);
      m_s.current.number = 1;
      m_out << fmt::format("rl: new run in {}, generation 0 = {}\n", m_c.dir, shortNet(m_s.best)) << std::flush;
      saveState(m_c.dir, m_s);
    }
    for (Generation& done : m_s.history) {
      if (anchorDue(m_c, done.number) && !done.anchorElo) {
        anchorMatch(done, done.net, done.valueNet);
        saveState(m_c.dir, m_s);
      }
      // A run given --heldout later is evaluated as if it had had it from the start.
      const std::string& net = done.number == 0 ? done.net : done.candidate;
      if (!ab() && !m_c.heldout.empty() && !done.heldout && !net.empty()) {
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

  /// Games, positions and policy targets (full searches; ab: every position) in generation
  /// `gen`'s self-play chunks.
  SelfplayCount countSelfplay(int gen) const {
    SelfplayCount c;
    if (ab()) {
      const DataCount n = countDatagenRun((genData(gen) / "data").string());
      return {n.games, n.positions, n.positions};
    }
    for (const std::string& f : selfplayFiles(dataRoot().string(), gen)) {
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
    sc.valueFile = m_s.bestValue;
    sc.seed = m_c.selfplay.seed * 1000003ULL + u64(gen);
    const u64 positionsBefore = countSelfplay(gen).positions;
    const double t0 = now();
    std::string how;
    if (ab()) {
      how = datagenSteps(gen);
    } else if (m_c.launcher == "slurm") {
      how = selfplaySlurm(m_c, m_out, gen, sc, fs::absolute(genData() / "selfplay"));
    } else {
      const selfplay::SelfplayProgress p =
          selfplay::generateSelfplay(sc, {(genData() / "selfplay").string(), m_c.chunkGames, 1, 1, true});
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
                              (genData() / "selfplay").string(), m_c.gamesPerGeneration));
    m_out << fmt::format("rl: generation {} selfplay: {} games, {} positions ({} targets) in {:.0f} s ({})\n", gen,
                         g.selfplayGames, g.selfplayPositions, g.selfplayTargets, g.selfplaySeconds, how)
          << std::flush;
    advance("train");
  }

  /// Step 1 of the alpha-beta face: generation `gen`'s chunked datagen run of the best network,
  /// with a progress line about once a minute (chunks, positions/s, games/h, ETA). Returns the
  /// rate for the step's line.
  std::string datagenSteps(int gen) {
    const datagen::DatagenConfig d = abDatagenConfig(m_c, m_s.best, gen);
    const fs::path dir = genData() / "data";
    double lastLine = now();
    const auto onProgress = [&](const datagen::DatagenProgress& p) {
      if (now() - lastLine < 60 && p.gamesDone < p.gamesTotal) return;
      lastLine = now();
      const double rate = p.seconds > 0 ? double(p.positions) / p.seconds : 0.0;
      const double eta = p.gamesDone > 0 ? p.seconds * double(p.gamesTotal - p.gamesDone) / p.gamesDone : 0.0;
      m_out << fmt::format("rl: generation {} selfplay: chunks {}/{} (+{} kept), games {}/{}, positions {} ({:.0f}/s, "
                           "{:.0f} games/h), ETA {:.0f} min\n",
                           gen, p.chunksDone, p.chunksTotal, p.chunksSkipped, p.gamesDone, p.gamesTotal, p.positions,
                           rate, p.seconds > 0 ? p.gamesDone * 3600.0 / p.seconds : 0.0, eta / 60)
            << std::flush;
    };
    const datagen::DatagenProgress p = datagen::generateChunks(d, {dir.string(), m_c.chunkGames, 1, 1, true}, onProgress);
    return fmt::format("datagen seed {}, {} nodes a move, {:.0f} games/h, {:.1f} positions/s this session", d.seed,
                       d.nodes, p.seconds > 0 ? p.gamesDone * 3600.0 / p.seconds : 0.0,
                       p.seconds > 0 ? double(p.positions) / p.seconds : 0.0);
  }

  /// Step 2: the trainer on the window's records, from the best network's weights:
  /// janus-train-az (mcts) or janus train-nnue (ab). The candidate is the newest network the
  /// trainer exported, copied to netsDir when there is one.
  void train(Generation& g) {
    const int gen = g.number;
    const fs::path trainDir = genData() / "train";
    const std::vector<std::string> data =
        trainingWindow(dataRoot().string(), gen, m_c.window,
                       recordsSub());
    if (data.empty()) throw Error(fmt::format("rl: generation {}: no self-play records to train on", gen));
    std::vector<std::string> argv;
    if (ab()) {
      argv = nnueTrainCommand(m_c, m_s.best, data, trainDir.string(), fmt::format("rl-ab gen {}", gen), m_c.nnueTrainArgs);
    } else {
      argv = {m_c.trainer, "--data"};
      argv.insert(argv.end(), data.begin(), data.end());
      argv.insert(argv.end(), {"--out-dir", trainDir.string(), "--description", fmt::format("rl gen {}", gen)});
      if (fs::exists(trainDir / "checkpoint.pt")) argv.push_back("--resume");
      else if (!m_s.best.empty()) argv.insert(argv.end(), {"--init", m_s.best});
      argv.insert(argv.end(), m_c.trainArgs.begin(), m_c.trainArgs.end());
    }
    fs::create_directories(genData());
    const double t0 = now();
    const std::string logPath = (genData() / "train.log").string();
    const int status = runLogged(argv, logPath);
    g.trainSeconds += now() - t0;
    if (status != 0) throw Error(fmt::format("rl: generation {}: the trainer failed (exit {}); see {}", gen, status, logPath));
    g.candidate = trainedNetwork(trainDir, ab() ? ".jnn" : ".jpv");
    if (ab()) measureSpeed(g);
    // The training curve beside the state: metrics.csv is small and the run's folder is not kept.
    if (fs::exists(trainDir / "metrics.csv")) {
      fs::copy_file(trainDir / "metrics.csv", genDir() / "train-metrics.csv", fs::copy_options::overwrite_existing);
      if (ab()) readLosses(trainDir / "metrics.csv", g);
    }
    m_out << fmt::format("rl: generation {} train: {} on {} files in {:.0f} s (log {})\n", gen, shortNet(g.candidate),
                         data.size(), g.trainSeconds, logPath)
          << std::flush;
    if (!ab() && !m_c.heldout.empty()) g.heldout = evaluateHeldout(gen, g.candidate);
    m_s.step = valueOn() ? "train-value" : "gate";
    saveState(m_c.dir, m_s);
  }

  /// The newest network (`extension`: .jnn or .jpv) a trainer wrote into `trainDir`, copied to
  /// netsDir when there is one and loaded once (a broken file is an error here, not in a match),
  /// as the state names it.
  std::string trainedNetwork(const fs::path& trainDir, const std::string& extension) const {
    fs::path newest;
    fs::file_time_type newestTime{};
    for (const auto& e : fs::directory_iterator(trainDir))
      if (e.path().extension() == extension && (newest.empty() || e.last_write_time() > newestTime)) {
        newest = e.path();
        newestTime = e.last_write_time();
      }
    if (newest.empty())
      throw Error(fmt::format("rl: generation {}: the trainer wrote no {} network into {}", m_s.generation, extension,
                              trainDir.string()));
    if (!m_c.netsDir.empty()) {
      fs::create_directories(m_c.netsDir);
      const fs::path copy = fs::path(m_c.netsDir) / newest.filename();
      fs::copy_file(newest, copy, fs::copy_options::overwrite_existing);
      newest = copy;
    }
    if (extension == ".jnn") (void)nnue::Network::fromFile(newest.string());
    else (void)mcts::pvnet::PvNetwork::fromFile(newest.string());
    return storedPath(newest.string());
  }

  /// Step 2b (mcts with a value network): the best value network fine-tuned by train-nnue
  /// (valueTrainArgs: the game results) on the window's self-play games, each chunk converted once
  /// to JANUSDAT (selfplay/export.h: every position with its root Q as the score and the game's
  /// result) beside it in gen-NNN/value-data.
  void trainValue(Generation& g) {
    const int gen = g.number;
    std::vector<std::string> data;
    for (const std::string& chunk : trainingWindow(dataRoot().string(), gen, m_c.window, "selfplay")) {
      const fs::path source(chunk);
      const fs::path dir = source.parent_path().parent_path() / "value-data";
      const fs::path out = dir / (source.stem().stem().string() + ".janusdat");  // chunk-000000.janussp.zst
      if (!fs::exists(out)) {
        fs::create_directories(dir);
        records::DataWriter writer(out.string());
        (void)selfplay::exportSelfplayPositions(chunk, false, [&](const records::PackedRecord& r) { writer.write(r); });
        writer.commit();  // atomic: a killed conversion leaves no partial file
      }
      data.push_back(out.string());
    }
    if (data.empty()) throw Error(fmt::format("rl: generation {}: no self-play games to train the value network on", gen));
    const fs::path trainDir = genData() / "value-train";
    const std::vector<std::string> argv = nnueTrainCommand(m_c, m_s.bestValue, data, trainDir.string(),
                                                           fmt::format("rl value gen {}", gen), m_c.valueTrainArgs);
    const double t0 = now();
    const std::string logPath = (genData() / "value-train.log").string();
    const int status = runLogged(argv, logPath);
    g.trainSeconds += now() - t0;
    if (status != 0)
      throw Error(fmt::format("rl: generation {}: the value network's trainer failed (exit {}); see {}", gen, status, logPath));
    g.valueCandidate = trainedNetwork(trainDir, ".jnn");
    if (fs::exists(trainDir / "metrics.csv")) {
      fs::copy_file(trainDir / "metrics.csv", genDir() / "value-metrics.csv", fs::copy_options::overwrite_existing);
      readLosses(trainDir / "metrics.csv", g);
    }
    m_out << fmt::format("rl: generation {} value: {} on {} files (val loss {:.6f} -> {:.6f}; log {})\n", gen,
                         shortNet(g.valueCandidate), data.size(), g.firstValLoss.value_or(NAN), g.valLoss.value_or(NAN),
                         logPath)
          << std::flush;
    m_s.step = "gate";
    saveState(m_c.dir, m_s);
  }

  /// ab: the last superbatch's train and validation loss and the first one's validation loss
  /// from train-nnue's metrics.csv (superbatch,positions,train_loss,val_loss,lr,seconds).
  static void readLosses(const fs::path& csv, Generation& g) {
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    bool first = true;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream fields(line);
      for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
      if (f.size() < 4) continue;
      try {
        g.trainLoss = std::stod(f[2]);
        g.valLoss = std::stod(f[3]);  // "nan" reads as NaN
        if (first) g.firstValLoss = g.valLoss;
        first = false;
      } catch (const std::exception&) {
        continue;  // a malformed row is skipped: the losses are for the report only
      }
    }
  }

  /// ab: the candidate's speed relative to generation 0's network: its parent's when it has the
  /// parent's shape, else measured by bench runs (abRelativeSpeed) before the gate, so that a
  /// resumed gate plays the same node limits.
  void measureSpeed(Generation& g) {
    if (abSameShape(g.candidate, m_s.best)) {
      g.candidateSpeed = speedOf(m_s.best);
      return;
    }
    const std::string& zero = m_s.history.front().net;
    const double relative = abRelativeSpeed(m_c, g.candidate, zero, m_c.speedRuns, (genData() / "speed.log").string(), m_out);
    g.candidateSpeed = relative;
    m_out << fmt::format("rl: generation {} speed: {} searches at {:.1f}% of {}'s speed (a network of another shape)\n",
                         g.number, shortNet(g.candidate), 100 * relative, shortNet(zero))
          << std::flush;
  }

  /// Step 3: the candidate against the best by SPRT; promoted only on H1.
  void gate(Generation& g) {
    const int gen = g.number;
    std::string log;
    const double t0 = now();
    const match::MatchResult r =
        play(gen,
             engine(fmt::format("gen{}-{}", gen, shortNet(g.candidate)), g.candidate, g.candidateSpeed / speedOf(m_s.best),
                    g.valueCandidate),
             engine(fmt::format("best-{}", shortNet(m_s.best)), m_s.best, 1, m_s.bestValue), gateNodes(), m_c.gateGames,
             m_c.gateSprt, genDir() / "gate.pgn", &log);
    g.gateSeconds = now() - t0;
    writeAtomically((genDir() / "gate.txt").string(), log);
    const match::EloEstimate e = record(r, g.gateWins, g.gateDraws, g.gateLosses, g.gateElo, g.gateError);
    const int games = r.wins + r.draws + r.losses;
    const double score = games ? (r.wins + 0.5 * r.draws) / games : 0.0;
    g.promoted = r.decision == match::SprtDecision::kAcceptH1;
    if (g.promoted) {
      m_s.best = g.candidate;
      if (valueOn()) m_s.bestValue = g.valueCandidate;  // the two networks were gated together
    }
    g.net = m_s.best;
    g.valueNet = m_s.bestValue;
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
      if (h.net == g.net && h.valueNet == g.valueNet) same = &h;
    if (same && same->number > 0) {
      g.gen0Elo = same->gen0Elo;
      g.gen0Error = same->gen0Error;
      g.gen0Wins = same->gen0Wins;
      g.gen0Draws = same->gen0Draws;
      g.gen0Losses = same->gen0Losses;
    } else if (g.net != zero.net || g.valueNet != zero.valueNet) {
      const match::MatchResult r =
          play(gen, engine(fmt::format("gen{}-{}", gen, shortNet(g.net)), g.net, speedOf(g.net), g.valueNet),
               engine(fmt::format("gen0-{}", shortNet(zero.net)), zero.net, 1, zero.valueNet), gateNodes(),
               m_c.gen0Games, std::nullopt, genDir() / "gen0.pgn");
      const match::EloEstimate e = record(r, g.gen0Wins, g.gen0Draws, g.gen0Losses, g.gen0Elo, g.gen0Error);
      m_out << fmt::format("rl: generation {} vs generation 0: {} vs {}: +{} ={} -{}, Elo {}\n", gen, shortNet(g.net),
                           shortNet(zero.net), r.wins, r.draws, r.losses, eloText(e.elo, e.errorMargin))
            << std::flush;
    }
    saveState(m_c.dir, m_s);
    if (anchorDue(m_c, gen)) anchorMatch(g, m_s.best, m_s.bestValue);
    m_s.history.push_back(g);
    m_s.current = Generation{};
    m_s.current.number = gen + 1;
    m_s.generation = gen + 1;
    advance("selfplay");
  }

  /// `net` (mcts: with value network `valueNet`) against the outside anchor at the anchor's
  /// clock; the result goes into `g`.
  void anchorMatch(Generation& g, const std::string& net, const std::string& valueNet) {
    const match::EngineConfig anchor = match::parseEngineSpec(m_c.anchor);
    const match::MatchResult r = play(g.number, engine("janus-" + shortNet(net), net, 1, valueNet), anchor,
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
