#pragma once
// The evaluation seam. Search talks only to this interface, so that the hand-crafted
// evaluation (HCE) and later NNUE plug in without touching search, UCI or the GUI.

#include <memory>
#include <string>

#include "core/position.h"

namespace janus {

/// Largest absolute static evaluation (centipawns); everything above is reserved for mate and
/// tablebase scores in search.
constexpr int kEvalMax = 15000;

/// Static evaluation of a position. One instance per search thread: implementations may keep
/// caches (pawn hash, accumulators) and are not thread-safe.
class Evaluator {
 public:
  virtual ~Evaluator() = default;

  /// Static evaluation in centipawns from the side to move's point of view, in
  /// [-kEvalMax, kEvalMax]. May be called in check. Deterministic for a given position.
  [[nodiscard]] virtual int evaluate(const Position& pos) = 0;

  /// Hooks called by search around Position::makeMove/unmakeMove (and the null move, with
  /// Move::null()). Incremental evaluators (NNUE accumulators) update here; `pos` is the
  /// position before the move for onMakeMove and after the unmake for onUnmakeMove.
  virtual void onMakeMove(const Position& /*pos*/, Move /*m*/) {}
  virtual void onUnmakeMove(const Position& /*pos*/, Move /*m*/) {}
  /// Forget any incremental state (new root position).
  virtual void reset(const Position& /*pos*/) {}

  /// A new, independent instance with the same parameters (for another search thread).
  [[nodiscard]] virtual std::unique_ptr<Evaluator> clone() const = 0;
  /// Short identifier, e.g. "hce".
  [[nodiscard]] virtual std::string name() const = 0;
};

}  // namespace janus
