#pragma once
// Input planes of the MCTS face's policy/value network: a [C][8][8] float tensor describing a
// position and its recent history, oriented to the side to move (the design notes' encoding,
// after AlphaZero (Silver et al. 2018) and Leela Chess Zero). docs/encoding.md has the table.
//
// Base planes (C = 119), square index = 8 * rank + file after orientation (Black to move:
// ranks mirrored, so the side to move always plays up the board):
//   for h = 0..7 (h = 0 the current position, h = k the position k plies earlier; all zero
//   before the start of the game), at plane 14h:
//     +0..5   the side to move's pawns, knights, bishops, rooks, queens, king (1 = present)
//     +6..11  the opponent's pieces, same order
//     +12     all ones if that position occurred before (once or more)
//     +13     all ones if it occurred at least twice before
//   112  all ones if Black is to move
//   113  side to move may castle king side, 114 queen side; 115, 116 the same for the opponent
//   117  halfmove clock / 100 (the 50-move rule counter, 1.0 = a draw can be claimed)
//   118  all ones (lets convolutions see the board edge)
// Optional planes (EncoderOptions), appended in this order:
//   pins:     2 planes, pieces pinned to their own king (side to move's, opponent's)
//   control:  2 planes, number of the side's pieces attacking each square / 8
//   pawns:    4 planes, passed pawns (own, opponent's), doubled pawns (own, opponent's)
//   mobility: 2 planes, destination squares of legal moves (own; the opponent's as if it were
//             to move, all zero when the side to move is in check)
// History steps (EncoderOptions::historySteps, 1..8): a network may be given only the first
// positions. The planes of older positions (14h..14h+13 for h >= historySteps) are then zero,
// and with one step the repetition planes 12 and 13 as well (a network trained on single
// positions, whose samples know no repetitions). The plane count does not change.

#include <span>
#include <string>
#include <vector>

#include "core/position.h"

namespace janus::encoding {

inline constexpr int kHistory = 8;
inline constexpr int kPlanesPerPosition = 14;
inline constexpr int kBasePlanes = kHistory * kPlanesPerPosition + 7;  // 119

/// Which optional feature planes to append (the design notes' extra features) and how many
/// positions of the history the network sees.
struct EncoderOptions {
  bool pins = false;
  bool control = false;
  bool pawns = false;
  bool mobility = false;
  int historySteps = kHistory;  ///< 1..kHistory
  bool operator==(const EncoderOptions&) const = default;
};

/// Number of planes C for `options` (119 .. 129).
[[nodiscard]] constexpr int planeCount(const EncoderOptions& options) {
  return kBasePlanes + 2 * options.pins + 2 * options.control + 4 * options.pawns + 2 * options.mobility;
}

/// The optional planes as bit flags, as network files store them: bit 0 pins, 1 control,
/// 2 pawns, 3 mobility.
[[nodiscard]] constexpr int encoderFlags(const EncoderOptions& options) {
  return (options.pins ? 1 : 0) | (options.control ? 2 : 0) | (options.pawns ? 4 : 0) | (options.mobility ? 8 : 0);
}

/// The inverse of encoderFlags() (bits above 3 are ignored), with `historySteps`.
[[nodiscard]] constexpr EncoderOptions encoderOptions(int flags, int historySteps = kHistory) {
  return EncoderOptions{(flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0, (flags & 8) != 0, historySteps};
}

/// One row of the plane table: index, short name, meaning and scale.
struct PlaneInfo {
  int index;
  std::string name;
  std::string meaning;
};
/// Every plane of the layout for `options`, in order (for docs and debugging tools).
[[nodiscard]] std::vector<PlaneInfo> planeTable(const EncoderOptions& options);

/// Writes the planes of `pos` (with the history in its undo stack, up to options.historySteps
/// positions) into `out`, which must hold planeCount(options) * 64 floats. Throws janus::Error if
/// it is smaller or historySteps is outside 1..kHistory.
void encodePlanes(const Position& pos, const EncoderOptions& options, std::span<float> out);

/// Convenience: a new vector of planeCount(options) * 64 floats.
[[nodiscard]] std::vector<float> encodePlanes(const Position& pos, const EncoderOptions& options = {});

}  // namespace janus::encoding
