// Evaluation: the hand-crafted evaluation with its terms (eval/hce.h, eval/trace.h), NNUE
// networks (nnue/network.h, the engine's integer inference), and the way back from PyTorch: float
// weights quantised and written as a .jnn by the trainer's own code (training/nnue_export.h:
// quantise() and writeNetFile(), what `janus train-nnue` runs at the end of a run).
#include <cmath>

#include "common.h"
#include "eval/hce.h"
#include "eval/trace.h"
#include "nnue/network.h"
#include "nnue/nnue_evaluator.h"
#include "training/nnue_export.h"
#include "training/nnue_model.h"

namespace janus::python {

namespace {

py::dict hceReport(const Board& b) {
  HceEvaluator hce(EvalWeights::defaults(), 0);
  const EvalBreakdown e = evaluateTrace(hce.trace(b.pos), hce.weights());
  py::dict terms;
  for (int g = 0; g < kTermGroupCount; ++g) {
    const TaperedScore w = e.term[g][kWhite], bl = e.term[g][kBlack];
    py::dict t;
    t["white"] = py::make_tuple(w.mg(), w.eg());
    t["black"] = py::make_tuple(bl.mg(), bl.eg());
    t["cp"] = taper(w - bl, e.phase);
    terms[py::str(std::string(termGroupName(TermGroup(g))))] = t;
  }
  py::dict d;
  d["cp"] = e.sideToMove;
  d["white_cp"] = e.white;
  d["phase"] = e.phase;
  d["scale"] = e.scale;
  d["terms"] = terms;
  return d;
}

/// A loaded network and the file it came from.
struct Nnue {
  std::shared_ptr<const nnue::Network> net;
  std::string file;  ///< path, or "embedded <name>"
};

Nnue loadNnue(const std::optional<std::string>& path) {
  if (!path) {
    auto net = nnue::defaultNetwork();
    if (!net) throw py::value_error("this build embeds no NNUE network: give a .jnn file");
    return {net, "embedded " + nnue::defaultNetworkFile()};
  }
  return {fileCall([&] { return nnue::Network::fromFile(*path); }), *path};
}

/// A float array argument as a contiguous float32 array of `shape` (-1: any length), checked.
py::array_t<float, py::array::c_style | py::array::forcecast> floatArg(const py::object& obj, const char* name,
                                                                       std::vector<py::ssize_t> shape) {
  auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a) throw py::value_error(std::string(name) + ": expected a float array (numpy or anything numpy.asarray takes)");
  bool ok = a.ndim() == py::ssize_t(shape.size());
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = shape[i] < 0 || a.shape(py::ssize_t(i)) == shape[i];
  if (!ok) {
    std::string got, want;
    for (py::ssize_t i = 0; i < a.ndim(); ++i) got += (i ? ", " : "") + std::to_string(a.shape(i));
    for (size_t i = 0; i < shape.size(); ++i) want += (i ? ", " : "") + (shape[i] < 0 ? "?" : std::to_string(shape[i]));
    throw py::value_error(std::string(name) + ": shape (" + got + "), expected (" + want + ")");
  }
  const float* p = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(p[i])) throw py::value_error(std::string(name) + ": element " + std::to_string(i) + " is not finite");
    if (std::fabs(p[i]) > nnue::kWeightClip)
      throw py::value_error(std::string(name) + ": element " + std::to_string(i) + " = " + std::to_string(p[i]) +
                            " is outside +-1.98 (WEIGHT_CLIP): clamp the weights after every step as janus "
                            "train-nnue does, or the quantised integers overflow");
  }
  return a;
}

training::FloatNetwork floatNetwork(const py::object& ftWeight, const py::object& ftBias, const py::object& outWeight,
                                    const py::object& outBias, const std::string& activation) {
  auto ftw = floatArg(ftWeight, "ft_weight", {-1, -1});
  const py::ssize_t rows = ftw.shape(0), hidden = ftw.shape(1);
  if (rows % nnue::kInputs != 0)
    throw py::value_error("ft_weight: " + std::to_string(rows) + " rows, expected 768 x king buckets (1, 2, 4, 8, 16)");
  auto ftb = floatArg(ftBias, "ft_bias", {hidden});
  auto ow = floatArg(outWeight, "out_weight", {-1, 2 * hidden});
  const py::ssize_t buckets = ow.shape(0);
  auto ob = floatArg(outBias, "out_bias", {buckets});
  training::NetworkShape shape{int(hidden), int(buckets), training::parseActivation(activation),
                               int(rows / nnue::kInputs), false};
  training::FloatNetwork net(shape);  // validates the shape (janus::Error -> ValueError)
  std::copy(ftw.data(), ftw.data() + ftw.size(), net.params.data());
  std::copy(ftb.data(), ftb.data() + ftb.size(), net.ftBias());
  std::copy(ow.data(), ow.data() + ow.size(), net.outWeights(0));
  std::copy(ob.data(), ob.data() + ob.size(), net.outBias());
  return net;
}

py::dict netDict(const training::FloatNetwork& net, const std::string& activation, int qb, const std::string& name) {
  const auto& s = net.shape;
  auto copy = [](const float* p, std::vector<py::ssize_t> shape) {
    auto a = newArray<float>(shape, false);
    std::copy(p, p + a.size(), a.mutable_data());
    return a;
  };
  py::dict d;
  d["ft_weight"] = copy(net.params.data(), {s.inputs(), s.hidden});
  d["ft_bias"] = copy(net.ftBias(), {s.hidden});
  d["out_weight"] = copy(net.outWeights(0), {s.buckets, 2 * s.hidden});
  d["out_bias"] = copy(net.outBias(), {s.buckets});
  d["activation"] = activation;
  d["king_buckets"] = s.kingBuckets;
  d["qb"] = qb;
  d["name"] = name;
  return d;
}

}  // namespace

void bindEvaluation(py::module_& m) {
  m.attr("WEIGHT_CLIP") = nnue::kWeightClip;
  m.attr("EVAL_SCALE") = nnue::kEvalScale;

  m.def("hce", [](const py::object& board) { return hceReport(toBoard(board)); }, py::arg("board"),
        "The hand-crafted evaluation of a position (janus.Board, FEN or python-chess Board), as `janus eval` prints "
        "it: a dict with 'cp' (int, centipawns, side to move's view), 'white_cp' (White's view), 'phase' (0..24, 24 = "
        "middlegame), 'scale' (endgame scale 0..128) and 'terms': {group name: {'white': (mg, eg), 'black': (mg, eg), "
        "'cp': tapered White-minus-Black centipawns}}. ValueError for a bad FEN.");

  py::class_<Nnue>(m, "Nnue", R"doc(An NNUE network as the engine plays it (integer SIMD inference).

Nnue(path=None): the network built into this Janus (None) or a .jnn file (plain or .zst).
Raises OSError naming the file and the problem: cannot open, bad magic, truncated, trailing
bytes, corrupted (content hash), sizes or quantisation the engine does not read.)doc")
      .def(py::init(&loadNnue), py::arg("path") = py::none())
      .def_property_readonly("name", [](const Nnue& n) { return n.net->name(); }, "\"nn-<16 hex digits of the content hash>\".")
      .def_property_readonly("file", [](const Nnue& n) { return n.file; }, "The path loaded, or \"embedded <file>\".")
      .def_property_readonly("hidden", [](const Nnue& n) { return n.net->hidden(); }, "N, the hidden size.")
      .def_property_readonly("output_buckets", [](const Nnue& n) { return n.net->outputBuckets(); }, "B.")
      .def_property_readonly("king_buckets", [](const Nnue& n) { return n.net->kingBuckets(); }, "K (1: none).")
      .def("describe", [](const Nnue& n) { return n.net->describe(); }, "One line: name, shape, activation, description.")
      .def("evaluate", [](const Nnue& n, const py::object& board) {
             const Board b = toBoard(board);
             return nnue::NnueEvaluator(n.net).evaluateFromScratch(b.pos);
           },
           py::arg("board"),
           "Evaluation in centipawns from the side to move's view (int), exactly as the engine computes it (a side "
           "with only its king is evaluated by the hand-crafted evaluation, as in the engine).")
      .def("evaluate_batch", [](const Nnue& n, const py::object& boards) {
             const std::vector<Board> bs = toBoards(boards);
             auto out = newArray<std::int32_t>({py::ssize_t(bs.size())}, false);
             std::int32_t* p = out.mutable_data();
             {
               py::gil_scoped_release release;
               nnue::NnueEvaluator eval(n.net);
               for (size_t i = 0; i < bs.size(); ++i) p[i] = eval.evaluateFromScratch(bs[i].pos);
             }
             return out;
           },
           py::arg("boards"), "evaluate() of many positions: numpy int32 array (N,), centipawns, side to move's view.")
      .def("__repr__", [](const Nnue& n) { return "janus.Nnue(" + n.net->describe() + ")"; });

  m.def(
      "write_nnue",
      [](const std::string& path, const py::object& ftWeight, const py::object& ftBias, const py::object& outWeight,
         const py::object& outBias, const std::string& activation, const std::string& description) {
        const training::FloatNetwork net = floatNetwork(ftWeight, ftBias, outWeight, outBias, activation);
        const training::QuantisedNetwork q = training::quantise(net, description);
        return fileCall([&] { return training::writeNetFile(q, path); });
      },
      py::arg("path"), py::arg("ft_weight"), py::arg("ft_bias"), py::arg("out_weight"), py::arg("out_bias"),
      py::arg("activation") = "screlu", py::arg("description") = "python",
      R"doc(Writes a float NNUE as a .jnn network file the engine plays (EvalFile), through the same
quantisation and file code as `janus train-nnue` (training/nnue_export.h quantise, writeNetFile).

The network is (768*K -> N) x 2 -> B -> 1 (docs/nnue.md), in float32 units where an output of 1.0
is 400 centipawns (EVAL_SCALE):
  acc_p = ft_bias + sum of ft_weight[f] over the active inputs f of perspective p (nnue_features)
  a_p   = clamp(acc_p, 0, 1) ** 2 (activation 'screlu') or clamp(acc_p, 0, 1) ('crelu')
  out   = out_weight[k] . concat(a_side_to_move, a_other) + out_bias[k],  k = output bucket
ft_weight (768*K, N) with K king buckets 1, 2, 4, 8 or 16 and N a multiple of 16 in 16..2048;
ft_bias (N,); out_weight (B, 2N) with B 1..16; out_bias (B,). Every value must be finite and within
+-WEIGHT_CLIP (1.98), the clip the C++ trainer applies after each step. `path` is a file name or an
existing directory (then <dir>/nn-<hash>.jnn). Returns the path written (written atomically).
ValueError for shapes, values or activation; OSError when the file cannot be written.)doc");

  m.def(
      "read_nnue",
      [](const std::string& path) {
        const training::QuantisedNetwork q = fileCall([&] { return training::readNetFile(path); });
        const auto net = fileCall([&] { return nnue::Network::fromFile(path); });
        return netDict(training::dequantise(q), q.activation == nnue::Activation::kSCReLU ? "screlu" : "crelu", q.qb,
                       net->name());
      },
      py::arg("path"),
      "A .jnn network as float32 arrays (its integers divided by their scales): a dict with the arguments of "
      "write_nnue (ft_weight (768*K, N), ft_bias (N,), out_weight (B, 2N), out_bias (B,), activation) and "
      "king_buckets, qb (the output scale) and name; e.g. to fine-tune the engine's network in PyTorch. OSError "
      "naming the file and the problem.");
}

}  // namespace janus::python
