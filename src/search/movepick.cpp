#include "search/movepick.h"

#include "search/see.h"
#include "search/tunables.h"

namespace janus {

MovePicker::MovePicker(const Position& pos, Move ttMove, const Move killers[2], Move counter, const Histories& hist,
                       const PieceToHistory* const contHist[3])
    : m_pos(pos), m_hist(hist), m_ttMove(ttMove), m_killers{killers[0], killers[1]}, m_counter(counter) {
  for (int i = 0; i < 3; ++i) m_contHist[i] = contHist[i];
  if (pos.inCheck())
    m_stage = kEvasionTT;
  else
    m_stage = kMainTT;
  if (!ttMove || !pos.isLegal(ttMove)) m_ttMove = Move::none();
  if (!m_ttMove) m_stage = Stage(m_stage + 1);
}

MovePicker::MovePicker(const Position& pos, Move ttMove, const Histories& hist, const PieceToHistory* const contHist[3])
    : m_pos(pos), m_hist(hist), m_ttMove(ttMove) {
  for (int i = 0; i < 3; ++i) m_contHist[i] = contHist[i];
  m_stage = pos.inCheck() ? kEvasionTT : kQsTT;
  // Outside check, quiescence only takes a noisy TT move.
  if (!ttMove || !pos.isLegal(ttMove) || (!pos.inCheck() && !pos.isNoisy(ttMove))) m_ttMove = Move::none();
  if (!m_ttMove) m_stage = Stage(m_stage + 1);
}

MovePicker::MovePicker(const Position& pos, Move ttMove, int threshold, const Histories& hist)
    : m_pos(pos), m_hist(hist), m_ttMove(ttMove), m_threshold(threshold) {
  m_stage = kProbCutTT;
  if (!ttMove || !pos.isLegal(ttMove) || !pos.isNoisy(ttMove) || !seeGe(pos, ttMove, threshold))
    m_ttMove = Move::none();
  if (!m_ttMove) m_stage = kProbCutGen;
}

bool MovePicker::isSpecial(Move m) const {
  return m == m_ttMove || m == m_killers[0] || m == m_killers[1] || m == m_counter;
}

void MovePicker::scoreNoisy(int begin, int end) {
  for (int i = begin; i < end; ++i) {
    Move m = m_moves[i].move;
    Piece moved = m_pos.movedPiece(m);
    PieceType captured = m.isEnPassant() ? kPawn : m_pos.empty(m.to()) ? kNoPieceType : typeOf(m_pos.pieceOn(m.to()));
    int s = 0;
    if (captured != kNoPieceType) s += 16 * tunables::seeValue(captured) + m_hist.capture[moved][m.to()][captured];
    if (m.isPromotion()) s += m.promotion() == kQueen ? 16 * tunables::SeeValueQueen : -100000;
    m_moves[i].score = s;
  }
}

void MovePicker::scoreQuiet(int begin, int end) {
  Color us = m_pos.sideToMove();
  for (int i = begin; i < end; ++i) {
    Move m = m_moves[i].move;
    Piece p = m_pos.movedPiece(m);
    Square to = m.to();
    m_moves[i].score = m_hist.main[us][m.from() * 64 + m.to()] + 2 * m_contHist[0]->get(p, to) +
                       m_contHist[1]->get(p, to) + m_contHist[2]->get(p, to) / 2;
  }
}

Move MovePicker::pickBest() {
  int best = m_cur;
  for (int i = m_cur + 1; i < m_end; ++i)
    if (m_moves[i].score > m_moves[best].score) best = i;
  std::swap(m_moves[m_cur], m_moves[best]);
  return m_moves[m_cur++].move;
}

Move MovePicker::next(bool skipQuiets) {
  MoveList list;
  switch (m_stage) {
    case kMainTT:
    case kEvasionTT:
    case kQsTT:
    case kProbCutTT:
      m_stage = Stage(m_stage + 1);
      return m_ttMove;

    case kGenNoisy:
    case kQsGenNoisy:
    case kProbCutGen:
      generateMoves(m_pos, list, GenType::kNoisy);
      m_cur = m_badEnd = 0;
      m_end = 0;
      for (Move m : list)
        if (m != m_ttMove) m_moves[m_end++] = {m, 0};
      scoreNoisy(0, m_end);
      m_stage = Stage(m_stage + 1);
      return next(skipQuiets);

    case kGoodNoisy:
      while (m_cur < m_end) {
        Move m = pickBest();
        // Losing captures and underpromotions wait until after the quiets; they are kept at the
        // front of the array.
        if (m_moves[m_cur - 1].score > -50000 && seeGe(m_pos, m, 0)) return m;
        m_moves[m_badEnd++] = m_moves[m_cur - 1];
      }
      m_stage = kKiller1;
      [[fallthrough]];

    case kKiller1:
      m_stage = kKiller2;
      if (m_killers[0] != m_ttMove && m_killers[0] && !m_pos.isNoisy(m_killers[0]) && m_pos.isLegal(m_killers[0]))
        return m_killers[0];
      [[fallthrough]];

    case kKiller2:
      m_stage = kCounter;
      if (m_killers[1] != m_ttMove && m_killers[1] && !m_pos.isNoisy(m_killers[1]) && m_pos.isLegal(m_killers[1]))
        return m_killers[1];
      [[fallthrough]];

    case kCounter:
      m_stage = kGenQuiet;
      if (m_counter && m_counter != m_ttMove && m_counter != m_killers[0] && m_counter != m_killers[1] &&
          !m_pos.isNoisy(m_counter) && m_pos.isLegal(m_counter))
        return m_counter;
      [[fallthrough]];

    case kGenQuiet:
      m_stage = kQuiet;
      m_cur = m_end = m_badEnd;  // quiets go after the bad captures in the array
      if (!skipQuiets) {
        generateMoves(m_pos, list, GenType::kQuiet);
        for (Move m : list)
          if (!isSpecial(m)) m_moves[m_end++] = {m, 0};
        scoreQuiet(m_cur, m_end);
        // Insertion sort, descending: quiets are consumed in order.
        for (int i = m_cur + 1; i < m_end; ++i) {
          ScoredMove t = m_moves[i];
          int j = i;
          for (; j > m_cur && m_moves[j - 1].score < t.score; --j) m_moves[j] = m_moves[j - 1];
          m_moves[j] = t;
        }
      }
      [[fallthrough]];

    case kQuiet:
      if (!skipQuiets && m_cur < m_end) return m_moves[m_cur++].move;
      m_stage = kBadNoisy;
      m_cur = 0;
      [[fallthrough]];

    case kBadNoisy:
      if (m_cur < m_badEnd) return m_moves[m_cur++].move;
      m_stage = kDone;
      return Move::none();

    case kGenEvasions:
      generateMoves(m_pos, list, GenType::kAll);
      m_cur = m_end = 0;
      for (Move m : list)
        if (m != m_ttMove) m_moves[m_end++] = {m, 0};
      // Captures first by MVV, then quiets by history.
      for (int i = 0; i < m_end; ++i) {
        Move m = m_moves[i].move;
        if (m_pos.isNoisy(m)) {
          scoreNoisy(i, i + 1);
          m_moves[i].score += 1 << 24;
        } else {
          scoreQuiet(i, i + 1);
        }
      }
      m_stage = kEvasions;
      [[fallthrough]];

    case kEvasions:
      if (m_cur < m_end) return pickBest();
      m_stage = kDone;
      return Move::none();

    case kQsNoisy:
      if (m_cur < m_end) return pickBest();
      m_stage = kDone;
      return Move::none();

    case kProbCutNoisy:
      while (m_cur < m_end) {
        Move m = pickBest();
        if (seeGe(m_pos, m, m_threshold)) return m;
      }
      m_stage = kDone;
      return Move::none();

    case kDone:
      return Move::none();
  }
  return Move::none();
}

}  // namespace janus
