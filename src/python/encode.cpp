// Batched encoders: the MCTS face's input planes (encoding/planes.h) and legal-move masks
// (encoding/policy_map.h) of many positions at once into one numpy array, and the NNUE inputs
// (nnue/format.h featureIndex, through training/nnue_data.h) that a PyTorch NNUE trains on.
#include <deque>

#include "common.h"
#include "core/movegen.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "nnue/format.h"
#include "training/nnue_data.h"

namespace janus::python {

namespace {

/// The positions of a sequence, without copying the janus.Boards in it (the sequence keeps them
/// alive during the call); FEN strings and python-chess Boards are converted into `owned`.
std::vector<const Position*> positionsOf(const py::handle& seq, std::deque<Board>& owned) {
  if (py::isinstance<py::str>(seq) || py::isinstance<Board>(seq))
    throw py::type_error("expected a sequence of positions (janus.Board, FEN or python-chess Board), got one position");
  std::vector<const Position*> out;
  if (py::hasattr(seq, "__len__")) out.reserve(py::len(seq));
  for (const py::handle item : seq) {
    if (py::isinstance<Board>(item)) {
      out.push_back(&item.cast<const Board&>().pos);
    } else {
      owned.push_back(toBoard(item));
      out.push_back(&owned.back().pos);
    }
  }
  return out;
}

}  // namespace

void bindEncoding(py::module_& m) {
  m.attr("POLICY_SIZE") = encoding::kPolicySize;
  m.attr("BASE_PLANES") = encoding::kBasePlanes;
  m.attr("NNUE_INPUTS") = nnue::kInputs;

  m.def(
      "encode_planes",
      [](const py::object& boards, int history, bool pins, bool control, bool pawns, bool mobility) {
        std::deque<Board> owned;
        const std::vector<const Position*> positions = positionsOf(boards, owned);
        const encoding::EncoderOptions o{pins, control, pawns, mobility, history};
        const py::ssize_t c = encoding::planeCount(o), n = py::ssize_t(positions.size());
        auto a = newArray<float>({n, c, 8, 8}, false);
        float* out = a.mutable_data();
        {
          py::gil_scoped_release release;
          for (py::ssize_t i = 0; i < n; ++i)
            encoding::encodePlanes(*positions[size_t(i)], o, std::span<float>(out + i * c * 64, size_t(c * 64)));
        }
        return a;
      },
      py::arg("boards"), py::arg("history") = encoding::kHistory, py::arg("pins") = false, py::arg("control") = false,
      py::arg("pawns") = false, py::arg("mobility") = false,
      "Input planes of many positions: numpy float32 array of shape (N, C, 8, 8), row i = boards[i].planes(...) "
      "(see Board.planes). `boards` is a sequence of janus.Board, FEN strings or python-chess Boards (a FEN has no "
      "history: its older planes are zero). Encodes without the GIL. ValueError for a bad FEN or history outside 1..8.");

  m.def(
      "legal_masks",
      [](const py::object& boards) {
        std::deque<Board> owned;
        const std::vector<const Position*> positions = positionsOf(boards, owned);
        const py::ssize_t n = py::ssize_t(positions.size());
        auto a = newArray<bool>({n, encoding::kPolicySize});
        bool* out = a.mutable_data();
        {
          py::gil_scoped_release release;
          for (py::ssize_t i = 0; i < n; ++i)
            for (Move mv : legalMoves(*positions[size_t(i)]))
              out[i * encoding::kPolicySize + encoding::policyIndex(*positions[size_t(i)], mv)] = true;
        }
        return a;
      },
      py::arg("boards"),
      "Legal-move masks of many positions: numpy bool array (N, 1858), True at each legal move's policy index.");

  m.def("policy_move_name", [](int index) {
    if (index < 0 || index >= encoding::kPolicySize)
      throw py::value_error("policy index " + std::to_string(index) + " is outside 0..1857");
    return encoding::policyMoveName(index);
  },
        py::arg("index"),
        "The move of policy entry `index` in the side to move's view, Lc0's spelling (\"a1b1\", \"a7a8q\"; 0..1857). "
        "Board.policy_move(index) gives the actual legal move of a position.");

  m.def(
      "plane_names",
      [](bool pins, bool control, bool pawns, bool mobility) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& p : encoding::planeTable({pins, control, pawns, mobility, encoding::kHistory}))
          out.emplace_back(p.name, p.meaning);
        return out;
      },
      py::arg("pins") = false, py::arg("control") = false, py::arg("pawns") = false, py::arg("mobility") = false,
      "(name, meaning) of every plane of Board.planes() with these options, in order (list of C tuples).");

  m.def(
      "nnue_features",
      [](const py::object& boards, int kingBuckets) {
        if (!nnue::validKingBuckets(kingBuckets))
          throw py::value_error("king_buckets " + std::to_string(kingBuckets) + " is not 1, 2, 4, 8 or 16");
        std::deque<Board> owned;
        const std::vector<const Position*> positions = positionsOf(boards, owned);
        const py::ssize_t n = py::ssize_t(positions.size());
        auto features = newArray<std::int16_t>({n, 2, 32}, false);
        auto pieces = newArray<std::uint8_t>({n});
        std::int16_t* f = features.mutable_data();
        {
          py::gil_scoped_release release;
          std::fill(f, f + n * 64, std::int16_t(-1));
          for (py::ssize_t i = 0; i < n; ++i) {
            const training::Sample s = training::sampleFromPosition(*positions[size_t(i)]);
            u16 idx[32];
            for (int side = 0; side < 2; ++side) {  // side to move first
              const int count = training::sampleFeatures(s, side == 0 ? s.stm : 1 - s.stm, kingBuckets, idx);
              for (int k = 0; k < count; ++k) f[i * 64 + side * 32 + k] = std::int16_t(idx[k]);
            }
            pieces.mutable_data()[i] = s.pieceCount;
          }
        }
        py::dict d;
        d["features"] = features;
        d["piece_count"] = pieces;
        return d;
      },
      py::arg("boards"), py::arg("king_buckets") = 1,
      "NNUE inputs of many positions (nnue/format.h featureIndex): a dict with 'features', int16 (N, 2, 32), the "
      "active input indices 0..768*king_buckets-1 seen from the side to move ([:, 0]) and from the other side "
      "([:, 1]), padded with -1; and 'piece_count', uint8 (N,) (the output bucket is ((piece_count - 2) * B) // 31 "
      "clamped to 0..B-1). ValueError for a bad FEN or king_buckets not 1, 2, 4, 8 or 16.");
}

}  // namespace janus::python
