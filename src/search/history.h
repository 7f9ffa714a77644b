#pragma once
// Move-ordering statistics (chessprogramming wiki "History Heuristic", "Killer Heuristic",
// "Countermove Heuristic"; continuation history as described for Stockfish in the wiki page
// "History Heuristic", section "Continuation History").
//
// Every table holds i16 scores updated with the "history gravity" formula
//   h += bonus - h * |bonus| / kHistoryMax
// which keeps |h| <= kHistoryMax and lets recent results outweigh old ones.

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/types.h"

namespace janus {

constexpr int kHistoryMax = 16384;

inline void applyGravity(i16& entry, int bonus) {
  bonus = std::clamp(bonus, -kHistoryMax, kHistoryMax);
  entry = i16(entry + bonus - entry * std::abs(bonus) / kHistoryMax);
}

/// Scores indexed by [piece][to]: one continuation-history slot (for a previous move).
struct PieceToHistory {
  i16 table[12][64];
  [[nodiscard]] int get(Piece p, Square to) const { return table[p][to]; }
  void update(Piece p, Square to, int bonus) { applyGravity(table[p][to], bonus); }
};

/// Per-thread history tables (about 1.2 MiB, mostly continuation history).
struct Histories {
  /// Butterfly history: [side to move][from * 64 + to].
  i16 main[2][64 * 64];
  /// Capture history: [moving piece][to][captured piece type].
  i16 capture[12][64][6];
  /// Continuation history: [previous move's piece][previous to] -> PieceToHistory of replies.
  /// Index [12][0] is a zeroed sentinel used when there is no previous move (root, null move).
  PieceToHistory continuation[13][64];
  /// Countermove: [previous move's piece][previous to] -> the reply that refuted it.
  Move counter[12][64];

  void clear() { std::memset(static_cast<void*>(this), 0, sizeof(*this)); }  // all-zero is the empty state
  [[nodiscard]] PieceToHistory* sentinel() { return &continuation[12][0]; }
};

}  // namespace janus
