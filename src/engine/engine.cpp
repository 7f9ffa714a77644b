#include "engine/engine.h"

#include <algorithm>

#include "core/notation.h"
#include "eval/hce.h"
#include "nnue/nnue_evaluator.h"
#include "search/alphabeta.h"
#include "search/tunables.h"
#include "tb/gaviota.h"
#include "util/error.h"

namespace janus {

namespace {
using Type = OptionSpec::Type;
constexpr i64 kMaxHashMiB = 65536;

/// The Gaviota library keeps its state in globals, so every Engine of the process shares one
/// tablebase object (GaviotaTablebases serialises its calls).
GaviotaTablebases& sharedTablebases() {
  static GaviotaTablebases tb;
  return tb;
}
std::mutex gTablebaseMutex;  // serialises (re)initialisation from several engines
}  // namespace

Engine::Engine() : m_evaluator(makeHceEvaluator()), m_net(nnue::defaultNetwork()) {
  auto search = std::make_unique<AlphaBetaSearch>(m_evaluator->clone());
  search->setTablebases(&sharedTablebases());
  m_alphaBeta = search.get();
  m_search = std::move(search);
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
  return m_evaluator->name() == "nnue" ? "NNUE " + m_net->describe() : "hand-crafted evaluation";
}

Engine::~Engine() {
  stop();
  wait();
}

void Engine::declareOptions() {
  m_options.add({"Hash", Type::kSpin, "16", 1, kMaxHashMiB, {}, "Transposition table size in MiB"},
                [this](const std::string& v) { m_search->setHashMiB(size_t(std::stoll(v))); });
  m_options.add({"Threads", Type::kSpin, "1", 1, std::max<i64>(1, std::thread::hardware_concurrency()), {},
                 "Search threads (Lazy SMP), up to the number of hardware threads"});
  m_options.add({"MultiPV", Type::kSpin, "1", 1, 256, {}, "Number of principal variations to report"});
  m_options.add({"Ponder", Type::kCheck, "false", 0, 0, {}, "Allow thinking on the opponent's time"});
  m_options.add({"Move Overhead", Type::kSpin, "30", 0, 5000, {},
                 "Milliseconds reserved per move for delays (GUI, network, a loaded machine)"});
  m_options.add({"Clear Hash", Type::kButton, "", 0, 0, {}, "Clear the hash table and histories"},
                [this](const std::string&) { m_search->newGame(); });
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
                  installEvaluator(m_options.boolean("Use NNUE"));
                });
  m_options.add({"Use NNUE", Type::kCheck, m_net ? "true" : "false", 0, 0, {},
                 "Evaluate with the NNUE network of EvalFile (false: the hand-crafted evaluation)"},
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
  m_options.add({"GaviotaTbPath", Type::kString, "", 0, 0, {},
                 "Directories of Gaviota tablebase files, separated by ';'"},
                [this](const std::string& v) {
                  std::lock_guard lock(gTablebaseMutex);
                  if (!sharedTablebases().init(v, size_t(m_options.integer("GaviotaTbCache"))) && !v.empty())
                    throw Error("option GaviotaTbPath: no Gaviota tablebase files (*.gtb.cp1..4) in '" + v + "'");
                });
  m_options.add({"GaviotaTbCache", Type::kSpin, "32", 1, 65536, {}, "Gaviota tablebase cache in MiB"},
                [this](const std::string& v) {
                  std::lock_guard lock(gTablebaseMutex);
                  if (sharedTablebases().initialised())
                    sharedTablebases().init(m_options.value("GaviotaTbPath"), size_t(std::stoll(v)));
                });
}

void Engine::setOption(const std::string& name, const std::string& value) {
  if (searching()) throw Error("cannot set option '" + name + "' while searching");
  m_options.set(name, value);
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
  m_search->newGame();
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
  if (m_thread.joinable()) m_thread.join();
  m_signals.stop = false;
  m_signals.ponderhit = false;
  SearchLimits limits = userLimits;
  SearchConfig config = searchConfig();
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
  m_searching = true;
  const std::optional<int> wdlMaterialOfRoot =
      m_options.boolean("UCI_ShowWDL") ? std::optional<int>(wdlMaterial(m_position)) : std::nullopt;
  m_thread = std::thread([this, limits, level, bookMove, pos = m_position, config, wdlMaterialOfRoot,
                          userMultiPv = searchConfig().multiPv] {
    // With a playing level, keep the MultiPV lines of the last completed iteration (the search
    // reports all lines of an iteration together, best first) to choose from, and show the user
    // only the lines they asked for.
    std::vector<SearchInfo> lines;
    InfoCallback info = [&](const SearchInfo& i) {
      if (level && i.bound == Bound::kExact && !i.pv.empty()) {
        if (!lines.empty() && (i.depth != lines.front().depth || i.multiPv == 1)) lines.clear();
        lines.push_back(i);
      }
      if (!m_onInfo || i.multiPv > userMultiPv) return;
      if (!wdlMaterialOfRoot) return m_onInfo(i);
      SearchInfo withWdl = i;
      withWdl.wdl = scoreToWdl(i.score, *wdlMaterialOfRoot);
      m_onInfo(withWdl);
    };
    SearchResult result;
    if (bookMove) {
      result.best = bookMove;  // book moves are played without searching (and without a score)
    } else {
      result = m_search->run(pos, limits, config, info, m_signals);
    }
    if (level && result.best && !lines.empty()) {
      const SearchInfo& chosen = lines[size_t(chooseLine(lines, *level, m_rng))];
      result.best = chosen.pv[0];
      result.ponder = chosen.pv.size() > 1 ? chosen.pv[1] : Move::none();
      result.score = chosen.score;
    }
    // UCI: in infinite or ponder mode, bestmove is sent only after stop (or ponderhit).
    if (limits.infinite || limits.ponder) {
      std::unique_lock lock(m_mutex);
      m_cv.wait(lock, [&] { return m_signals.stop || (limits.ponder && !limits.infinite && m_signals.ponderhit); });
    }
    // Clear the flag first: a client that answers bestmove with an immediate "go" must not be
    // told a search is still running (go() joins this thread, which ends right after).
    m_searching = false;
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

void Engine::wait() {
  if (m_thread.joinable()) m_thread.join();
}

int Engine::staticEval() const {
  auto e = m_evaluator->clone();
  return e->evaluate(m_position);
}

}  // namespace janus
