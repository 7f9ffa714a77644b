// janus.Engine: either search face through the engine facade (engine/engine.h), the same object
// UCI, `janus match` and the GUI drive. The search runs on the engine's own thread; the calling
// thread waits for it without the GIL and, every 20 ms, takes the GIL to run Python's signal
// handlers (PyErr_CheckSignals): a KeyboardInterrupt (Ctrl-C, a notebook's interrupt button) or
// another exception from a handler stops the search, waits for it to end and is raised.
// Engine.stop() from another Python thread stops it as UCI "stop" does (the search then returns
// its best move so far).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include "common.h"
#include "core/notation.h"
#include "engine/engine.h"
#include "search/score.h"
#include "search/search.h"

namespace janus::python {

namespace {

class PyEngine {
 public:
  PyEngine(const std::string& search, const py::dict& options) {
    m_engine.setOption("UCI_ShowWDL", "true");
    m_engine.setOption("Search", search);
    for (auto [name, value] : options) set(py::str(name), value);
  }

  void setOption(const std::string& name, const py::handle& value) {
    if (m_busy) throw py::value_error("set_option: a search is running on this Engine");
    set(name, value);
  }

  void newGame() {
    if (m_busy) throw py::value_error("new_game: a search is running on this Engine");
    m_engine.newGame();
  }

  void stop() { m_engine.stop(); }

  py::dict search(const py::object& board, std::optional<int> depth, std::optional<u64> nodes,
                  std::optional<double> movetime, bool infinite) {
    const Board b = toBoard(board);
    SearchLimits limits;
    if (depth) {
      if (*depth < 1 || *depth > kMaxPly) throw py::value_error("depth " + std::to_string(*depth) + " is outside 1..246");
      limits.depth = *depth;
    }
    if (nodes) {
      if (*nodes == 0) throw py::value_error("nodes must be positive");
      limits.nodes = *nodes;
    }
    if (movetime) {
      if (!(*movetime > 0)) throw py::value_error("movetime must be a positive number of seconds");
      limits.moveTime = std::max<i64>(1, i64(*movetime * 1000.0));
    }
    limits.infinite = infinite;
    if (!depth && !nodes && !movetime && !infinite)
      throw py::value_error("search: give depth, nodes or movetime (or infinite=True and stop it with stop())");
    bool expected = false;
    if (!m_busy.compare_exchange_strong(expected, true))
      throw py::value_error("search: a search is already running on this Engine (one at a time; use another Engine)");
    struct Release {
      std::atomic<bool>& busy;
      ~Release() { busy = false; }
    } release{m_busy};

    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    SearchResult result;
    SearchInfo last;
    std::vector<MoveStat> stats;
    m_engine.onInfo([&](const SearchInfo& i) {
      std::lock_guard lock(mutex);
      if (i.multiPv == 1 && !i.pv.empty()) last = i;
      if (!i.moveStats.empty()) stats = i.moveStats;
    });
    m_engine.onBestMove([&](const SearchResult& r) {
      std::lock_guard lock(mutex);
      result = r;
      done = true;
      cv.notify_all();
    });
    m_engine.setPosition(b.pos);
    try {
      m_engine.go(limits);
    } catch (...) {  // the callbacks refer to this frame
      m_engine.onInfo(nullptr);
      m_engine.onBestMove(nullptr);
      throw;
    }
    bool interrupted = false;
    {
      py::gil_scoped_release noGil;
      std::unique_lock lock(mutex);
      while (!cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return done; })) {
        if (interrupted) continue;
        lock.unlock();
        {
          py::gil_scoped_acquire gil;
          interrupted = PyErr_CheckSignals() != 0;  // leaves the exception set for error_already_set
        }
        if (interrupted) m_engine.stop();
        lock.lock();
      }
      lock.unlock();
      m_engine.wait();  // the search thread has left the callbacks that reference this frame
    }
    m_engine.onInfo(nullptr);
    m_engine.onBestMove(nullptr);
    if (interrupted) throw py::error_already_set();
    return resultDict(b, result, last, stats);
  }

 private:
  /// Options naming files or folders: their errors (a missing or malformed file) are OSError, the
  /// others' (an unknown option, a value out of range) ValueError.
  void set(const std::string& name, const py::handle& value) {
    static const std::set<std::string> files = {"EvalFile", "BookFile", "MCTS WeightsFile", "SyzygyPath", "GaviotaTbPath"};
    if (files.contains(name)) return fileCall([&] { m_engine.setOption(name, optionText(value)); });
    m_engine.setOption(name, optionText(value));
  }

  static std::string optionText(const py::handle& value) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
    return py::str(value);
  }

  py::dict resultDict(const Board& b, const SearchResult& r, const SearchInfo& last, const std::vector<MoveStat>& stats) {
    const bool c960 = m_engine.chess960() || b.pos.isChess960();
    py::dict d;
    d["best"] = r.best ? py::object(py::str(toUci(r.best, c960))) : py::object(py::none());
    d["ponder"] = r.ponder ? py::object(py::str(toUci(r.ponder, c960))) : py::object(py::none());
    const int score = last.pv.empty() ? r.score : last.score;
    const bool mate = isMateScore(score);
    d["score_cp"] = mate ? py::object(py::none()) : py::object(py::int_(score));
    d["mate"] = mate ? py::object(py::int_(mateInMoves(score))) : py::object(py::none());
    d["wdl"] = last.wdl ? py::object(py::make_tuple(last.wdl->win, last.wdl->draw, last.wdl->loss)) : py::object(py::none());
    std::vector<std::string> pv;
    for (Move mv : last.pv) pv.push_back(toUci(mv, c960));
    d["pv"] = pv;
    d["depth"] = last.pv.empty() ? r.depth : last.depth;
    d["seldepth"] = last.selDepth;
    d["nodes"] = std::max(r.nodes, last.nodes);
    d["playouts"] = r.rootStats.empty() ? py::object(py::none()) : py::object(py::int_(r.playouts));
    d["time"] = double(std::max(r.timeMs, last.timeMs)) / 1000.0;
    py::list visits;
    // The search's own statistics of every root move; the last report's (its top moves) if none.
    for (const MoveStat& s : r.rootStats.empty() ? stats : r.rootStats)
      visits.append(py::make_tuple(toUci(s.move, c960), s.visits, s.prior, s.q));
    d["visits"] = visits;
    return d;
  }

  Engine m_engine;
  std::atomic<bool> m_busy{false};
};

}  // namespace

void bindSearch(py::module_& m) {
  py::class_<PyEngine>(m, "Engine", R"doc(A Janus engine: either search face with its options.

Engine(search='alphabeta', options=None)

search: 'alphabeta' (the alpha-beta face: NNUE or, with options={'Use NNUE': False}, the
hand-crafted evaluation) or 'mcts' (the AlphaZero-style face, docs/mcts.md). options: a dict of
UCI option names and values as `janus` takes them ({'Hash': 64, 'Threads': 2, 'EvalFile':
'nn-....jnn', 'MCTS Backend': 'pvnet', ...}; bools as True/False). ValueError naming an unknown
option or a bad value; OSError for a file option (EvalFile, BookFile, MCTS WeightsFile, SyzygyPath,
GaviotaTbPath) naming a file that is missing or malformed, with the reason.

One search at a time per Engine; searches keep the hash table/tree between calls of the same
game (new_game() clears them).)doc")
      .def(py::init<const std::string&, const py::dict&>(), py::arg("search") = "alphabeta",
           py::arg("options") = py::dict())
      .def("set_option", &PyEngine::setOption, py::arg("name"), py::arg("value"),
           "Sets a UCI option (as `setoption name <name> value <value>`). ValueError for an unknown option or bad value, "
           "OSError for a file option whose file is missing or malformed.")
      .def("new_game", &PyEngine::newGame, "Clears the hash table, histories and MCTS tree (UCI ucinewgame).")
      .def("stop", &PyEngine::stop,
           "Stops the running search (from another thread): search() then returns the best move so far. Never blocks.")
      .def("search", &PyEngine::search, py::arg("board"), py::arg("depth") = py::none(), py::arg("nodes") = py::none(),
           py::arg("movetime") = py::none(), py::arg("infinite") = false,
           R"doc(Searches a position (janus.Board with its history, FEN, or python-chess Board).

Limits (at least one): depth (plies; for MCTS the mean playout depth), nodes (alpha-beta nodes or
MCTS playouts), movetime (seconds, float), or infinite=True (until stop() or Ctrl-C). The search
runs without the GIL; Ctrl-C (KeyboardInterrupt) stops it and is raised, stop() from another
thread ends it normally.

Returns a dict: best (UCI str, None without legal moves), ponder (UCI or None), score_cp (int,
centipawns for the side to move, None when the score is a mate), mate (moves to mate, negative
when mated, or None), wdl ((win, draw, loss) per mille for the side to move), pv (list of UCI),
depth, seldepth, nodes (int; MCTS: playouts plus alpha-beta hint nodes), playouts (MCTS: the
playouts of this search; None for alpha-beta), time (seconds), visits (MCTS: list of (move, visits,
prior, q) of every root move, most visited first, q in [-1, 1] for the side to move; [] for alpha-beta).
ValueError for a bad position, bad limits, or a search already running on this Engine.)doc");
}

}  // namespace janus::python
