// The Python extension module janus._janus (docs/python.md); the package janus (janus/__init__.py)
// re-exports it. Each file binds one part: board.cpp (positions, rules, perft, one position's
// encoding), encode.cpp (batched planes, masks, NNUE inputs), evaluate.cpp (HCE, NNUE, the .jnn
// writer), search.cpp (both search faces), data.cpp (JANUSDAT and JANUSSP).
#include "common.h"
#include "nnue/network.h"

PYBIND11_MODULE(_janus, m) {
  using namespace janus;
  using namespace janus::python;
  m.doc() = "Janus chess engine: positions, encodings, evaluations, searches and training data (docs/python.md).";
  m.attr("__version__") = JANUS_VERSION;
  m.attr("STARTING_FEN") = Position::kStartFen;
  // janus::Error is what the C++ code throws for bad input (a FEN, a move, an argument): ValueError.
  // File readers and writers turn it into OSError themselves (fileCall in common.h).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  bindBoard(m);
  bindEncoding(m);
  bindEvaluation(m);
  bindSearch(m);
  bindData(m);
}
