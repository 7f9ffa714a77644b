#pragma once
// Staged move picker (chessprogramming wiki "Move Ordering"): moves come out best-first without
// sorting the whole list up front, and quiet moves are not even generated when a capture or the
// TT move already cuts off.
//
// Main search stages: TT move -> good captures/promotions (SEE >= 0, ordered by MVV plus capture
// history) -> killer 1 -> killer 2 -> countermove -> quiets (butterfly + continuation history)
// -> bad captures.  Quiescence: TT move -> captures/promotions (evasions of every kind when in
// check).  ProbCut: TT move -> captures with SEE >= threshold.
// Every move returned is legal.

#include "core/movegen.h"
#include "search/history.h"

namespace janus {

class MovePicker {
 public:
  /// Main search. `contHist` holds the continuation histories of the moves 1, 2 and 4 plies
  /// before (sentinels where absent).
  MovePicker(const Position& pos, Move ttMove, const Move killers[2], Move counter, const Histories& hist,
             const PieceToHistory* const contHist[3]);
  /// Quiescence search (captures and promotions; all evasions when in check).
  MovePicker(const Position& pos, Move ttMove, const Histories& hist, const PieceToHistory* const contHist[3]);
  /// ProbCut: captures whose SEE is at least `threshold`.
  MovePicker(const Position& pos, Move ttMove, int threshold, const Histories& hist);

  /// Next move, or Move::none() when exhausted. With skipQuiets, quiet moves not yet returned
  /// are skipped (late move pruning); bad captures still come.
  Move next(bool skipQuiets = false);

 private:
  enum Stage {
    kMainTT, kGenNoisy, kGoodNoisy, kKiller1, kKiller2, kCounter, kGenQuiet, kQuiet, kBadNoisy,
    kEvasionTT, kGenEvasions, kEvasions,
    kQsTT, kQsGenNoisy, kQsNoisy,
    kProbCutTT, kProbCutGen, kProbCutNoisy,
    kDone
  };
  struct ScoredMove {
    Move move;
    int score;
  };

  void scoreNoisy(int begin, int end);
  void scoreQuiet(int begin, int end);
  /// Index of the best-scored move in [m_cur, m_end), swapped to m_cur.
  Move pickBest();
  [[nodiscard]] bool isSpecial(Move m) const;

  const Position& m_pos;
  const Histories& m_hist;
  const PieceToHistory* m_contHist[3] = {};
  Move m_ttMove, m_killers[2], m_counter;
  int m_threshold = 0;
  Stage m_stage;
  union {  // not initialised on construction (see MoveList)
    ScoredMove m_moves[kMaxMoves];
  };
  int m_cur = 0, m_end = 0, m_badEnd = 0;
};

}  // namespace janus
