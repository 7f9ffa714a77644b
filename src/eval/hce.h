#pragma once
// The hand-crafted evaluation (HCE): a tapered middlegame/endgame evaluation built from the
// weights of weights.h. Terms (each described at its weight in weights.h and with the source of
// its initial value in default_weights.cpp):
//   material and piece-square tables (PeSTO), bishop pair, pawn structure (doubled, isolated,
//   backward, connected), passed pawns (rank, blockage, free/safe path, king distances, rule of
//   the square), rooks on open/semi-open files and the 7th rank, mobility by safe squares per
//   piece type, king shelter (pawn shield and storm), king attack (attackers of the king zone,
//   weak zone squares, safe checks; quadratic in the units), threats, mop-up against a lone king,
//   tempo; endgame scaling (cannot-win material, pawnless near-equal material, KNN, opposite-
//   coloured bishops).
// Only bitboard operations; no move generation and no heap allocation in evaluate().
//
// Pawn hash: each instance owns a table of `pawnHashEntries` (default 16384, 40 bytes each,
// 640 KiB) keyed by Position::pawnKey(). An entry caches everything that depends on pawns only
// (pawn material, piece-square and structure scores, passed-pawn bitboards) and the king shelter
// score for the last king square and castling rights seen per colour. Always-replace; 0 entries
// disables the cache.

#include <memory>
#include <vector>

#include "eval/evaluator.h"
#include "eval/trace.h"
#include "eval/weights.h"

namespace janus {

class HceEvaluator final : public Evaluator {
 public:
  static constexpr std::size_t kDefaultPawnHashEntries = 16384;

  /// `pawnHashEntries` must be 0 (no cache) or a power of two; throws janus::Error otherwise.
  explicit HceEvaluator(const EvalWeights& weights = EvalWeights::defaults(),
                        std::size_t pawnHashEntries = kDefaultPawnHashEntries);

  /// Centipawns from the side to move's view, in [-kEvalMax, kEvalMax].
  [[nodiscard]] int evaluate(const Position& pos) override;
  /// Centipawns from White's view, in [-kEvalMax, kEvalMax].
  [[nodiscard]] int evaluateWhite(const Position& pos);

  /// Feature coefficients of `pos` (computed without the pawn hash). evaluateTrace(trace(pos),
  /// weights()) equals evaluateWhite(pos).
  [[nodiscard]] EvalTrace trace(const Position& pos) const;

  [[nodiscard]] const EvalWeights& weights() const { return m_weights; }
  /// Replaces the weights and clears the pawn hash.
  void setWeights(const EvalWeights& weights);
  void clearPawnHash();

  [[nodiscard]] std::unique_ptr<Evaluator> clone() const override;
  [[nodiscard]] std::string name() const override { return "hce"; }

  /// One pawn hash slot (see the file comment).
  struct PawnEntry {
    u64 key = 0;
    Bitboard passed[2] = {0, 0};
    TaperedScore score;                   ///< pawn-only terms, White minus Black
    TaperedScore shelter[2];              ///< king shelter score for shelterTag[c]
    u8 shelterTag[2] = {0xFF, 0xFF};      ///< king square | castling rights << 6; 0xFF = empty
    bool valid = false;
  };

 private:
  EvalWeights m_weights;
  std::vector<PawnEntry> m_pawnHash;
};

/// A default-weight HCE instance behind the Evaluator interface.
[[nodiscard]] std::unique_ptr<Evaluator> makeHceEvaluator();

}  // namespace janus
