#include "encoding/policy_map.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "util/error.h"

namespace janus::encoding {

namespace {

struct Tables {
  std::array<PolicyMove, kPolicySize> moves{};
  // plain[from][to]: index of a queen/knight move (or -1); promo[file][dir+1][piece]: last part.
  std::array<std::array<short, 64>, 64> plain{};
  std::array<std::array<std::array<short, 3>, 3>, 8> promo{};

  Tables() {
    for (auto& row : plain) row.fill(-1);
    int n = 0;
    for (int from = 0; from < 64; ++from) {
      const int ff = from % 8, fr = from / 8;
      for (int to = 0; to < 64; ++to) {
        if (to == from) continue;
        const int df = to % 8 - ff, dr = to / 8 - fr;
        const bool queen = df == 0 || dr == 0 || std::abs(df) == std::abs(dr);
        const bool knight = (std::abs(df) == 1 && std::abs(dr) == 2) || (std::abs(df) == 2 && std::abs(dr) == 1);
        if (!queen && !knight) continue;
        plain[size_t(from)][size_t(to)] = short(n);
        moves[size_t(n++)] = {Square(from), Square(to), kNoPieceType};
      }
    }
    if (n != 1792) throw Error("policy map: " + std::to_string(n) + " queen and knight moves, expected 1792");
    for (int file = 0; file < 8; ++file)
      for (int dir = -1; dir <= 1; ++dir) {
        if (file + dir < 0 || file + dir > 7) continue;
        for (int p = 0; p < 3; ++p) {
          const PieceType pt = p == 0 ? kQueen : p == 1 ? kRook : kBishop;
          promo[size_t(file)][size_t(dir + 1)][size_t(p)] = short(n);
          moves[size_t(n++)] = {Square(48 + file), Square(56 + file + dir), pt};
        }
      }
    if (n != kPolicySize) throw Error("policy map: " + std::to_string(n) + " entries, expected 1858");
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

Square orient(Color us, Square s) { return us == kWhite ? s : Square(s ^ 56); }

}  // namespace

PolicyMove policyMove(int index) {
  if (index < 0 || index >= kPolicySize) throw Error("policy index " + std::to_string(index) + " outside 0..1857");
  return tables().moves[size_t(index)];
}

std::string policyMoveName(int index) {
  const PolicyMove m = policyMove(index);
  std::string s{char('a' + fileOf(m.from)), char('1' + rankOf(m.from)), char('a' + fileOf(m.to)), char('1' + rankOf(m.to))};
  if (m.promotion == kQueen) s += 'q';
  if (m.promotion == kRook) s += 'r';
  if (m.promotion == kBishop) s += 'b';
  return s;
}

int policyIndex(const Position& pos, Move m) {
  const Tables& t = tables();
  const Color us = pos.sideToMove();
  if (m.isCastling()) return t.plain[kE1][m.to() > m.from() ? kH1 : kA1];
  const Square from = orient(us, m.from()), to = orient(us, m.to());
  if (m.isPromotion() && m.promotion() != kKnight) {
    const int p = m.promotion() == kQueen ? 0 : m.promotion() == kRook ? 1 : 2;
    return t.promo[size_t(fileOf(from))][size_t(fileOf(to) - fileOf(from) + 1)][size_t(p)];
  }
  const int index = t.plain[from][to];
  if (index < 0) throw Error("policy map: move " + std::to_string(m.raw()) + " is not a queen or knight move");
  return index;
}

void legalPolicy(const Position& pos, std::span<const float> logits, std::span<const Move> moves,
                 std::span<float> probabilities, float temperature) {
  if (logits.size() != size_t(kPolicySize)) throw Error("legalPolicy: logits must have 1858 entries");
  if (probabilities.size() < moves.size()) throw Error("legalPolicy: output shorter than the move list");
  if (moves.empty()) return;
  float maxLogit = -INFINITY;
  for (size_t i = 0; i < moves.size(); ++i) {
    probabilities[i] = logits[size_t(policyIndex(pos, moves[i]))] / temperature;
    maxLogit = std::max(maxLogit, probabilities[i]);
  }
  double sum = 0;
  for (size_t i = 0; i < moves.size(); ++i) sum += probabilities[i] = std::exp(probabilities[i] - maxLogit);
  for (size_t i = 0; i < moves.size(); ++i) probabilities[i] = float(probabilities[i] / sum);
}

}  // namespace janus::encoding
