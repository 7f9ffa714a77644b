#include "nnue/nnue_evaluator.h"

#include <algorithm>
#include <cstring>

#include "nnue/simd.h"
#include "util/error.h"

namespace janus::nnue {

namespace {
constexpr size_t kInitialPlies = kMaxPly + 16;

int featureOf(Color perspective, Piece piece, Square square, Square king, int kingBuckets) {
  return featureIndex(perspective, colorOf(piece), typeOf(piece), square, king, kingBuckets);
}
}  // namespace

NnueEvaluator::NnueEvaluator(std::shared_ptr<const Network> net) : m_net(std::move(net)) {
  if (!m_net) throw Error("NnueEvaluator: no network");
  m_stride = (size_t(m_net->hidden()) + 31) / 32 * 32;
  m_entries.resize(kInitialPlies);
  m_values = AlignedArray<std::int16_t>(kInitialPlies * 2 * m_stride);
  m_cacheKeys = m_net->kingBuckets() > 1 ? size_t(2 * m_net->kingBuckets()) : 1;
  m_cache.resize(2 * m_cacheKeys);
  m_cacheValues = AlignedArray<std::int16_t>(2 * m_cacheKeys * m_stride);
  for (size_t e = 0; e < 2 * m_cacheKeys; ++e)
    std::memcpy(m_cacheValues.get() + e * m_stride, m_net->ftBias(), size_t(m_net->hidden()) * sizeof(std::int16_t));
}

std::unique_ptr<Evaluator> NnueEvaluator::clone() const { return std::make_unique<NnueEvaluator>(m_net); }

void NnueEvaluator::grow() {
  const size_t plies = m_entries.size() * 2, n = m_stride;
  AlignedArray<std::int16_t> values(plies * 2 * n);
  std::memcpy(values.get(), m_values.get(), m_entries.size() * 2 * n * sizeof(std::int16_t));
  m_values = std::move(values);
  m_entries.resize(plies);
}

void NnueEvaluator::refresh(const Position& pos, Color perspective, std::int16_t* out) const {
  const int n = m_net->hidden();
  std::memcpy(out, m_net->ftBias(), size_t(n) * sizeof(std::int16_t));
  const std::int16_t* rows[32];
  int count = 0;
  const Square king = pos.kingSquare(perspective);
  const int kb = m_net->kingBuckets();
  for (Bitboard b = pos.pieces(); b; b &= b - 1) {
    Square s = lsb(b);
    rows[count++] = m_net->ftRow(featureOf(perspective, pos.pieceOn(s), s, king, kb));
  }
  simd::updateAccumulator(out, out, rows, count, nullptr, 0, n);
}

void NnueEvaluator::refreshCached(const Position& pos, Color perspective, std::int16_t* out) {
  const int n = m_net->hidden(), kb = m_net->kingBuckets();
  const Square king = pos.kingSquare(perspective);
  const size_t entry = perspective * m_cacheKeys + size_t(kingBucketKey(perspective, king, kb));
  CacheEntry& cached = m_cache[entry];
  std::int16_t* values = m_cacheValues.get() + entry * m_stride;
  const std::int16_t *adds[32], *subs[32];
  int nAdds = 0, nSubs = 0;
  for (Color c : {kWhite, kBlack})
    for (int t = kPawn; t <= kKing; ++t) {
      const Piece piece = makePiece(c, PieceType(t));
      const Bitboard now = pos.pieces(c, PieceType(t)), was = cached.pieces[c][t];
      for (Bitboard b = now & ~was; b; b &= b - 1) adds[nAdds++] = m_net->ftRow(featureOf(perspective, piece, lsb(b), king, kb));
      for (Bitboard b = was & ~now; b; b &= b - 1) subs[nSubs++] = m_net->ftRow(featureOf(perspective, piece, lsb(b), king, kb));
      cached.pieces[c][t] = now;
    }
  simd::updateAccumulator(values, values, adds, nAdds, subs, nSubs, n);
  std::memcpy(out, values, size_t(n) * sizeof(std::int16_t));
}

void NnueEvaluator::reset(const Position& pos) {
  m_top = 0;
  for (Color c : {kWhite, kBlack}) {
    refreshCached(pos, c, acc(0, c));
    m_entries[0].computed[c] = true;
  }
}

void NnueEvaluator::onMakeMove(const Position& pos, Move m) {
  if (m_top + 1 >= m_entries.size()) grow();
  Entry& e = m_entries[++m_top];
  e.nAdded = e.nRemoved = 0;
  e.computed[kWhite] = e.computed[kBlack] = false;
  e.refresh[kWhite] = e.refresh[kBlack] = false;
  if (m == Move::null()) return;
  const Color us = pos.sideToMove();
  const Piece moved = pos.movedPiece(m);
  if (typeOf(moved) == kKing && m_net->kingBuckets() > 1) {
    const int kb = m_net->kingBuckets();
    const Square to = m.isCastling() ? castlingKingTo(us, m.to() > m.from()) : m.to();
    e.refresh[us] = kingBucketKey(us, m.from(), kb) != kingBucketKey(us, to, kb);
  }
  auto add = [&](Piece p, Square s) { e.added[e.nAdded++] = {p, s}; };
  auto remove = [&](Piece p, Square s) { e.removed[e.nRemoved++] = {p, s}; };
  if (m.isCastling()) {
    // King takes own rook (position.h): both leave their squares and land on g/c and f/d.
    const bool kingSide = m.to() > m.from();
    remove(moved, m.from());
    remove(pos.pieceOn(m.to()), m.to());
    add(moved, castlingKingTo(us, kingSide));
    add(pos.pieceOn(m.to()), castlingRookTo(us, kingSide));
    return;
  }
  remove(moved, m.from());
  add(m.isPromotion() ? makePiece(us, m.promotion()) : moved, m.to());
  if (m.isEnPassant())
    remove(makePiece(~us, kPawn), Square(m.to() - pawnPush(us)));
  else if (!pos.empty(m.to()))
    remove(pos.pieceOn(m.to()), m.to());
}

void NnueEvaluator::onUnmakeMove(const Position& /*pos*/, Move /*m*/) {
  if (m_top > 0) --m_top;
}

void NnueEvaluator::bringUpToDate(const Position& pos, Color p) {
  size_t j = m_top;
  bool kingCrossed = false;  // a king move of p between the base and the top changed p's bucket
  while (j > 0 && !m_entries[j].computed[p]) kingCrossed |= m_entries[j--].refresh[p];
  if (!m_entries[j].computed[p] || kingCrossed) {
    // No base on the stack (no reset() yet), or every input of p changed since the base: the
    // top is refreshed from the position; the entries in between stay not computed, and a
    // later evaluate() at one of them (after unmakes) crosses the same king move and refreshes.
    refreshCached(pos, p, acc(m_top, p));
    m_entries[m_top].computed[p] = true;
    return;
  }
  // Without a crossing, p's king bucket and board half are the same from the base to the top,
  // so the top's king square gives every changed piece's input.
  const int n = m_net->hidden(), kb = m_net->kingBuckets();
  const Square king = pos.kingSquare(p);
  for (size_t k = j + 1; k <= m_top; ++k) {
    const Entry& e = m_entries[k];
    const std::int16_t *adds[2], *subs[2];
    for (int i = 0; i < e.nAdded; ++i) adds[i] = m_net->ftRow(featureOf(p, e.added[i].piece, e.added[i].square, king, kb));
    for (int i = 0; i < e.nRemoved; ++i)
      subs[i] = m_net->ftRow(featureOf(p, e.removed[i].piece, e.removed[i].square, king, kb));
    simd::updateAccumulator(acc(k, p), acc(k - 1, p), adds, e.nAdded, subs, e.nRemoved, n);
    m_entries[k].computed[p] = true;
  }
}

bool NnueEvaluator::loneKing(const Position& pos) {
  return pos.pieces(kWhite) == pos.pieces(kWhite, kKing) || pos.pieces(kBlack) == pos.pieces(kBlack, kKing);
}

int NnueEvaluator::evaluate(const Position& pos) {
  if (loneKing(pos)) return m_loneKing.evaluate(pos);
  bringUpToDate(pos, kWhite);
  bringUpToDate(pos, kBlack);
  const Color us = pos.sideToMove();
  const int bucket = outputBucket(popCount(pos.pieces()), m_net->outputBuckets());
  return std::clamp(m_net->output(acc(m_top, us), acc(m_top, ~us), bucket), -kEvalMax + 1, kEvalMax - 1);
}

int NnueEvaluator::evaluateFromScratch(const Position& pos) const {
  if (loneKing(pos)) return m_loneKing.evaluate(pos);
  const size_t n = m_stride;
  AlignedArray<std::int16_t> both(2 * n);
  const Color us = pos.sideToMove();
  refresh(pos, us, both.get());
  refresh(pos, ~us, both.get() + n);
  const int bucket = outputBucket(popCount(pos.pieces()), m_net->outputBuckets());
  return std::clamp(m_net->output(both.get(), both.get() + n, bucket), -kEvalMax + 1, kEvalMax - 1);
}

std::vector<std::int16_t> NnueEvaluator::accumulator(const Position& pos, Color perspective) {
  bringUpToDate(pos, perspective);
  const std::int16_t* a = acc(m_top, perspective);
  return {a, a + m_net->hidden()};
}

}  // namespace janus::nnue
