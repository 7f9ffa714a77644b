#include "engine/engine.h"

#include <algorithm>

#include "core/notation.h"
#include "eval/hce.h"
#include "search/alphabeta.h"
#include "util/error.h"

namespace janus {

namespace {
using Type = OptionSpec::Type;
constexpr i64 kMaxHashMiB = 65536;
}  // namespace

Engine::Engine() : m_evaluator(makeHceEvaluator()) {
  m_search = std::make_unique<AlphaBetaSearch>(m_evaluator->clone());
  declareOptions();
}

Engine::~Engine() {
  stop();
  wait();
}

void Engine::declareOptions() {
  m_options.add({"Hash", Type::kSpin, "16", 1, kMaxHashMiB, {}, "Transposition table size in MiB"},
                [this](const std::string& v) { m_search->setHashMiB(size_t(std::stoll(v))); });
  m_options.add({"Threads", Type::kSpin, "1", 1, 1024, {}, "Search threads (Lazy SMP)"});
  m_options.add({"MultiPV", Type::kSpin, "1", 1, 256, {}, "Number of principal variations to report"});
  m_options.add({"Ponder", Type::kCheck, "false", 0, 0, {}, "Allow thinking on the opponent's time"});
  m_options.add({"Move Overhead", Type::kSpin, "10", 0, 5000, {}, "Milliseconds reserved per move for delays"});
  m_options.add({"Clear Hash", Type::kButton, "", 0, 0, {}, "Clear the hash table and histories"},
                [this](const std::string&) { m_search->newGame(); });
  m_options.add({"UCI_Chess960", Type::kCheck, "false", 0, 0, {}, "Chess960 castling notation (king takes rook)"});
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

void Engine::go(const SearchLimits& limits) {
  if (searching()) throw Error("a search is already running (send stop first)");
  if (m_thread.joinable()) m_thread.join();
  m_signals.stop = false;
  m_signals.ponderhit = false;
  m_searching = true;
  m_thread = std::thread([this, limits, pos = m_position, config = searchConfig()] {
    InfoCallback info = m_onInfo ? m_onInfo : [](const SearchInfo&) {};
    SearchResult result = m_search->run(pos, limits, config, info, m_signals);
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
