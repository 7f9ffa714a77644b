#pragma once
// Janus policy/value network file ("JANUSPV"), version 1: the small sparse-input network of the
// MCTS face's fast CPU backend (`pvnet`), the one definition of the bytes that `janus train-az`
// exports and the engine loads. Header-only and free of engine code so that a trainer includes
// it on its own; the fields it shares with the other network files are read and written by
// netfile/netfile.h.
//
// Why this shape: on 2 CPU cores a convolutional ResNet over input planes evaluates a few hundred
// positions a second (Lc0's 10x128 net: 300-1000 nodes/s on 4-12 threads), far too few for
// MCTS to be strong. Small MCTS engines on CPU (Monty, a0lite) use sparse piece inputs instead,
// like NNUE: a position is ~32 active inputs, the first layer is a sum of weight rows, and the
// policy head needs only the rows of the legal moves. Evaluating one position costs a few
// thousand multiply-adds (microseconds), so the search, not the net, sets the node rate.
//
// Architecture (float32 throughout, no quantisation: the engine computes what the trainer did):
//   * Inputs: kInputs = 772, seen from the side to move (sideToMoveFeatures() below):
//       0..767   pieces: pieceInput(stm, colour, type, square) below (the same index as NNUE's
//                nnue::featureIndex from the side to move's perspective: its own pieces
//                first, squares flipped vertically when Black moves);
//       768..771 castling rights: own king side, own queen side, their king side, their queen side.
//   * Trunk: h = ReLU(trunkB + sum of trunkW rows of the active inputs), H values.
//   * Value head: v = ReLU(valueW1 h + valueB1) (V values); logits = valueW2 v + valueB2 (3:
//     win, draw, loss for the side to move); WDL = softmax(logits).
//   * Policy head: logit_i = policyW[i] . h + policyB[i] for every policy index i
//     (encoding/policy_map.h, the Lc0 layout of 1858 moves, oriented to the side to move); the
//     priors are the softmax over the legal moves' logits only (illegal moves masked).
//
// File layout (little-endian):
//   offset size  field
//        0    8  magic         "JANUSPV\0"
//        8    2  version       u16, kPvVersion (1)
//       10    2  inputs        u16, kInputs (772)
//       12    2  hidden        u16, H: kMinHidden..kMaxHidden, a multiple of 16
//       14    2  valueHidden   u16, V: 8..256, a multiple of 8
//       16    2  policySize    u16, kPolicySize (1858)
//       18    2  reserved0     u16, 0 (a reader rejects another value)
//       20    4  archId        u32, architectureId(hidden, valueHidden)
//       24    8  payloadBytes  u64, payloadBytes(hidden, valueHidden)
//       32    8  contentHash   u64, FNV-1a 64 (util/hash.h) of the payload; names the file
//                              pv-<16 hex>.jpv
//       40   24  description   ASCII, NUL-padded (free text, e.g. the training run's id)
//       64       payload, float32, row-major:
//                  trunkW   [772][H]   (input-major: row f is input f's contribution)
//                  trunkB   [H]
//                  valueW1  [V][H]     valueB1 [V]
//                  valueW2  [3][V]     valueB2 [3]
//                  policyW  [1858][H]  policyB [1858]
// A reader rejects a file whose magic, version, sizes, reserved field, archId, payload size or
// content hash differ, that is truncated or has trailing bytes, or whose payload holds a NaN or an
// infinity.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "netfile/netfile.h"

namespace janus::mcts::pvnet {

inline constexpr char kPvMagic[8] = {'J', 'A', 'N', 'U', 'S', 'P', 'V', '\0'};
inline constexpr std::uint16_t kPvVersion = 1;
inline constexpr int kPieceInputs = 768;
inline constexpr int kInputs = 772;
inline constexpr int kPolicySize = 1858;
inline constexpr int kMinHidden = 16, kMaxHidden = 2048;
inline constexpr int kMinValueHidden = 8, kMaxValueHidden = 256;
/// At most this many inputs are active at once: 32 pieces and 4 castling rights.
inline constexpr int kMaxActive = 36;

#pragma pack(push, 1)
struct PvHeader {
  char magic[8];
  std::uint16_t version;
  std::uint16_t inputs;
  std::uint16_t hidden;
  std::uint16_t valueHidden;
  std::uint16_t policySize;
  std::uint16_t reserved0;
  std::uint32_t archId;
  std::uint64_t payloadBytes;
  std::uint64_t contentHash;
  char description[24];
};
#pragma pack(pop)
static_assert(sizeof(PvHeader) == 64);
static_assert(offsetof(PvHeader, archId) == 20);
static_assert(offsetof(PvHeader, payloadBytes) == 24);
static_assert(offsetof(PvHeader, contentHash) == 32);

/// True if (hidden, valueHidden) is an architecture this version describes.
[[nodiscard]] constexpr bool validSizes(int hidden, int valueHidden) {
  return hidden >= kMinHidden && hidden <= kMaxHidden && hidden % 16 == 0 && valueHidden >= kMinValueHidden &&
         valueHidden <= kMaxValueHidden && valueHidden % 8 == 0;
}

/// Number of float32 values in the payload.
[[nodiscard]] constexpr std::uint64_t payloadFloats(int hidden, int valueHidden) {
  const std::uint64_t h = std::uint64_t(hidden), v = std::uint64_t(valueHidden);
  return std::uint64_t(kInputs) * h + h + v * h + v + 3 * v + 3 + std::uint64_t(kPolicySize) * h + kPolicySize;
}

/// Bytes of the payload after the header.
[[nodiscard]] constexpr std::uint64_t payloadBytes(int hidden, int valueHidden) {
  return payloadFloats(hidden, valueHidden) * 4;
}

/// Identifier of an architecture: netfile::architectureId of (kPvVersion, kInputs, hidden,
/// valueHidden, kPolicySize).
[[nodiscard]] constexpr std::uint32_t architectureId(int hidden, int valueHidden) {
  return netfile::architectureId(
      {kPvVersion, std::uint32_t(kInputs), std::uint32_t(hidden), std::uint32_t(valueHidden), std::uint32_t(kPolicySize)});
}

/// The shared fields of the file (netfile/netfile.h): where they are and what the files are called.
inline constexpr netfile::Format kPvFormat =
    netfile::formatOf<PvHeader>("policy/value network", std::string_view(kPvMagic, sizeof kPvMagic), kPvVersion,
                                {offsetof(PvHeader, reserved0), sizeof PvHeader::reserved0}, "pv", "jpv");

/// Input index (0..767) of a piece of colour `pieceColor` (0 White, 1 Black) and type
/// `pieceType` (0 pawn .. 5 king) on `square` (0 = a1 .. 63 = h8) when `sideToMove` moves.
[[nodiscard]] constexpr int pieceInput(int sideToMove, int pieceColor, int pieceType, int square) {
  return (pieceColor == sideToMove ? 0 : 384) + pieceType * 64 + (sideToMove == 0 ? square : square ^ 56);
}

/// Input index of a castling right seen from the side to move: `own` (the side to move's
/// right) and `kingSide`.
[[nodiscard]] constexpr int castlingInput(bool own, bool kingSide) {
  return kPieceInputs + (own ? 0 : 2) + (kingSide ? 0 : 1);
}

}  // namespace janus::mcts::pvnet
