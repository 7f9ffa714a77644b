#include "core/position.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "core/fen.h"
#include "core/zobrist.h"
#include "util/error.h"

namespace janus {

namespace {
constexpr std::string_view kPieceChars = "PNBRQKpnbrqk";
constexpr const char* kColorNames[2] = {"White", "Black"};

std::string squareName(Square s) {
  return {char('a' + fileOf(s)), char('1' + rankOf(s))};
}
}  // namespace

Position::Position() { *this = fromFen(kStartFen); }

void Position::clear() {
  for (auto& b : m_byType) b = 0;
  m_byColor[kWhite] = m_byColor[kBlack] = 0;
  for (auto& p : m_board) p = kNoPiece;
  m_sideToMove = kWhite;
  m_gamePly = 0;
  m_chess960 = false;
  m_castling = CastlingGeometry{};
  m_states.clear();
  m_states.reserve(kMaxPly + 64);
  m_states.emplace_back();
}

void Position::putPiece(Piece p, Square s) {
  m_board[s] = p;
  m_byType[typeOf(p)] |= squareBB(s);
  m_byColor[colorOf(p)] |= squareBB(s);
}

void Position::removePiece(Square s) {
  Piece p = m_board[s];
  m_byType[typeOf(p)] ^= squareBB(s);
  m_byColor[colorOf(p)] ^= squareBB(s);
  m_board[s] = kNoPiece;
}

void Position::movePiece(Square from, Square to) {
  Piece p = m_board[from];
  Bitboard fromTo = squareBB(from) | squareBB(to);
  m_byType[typeOf(p)] ^= fromTo;
  m_byColor[colorOf(p)] ^= fromTo;
  m_board[from] = kNoPiece;
  m_board[to] = p;
}

// ------------------------------------------------------------------------------------------------
// FEN
// ------------------------------------------------------------------------------------------------

void Position::addCastlingRight(Color c, Square rookSq) {
  Square ksq = kingSquare(c);
  bool kingSide = rookSq > ksq;
  int idx = castlingIndex(c, kingSide);
  CastlingRights cr = castlingRight(c, kingSide);
  Square kto = castlingKingTo(c, kingSide), rto = castlingRookTo(c, kingSide);
  m_castling.rookFrom[idx] = rookSq;
  m_castling.emptyPath[idx] =
      (between(ksq, kto) | squareBB(kto) | between(rookSq, rto) | squareBB(rto)) & ~(squareBB(ksq) | squareBB(rookSq));
  m_castling.kingPath[idx] = between(ksq, kto) | squareBB(kto) | squareBB(ksq);
  m_castling.rightsMask[ksq] |= cr;
  m_castling.rightsMask[rookSq] |= cr;
  m_states.back().castling = m_states.back().castling | cr;
  if (fileOf(ksq) != 4 || (fileOf(rookSq) != 0 && fileOf(rookSq) != 7)) m_chess960 = true;
}

Position Position::fromFen(std::string_view fen, bool chess960) {
  Position pos{Uninitialised{}};
  pos.clear();
  pos.m_chess960 = chess960;

  std::vector<std::string_view> fields;
  for (size_t i = 0; i < fen.size();) {
    while (i < fen.size() && std::isspace(static_cast<unsigned char>(fen[i]))) ++i;
    size_t j = i;
    while (j < fen.size() && !std::isspace(static_cast<unsigned char>(fen[j]))) ++j;
    if (j > i) fields.push_back(fen.substr(i, j - i));
    i = j;
  }
  if (fields.size() < 4)
    throw Error("FEN '" + std::string(fen) + "' has " + std::to_string(fields.size()) +
                " fields; at least 4 are needed (placement, side, castling, en passant)");
  if (fields.size() > 6)
    throw Error("FEN has " + std::to_string(fields.size()) + " fields; at most 6 are allowed (unexpected '" +
                std::string(fields[6]) + "')");

  // Field 1: piece placement, rank 8 first.
  {
    int rank = 7, file = 0;
    for (char ch : fields[0]) {
      if (ch == '/') {
        if (file != 8)
          throw Error("FEN field 1 (placement): rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                      " squares, expected 8");
        if (--rank < 0) throw Error("FEN field 1 (placement): more than 8 ranks");
        file = 0;
      } else if (ch >= '1' && ch <= '8') {
        file += ch - '0';
        if (file > 8) throw Error("FEN field 1 (placement): rank " + std::to_string(rank + 1) + " has more than 8 squares");
      } else {
        auto idx = kPieceChars.find(ch);
        if (idx == std::string_view::npos)
          throw Error(std::string("FEN field 1 (placement): '") + ch + "' is not a piece letter (PNBRQKpnbrqk) or a digit 1-8");
        if (file > 7) throw Error("FEN field 1 (placement): rank " + std::to_string(rank + 1) + " has more than 8 squares");
        pos.putPiece(Piece(idx), makeSquare(file, rank));
        ++file;
      }
    }
    if (rank != 0) throw Error("FEN field 1 (placement): " + std::to_string(8 - rank) + " ranks, expected 8");
    if (file != 8) throw Error("FEN field 1 (placement): rank 1 has " + std::to_string(file) + " squares, expected 8");
  }
  for (Color c : {kWhite, kBlack}) {
    int kings = pos.count(c, kKing);
    if (kings != 1)
      throw Error(std::string("FEN field 1 (placement): ") + kColorNames[c] +
                  (kings == 0 ? " has no king" : " has " + std::to_string(kings) + " kings"));
    if (popCount(pos.pieces(c)) > 16)
      throw Error(std::string("FEN field 1 (placement): ") + kColorNames[c] + " has more than 16 pieces");
    if (pos.count(c, kPawn) > 8)
      throw Error(std::string("FEN field 1 (placement): ") + kColorNames[c] + " has more than 8 pawns");
  }
  if (pos.pieces(kPawn) & (kRank1 | kRank8))
    throw Error("FEN field 1 (placement): pawn on the first or last rank (" +
                squareName(lsb(pos.pieces(kPawn) & (kRank1 | kRank8))) + ")");

  // Field 2: side to move.
  if (fields[1] == "w")
    pos.m_sideToMove = kWhite;
  else if (fields[1] == "b")
    pos.m_sideToMove = kBlack;
  else
    throw Error("FEN field 2 (side to move): '" + std::string(fields[1]) + "' is not 'w' or 'b'");

  // Field 3: castling rights (KQkq, X-FEN or Shredder-FEN file letters).
  if (fields[2] != "-") {
    for (char ch : fields[2]) {
      Color c = std::isupper(static_cast<unsigned char>(ch)) ? kWhite : kBlack;
      char up = char(std::toupper(static_cast<unsigned char>(ch)));
      Square ksq = pos.kingSquare(c);
      Piece rook = makePiece(c, kRook);
      int backRank = c == kWhite ? 0 : 7;
      auto fail = [&](const std::string& why) {
        throw Error("FEN field 3 (castling): '" + std::string(1, ch) + "' " + why);
      };
      if (rankOf(ksq) != backRank) fail(std::string("but the ") + kColorNames[c] + " king is not on its back rank");
      Square rookSq = kNoSquare;
      if (up == 'K') {
        for (int f = 7; f > fileOf(ksq); --f)
          if (pos.pieceOn(makeSquare(f, backRank)) == rook) {
            rookSq = makeSquare(f, backRank);
            break;
          }
      } else if (up == 'Q') {
        for (int f = 0; f < fileOf(ksq); ++f)
          if (pos.pieceOn(makeSquare(f, backRank)) == rook) {
            rookSq = makeSquare(f, backRank);
            break;
          }
      } else if (up >= 'A' && up <= 'H') {
        Square s = makeSquare(up - 'A', backRank);
        if (pos.pieceOn(s) == rook && s != ksq) rookSq = s;
      } else {
        fail("is not a castling letter (KQkq, A-H, a-h or -)");
      }
      if (rookSq == kNoSquare) fail(std::string("but there is no ") + kColorNames[c] + " rook to castle with");
      if (pos.castlingRights() & castlingRight(c, rookSq > ksq)) fail("repeats a castling right");
      pos.addCastlingRight(c, rookSq);
    }
  }

  // Field 4: en passant target square.
  Square ep = kNoSquare;
  if (fields[3] != "-") {
    auto f = fields[3];
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
      throw Error("FEN field 4 (en passant): '" + std::string(f) + "' is not a square or '-'");
    ep = makeSquare(f[0] - 'a', f[1] - '1');
    Color us = pos.m_sideToMove;
    Square pushed = Square(ep - pawnPush(us));   // where the double-pushed pawn stands
    Square origin = Square(ep + pawnPush(us));   // where it came from
    if (relativeRank(us, ep) != 5)
      throw Error("FEN field 4 (en passant): " + std::string(f) + " is impossible with " + kColorNames[us] +
                  " to move (must be on rank " + (us == kWhite ? "6" : "3") + ")");
    if (pos.pieceOn(pushed) != makePiece(~us, kPawn) || !pos.empty(ep) || !pos.empty(origin))
      throw Error("FEN field 4 (en passant): " + std::string(f) + " is impossible: no " + kColorNames[~us] +
                  " pawn can just have made a double step past it");
  }

  // Fields 5 and 6: halfmove clock and fullmove number (optional, as in EPD).
  auto parseInt = [](std::string_view s, int field, const char* name, int minValue) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v < minValue)
      throw Error("FEN field " + std::to_string(field) + " (" + name + "): '" + std::string(s) +
                  "' is not an integer >= " + std::to_string(minValue));
    return v;
  };
  int halfmove = fields.size() > 4 ? parseInt(fields[4], 5, "halfmove clock", 0) : 0;
  int fullmove = fields.size() > 5 ? parseInt(fields[5], 6, "fullmove number", 0) : 1;
  if (fullmove == 0) fullmove = 1;  // common in the wild; treated as 1
  if (halfmove > 10000) halfmove = 10000;
  if (fullmove > 100000) throw Error("FEN field 6 (fullmove number): " + std::to_string(fullmove) + " is too large");

  StateInfo& st = pos.m_states.back();
  st.halfmoveClock = u16(halfmove);
  pos.m_gamePly = 2 * (fullmove - 1) + (pos.m_sideToMove == kBlack);

  Color us = pos.m_sideToMove;
  if (pos.attacked(pos.kingSquare(~us), us, pos.pieces()))
    throw Error(std::string("FEN: illegal position, the side not to move (") + kColorNames[~us] + ") is in check");
  st.checkers = pos.attackersTo(pos.kingSquare(us)) & pos.pieces(~us);
  if (ep != kNoSquare && pos.epCaptureLegal(ep)) st.epSquare = ep;
  st.key = pos.computeKey();
  st.pawnKey = pos.computePawnKey();
  for (Color c : {kWhite, kBlack}) st.nonPawnKey[c] = pos.computeNonPawnKey(c);
  return pos;
}

std::string Position::fen() const {
  char board[64];
  for (int sq = 0; sq < 64; ++sq) board[sq] = m_board[sq] == kNoPiece ? '.' : kPieceChars[m_board[sq]];
  std::string s = fenPlacement(board);
  s += m_sideToMove == kWhite ? " w " : " b ";
  CastlingRights cr = castlingRights();
  if (!cr) s += '-';
  for (Color c : {kWhite, kBlack})
    for (bool kingSide : {true, false}) {
      if (!(cr & castlingRight(c, kingSide))) continue;
      Square rookSq = m_castling.rookFrom[castlingIndex(c, kingSide)];
      // X-FEN: K/Q unless another rook stands further out on that side.
      Bitboard outer = kingSide ? (rankBB(rankOf(rookSq)) & ~((squareBB(rookSq) << 1) - 1))
                                : (rankBB(rankOf(rookSq)) & (squareBB(rookSq) - 1));
      char ch = (m_chess960 && (pieces(c, kRook) & outer)) ? char('A' + fileOf(rookSq)) : (kingSide ? 'K' : 'Q');
      s += c == kWhite ? ch : char(std::tolower(ch));
    }
  s += ' ';
  s += epSquare() == kNoSquare ? "-" : squareName(epSquare());
  s += ' ' + std::to_string(halfmoveClock()) + ' ' + std::to_string(fullmoveNumber());
  return s;
}

std::string Position::pretty() const {
  std::ostringstream os;
  os << " +---+---+---+---+---+---+---+---+\n";
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) {
      Piece p = m_board[makeSquare(f, r)];
      os << " | " << (p == kNoPiece ? ' ' : kPieceChars[p]);
    }
    os << " | " << r + 1 << "\n +---+---+---+---+---+---+---+---+\n";
  }
  os << "   a   b   c   d   e   f   g   h\n\nFen: " << fen() << "\nKey: " << std::hex << std::uppercase << key()
     << std::dec << "\n";
  return os.str();
}

u64 Position::computeKey() const {
  u64 k = 0;
  for (int s = 0; s < 64; ++s)
    if (m_board[s] != kNoPiece) k ^= zobrist::psq(m_board[s], Square(s));
  k ^= zobrist::castling(castlingRights());
  if (epSquare() != kNoSquare) k ^= zobrist::enPassant(epSquare());
  if (m_sideToMove == kBlack) k ^= zobrist::side();
  return k;
}

u64 Position::computeNonPawnKey(Color c) const {
  u64 k = 0;
  for (Bitboard b = pieces(c) & ~pieces(kPawn); b; b &= b - 1) k ^= zobrist::psq(m_board[lsb(b)], lsb(b));
  return k;
}

u64 Position::computePawnKey() const {
  u64 k = 0;
  Bitboard b = pieces(kPawn);
  while (b) {
    Square s = popLsb(b);
    k ^= zobrist::psq(m_board[s], s);
  }
  return k;
}

// ------------------------------------------------------------------------------------------------
// Attacks
// ------------------------------------------------------------------------------------------------

Bitboard Position::attackersTo(Square s, Bitboard occ) const {
  return (pawnAttacks(kBlack, s) & pieces(kWhite, kPawn)) | (pawnAttacks(kWhite, s) & pieces(kBlack, kPawn)) |
         (knightAttacks(s) & pieces(kKnight)) | (kingAttacks(s) & pieces(kKing)) |
         (bishopAttacks(s, occ) & pieces(kBishop, kQueen)) | (rookAttacks(s, occ) & pieces(kRook, kQueen));
}

bool Position::attacked(Square s, Color by, Bitboard occ) const {
  return (pawnAttacks(~by, s) & pieces(by, kPawn)) || (knightAttacks(s) & pieces(by, kKnight)) ||
         (kingAttacks(s) & pieces(by, kKing)) || (bishopAttacks(s, occ) & pieces(by, kBishop, kQueen)) ||
         (rookAttacks(s, occ) & pieces(by, kRook, kQueen));
}

Bitboard Position::blockersForKing(Color c) const {
  Square ksq = kingSquare(c);
  Bitboard snipers = ((rookAttacks(ksq, 0) & pieces(kRook, kQueen)) | (bishopAttacks(ksq, 0) & pieces(kBishop, kQueen))) &
                     pieces(~c);
  Bitboard occ = pieces(), blockers = 0;
  while (snipers) {
    Bitboard b = between(ksq, popLsb(snipers)) & occ;
    if (b && !moreThanOne(b)) blockers |= b;
  }
  return blockers;
}

bool Position::epCaptureLegal(Square ep) const {
  Color us = m_sideToMove;
  Square ksq = kingSquare(us);
  Square capSq = Square(ep - pawnPush(us));
  Bitboard capturers = pawnAttacks(~us, ep) & pieces(us, kPawn);
  while (capturers) {
    Square from = popLsb(capturers);
    Bitboard occ = (pieces() ^ squareBB(from) ^ squareBB(capSq)) | squareBB(ep);
    Bitboard att = (attackersTo(ksq, occ) & pieces(~us)) & ~squareBB(capSq);
    if (!att) return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------
// Legality and checks
// ------------------------------------------------------------------------------------------------

bool Position::isLegal(Move m) const {
  if (!m.isOk()) return false;
  if (!m.isPromotion() && (m.raw() & 0x3000)) return false;  // non-canonical: promotion bits set
  Color us = m_sideToMove, them = ~us;
  Square from = m.from(), to = m.to();
  Piece pc = m_board[from];
  if (pc == kNoPiece || colorOf(pc) != us) return false;
  Square ksq = kingSquare(us);
  Bitboard occ = pieces();

  if (m.isCastling()) {
    if (typeOf(pc) != kKing || inCheck()) return false;
    bool kingSide = to > from;
    int idx = castlingIndex(us, kingSide);
    if (!canCastle(castlingRight(us, kingSide)) || m_castling.rookFrom[idx] != to) return false;
    if (m_board[to] != makePiece(us, kRook)) return false;
    if (m_castling.emptyPath[idx] & occ) return false;
    Bitboard occWithout = occ ^ squareBB(from) ^ squareBB(to);
    Bitboard path = m_castling.kingPath[idx];
    while (path)
      if (attacked(popLsb(path), them, occWithout)) return false;
    return true;
  }

  if (m.isEnPassant()) {
    if (typeOf(pc) != kPawn || to != epSquare() || !(pawnAttacks(us, from) & squareBB(to))) return false;
    Square capSq = Square(to - pawnPush(us));
    Bitboard occAfter = (occ ^ squareBB(from) ^ squareBB(capSq)) | squareBB(to);
    return !((attackersTo(ksq, occAfter) & pieces(them)) & ~squareBB(capSq));
  }

  bool lastRank = relativeRank(us, to) == 7;
  if (m.isPromotion() != (typeOf(pc) == kPawn && lastRank)) return false;
  if (pieces(us) & squareBB(to)) return false;

  if (typeOf(pc) == kPawn) {
    int push = pawnPush(us);
    bool ok = false;
    if (pawnAttacks(us, from) & pieces(them) & squareBB(to))
      ok = true;
    else if (int(to) == int(from) + push && empty(to))
      ok = true;
    else if (int(to) == int(from) + 2 * push && relativeRank(us, from) == 1 && empty(to) && empty(Square(from + push)))
      ok = true;
    if (!ok) return false;
  } else if (!(attacks(typeOf(pc), from, occ) & squareBB(to))) {
    return false;
  }

  if (typeOf(pc) == kKing) return !attacked(to, them, occ ^ squareBB(from));

  Bitboard chk = checkers();
  if (chk) {
    if (moreThanOne(chk)) return false;
    if (!((between(ksq, lsb(chk)) | chk) & squareBB(to))) return false;
  }
  if ((blockersForKing(us) & squareBB(from)) && !aligned(from, to, ksq)) return false;
  return true;
}

CheckInfo Position::checkInfo() const {
  const Color them = ~m_sideToMove;
  const Square ksq = kingSquare(them);
  const Bitboard occ = pieces();
  CheckInfo ci;
  ci.ksq = ksq;
  ci.checkSquares[kPawn] = pawnAttacks(them, ksq);
  ci.checkSquares[kKnight] = knightAttacks(ksq);
  ci.checkSquares[kBishop] = bishopAttacks(ksq, occ);
  ci.checkSquares[kRook] = rookAttacks(ksq, occ);
  ci.checkSquares[kQueen] = ci.checkSquares[kBishop] | ci.checkSquares[kRook];
  ci.checkSquares[kKing] = 0;
  ci.discoverers = blockersForKing(them) & pieces(m_sideToMove);
  return ci;
}

bool Position::givesCheck(Move m, const CheckInfo& ci) const {
  const Square from = m.from(), to = m.to();
  if (!m.isCastling() && !m.isEnPassant() && !m.isPromotion()) {
    // Direct: the occupancy of checkSquares is today's, which is right for the moved piece too
    // (a slider's own from-square cannot have been the last blocker of its new line to the king,
    // or it would already be giving check with the opponent to move).
    if (ci.checkSquares[typeOf(m_board[from])] & squareBB(to)) return true;
    return (ci.discoverers & squareBB(from)) && !aligned(from, to, ci.ksq);
  }
  // Castling, en passant and promotions change the occupancy in more than one way: test the
  // position after the move directly.
  const Color us = m_sideToMove;
  const Square ksq = ci.ksq;
  Bitboard occ = pieces() ^ squareBB(from);
  const Bitboard bq = pieces(us, kBishop, kQueen) & ~squareBB(from);
  const Bitboard rq = pieces(us, kRook, kQueen) & ~squareBB(from);
  if (m.isCastling()) {
    const bool kingSide = to > from;
    const Square kto = castlingKingTo(us, kingSide), rto = castlingRookTo(us, kingSide);
    occ = (occ ^ squareBB(to)) | squareBB(kto) | squareBB(rto);
    return rookAttacks(rto, occ) & squareBB(ksq);
  }
  occ |= squareBB(to);
  if (m.isEnPassant()) occ ^= squareBB(Square(to - pawnPush(us)));
  const PieceType pt = m.isPromotion() ? m.promotion() : kPawn;
  const Bitboard direct = pt == kPawn ? pawnAttacks(us, to) : attacks(pt, to, occ);
  if (direct & squareBB(ksq)) return true;
  // Discovered checks (including through the square vacated by an en passant victim).
  return ((bishopAttacks(ksq, occ) & bq) | (rookAttacks(ksq, occ) & rq)) & ~squareBB(to);
}

// ------------------------------------------------------------------------------------------------
// Make / unmake
// ------------------------------------------------------------------------------------------------

u64 Position::keyAfter(Move m) const {
  Piece pc = m_board[m.from()];
  u64 k = key() ^ zobrist::side() ^ zobrist::psq(pc, m.from());
  if (m.isCastling()) return k ^ zobrist::psq(pc, castlingKingTo(m_sideToMove, m.to() > m.from()));
  if (m_board[m.to()] != kNoPiece) k ^= zobrist::psq(m_board[m.to()], m.to());
  return k ^ zobrist::psq(m.isPromotion() ? makePiece(m_sideToMove, m.promotion()) : pc, m.to());
}

void Position::makeMove(Move m) {
  StateInfo st = m_states.back();
  Color us = m_sideToMove, them = ~us;
  Square from = m.from(), to = m.to();
  Piece pc = m_board[from];

  st.key ^= zobrist::side();
  if (st.epSquare != kNoSquare) {
    st.key ^= zobrist::enPassant(st.epSquare);
    st.epSquare = kNoSquare;
  }
  ++st.halfmoveClock;
  ++st.pliesFromNull;
  st.move = m;
  st.captured = kNoPiece;

  if (m.isCastling()) {
    bool kingSide = to > from;
    Square kto = castlingKingTo(us, kingSide), rto = castlingRookTo(us, kingSide);
    Piece rook = m_board[to];
    removePiece(from);
    removePiece(to);
    putPiece(pc, kto);
    putPiece(rook, rto);
    const u64 change = zobrist::psq(pc, from) ^ zobrist::psq(pc, kto) ^ zobrist::psq(rook, to) ^ zobrist::psq(rook, rto);
    st.key ^= change;
    st.nonPawnKey[us] ^= change;
  } else {
    Square capSq = m.isEnPassant() ? Square(to - pawnPush(us)) : to;
    Piece captured = m_board[capSq];
    if (captured != kNoPiece) {
      removePiece(capSq);
      st.key ^= zobrist::psq(captured, capSq);
      if (typeOf(captured) == kPawn)
        st.pawnKey ^= zobrist::psq(captured, capSq);
      else
        st.nonPawnKey[them] ^= zobrist::psq(captured, capSq);
      st.halfmoveClock = 0;
      st.captured = captured;
    }
    movePiece(from, to);
    st.key ^= zobrist::psq(pc, from) ^ zobrist::psq(pc, to);
    if (typeOf(pc) == kPawn) {
      st.halfmoveClock = 0;
      st.pawnKey ^= zobrist::psq(pc, from);
      if (m.isPromotion()) {
        Piece promo = makePiece(us, m.promotion());
        removePiece(to);
        putPiece(promo, to);
        st.key ^= zobrist::psq(pc, to) ^ zobrist::psq(promo, to);
        st.nonPawnKey[us] ^= zobrist::psq(promo, to);
      } else {
        st.pawnKey ^= zobrist::psq(pc, to);
      }
    } else {
      st.nonPawnKey[us] ^= zobrist::psq(pc, from) ^ zobrist::psq(pc, to);
    }
  }

  CastlingRights lost = CastlingRights(m_castling.rightsMask[from] | m_castling.rightsMask[to]);
  if (st.castling & lost) {
    st.key ^= zobrist::castling(st.castling);
    st.castling = st.castling & ~lost;
    st.key ^= zobrist::castling(st.castling);
  }

  m_sideToMove = them;
  ++m_gamePly;
  st.checkers = attackersTo(kingSquare(them)) & pieces(us);

  // Double pawn push: record the en passant square only if the capture is legal, so that
  // positions that differ only in an unusable e.p. square share one key (FIDE 9.2.3).
  if (typeOf(pc) == kPawn && (int(to) ^ int(from)) == 16) {
    Square ep = Square((int(from) + int(to)) / 2);
    if ((pawnAttacks(us, ep) & pieces(them, kPawn)) && epCaptureLegal(ep)) {
      st.epSquare = ep;
      st.key ^= zobrist::enPassant(ep);
    }
  }
  m_states.push_back(st);
}

void Position::unmakeMove(Move m) {
  const StateInfo& st = m_states.back();
  m_sideToMove = ~m_sideToMove;
  --m_gamePly;
  Color us = m_sideToMove;
  Square from = m.from(), to = m.to();

  if (m.isCastling()) {
    bool kingSide = to > from;
    Square kto = castlingKingTo(us, kingSide), rto = castlingRookTo(us, kingSide);
    Piece king = m_board[kto], rook = m_board[rto];
    removePiece(kto);
    removePiece(rto);
    putPiece(king, from);
    putPiece(rook, to);
  } else {
    if (m.isPromotion()) {
      removePiece(to);
      putPiece(makePiece(us, kPawn), to);
    }
    movePiece(to, from);
    if (st.captured != kNoPiece) putPiece(st.captured, m.isEnPassant() ? Square(to - pawnPush(us)) : to);
  }
  m_states.pop_back();
}

void Position::makeNullMove() {
  StateInfo st = m_states.back();
  st.key ^= zobrist::side();
  if (st.epSquare != kNoSquare) {
    st.key ^= zobrist::enPassant(st.epSquare);
    st.epSquare = kNoSquare;
  }
  ++st.halfmoveClock;
  st.pliesFromNull = 0;
  st.move = Move::null();
  st.captured = kNoPiece;
  m_sideToMove = ~m_sideToMove;
  ++m_gamePly;
  st.checkers = 0;
  m_states.push_back(st);
}

void Position::unmakeNullMove() {
  m_states.pop_back();
  m_sideToMove = ~m_sideToMove;
  --m_gamePly;
}

// ------------------------------------------------------------------------------------------------
// Draws
// ------------------------------------------------------------------------------------------------

bool Position::isRepetition(int times) const {
  const StateInfo& st = state();
  int end = std::min<int>({st.halfmoveClock, st.pliesFromNull, int(m_states.size()) - 1});
  int count = 0;
  for (int i = 4; i <= end; i += 2)
    if (m_states[m_states.size() - 1 - i].key == st.key && ++count >= times) return true;
  return false;
}

bool Position::isSearchRepetition(int plyFromRoot) const {
  const StateInfo& st = state();
  int end = std::min<int>({st.halfmoveClock, st.pliesFromNull, int(m_states.size()) - 1});
  int count = 0;
  for (int i = 4; i <= end; i += 2)
    if (m_states[m_states.size() - 1 - i].key == st.key && (i < plyFromRoot || ++count >= 2)) return true;
  return false;
}

bool Position::isInsufficientMaterial() const {
  if (pieces(kPawn, kRook) || pieces(kQueen)) return false;
  Bitboard minors = pieces(kKnight, kBishop);
  if (!moreThanOne(minors)) return true;  // K vs K, K+minor vs K
  // Only bishops, all on squares of one colour.
  if (pieces(kKnight)) return false;
  Bitboard b = pieces(kBishop);
  return !(b & kDarkSquares) || !(b & ~kDarkSquares);
}

}  // namespace janus
