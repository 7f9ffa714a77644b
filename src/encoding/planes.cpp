#include "encoding/planes.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/movegen.h"
#include "util/error.h"

namespace janus::encoding {

namespace {

const char* kPieceNames[6] = {"pawns", "knights", "bishops", "rooks", "queens", "king"};

/// Sets plane `plane` from bitboard `b` (real squares), oriented for `us`.
void setBits(std::span<float> out, int plane, Bitboard b, Color us, float value = 1.0f) {
  float* p = out.data() + size_t(plane) * 64;
  for (; b; b &= b - 1) p[us == kWhite ? lsb(b) : lsb(b) ^ 56] = value;
}

void fill(std::span<float> out, int plane, float value) {
  std::fill_n(out.data() + size_t(plane) * 64, 64, value);
}

Bitboard passedPawns(const Position& pos, Color c) {
  Bitboard result = 0, theirs = pos.pieces(~c, kPawn);
  for (Bitboard b = pos.pieces(c, kPawn); b; b &= b - 1) {
    const Square s = lsb(b);
    Bitboard files = fileBB(fileOf(s)) | (fileOf(s) > 0 ? fileBB(fileOf(s) - 1) : 0) | (fileOf(s) < 7 ? fileBB(fileOf(s) + 1) : 0);
    Bitboard ahead = 0;
    for (int r = rankOf(s) + (c == kWhite ? 1 : -1); r >= 0 && r <= 7; r += c == kWhite ? 1 : -1) ahead |= rankBB(r);
    if (!(theirs & files & ahead)) result |= squareBB(s);
  }
  return result;
}

Bitboard doubledPawns(const Position& pos, Color c) {
  Bitboard result = 0, ours = pos.pieces(c, kPawn);
  for (int f = 0; f < 8; ++f)
    if (popCount(ours & fileBB(f)) > 1) result |= ours & fileBB(f);
  return result;
}

Bitboard destinations(const Position& pos) {
  Bitboard b = 0;
  for (Move m : legalMoves(pos)) b |= squareBB(m.isCastling() ? castlingKingTo(pos.sideToMove(), m.to() > m.from()) : m.to());
  return b;
}

}  // namespace

std::vector<PlaneInfo> planeTable(const EncoderOptions& o) {
  std::vector<PlaneInfo> t;
  for (int h = 0; h < kHistory; ++h) {
    const std::string when = h == 0 ? "current position" : fmt::format("position {} plies earlier", h);
    for (int side = 0; side < 2; ++side)
      for (int pt = 0; pt < 6; ++pt)
        t.push_back({int(t.size()), fmt::format("h{}.{}.{}", h, side == 0 ? "own" : "their", kPieceNames[pt]),
                     fmt::format("{}: {} {} (1 = present)", when, side == 0 ? "side to move's" : "opponent's", kPieceNames[pt])});
    t.push_back({int(t.size()), fmt::format("h{}.rep1", h), when + ": 1 if it occurred before"});
    t.push_back({int(t.size()), fmt::format("h{}.rep2", h), when + ": 1 if it occurred at least twice before"});
  }
  t.push_back({int(t.size()), "black", "1 if Black is to move"});
  t.push_back({int(t.size()), "castle.own.king", "1 if the side to move may castle king side"});
  t.push_back({int(t.size()), "castle.own.queen", "1 if the side to move may castle queen side"});
  t.push_back({int(t.size()), "castle.their.king", "1 if the opponent may castle king side"});
  t.push_back({int(t.size()), "castle.their.queen", "1 if the opponent may castle queen side"});
  t.push_back({int(t.size()), "rule50", "halfmove clock / 100"});
  t.push_back({int(t.size()), "ones", "constant 1"});
  if (o.pins) {
    t.push_back({int(t.size()), "pins.own", "1 on the side to move's pieces pinned to its king"});
    t.push_back({int(t.size()), "pins.their", "1 on the opponent's pieces pinned to its king"});
  }
  if (o.control) {
    t.push_back({int(t.size()), "control.own", "side to move's attackers of the square / 8"});
    t.push_back({int(t.size()), "control.their", "opponent's attackers of the square / 8"});
  }
  if (o.pawns) {
    t.push_back({int(t.size()), "passed.own", "1 on the side to move's passed pawns"});
    t.push_back({int(t.size()), "passed.their", "1 on the opponent's passed pawns"});
    t.push_back({int(t.size()), "doubled.own", "1 on the side to move's doubled pawns"});
    t.push_back({int(t.size()), "doubled.their", "1 on the opponent's doubled pawns"});
  }
  if (o.mobility) {
    t.push_back({int(t.size()), "mobility.own", "1 on destination squares of the side to move's legal moves"});
    t.push_back({int(t.size()), "mobility.their",
                 "1 on destination squares of the opponent's legal moves if it were to move (0 when in check)"});
  }
  return t;
}

void encodePlanes(const Position& pos, const EncoderOptions& o, std::span<float> out) {
  const size_t need = size_t(planeCount(o)) * 64;
  if (out.size() < need) throw Error(fmt::format("encodePlanes: output holds {} floats, needs {}", out.size(), need));
  if (o.historySteps < 1 || o.historySteps > kHistory)
    throw Error(fmt::format("encodePlanes: {} history steps, expected 1..{}", o.historySteps, kHistory));
  std::fill_n(out.data(), need, 0.0f);
  const Color us = pos.sideToMove(), them = ~us;

  Position past = pos;
  for (int h = 0; h < o.historySteps; ++h) {  // positions the network does not see stay zero
    const int base = h * kPlanesPerPosition;
    for (int pt = 0; pt < 6; ++pt) {
      setBits(out, base + pt, past.pieces(us, PieceType(pt)), us);
      setBits(out, base + 6 + pt, past.pieces(them, PieceType(pt)), us);
    }
    if (o.historySteps > 1) {  // one step: no repetition planes (see planes.h)
      if (past.isRepetition(1)) fill(out, base + 12, 1.0f);
      if (past.isRepetition(2)) fill(out, base + 13, 1.0f);
    }
    if (past.movesMade() == 0 || h + 1 == o.historySteps) break;  // earlier positions: unknown or not seen
    const Move last = past.lastMove();
    if (last == Move::null())
      past.unmakeNullMove();
    else
      past.unmakeMove(last);
  }
  int p = kHistory * kPlanesPerPosition;
  if (us == kBlack) fill(out, p, 1.0f);
  ++p;
  const CastlingRights own[2] = {us == kWhite ? kWhiteKingSide : kBlackKingSide, us == kWhite ? kWhiteQueenSide : kBlackQueenSide};
  const CastlingRights their[2] = {us == kWhite ? kBlackKingSide : kWhiteKingSide, us == kWhite ? kBlackQueenSide : kWhiteQueenSide};
  for (CastlingRights cr : {own[0], own[1], their[0], their[1]}) {
    if (pos.canCastle(cr)) fill(out, p, 1.0f);
    ++p;
  }
  fill(out, p++, float(pos.halfmoveClock()) / 100.0f);
  fill(out, p++, 1.0f);
  if (o.pins) {
    setBits(out, p++, pos.blockersForKing(us) & pos.pieces(us), us);
    setBits(out, p++, pos.blockersForKing(them) & pos.pieces(them), us);
  }
  if (o.control) {
    for (Color c : {us, them}) {
      float* plane = out.data() + size_t(p++) * 64;
      for (int s = 0; s < 64; ++s)
        plane[us == kWhite ? s : s ^ 56] = float(popCount(pos.attackersTo(Square(s)) & pos.pieces(c))) / 8.0f;
    }
  }
  if (o.pawns) {
    setBits(out, p++, passedPawns(pos, us), us);
    setBits(out, p++, passedPawns(pos, them), us);
    setBits(out, p++, doubledPawns(pos, us), us);
    setBits(out, p++, doubledPawns(pos, them), us);
  }
  if (o.mobility) {
    setBits(out, p++, destinations(pos), us);
    if (!pos.inCheck()) {
      Position passed = pos;
      passed.makeNullMove();
      setBits(out, p, destinations(passed), us);
    }
    ++p;
  }
}

std::vector<float> encodePlanes(const Position& pos, const EncoderOptions& options) {
  std::vector<float> out(size_t(planeCount(options)) * 64);
  encodePlanes(pos, options, out);
  return out;
}

}  // namespace janus::encoding
