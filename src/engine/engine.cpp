#include "engine/engine.h"

#include <algorithm>
#include <charconv>
#include <thread>

#include <fmt/format.h>

#include "core/notation.h"
#include "eval/hce.h"
#include "mcts/caching_backend.h"
#include "mcts/face.h"
#include "mcts/face_options.h"
#include "mcts/mcts.h"
#include "mcts/nnue_value.h"
#include "mcts/uniform_backend.h"
#include "nnue/nnue_evaluator.h"
#include "search/alphabeta.h"
#include "search/tunables.h"
#include "tb/gaviota.h"
#include "tb/syzygy.h"
#include "util/error.h"

namespace janus {

struct Engine::MctsValueSettings {
  bool nnue = false;
  mcts::LeafSearchParams leaf;
  std::shared_ptr<const nnue::Network> valueNet;  ///< MCTS ValueFile's network; null: EvalFile's
};

namespace {
using Type = OptionSpec::Type;
constexpr i64 kMaxHashMiB = 65536;

/// The Gaviota library keeps its state in globals, so every Engine of the process shares one
/// tablebase object (GaviotaTablebases serialises its calls).
GaviotaTablebases& sharedGaviota() {
  static GaviotaTablebases tb;
  return tb;
}
/// Fathom likewise (one global state per process): one Syzygy object for every Engine.
SyzygyTablebases& sharedSyzygy() {
  static SyzygyTablebases tb;
  return tb;
}
/// What the searches probe: Syzygy first (it knows the 50-move rule), then Gaviota.
const Tablebases& sharedTablebases() {
  static const TablebaseSet set({&sharedSyzygy(), &sharedGaviota()});
  return set;
}
std::mutex gTablebaseMutex;  // serialises (re)initialisation from several engines

/// Parses a real-valued option (the MCTS constants; UCI has no float type, so they are strings).
double parseReal(const std::string& option, const std::string& v, double min, double max) {
  double x = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    throw Error("option " + option + ": '" + v + "' is not a number");
  if (x < min || x > max)
    throw Error("option " + option + ": " + v + " is out of range " + std::to_string(min) + ".." + std::to_string(max));
  return x;
}

/// Collects the MultiPV lines a search reports (the lines of one iteration come together, best
/// first: multipv 1, 2, ...) and keeps the last consistent set: lines 1..k of one depth, all
/// exact and each with a PV. A set broken by a bound or a line of another depth (a search
/// stopped inside an iteration reports the lines it has not searched again with the previous
/// depth) is dropped, and the set before it stays.
class IterationLines {
 public:
  void add(const SearchInfo& i) {
    if (i.multiPv == 1) {
      commit();
      m_building.clear();
      m_consistent = true;
    }
    if (!m_consistent) return;
    if (i.bound != Bound::kExact || i.pv.empty() || int(m_building.size()) != i.multiPv - 1 ||
        (!m_building.empty() && i.depth != m_building.front().depth)) {
      m_consistent = false;
      return;
    }
    m_building.push_back(i);
  }
  /// The last consistent set (empty if there was none).
  const std::vector<SearchInfo>& last() {
    commit();
    return m_last;
  }

 private:
  void commit() {
    if (m_consistent && !m_building.empty()) m_last = m_building;
  }
  std::vector<SearchInfo> m_building, m_last;
  bool m_consistent = false;
};
}  // namespace

Engine::Engine() : m_evaluator(makeHceEvaluator()), m_net(nnue::defaultNetwork()) {
  m_alphaBeta = std::make_unique<AlphaBetaSearch>(m_evaluator->clone());
  m_alphaBeta->setTablebases(&sharedTablebases());
  m_search = m_alphaBeta.get();
  declareOptions();
  installEvaluator(m_net != nullptr);
}

void Engine::installEvaluator(bool useNnue) {
  if (useNnue && !m_net) throw Error("option Use NNUE: no network is loaded (this build embeds none): set EvalFile");
  std::unique_ptr<Evaluator> e;
  if (useNnue)
    e = std::make_unique<nnue::NnueEvaluator>(m_net);
  else
    e = makeHceEvaluator();
  m_alphaBeta->setEvaluator(e->clone());
  m_evaluator = std::move(e);
}

std::string Engine::evaluationName() const {
  if (m_search == m_mcts.get())
    return "MCTS backend " + m_options.value("MCTS Backend") + ": " + m_mcts->backend().attributes().description +
           m_mcts->hints().describe();
  return m_evaluator->name() == "nnue" ? "NNUE " + m_net->describe() : "hand-crafted evaluation";
}

Engine::~Engine() {
  stop();
  wait();
}

void Engine::declareOptions() {
  declareSearchOptions();
  declareTablebaseOptions();
  declareMctsOptions();  // the MCTS face (docs/mcts.md)
}

void Engine::declareSearchOptions() {
  m_options.add({"Hash", Type::kSpin, "16", 1, kMaxHashMiB, {}, "Transposition table size in MiB (alpha-beta)"},
                [this](const std::string& v) { m_alphaBeta->setHashMiB(size_t(std::stoll(v))); });
  m_options.add({"Threads", Type::kSpin, "1", 1, std::max<i64>(1, std::thread::hardware_concurrency()), {},
                 "Search threads (Lazy SMP), up to the number of hardware threads"});
  m_options.add({"MultiPV", Type::kSpin, "1", 1, 256, {}, "Number of principal variations to report"});
  m_options.add({"Ponder", Type::kCheck, "false", 0, 0, {}, "Allow thinking on the opponent's time"});
  m_options.add({"Move Overhead", Type::kSpin, "30", 0, 5000, {},
                 "Milliseconds reserved per move for delays (GUI, network, a loaded machine)"});
  m_options.add({"Clear Hash", Type::kButton, "", 0, 0, {}, "Clear the hash table and histories (MCTS: the tree and cache)"},
                [this](const std::string&) {
                  m_alphaBeta->newGame();
                  if (m_mcts) m_mcts->newGame();
                });
  m_options.add({"UCI_Chess960", Type::kCheck, "false", 0, 0, {}, "Chess960 castling notation (king takes rook)"});
  m_options.add({"UCI_LimitStrength", Type::kCheck, "false", 0, 0, {}, "Play at the strength set by UCI_Elo"});
  m_options.add({"UCI_Elo", Type::kSpin, "2000", kMinElo, kMaxElo, {}, "Playing strength in Elo (with UCI_LimitStrength)"});
  m_options.add({"Skill Level", Type::kSpin, "20", 0, 20, {}, "Playing level 0..20 (20: full strength)"});
  const std::string defaultNet = nnue::defaultNetworkFile();
  m_options.add({"EvalFile", Type::kString, defaultNet, 0, 0, {},
                 "NNUE network file (.jnn); the default names the network built into the binary"},
                [this, defaultNet](const std::string& v) {
                  // Load first: a bad file throws and the previous network and evaluation stay.
                  auto net = v.empty() || v == defaultNet ? nnue::defaultNetwork() : nnue::Network::fromFile(v);
                  if (!net) throw Error("option EvalFile: this build embeds no network; give the path of a .jnn file");
                  m_net = std::move(net);
                  m_options.set("Use NNUE", "true");  // a network was chosen: evaluate with it
                  if (m_mcts) reinstallMctsBackend(mctsValueSettings());  // MCTS Value nnue evaluates with it too
                });
  m_options.add({"Use NNUE", Type::kCheck, m_net ? "true" : "false", 0, 0, {},
                 "Evaluate with the NNUE network of EvalFile (false: the hand-crafted evaluation); "
                 "setting EvalFile switches it on"},
                [this](const std::string& v) { installEvaluator(v == "true"); });
  m_options.add({"UCI_ShowWDL", Type::kCheck, "false", 0, 0, {},
                 "Add win/draw/loss per mille to info lines (search/wdl.h model)"});
  // A JANUS_TUNE build exposes every search constant for SPSA (values are process-wide).
  for (const auto& t : tunables::all())
    if (t.value)
      m_options.add({t.name, Type::kSpin, std::to_string(t.defaultValue), t.min, t.max, {}, "search tunable"},
                    [p = t.value](const std::string& v) { *p = std::stoi(v); });
  m_options.add({"OwnBook", Type::kCheck, "false", 0, 0, {}, "Play moves from the Polyglot book BookFile"});
  m_options.add({"BookFile", Type::kString, "", 0, 0, {}, "Polyglot opening book (.bin)"},
                [this](const std::string& v) { m_book = v.empty() ? PolyglotBook() : PolyglotBook::open(v); });
  m_options.add({"BookBestMove", Type::kCheck, "false", 0, 0, {},
                 "Always play the book move with the highest weight (else: weighted random)"});
}

void Engine::declareTablebaseOptions() {
  m_options.add({"GaviotaTbPath", Type::kString, "", 0, 0, {},
                 "Directories of Gaviota tablebase files, separated by ';'"},
                [this](const std::string& v) {
                  std::lock_guard lock(gTablebaseMutex);
                  if (!sharedGaviota().init(v, size_t(m_options.integer("GaviotaTbCache"))) && !v.empty())
                    throw Error("option GaviotaTbPath: no Gaviota tablebase files (*.gtb.cp1..4) in '" + v + "'");
                });
  m_options.add({"GaviotaTbCache", Type::kSpin, "32", 1, 65536, {}, "Gaviota tablebase cache in MiB"},
                [this](const std::string& v) {
                  std::lock_guard lock(gTablebaseMutex);
                  if (sharedGaviota().initialised())
                    sharedGaviota().init(m_options.value("GaviotaTbPath"), size_t(std::stoll(v)));
                });
  // Syzygy, named and defaulted as Stockfish names them (the convention GUIs and lichess-bot use).
  m_options.add({"SyzygyPath", Type::kString, "", 0, 0, {},
                 "Directories of Syzygy tablebase files (*.rtbw, *.rtbz), separated by ':'"},
                [this](const std::string& v) {
                  // A bad directory throws before anything changes ("info string error: ...").
                  const SyzygyTablebases::LoadReport report = loadSyzygy(v);
                  if (!m_onMessage) return;
                  for (const std::string& problem : report.problems)
                    m_onMessage("error: option SyzygyPath: " + problem + "; probing goes on without this table");
                  if (!report.summary.empty()) m_onMessage(report.summary);
                });
  m_options.add({"SyzygyProbeDepth", Type::kSpin, std::to_string(SyzygyTablebases::kDefaultProbeDepth), 1, 100, {},
                 "Probe Syzygy WDL tables in the search only at nodes with at least this many plies left"},
                [](const std::string& v) { sharedSyzygy().setProbeDepth(int(std::stoll(v))); });
  m_options.add({"Syzygy50MoveRule", Type::kCheck, "true", 0, 0, {},
                 "Score Syzygy cursed wins and blessed losses (decided only after the 50-move rule) as draws"},
                [](const std::string& v) { sharedSyzygy().setRule50(v == "true"); });
  m_options.add({"SyzygyProbeLimit", Type::kSpin, std::to_string(SyzygyTablebases::kMaxProbeLimit), 0,
                 SyzygyTablebases::kMaxProbeLimit, {}, "Probe Syzygy tables only for positions with at most this many pieces"},
                [](const std::string& v) { sharedSyzygy().setProbeLimit(int(std::stoll(v))); });
}

void Engine::declareMctsOptions() {
  m_options.add({"Search", Type::kCombo, "alphabeta", 0, 0, {"alphabeta", "mcts"},
                 "Search algorithm: alpha-beta with the NNUE/HCE evaluation, or MCTS with a policy/value backend"},
                [this](const std::string& v) { selectSearch(v); });
  const auto backends = mcts::BackendRegistry::instance().names();
  m_options.add({"MCTS Backend", Type::kCombo, mcts::BackendRegistry::instance().defaultName(), 0, 0, backends,
                 "What evaluates positions for MCTS (pvnet: the policy/value network of MCTS WeightsFile; "
                 "uniform: equal priors and a material value, for tests)"},
                [this](const std::string& v) {
                  // Before the MCTS face is used only the name is checked (a combo), so that a GUI
                  // may send MCTS Backend before MCTS WeightsFile.
                  if (m_mcts) installMctsBackend(v, m_options.integer("MCTS Cache"), m_mctsBackendOptions, mctsValueSettings());
                });
  m_options.add({"MCTS WeightsFile", Type::kString, "", 0, 0, {},
                 "Network file of the MCTS backend (pvnet: a .jpv file from janus train-az; torch, in janus-torch: "
                 "a .jrn file from janus train-az --arch resnet); empty: the network embedded in the binary. A file "
                 "selects the backend that reads it (MCTS Backend if it does, else the one registered for the file)"},
                [this](const std::string& v) {
                  mcts::BackendOptions o = m_mctsBackendOptions;
                  o.weightsFile = v;
                  const std::string current = m_options.value("MCTS Backend");
                  const std::string name = v.empty() ? current : mcts::BackendRegistry::instance().forWeightsFile(v, current);
                  installMctsBackend(name, m_options.integer("MCTS Cache"), o, mctsValueSettings());  // a bad file throws here
                  if (name != current) m_options.set("MCTS Backend", name);
                });
  m_options.add({"MCTS Policy Temperature", Type::kString, "1.0", 0, 0, {},
                 "Softmax temperature of the network's move priors (lc0's PolicyTemperature; > 1 flattens them)", true},
                [this](const std::string& v) {
                  (void)parseReal("MCTS Policy Temperature", v, 0.01, 100);
                  mcts::BackendOptions o = m_mctsBackendOptions;
                  o.params["policy-temperature"] = v;
                  if (m_mcts) installMctsBackend(m_options.value("MCTS Backend"), m_options.integer("MCTS Cache"), o, mctsValueSettings());
                  else m_mctsBackendOptions = o;
                });
  m_options.add({"MCTS Cache", Type::kSpin, "200000", 0, 100'000'000, {},
                 "Positions whose evaluation MCTS keeps in memory (0: no cache)"},
                [this](const std::string& v) {
                  if (m_mcts) installMctsBackend(m_options.value("MCTS Backend"), std::stoll(v), m_mctsBackendOptions, mctsValueSettings());
                });
  m_options.add({"MCTS Value", Type::kCombo, m_net ? "nnue" : "net", 0, 0, {"nnue", "net"},
                 "What values MCTS leaves: nnue = the NNUE network of EvalFile after a quiescence search "
                 "(MCTS QS Depth), as win/draw/loss by the UCI_ShowWDL model; net = the value head of the "
                 "MCTS Backend's network (the AlphaZero path, used by self-play RL)"},
                [this](const std::string& v) {
                  if (v == "nnue" && !m_net) throw Error("option MCTS Value: nnue needs a network: set EvalFile");
                  MctsValueSettings s = mctsValueSettings();
                  s.nnue = v == "nnue";
                  if (m_mcts) reinstallMctsBackend(s);
                });
  m_options.add({"MCTS ValueFile", Type::kString, "", 0, 0, {},
                 "NNUE network file (.jnn) that values the MCTS leaves with MCTS Value nnue (a value network, e.g. one "
                 "trained on game results; see MCTS Value Scale); the alpha-beta hints keep EvalFile's. Empty: EvalFile's",
                 true},
                [this](const std::string& v) {
                  // Load first: a bad file throws and the previous network stays.
                  std::shared_ptr<const nnue::Network> net = v.empty() ? nullptr : nnue::Network::fromFile(v);
                  MctsValueSettings s = mctsValueSettings();
                  s.valueNet = net;
                  if (m_mcts) reinstallMctsBackend(s);
                  m_valueNet = std::move(net);
                });
  // The tuning settings: one hidden option per entry of the face's table (mcts/face_options.h),
  // defaults from the default face. A setting of the leaf searches reinstalls the backend with it;
  // the others (PUCT, time, hints) are the search's parameters.
  const mcts::FaceSettings face;
  for (const mcts::FaceOption& o : mcts::faceOptions()) {
    OptionSpec spec;
    spec.name = o.name;
    spec.help = o.help;
    spec.hidden = true;
    spec.defaultValue = mcts::faceOptionText(o, face);
    switch (o.kind) {
      case mcts::FaceOption::Kind::kBool: spec.type = Type::kCheck; break;
      case mcts::FaceOption::Kind::kInteger:
        spec.type = Type::kSpin;
        spec.min = i64(o.min);
        spec.max = i64(o.max);
        break;
      case mcts::FaceOption::Kind::kReal: spec.type = Type::kString; break;
    }
    m_options.add(spec, [this, &o](const std::string& v) {
      mcts::FaceSettings next = faceSettings();
      mcts::setFaceOption(next, o, v);  // a bad value throws here, naming the option
      if (m_mcts && !(next.leaf == faceSettings().leaf)) {
        MctsValueSettings s = mctsValueSettings();
        s.leaf = next.leaf;
        reinstallMctsBackend(s);
      }
      if (m_mcts) applyMctsOptions(next);  // the search's settings (the hints') follow at once
    });
  }
  m_options.add({"MCTS Tree MiB", Type::kSpin, "1024", 1, 1 << 20, {},
                 "Memory for the MCTS tree; when it is full the least-visited subtrees are recycled"});
}

const SyzygyTablebases& Engine::syzygy() { return sharedSyzygy(); }

SyzygyTablebases::LoadReport Engine::loadSyzygy(const std::string& paths) {
  std::lock_guard lock(gTablebaseMutex);
  try {
    return sharedSyzygy().init(paths);
  } catch (const Error& e) {
    throw Error(std::string("option SyzygyPath: ") + e.what());
  }
}

void Engine::selectSearch(const std::string& name) {
  if (name == "alphabeta") {
    m_search = m_alphaBeta.get();
    return;
  }
  if (!m_mcts) {
    mcts::MctsParams params;
    params.seed = m_rng();  // noise differs between engines unless seedLevels() fixed m_rng
    m_mcts = std::make_unique<mcts::MctsSearch>(std::make_shared<mcts::UniformBackend>(), params);
    m_mcts->setTablebases(&sharedTablebases());
    try {
      installMctsBackend(m_options.value("MCTS Backend"), m_options.integer("MCTS Cache"), m_mctsBackendOptions,
                         mctsValueSettings());
      applyMctsOptions(faceSettings());
    } catch (...) {
      m_mcts.reset();
      throw;
    }
  }
  m_search = m_mcts.get();
}

mcts::FaceSettings Engine::faceSettings() const {
  mcts::FaceSettings f;
  for (const mcts::FaceOption& o : mcts::faceOptions()) mcts::setFaceOption(f, o, m_options.value(o.name));
  return f;
}

Engine::MctsValueSettings Engine::mctsValueSettings() const {
  MctsValueSettings s;
  s.nnue = m_options.value("MCTS Value") == "nnue";
  s.leaf = faceSettings().leaf;
  s.valueNet = m_valueNet;
  return s;
}

void Engine::reinstallMctsBackend(const MctsValueSettings& value) {
  installMctsBackend(m_options.value("MCTS Backend"), m_options.integer("MCTS Cache"), m_mctsBackendOptions, value);
}

void Engine::installMctsBackend(const std::string& name, i64 cacheEntries, const mcts::BackendOptions& options,
                                const MctsValueSettings& value) {
  // Created first (a bad weights file or setting throws here), so that a failure keeps the
  // previous backend and settings. Before the MCTS face is first used this only validates.
  std::shared_ptr<mcts::Backend> backend = mcts::BackendRegistry::instance().create(name, options);
  if (value.nnue)
    backend = std::make_shared<mcts::NnueValueBackend>(std::move(backend), value.valueNet ? value.valueNet : m_net,
                                                       value.leaf);
  if (cacheEntries > 0) backend = std::make_shared<mcts::CachingBackend>(std::move(backend), size_t(cacheEntries));
  m_mctsBackendOptions = options;
  if (!m_mcts) return;
  m_mcts->setBackend(std::move(backend));
  // The alpha-beta hints search with EvalFile's network (MCTS Value nnue; none with net).
  m_mcts->setHintNetwork(value.nnue ? m_net : nullptr);
}

void Engine::applyMctsOptions(const mcts::FaceSettings& face) {
  // The table's settings over the search's own (seed, tree reuse, ... stay).
  mcts::FaceSettings current{m_mcts->params(), face.leaf};
  for (const mcts::FaceOption& o : mcts::faceOptions()) o.set(current, o.get(face));
  mcts::MctsParams p = current.params;
  p.treeMemoryMiB = size_t(m_options.integer("MCTS Tree MiB"));
  m_mcts->setParams(p);
}

void Engine::setOption(const std::string& name, const std::string& value) {
  if (searching()) throw Error("cannot set option '" + name + "' while searching");
  m_options.set(name, value);
}

void Engine::setOptions(const std::vector<std::string>& assignments) {
  for (const std::string& o : assignments) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("option '" + o + "': expected NAME=VALUE");
    setOption(o.substr(0, eq), o.substr(eq + 1));  // an unknown name or a bad value throws, naming it
  }
}

SearchConfig Engine::searchConfig() const {
  SearchConfig c;
  c.threads = int(m_options.integer("Threads"));
  c.multiPv = int(m_options.integer("MultiPV"));
  c.moveOverheadMs = m_options.integer("Move Overhead");
  return c;
}

void Engine::newGame() {
  stop();
  wait();
  m_alphaBeta->newGame();
  if (m_mcts) m_mcts->newGame();
  m_lag.newGame();
}

void Engine::setPosition(const std::string& fenOrStartpos, const std::vector<std::string>& uciMoves) {
  bool chess960 = this->chess960();
  Position pos = fenOrStartpos == "startpos" ? Position() : Position::fromFen(fenOrStartpos, chess960);
  for (size_t i = 0; i < uciMoves.size(); ++i) {
    try {
      pos.makeMove(parseUci(pos, uciMoves[i], chess960 || pos.isChess960()));
    } catch (const Error& e) {
      throw Error("move " + std::to_string(i + 1) + " of the position command: " + e.what());
    }
  }
  m_position = std::move(pos);
}

std::optional<StrengthLevel> Engine::strengthLevel() const {
  if (m_options.boolean("UCI_LimitStrength")) return strengthForElo(int(m_options.integer("UCI_Elo")));
  if (int skill = int(m_options.integer("Skill Level")); skill < 20) return strengthForElo(eloForSkill(skill));
  return std::nullopt;
}

void Engine::go(const SearchLimits& userLimits) {
  if (searching()) throw Error("a search is already running (send stop first)");
  m_thread.wait();
  m_signals.stop = false;
  m_signals.ponderhit = false;
  SearchLimits limits = userLimits;
  SearchConfig config = searchConfig();
  // Plan with the lag the clock showed on our previous moves when it exceeds Move Overhead.
  const Color us = m_position.sideToMove();
  if (limits.time[us] >= 0 && !limits.ponder && !limits.infinite)
    m_lag.onGo(us, m_position.gamePly(), limits.time[us], limits.inc[us],
               limits.startTime.value_or(LagEstimator::Clock::now()));
  else
    m_lag.newGame();
  config.moveOverheadMs = std::max(config.moveOverheadMs, m_lag.lagMs());
  std::optional<StrengthLevel> level = limits.infinite ? std::nullopt : strengthLevel();
  if (level) {
    config.multiPv = std::max(config.multiPv, level->multiPv);
    u64 budget = drawNodeBudget(*level, staticEval() >= kTechniqueCp, m_rng);
    limits.nodes = limits.nodes ? std::min(limits.nodes, budget) : budget;
  }
  Move bookMove = Move::none();
  if (m_options.boolean("OwnBook") && !m_book.empty() && !limits.infinite && limits.searchMoves.empty())
    bookMove = m_book.pick(m_position,
                           m_options.boolean("BookBestMove") ? BookPickMode::kBest : BookPickMode::kWeightedRandom, m_rng());
  if (m_search == m_mcts.get()) applyMctsOptions(faceSettings());
  m_searching = true;
  const std::optional<int> wdlMaterialOfRoot =
      m_options.boolean("UCI_ShowWDL") ? std::optional<int>(wdlMaterial(m_position)) : std::nullopt;
  m_thread.start([this, limits, level, bookMove, pos = m_position, config, wdlMaterialOfRoot,
                  userMultiPv = searchConfig().multiPv] {
    // With a playing level, keep the MultiPV lines of the last iteration to choose from, and
    // show the user only the lines they asked for.
    IterationLines lines;
    std::optional<SearchInfo> lastShown, lastFirstLine;  // the last line with a PV shown (of multipv 1)
    InfoCallback info = [&](const SearchInfo& i) {
      if (level) lines.add(i);
      if (!m_onInfo || i.multiPv > userMultiPv) return;
      if (!i.pv.empty()) {
        lastShown = i;
        if (i.multiPv == 1) lastFirstLine = i;
      }
      if (!wdlMaterialOfRoot && !i.wdl) return m_onInfo(i);
      if (!wdlMaterialOfRoot) {  // UCI: wdl only with UCI_ShowWDL
        SearchInfo withoutWdl = i;
        withoutWdl.wdl.reset();
        return m_onInfo(withoutWdl);
      }
      if (i.wdl) return m_onInfo(i);  // the search's own win/draw/loss (MCTS)
      SearchInfo withWdl = i;
      withWdl.wdl = scoreToWdl(i.score, *wdlMaterialOfRoot);
      m_onInfo(withWdl);
    };
    SearchResult result;
    std::optional<SearchInfo> chosen;  // the line a playing level chose
    if (bookMove) {
      result.best = bookMove;  // book moves are played without searching (and without a score)
    } else {
      // Without a listener or a playing level the search reports nothing: an info line costs a
      // hashfull scan (1000 TT clusters), which is 2.5% of a 5000-node datagen search.
      const bool wantsInfo = level || m_onInfo;
      result = m_search->run(pos, limits, config, wantsInfo ? info : InfoCallback{}, m_signals);
    }
    if (level && result.best && !lines.last().empty()) {
      chosen = lines.last()[size_t(chooseLine(lines.last(), *level, m_rng))];
      result.best = chosen->pv[0];
      result.ponder = chosen->pv.size() > 1 ? chosen->pv[1] : Move::none();
      result.score = chosen->score;
    }
    // The last line shown must begin with the move played (GUIs and match runners check it):
    // show the line of the move when it came from the book, a playing level's choice or a line
    // shown before (MultiPV: line 1 again after the others), else what the result knows.
    if (result.best && (!lastShown || lastShown->pv.front() != result.best)) {
      SearchInfo last;
      if (chosen) {
        last = *chosen;
      } else if (lastFirstLine && lastFirstLine->pv.front() == result.best) {
        last = *lastFirstLine;
      } else {
        last.depth = last.selDepth = result.depth;
        last.score = result.score;
        last.pv = {result.best};
        if (result.ponder) last.pv.push_back(result.ponder);
      }
      last.multiPv = 1;
      last.nodes = std::max(last.nodes, result.nodes);
      last.timeMs = std::max(last.timeMs, result.timeMs);
      info(last);
    }
    // UCI: in infinite or ponder mode, bestmove is sent only after stop (or ponderhit).
    if (limits.infinite || limits.ponder) {
      std::unique_lock lock(m_mutex);
      m_cv.wait(lock, [&] { return m_signals.stop || (limits.ponder && !limits.infinite && m_signals.ponderhit); });
    }
    // Clear the flag first: a client that answers bestmove with an immediate "go" must not be
    // told a search is still running (go() waits for this task, which ends right after).
    m_searching = false;
    m_lag.onBestMove(LagEstimator::Clock::now());  // read by the next go(), after it waits for this task
    if (m_onBestMove) m_onBestMove(result);
  });
}

void Engine::stop() {
  {
    std::lock_guard lock(m_mutex);  // pairs with the wait in go(): no lost wake-up
    m_signals.stop = true;
  }
  m_cv.notify_all();
}

void Engine::ponderhit() {
  {
    std::lock_guard lock(m_mutex);
    m_signals.ponderhit = true;
  }
  m_cv.notify_all();
}

void Engine::wait() { m_thread.wait(); }

int Engine::staticEval() const {
  auto e = m_evaluator->clone();
  return e->evaluate(m_position);
}

}  // namespace janus
