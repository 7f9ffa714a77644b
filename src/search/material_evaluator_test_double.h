#pragma once
// Test double for search tests: material plus a small centralisation bonus, so that search
// tests do not depend on the real evaluation's tuning.

#include "core/bitboard.h"
#include "eval/evaluator.h"

namespace janus::testing {

class MaterialEvaluator final : public Evaluator {
 public:
  int evaluate(const Position& pos) override {
    static constexpr int kValue[6] = {100, 320, 330, 500, 900, 0};
    constexpr Bitboard kCenter = 0x00003C3C3C3C0000ULL;
    int score = 0;
    for (Color c : {kWhite, kBlack}) {
      int s = 0;
      for (int pt = kPawn; pt <= kQueen; ++pt) s += kValue[pt] * pos.count(c, PieceType(pt));
      s += 10 * popCount(pos.pieces(c) & kCenter & ~pos.pieces(kPawn));
      score += c == kWhite ? s : -s;
    }
    return pos.sideToMove() == kWhite ? score : -score;
  }
  std::unique_ptr<Evaluator> clone() const override { return std::make_unique<MaterialEvaluator>(); }
  std::string name() const override { return "material-test"; }
};

}  // namespace janus::testing
