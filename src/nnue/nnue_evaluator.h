#pragma once
// NnueEvaluator: the Evaluator (eval/evaluator.h) over a quantised NNUE network (network.h).
//
// Accumulators (chessprogramming wiki "NNUE", "Efficiently updatable"): one int16 vector of
// hidden() values per perspective and ply, kept on a stack that follows the search's
// make/unmake hooks. onMakeMove records only which pieces appeared and disappeared (at most two
// of each: castling) and pushes an entry that is not yet computed; evaluate() brings the top
// entry up to date lazily, from the nearest computed entry below it, adding and subtracting
// only the changed features' rows. Positions that are never evaluated (pruned before their
// static evaluation) therefore cost no accumulator work. reset() and any evaluate() without a
// valid stack refresh the accumulator. With king buckets (format.h), a king move that changes
// its side's bucket or board half marks its entry: bringing that perspective up to date across
// such an entry refreshes it from the position instead.
//
// Refreshes go through an accumulator cache (the "Finny table" of Koivisto, as Stockfish's
// AccumulatorCaches; chessprogramming wiki "NNUE"): per perspective and king bucket key (bucket
// and board half), the accumulator of the pieces that key last saw, with their bitboards. A
// refresh adds the rows of the pieces the position has and the entry lacks and subtracts those
// the entry has and the position lacks: after a king move to another bucket that is a few rows
// (the pieces that moved since the key was last used), not all 32. Entries start as the bias
// with an empty board.
//
// Lone king: when one side has nothing but its king, evaluate() returns the hand-crafted
// evaluation instead (eval/hce.h: its mop-up terms drive the lone king to the edge and the
// other king towards it). The nets are trained on self-play data whose games are adjudicated at
// 1000 cp, so they have seen few such positions and give no gradient towards the mate: a
// 1000-level Janus (few nodes) failed to mate with K+R vs K in 200 plies with the net alone.
// The classical engines' endgame functions for KXK served the same purpose.

#include <memory>
#include <vector>

#include "eval/evaluator.h"
#include "eval/hce.h"
#include "nnue/network.h"

namespace janus::nnue {

class NnueEvaluator final : public Evaluator {
 public:
  /// `net` must not be null.
  explicit NnueEvaluator(std::shared_ptr<const Network> net);

  int evaluate(const Position& pos) override;
  void onMakeMove(const Position& pos, Move m) override;
  void onUnmakeMove(const Position& pos, Move m) override;
  void reset(const Position& pos) override;
  [[nodiscard]] std::unique_ptr<Evaluator> clone() const override;
  [[nodiscard]] std::string name() const override { return "nnue"; }

  /// Evaluation from a full refresh of both accumulators (no incremental state used or
  /// changed): the reference the incremental path must equal. Centipawns, side to move's view.
  [[nodiscard]] int evaluateFromScratch(const Position& pos) const;
  /// The accumulator of `perspective` for the top of the stack (after bringing it up to date):
  /// hidden() values. For tests of incremental == refresh.
  [[nodiscard]] std::vector<std::int16_t> accumulator(const Position& pos, Color perspective);

  [[nodiscard]] const Network& network() const { return *m_net; }

  /// True if one side has only its king: evaluate() answers with the hand-crafted evaluation.
  [[nodiscard]] static bool loneKing(const Position& pos);

 private:
  struct Change {
    Piece piece;
    Square square;
  };
  struct Entry {
    Change added[2], removed[2];
    u8 nAdded = 0, nRemoved = 0;
    bool computed[2] = {false, false};
    bool refresh[2] = {false, false};  ///< this move changed the king bucket key of that perspective
  };

  /// The pieces a cache entry's accumulator holds: [colour][piece type].
  struct CacheEntry {
    Bitboard pieces[2][6] = {};
  };

  std::int16_t* acc(size_t ply, Color perspective) {
    return m_values.get() + (ply * 2 + perspective) * m_stride;
  }
  /// Full refresh: bias plus the rows of all pieces (the reference of evaluateFromScratch).
  void refresh(const Position& pos, Color perspective, std::int16_t* out) const;
  /// Refresh through the accumulator cache (same result as refresh()); updates the entry.
  void refreshCached(const Position& pos, Color perspective, std::int16_t* out);
  void bringUpToDate(const Position& pos, Color perspective);
  void grow();

  std::shared_ptr<const Network> m_net;
  mutable HceEvaluator m_loneKing{EvalWeights::defaults(), 0};  ///< no pawn hash: stateless
  std::vector<Entry> m_entries;          ///< one per ply of the stack
  AlignedArray<std::int16_t> m_values;   ///< [ply][perspective][m_stride]
  size_t m_stride = 0;                   ///< int16 per accumulator: hidden() rounded up to 32 (64 bytes)
  size_t m_top = 0;
  size_t m_cacheKeys = 1;                    ///< king bucket keys per perspective: 2 K (K > 1) or 1
  std::vector<CacheEntry> m_cache;           ///< [perspective][key]
  AlignedArray<std::int16_t> m_cacheValues;  ///< [perspective][key][m_stride]
};

}  // namespace janus::nnue
