#pragma once
// The float NNUE model that `janus train-nnue` optimises: the architecture of nnue/format.h,
// (768 K -> N) x 2 -> B output buckets -> 1 (K king buckets, 1 = none), with float weights, and
// the training loss.
//
// Factoriser (optional, K > 1; the "factorizer" of Stockfish's nnue-pytorch trainer, chessprogramming
// wiki "NNUE"): 768 more inputs, one per (piece, relative square) whatever the king bucket, active
// together with the bucketed input of the same piece. Their rows learn what all buckets share from
// every position, so each bucket's own rows only learn the difference and a king-bucket net needs
// less data. They exist only in training: export adds them into every bucket's rows (the engine's
// network is the same (768 K -> N) x 2 net), so they cost nothing at play.
//
// Forward pass of a position with side to move `stm` (F_p = the active inputs seen from p,
// featureIndex(p, colour, type, square, king square of p, K) for each piece):
//   acc_p  = ftBias + sum_{f in F_p} (ftWeights[f] + (factoriser ? ftWeights[768 K + f mod 768] : 0))
//                                                                   (N floats, p = stm, other)
//   a_p    = act(acc_p), act = SCReLU clamp(x, 0, 1)^2 or CReLU clamp(x, 0, 1)
//   o      = outWeights[k] . [a_stm, a_other] + outBias[k],  k = outputBucket(pieceCount, B)
//   eval   = o * kEvalScale centipawns (side to move's view)
// Loss of a batch (bullet's convention: sigmoid of centipawns over a scale S):
//   p      = sigmoid(o * kEvalScale / S)                         predicted expected score
//   t      = lambda * wdl + (1 - lambda) * sigmoid(score / S)    wdl 1 / 0.5 / 0, score in cp
//   loss   = mean over the batch of (p - t)^2
// with sigmoid(x) = 1 / (1 + exp(-x)), S = LossConfig::sigmoidScale (centipawns).

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "nnue/format.h"
#include "training/nnue_data.h"

namespace janus::training {

/// std::allocator that aligns to 64 bytes (one cache line, one AVX-512 register).
template <typename T>
struct AlignedAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlign); }
  template <typename U>
  bool operator==(const AlignedAllocator<U>&) const { return true; }
};
/// Float array with 64-byte aligned storage.
using FloatVector = std::vector<float, AlignedAllocator<float>>;

/// Architecture of a net: N, B, the activation and K (format.h NetHeader fields).
struct NetworkShape {
  int hidden = 256;                                          ///< N: 16..2048, a multiple of 16
  int buckets = 8;                                           ///< B: 1..16 output buckets
  nnue::Activation activation = nnue::Activation::kSCReLU;
  int kingBuckets = 1;                                       ///< K: 1 (none), 2, 4, 8 or 16 king buckets
  bool factoriser = false;  ///< training only: 768 inputs shared by all K buckets (needs K > 1; see the top)

  /// Rows of the feature-transformer weights: 768 K, plus 768 with the factoriser.
  [[nodiscard]] int inputs() const { return nnue::kInputs * (kingBuckets + (factoriser ? 1 : 0)); }
  // Offsets of the blocks in FloatNetwork::params (floats).
  [[nodiscard]] std::size_t ftBiasOffset() const { return std::size_t(inputs()) * hidden; }
  [[nodiscard]] std::size_t outWeightsOffset() const { return ftBiasOffset() + hidden; }
  [[nodiscard]] std::size_t outBiasOffset() const { return outWeightsOffset() + std::size_t(buckets) * 2 * hidden; }
  /// Number of floats: inputs() N + N + 2 N B + B.
  [[nodiscard]] std::size_t paramCount() const { return outBiasOffset() + buckets; }
  bool operator==(const NetworkShape&) const = default;
};

/// Throws janus::Error unless hidden is a multiple of 16 in 16..2048, buckets is in 1..16,
/// kingBuckets is 1, 2, 4, 8 or 16 and the factoriser has K > 1.
void validateShape(const NetworkShape& shape);
/// "SCReLU" / "CReLU".
[[nodiscard]] const char* activationName(nnue::Activation a);
/// Parses "screlu" / "crelu" (any case); throws janus::Error otherwise.
[[nodiscard]] nnue::Activation parseActivation(const std::string& name);
/// "768x2->256->8 SCReLU" style description ("4kb x 768x2->256->8 SCReLU" with king buckets,
/// "4kb+f x 768x2->256->8 SCReLU" with the factoriser).
[[nodiscard]] std::string describeShape(const NetworkShape& shape);

/// A float network. All parameters live in one aligned array (so gradients and Adam moments
/// have the same layout):
///   ftWeights  [inputs()][N] (input-major: row f is the N weights of input f; with the
///              factoriser, rows 768 K + i are the shared rows of the 768 inputs i)
///   ftBias     [N]
///   outWeights [B][2N]   (row k: N weights on the side to move's half, then N on the other's)
///   outBias    [B]
/// in units of the float model (output 1.0 = kEvalScale centipawns).
struct FloatNetwork {
  NetworkShape shape;
  FloatVector params;

  FloatNetwork() = default;
  /// All parameters zero. Validates the shape.
  explicit FloatNetwork(const NetworkShape& s);

  [[nodiscard]] float* ftRow(int feature) { return params.data() + std::size_t(feature) * shape.hidden; }
  [[nodiscard]] const float* ftRow(int feature) const { return params.data() + std::size_t(feature) * shape.hidden; }
  [[nodiscard]] float* ftBias() { return params.data() + shape.ftBiasOffset(); }
  [[nodiscard]] const float* ftBias() const { return params.data() + shape.ftBiasOffset(); }
  [[nodiscard]] float* outWeights(int bucket) { return params.data() + shape.outWeightsOffset() + std::size_t(bucket) * 2 * shape.hidden; }
  [[nodiscard]] const float* outWeights(int bucket) const {
    return params.data() + shape.outWeightsOffset() + std::size_t(bucket) * 2 * shape.hidden;
  }
  [[nodiscard]] float* outBias() { return params.data() + shape.outBiasOffset(); }
  [[nodiscard]] const float* outBias() const { return params.data() + shape.outBiasOffset(); }
};

/// The starting network of a run, deterministic from `seed`: ftWeights uniform in
/// +-1/sqrt(768), outWeights uniform in +-1/sqrt(2N), biases 0 (PyTorch's default bound of a
/// linear layer, 1/sqrt(fan_in)); factoriser rows 0 (as nnue-pytorch's virtual features), so a
/// net with the factoriser starts as the same function as the one without.
[[nodiscard]] FloatNetwork randomNetwork(const NetworkShape& shape, u64 seed);

/// Largest number of active inputs of one perspective: 32 pieces, twice with the factoriser.
inline constexpr int kMaxActiveInputs = 64;
/// The active inputs (rows of ftWeights) of `perspective` (0 White, 1 Black) in `s` under `shape`:
/// sampleFeatures()'s 768 K indices, then with the factoriser 768 K + (index mod 768) for each.
/// Returns their count (at most kMaxActiveInputs).
int activeInputs(const NetworkShape& shape, const Sample& s, int perspective, u16 out[kMaxActiveInputs]);

/// The same function as `net` with or without the factoriser: removing it adds each shared row
/// into the K bucket rows of its input (what export does); adding it appends zero shared rows.
/// Throws janus::Error when `factoriser` needs K > 1 and the net has K = 1.
[[nodiscard]] FloatNetwork withFactoriser(const FloatNetwork& net, bool factoriser);

/// A network with `kingBuckets` (2, 4, 8 or 16) king buckets that starts from a trained K = 1 net
/// `net` ("net expansion", a warm start): every bucket's 768 rows are copies of the K = 1 rows,
/// the other blocks are kept, and with `factoriser` zero shared rows are appended. A perspective
/// whose king stands on files a-d then computes exactly `net`'s accumulator; one whose king
/// stands on files e-h sees its pieces mirrored a <-> h (format.h), so it computes `net`'s
/// accumulator of the mirrored position: close to `net` only as far as `net` is mirror-symmetric
/// (the --mirror augmentation covers positions without castling rights only; docs/nnue.md "Net
/// expansion" has the measured start loss). Throws janus::Error unless `net` has K = 1 and no
/// factoriser, or when K is not 2, 4, 8 or 16.
[[nodiscard]] FloatNetwork withKingBuckets(const FloatNetwork& net, int kingBuckets, bool factoriser);

/// A network with `hidden` (> net.shape.hidden, a multiple of 16) hidden neurons that computes
/// the same function as `net` ("widening", Net2WiderNet of Chen, Goodfellow and Shlens 2016,
/// "Net2Net: accelerating learning via knowledge transfer", in its simplest function-preserving
/// form): neuron j < N keeps its feature-transformer column, bias and output weights; a new neuron
/// gets feature-transformer weights uniform in +-1/sqrt(768) (randomNetwork's bound, from `seed`),
/// bias 0 and output weights 0 in every bucket, so it adds nothing to the output (float or
/// quantised) until training moves its output weights, whose gradient is its nonzero activation.
/// Factoriser rows of new neurons are 0. Throws janus::Error when `hidden` is not larger than
/// net.shape.hidden or not a valid hidden size (validateShape).
[[nodiscard]] FloatNetwork withHidden(const FloatNetwork& net, int hidden, u64 seed);

/// Raw output o of the float network (o * kEvalScale = centipawns, side to move's view) for
/// `pieces` (any order, at most 32) with side to move `stm` (0 White, 1 Black). Scalar code in
/// the order of the formula above: the reference the trainer's kernels are tested against.
[[nodiscard]] float networkOutput(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm);
[[nodiscard]] float networkOutput(const FloatNetwork& net, const Sample& s);
/// Evaluation in centipawns (side to move's view) = networkOutput * kEvalScale.
[[nodiscard]] float evaluateFloat(const FloatNetwork& net, std::span<const PieceSquare> pieces, int stm);
[[nodiscard]] float evaluateFloat(const FloatNetwork& net, const Sample& s);
/// The same forward pass in double precision (used by the finite-difference gradient test).
[[nodiscard]] double networkOutputDouble(const FloatNetwork& net, const Sample& s);

/// Loss settings: the blend of game result and search score, and the sigmoid scale.
struct LossConfig {
  double lambda = 0.3;          ///< weight of the game result in the target (0: score only)
  double sigmoidScale = 400.0;  ///< S in centipawns: sigmoid(cp / S) is the expected score
};

[[nodiscard]] inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
/// Target t of a sample in [0, 1] (formula above).
[[nodiscard]] double sampleTarget(const Sample& s, const LossConfig& loss);
/// Mean loss of `samples` under `net` with networkOutputDouble (slow reference for tests).
[[nodiscard]] double referenceLoss(const FloatNetwork& net, std::span<const Sample> samples, const LossConfig& loss);

}  // namespace janus::training
