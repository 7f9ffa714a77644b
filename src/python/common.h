#pragma once
// Shared by the source files of the Python module janus (docs/python.md): the Board the module
// wraps, how Janus errors become Python exceptions, and the bind functions each file defines.
//
// Errors: janus::Error (util/error.h) is the one exception type of the C++ code. Every binding
// that parses a FEN, a move or an argument lets it through, and the translator registered in
// module.cpp raises ValueError with its message; the ones that read or write a file call
// fileCall(), which raises OSError with the message instead (it names the file and the problem).
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/position.h"
#include "util/error.h"

namespace janus::python {

namespace py = pybind11;

/// A game: the position with its history (Position's undo stack, which repetition detection and
/// the input planes' history use) and the moves pushed on it since the start position.
struct Board {
  Position pos;
  std::vector<Move> stack;  ///< moves pushed (push/pop), oldest first
  std::string rootFen;      ///< FEN of the position before the first pushed move

  /// UCI text of `m` in this game: king-takes-rook castling ("e1h1") in Chess960 games.
  [[nodiscard]] std::string uci(Move m) const;
  /// The legal move that `text` names in UCI; janus::Error ("illegal move ...") otherwise.
  [[nodiscard]] Move parseMove(const std::string& text) const;
  void push(Move m);
};

/// UCI text of legal move `m` of `pos` (king-takes-rook castling in Chess960 positions).
[[nodiscard]] std::string toUciText(const Position& pos, Move m);
/// A Board from FEN text (janus::Error naming the field that is wrong).
[[nodiscard]] Board boardFromFen(const std::string& fen, bool chess960);
/// The Board an argument stands for: a janus.Board, FEN text, or a python-chess Board (any object
/// with root() and move_stack: the root position's FEN, then its moves replayed). TypeError
/// otherwise; janus::Error for a bad FEN or move.
[[nodiscard]] Board toBoard(const py::handle& obj);
/// toBoard() of every element of a sequence (a list of Boards, FENs or python-chess Boards).
[[nodiscard]] std::vector<Board> toBoards(const py::handle& seq);

/// Runs `f`; a janus::Error it throws becomes OSError with the same message.
template <typename F>
auto fileCall(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  }
}

/// A new C-contiguous numpy array of `shape`, uninitialised unless `zero`.
template <typename T>
py::array_t<T> newArray(const std::vector<py::ssize_t>& shape, bool zero = true) {
  py::array_t<T> a(shape);
  if (zero && a.size() > 0) std::fill(a.mutable_data(), a.mutable_data() + a.size(), T{});
  return a;
}

void bindBoard(py::module_& m);
void bindEncoding(py::module_& m);
void bindEvaluation(py::module_& m);
void bindSearch(py::module_& m);
void bindData(py::module_& m);

}  // namespace janus::python
