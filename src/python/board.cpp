// janus.Board: a position with its game history (core/position.h), the rules (core/movegen.h,
// core/game_end.h), notation (core/notation.h) and perft (core/perft.h), with python-chess's
// names where the two overlap (fen(), turn, legal_moves, push_uci, push_san, pop, san, is_check,
// is_checkmate, outcome, result, ...). Moves are UCI strings rather than python-chess Move objects.
#include <optional>

#include "common.h"
#include "core/game_end.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"

namespace janus::python {

std::string toUciText(const Position& pos, Move m) { return toUci(m, pos.isChess960()); }

std::string Board::uci(Move m) const { return toUciText(pos, m); }

Move Board::parseMove(const std::string& text) const { return parseUci(pos, text, pos.isChess960()); }

void Board::push(Move m) {
  pos.makeMove(m);
  stack.push_back(m);
}

Board boardFromFen(const std::string& fen, bool chess960) {
  Board b{Position::fromFen(fen, chess960), {}, {}};
  b.rootFen = b.pos.fen();
  return b;
}

Board toBoard(const py::handle& obj) {
  if (py::isinstance<Board>(obj)) return obj.cast<const Board&>();
  if (py::isinstance<py::str>(obj)) return boardFromFen(obj.cast<std::string>(), false);
  if (py::hasattr(obj, "root") && py::hasattr(obj, "move_stack")) {  // a python-chess Board
    const bool chess960 = py::hasattr(obj, "chess960") && obj.attr("chess960").cast<bool>();
    Board b = boardFromFen(obj.attr("root")().attr("fen")().cast<std::string>(), chess960);
    int i = 0;
    for (const py::handle move : obj.attr("move_stack")) {
      ++i;
      const std::string text = move.attr("uci")().cast<std::string>();
      try {
        b.push(parseUci(b.pos, text, true));
      } catch (const Error& e) {
        throw Error("python-chess move " + std::to_string(i) + " of the move stack: " + e.what());
      }
    }
    return b;
  }
  throw py::type_error("expected a janus.Board, a FEN string or a python-chess Board, got " +
                       py::str(py::type::of(obj).attr("__name__")).cast<std::string>());
}

std::vector<Board> toBoards(const py::handle& seq) {
  if (py::isinstance<py::str>(seq) || py::isinstance<Board>(seq))
    throw py::type_error("expected a sequence of positions (janus.Board, FEN or python-chess Board), got one position");
  std::vector<Board> boards;
  if (py::hasattr(seq, "__len__")) boards.reserve(py::len(seq));
  for (const py::handle item : seq) boards.push_back(toBoard(item));
  return boards;
}

namespace {

py::object outcome(const Board& b) {
  const std::optional<GameEnd> end = rulesGameEnd(b.pos);
  if (!end) return py::none();
  py::dict d;
  d["termination"] = gameEndName(*end);
  if (*end == GameEnd::kCheckmate) {
    const bool whiteWon = b.pos.sideToMove() == kBlack;
    d["winner"] = whiteWon;
    d["result"] = whiteWon ? "1-0" : "0-1";
  } else {
    d["winner"] = py::none();
    d["result"] = "1/2-1/2";
  }
  return d;
}

std::string result(const Board& b) {
  const std::optional<GameEnd> end = rulesGameEnd(b.pos);
  if (!end) return "*";
  if (*end != GameEnd::kCheckmate) return "1/2-1/2";
  return b.pos.sideToMove() == kBlack ? "1-0" : "0-1";
}

/// perft(pos, depth) with Python's signal handlers run every few hundred milliseconds: subtrees of
/// up to 6 plies are counted by core/perft.h without the GIL, deeper ones move by move with
/// PyErr_CheckSignals() in between (KeyboardInterrupt on Ctrl-C). Called with the GIL.
u64 perftWithSignals(Position& pos, int depth) {
  if (depth <= 6) {
    py::gil_scoped_release release;
    return perft(pos, depth);
  }
  u64 n = 0;
  for (Move mv : legalMoves(pos)) {
    pos.makeMove(mv);
    n += perftWithSignals(pos, depth - 1);
    pos.unmakeMove(mv);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return n;
}

/// (root move, perft(depth - 1) below it) for every legal move (depth >= 1; depth 0: one entry with
/// Move::none() and 1), each by perftWithSignals().
std::vector<std::pair<Move, u64>> perftByRootMove(const Board& b, int depth) {
  if (depth == 0) return {{Move::none(), 1}};
  Position pos = b.pos;
  std::vector<std::pair<Move, u64>> out;
  for (Move mv : legalMoves(pos)) {
    pos.makeMove(mv);
    out.emplace_back(mv, perftWithSignals(pos, depth - 1));
    pos.unmakeMove(mv);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return out;
}

py::object toChess(const Board& b) {
  py::module_ chess = py::module_::import("chess");  // ImportError without python-chess
  py::object board = chess.attr("Board")(b.rootFen, py::arg("chess960") = b.pos.isChess960());
  for (Move m : b.stack) board.attr("push_uci")(toUci(m, b.pos.isChess960()));
  return board;
}

}  // namespace

void bindBoard(py::module_& m) {
  py::class_<Board>(m, "Board", R"doc(A chess position with the game that led to it.

Board(fen=STARTING_FEN, chess960=False)

``fen`` is FEN, X-FEN or Shredder-FEN text, or a python-chess ``chess.Board`` (its root FEN and
move stack are replayed, so the history planes and repetitions are the same; python-chess is
optional and only needed to make such a Board). Raises ValueError naming the field that is wrong
("FEN field 4 (en passant): 'e9' is not a square") or the move of the stack that is illegal.
``chess960`` switches Chess960 castling on (also switched on by castling rooks off their standard
squares); moves are then written king-takes-rook ("e1h1").

Moves are UCI strings ("e2e4", "e7e8q", castling "e1g1"). Names follow python-chess where the two
libraries overlap: fen(), turn, legal_moves, push_uci(), push_san(), pop(), peek(), san(),
parse_san(), is_check(), is_checkmate(), is_game_over(), outcome(), result().)doc")
      .def(py::init([](const py::object& fen, bool chess960) {
             if (py::isinstance<py::str>(fen)) return boardFromFen(fen.cast<std::string>(), chess960);
             return toBoard(fen);
           }),
           py::arg("fen") = std::string(Position::kStartFen), py::arg("chess960") = false)
      .def("fen", [](const Board& b) { return b.pos.fen(); }, "FEN of the current position (str).")
      .def_property_readonly("root_fen", [](const Board& b) { return b.rootFen; },
                             "FEN of the position before the first pushed move (str).")
      .def_property_readonly("turn", [](const Board& b) { return b.pos.sideToMove() == kWhite; },
                             "True when White is to move (python-chess: chess.WHITE is True).")
      .def_property_readonly("chess960", [](const Board& b) { return b.pos.isChess960(); },
                             "True for Chess960 castling rules (moves king-takes-rook).")
      .def_property_readonly("halfmove_clock", [](const Board& b) { return b.pos.halfmoveClock(); },
                             "Plies since the last capture or pawn move (int).")
      .def_property_readonly("fullmove_number", [](const Board& b) { return b.pos.fullmoveNumber(); },
                             "Move number as in FEN, starting at 1 (int).")
      .def_property_readonly("ply", [](const Board& b) { return b.pos.gamePly(); },
                             "Plies since the game's first position, from the FEN's move number (int).")
      .def_property_readonly(
          "legal_moves",
          [](const Board& b) {
            std::vector<std::string> out;
            for (Move mv : legalMoves(b.pos)) out.push_back(b.uci(mv));
            return out;
          },
          "The legal moves as UCI strings (list of str), in generation order.")
      .def(
          "legal_moves_san",
          [](const Board& b) {
            std::vector<std::string> out;
            for (Move mv : legalMoves(b.pos)) out.push_back(toSan(b.pos, mv));
            return out;
          },
          "The legal moves in SAN (list of str), in the order of legal_moves.")
      .def("is_legal", [](const Board& b, const std::string& uci) {
             try {
               (void)b.parseMove(uci);
               return true;
             } catch (const Error&) {
               return false;
             }
           },
           py::arg("move"), "True if the UCI string `move` is a legal move here (never raises for bad text).")
      .def("san", [](const Board& b, const std::string& uci) { return toSan(b.pos, b.parseMove(uci)); }, py::arg("move"),
           "SAN of the legal UCI move `move` (\"Nf3\", \"O-O\", \"e8=Q+\"). ValueError for a malformed or illegal move.")
      .def("parse_san", [](const Board& b, const std::string& san) { return b.uci(parseSan(b.pos, san)); },
           py::arg("san"), "UCI string of the legal move written `san` in SAN. ValueError: not SAN, illegal or ambiguous.")
      .def("push_uci", [](Board& b, const std::string& uci) { b.push(b.parseMove(uci)); }, py::arg("move"),
           "Plays the UCI move `move`. ValueError (\"illegal move 'e2e5' in position <FEN>\") leaves the board unchanged.")
      .def("push", [](Board& b, const std::string& uci) { b.push(b.parseMove(uci)); }, py::arg("move"),
           "Same as push_uci (moves are UCI strings here).")
      .def("push_san", [](Board& b, const std::string& san) {
             const Move mv = parseSan(b.pos, san);
             b.push(mv);
             return b.uci(mv);
           },
           py::arg("san"), "Plays the SAN move `san` and returns it as UCI. ValueError for bad or illegal SAN.")
      .def("pop", [](Board& b) {
             if (b.stack.empty()) throw py::index_error("pop from a Board with no pushed moves");
             const Move mv = b.stack.back();
             b.pos.unmakeMove(mv);
             b.stack.pop_back();
             return b.uci(mv);
           },
           "Takes back the last pushed move and returns it (UCI). IndexError when nothing was pushed.")
      .def("peek", [](const Board& b) {
             if (b.stack.empty()) throw py::index_error("peek at a Board with no pushed moves");
             return b.uci(b.stack.back());
           },
           "The last pushed move (UCI). IndexError when nothing was pushed.")
      .def_property_readonly("move_stack", [](const Board& b) {
             // Each move is written in the position it was played from: replay from the root.
             Board replay = boardFromFen(b.rootFen, b.pos.isChess960());
             std::vector<std::string> out;
             for (Move mv : b.stack) {
               out.push_back(replay.uci(mv));
               replay.pos.makeMove(mv);
             }
             return out;
           },
           "The pushed moves, oldest first (list of UCI str).")
      .def("copy", [](const Board& b) { return b; }, "An independent copy (history included).")
      .def("__copy__", [](const Board& b) { return b; })
      .def("__deepcopy__", [](const Board& b, const py::object&) { return b; }, py::arg("memo"))
      .def("is_check", [](const Board& b) { return b.pos.inCheck(); }, "The side to move is in check.")
      .def("is_checkmate", [](const Board& b) { return isCheckmate(b.pos); }, "In check with no legal move.")
      .def("is_stalemate", [](const Board& b) { return isStalemate(b.pos); }, "Not in check, no legal move.")
      .def("is_insufficient_material", [](const Board& b) { return b.pos.isInsufficientMaterial(); },
           "Neither side has mating material (K v K, K+minor v K, K+B v K+B on one colour).")
      .def("is_fifty_moves", [](const Board& b) { return b.pos.isFiftyMoveDraw(); },
           "The halfmove clock is at least 100 (50-move rule).")
      .def("is_repetition", [](const Board& b, int count) {
             if (count < 1) throw py::value_error("is_repetition: count must be at least 1, got " + std::to_string(count));
             return count == 1 || b.pos.isRepetition(count - 1);
           },
           py::arg("count") = 3,
           "The position occurred `count` times in the game, this time included (3: threefold repetition).")
      .def("is_game_over", [](const Board& b) { return rulesGameEnd(b.pos).has_value(); },
           "The game is over by the rules: checkmate, stalemate, threefold repetition, 50 moves or insufficient material.")
      .def("outcome", &outcome,
           "None while the game goes on; else a dict: termination (str: \"checkmate\", \"stalemate\", \"threefold "
           "repetition\", \"50-move rule\", \"insufficient material\"), winner (True White, False Black, None a draw), "
           "result (\"1-0\", \"0-1\", \"1/2-1/2\").")
      .def("result", &result, "\"1-0\", \"0-1\", \"1/2-1/2\" when the game is over by the rules, else \"*\".")
      .def(
          "perft",
          [](const Board& b, int depth) {
            if (depth < 0 || depth > kMaxPerftSuiteDepth)
              throw py::value_error("perft depth " + std::to_string(depth) + " is outside 0..20");
            u64 total = 0;
            for (const auto& [mv, n] : perftByRootMove(b, depth)) total += n;
            return total;
          },
          py::arg("depth"),
          "Leaf nodes of the legal move tree `depth` plies deep (int; depth 0 = 1), by the engine's perft "
          "(core/perft.h, bulk-counted last ply) without the GIL, in subtrees of at most 6 plies; between them "
          "Ctrl-C raises KeyboardInterrupt. ValueError for depth outside 0..20.")
      .def(
          "divide",
          [](const Board& b, int depth) {
            if (depth < 1 || depth > kMaxPerftSuiteDepth)
              throw py::value_error("divide depth " + std::to_string(depth) + " is outside 1..20");
            py::dict d;
            for (const auto& [mv, n] : perftByRootMove(b, depth)) d[py::str(b.uci(mv))] = n;
            return d;
          },
          py::arg("depth"), "Perft split by root move: {UCI move: leaf count at depth - 1 below it}.")
      .def(
          "planes",
          [](const Board& b, int history, bool pins, bool control, bool pawns, bool mobility) {
            const encoding::EncoderOptions o{pins, control, pawns, mobility, history};
            auto a = newArray<float>({encoding::planeCount(o), 8, 8}, false);
            encoding::encodePlanes(b.pos, o, std::span<float>(a.mutable_data(), size_t(a.size())));
            return a;
          },
          py::arg("history") = encoding::kHistory, py::arg("pins") = false, py::arg("control") = false,
          py::arg("pawns") = false, py::arg("mobility") = false,
          "The MCTS face's input planes (encoding/planes.h, docs/encoding.md): numpy float32 array of shape "
          "(C, 8, 8), C = 119 plus 2 per option pins/control/mobility and 4 for pawns (at most 129). Oriented "
          "to the side to move: [c, rank, file] with rank 0 the mover's back rank (Black's moves see the board "
          "mirrored a1<->a8). history = 1..8 positions of the game (older planes zero). ValueError for history "
          "outside 1..8. janus.plane_names() names each plane.")
      .def("policy_index", [](const Board& b, const std::string& uci) {
             return encoding::policyIndex(b.pos, b.parseMove(uci));
           },
           py::arg("move"),
           "Index 0..1857 of the legal UCI move `move` in the 1858-entry policy vector (Lc0's layout, the side to "
           "move's view; castling is e1h1/e1a1). ValueError for a malformed or illegal move.")
      .def("policy_move", [](const Board& b, int index) {
             if (index < 0 || index >= encoding::kPolicySize)
               throw py::value_error("policy index " + std::to_string(index) + " is outside 0..1857");
             for (Move mv : legalMoves(b.pos))
               if (encoding::policyIndex(b.pos, mv) == index) return b.uci(mv);
             throw py::value_error("policy index " + std::to_string(index) + " (" + encoding::policyMoveName(index) +
                                   " in the side to move's view) is not a legal move in " + b.pos.fen());
           },
           py::arg("index"),
           "The legal move (UCI) whose policy index is `index`; the inverse of policy_index. ValueError when the "
           "index is outside 0..1857 or no legal move has it.")
      .def("legal_mask", [](const Board& b) {
             auto a = newArray<bool>({encoding::kPolicySize});
             bool* p = a.mutable_data();
             for (Move mv : legalMoves(b.pos)) p[encoding::policyIndex(b.pos, mv)] = true;
             return a;
           },
           "numpy bool array of shape (1858,): True at the policy index of every legal move.")
      .def("to_chess", &toChess,
           "A python-chess chess.Board with the same root position and move stack. ImportError without python-chess.")
      .def("__str__", [](const Board& b) { return b.pos.pretty(); })
      .def("__repr__", [](const Board& b) { return "janus.Board('" + b.pos.fen() + "')"; })
      .def("__eq__", [](const Board& a, const Board& b) { return a.pos.fen() == b.pos.fen(); },
           "Boards are equal when their FENs are (the history is not compared).");
}

}  // namespace janus::python
