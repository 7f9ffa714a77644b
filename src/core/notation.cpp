#include "core/notation.h"

#include <sstream>

#include "core/movegen.h"
#include "util/error.h"

namespace janus {

namespace {
constexpr char kPieceLetters[] = "PNBRQK";

PieceType pieceFromLetter(char c) {
  switch (c) {
    case 'N': return kKnight;
    case 'B': return kBishop;
    case 'R': return kRook;
    case 'Q': return kQueen;
    case 'K': return kKing;
    default: return kNoPieceType;
  }
}
}  // namespace

std::string squareToString(Square s) { return {char('a' + fileOf(s)), char('1' + rankOf(s))}; }

std::optional<Square> parseSquare(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
  return makeSquare(s[0] - 'a', s[1] - '1');
}

std::string toUci(Move m, bool chess960) {
  if (!m || m == Move::null()) return "0000";
  Square from = m.from(), to = m.to();
  if (m.isCastling() && !chess960) to = makeSquare(to > from ? 6 : 2, rankOf(from));
  std::string s = squareToString(from) + squareToString(to);
  if (m.isPromotion()) s += "pnbrqk"[m.promotion()];
  return s;
}

Move parseUci(const Position& pos, std::string_view text, bool chess960) {
  std::string t(text);
  if (t.size() == 5 && t[4] >= 'A' && t[4] <= 'Z') t[4] = char(t[4] - 'A' + 'a');  // "e7e8Q"
  bool wellFormed = (t.size() == 4 || t.size() == 5) && parseSquare(std::string_view(t).substr(0, 2)) &&
                    parseSquare(std::string_view(t).substr(2, 2)) &&
                    (t.size() == 4 || std::string_view("nbrq").find(t[4]) != std::string_view::npos);
  if (!wellFormed) throw Error("move '" + std::string(text) + "': not a UCI move (expected e.g. e2e4 or e7e8q)");
  MoveList moves = legalMoves(pos);
  for (bool mode : {chess960, !chess960})
    for (Move m : moves)
      if (toUci(m, mode) == t) return m;
  throw Error("illegal move '" + std::string(text) + "' in position " + pos.fen());
}

std::string toSan(const Position& pos, Move m) {
  std::string s;
  if (m.isCastling()) {
    s = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    PieceType pt = typeOf(pos.movedPiece(m));
    bool capture = pos.isCapture(m);
    if (pt == kPawn) {
      if (capture) s += char('a' + fileOf(m.from())), s += 'x';
      s += squareToString(m.to());
      if (m.isPromotion()) s += '=', s += kPieceLetters[m.promotion()];
    } else {
      s += kPieceLetters[pt];
      // Disambiguation (PGN spec 8.2.3.4): file if it suffices, else rank, else both.
      bool ambiguous = false, sameFile = false, sameRank = false;
      for (Move o : legalMoves(pos)) {
        if (o == m || o.to() != m.to() || o.isCastling() || typeOf(pos.movedPiece(o)) != pt) continue;
        ambiguous = true;
        sameFile |= fileOf(o.from()) == fileOf(m.from());
        sameRank |= rankOf(o.from()) == rankOf(m.from());
      }
      if (ambiguous) {
        if (!sameFile)
          s += char('a' + fileOf(m.from()));
        else if (!sameRank)
          s += char('1' + rankOf(m.from()));
        else
          s += squareToString(m.from());
      }
      if (capture) s += 'x';
      s += squareToString(m.to());
    }
  }
  if (pos.givesCheck(m)) {
    Position after = pos;
    after.makeMove(m);
    s += hasLegalMove(after) ? '+' : '#';
  }
  return s;
}

Move parseSan(const Position& pos, std::string_view text) {
  std::string t(text);
  auto fail = [&](const std::string& why) -> Move {
    throw Error("SAN '" + std::string(text) + "': " + why + " in position " + pos.fen());
  };
  // Strip check/mate markers and annotation glyphs.
  while (!t.empty() && std::string_view("+#!?").find(t.back()) != std::string_view::npos) t.pop_back();
  if (t.empty()) return fail("empty move");

  MoveList moves = legalMoves(pos);
  if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
    bool kingSide = t.size() == 3;
    for (Move m : moves)
      if (m.isCastling() && (m.to() > m.from()) == kingSide) return m;
    return fail("castling is not legal");
  }

  // Grammar: [piece][from-file][from-rank][x]to-square[[=]promotion]
  PieceType pt = kPawn, promo = kNoPieceType;
  size_t i = 0;
  if (pieceFromLetter(t[0]) != kNoPieceType) pt = pieceFromLetter(t[i++]);
  // Promotion suffix.
  if (t.size() >= 2 && pieceFromLetter(t.back()) != kNoPieceType && pieceFromLetter(t.back()) != kKing) {
    char last = t.back();
    size_t cut = t.size() - 1;
    if (cut > i && t[cut - 1] == '=') --cut;
    if (cut >= i + 2 && t[cut - 1] >= '1' && t[cut - 1] <= '8') {
      promo = pieceFromLetter(last);
      t.resize(cut);
    }
  }
  if (t.size() < i + 2) return fail("not a SAN move");
  auto to = parseSquare(std::string_view(t).substr(t.size() - 2));
  if (!to) return fail("no destination square");
  std::string_view mid = std::string_view(t).substr(i, t.size() - 2 - i);
  if (!mid.empty() && mid.back() == 'x') mid.remove_suffix(1);
  int fromFile = -1, fromRank = -1;
  for (char c : mid) {
    if (c >= 'a' && c <= 'h' && fromFile < 0 && fromRank < 0)
      fromFile = c - 'a';
    else if (c >= '1' && c <= '8' && fromRank < 0)
      fromRank = c - '1';
    else
      return fail("not a SAN move");
  }
  if (pt == kPawn && promo == kNoPieceType && relativeRank(pos.sideToMove(), *to) == 7)
    return fail("pawn move to the last rank needs a promotion piece");

  Move found = Move::none();
  int matches = 0;
  for (Move m : moves) {
    if (m.isCastling() || m.to() != *to || typeOf(pos.movedPiece(m)) != pt) continue;
    if (fromFile >= 0 && fileOf(m.from()) != fromFile) continue;
    if (fromRank >= 0 && rankOf(m.from()) != fromRank) continue;
    if (m.isPromotion() ? m.promotion() != promo : promo != kNoPieceType) continue;
    found = m;
    ++matches;
  }
  if (matches == 0) return fail("no legal move matches");
  if (matches > 1) return fail("ambiguous, " + std::to_string(matches) + " legal moves match");
  return found;
}

UciPositionArgs splitUciPosition(std::string_view args) {
  std::istringstream ss{std::string(args)};
  std::string token;
  UciPositionArgs out;
  bool haveMoves = false;
  ss >> token;
  if (token == "startpos") {
    out.fen = "startpos";
    if (ss >> token) {
      // Anything but "moves" here is an error (it used to be ignored silently, so that
      // "position startpos e2e4" set up the start position without the move).
      if (token != "moves") throw Error("position: expected 'moves', got '" + token + "'");
      haveMoves = true;
    }
  } else if (token == "fen") {
    while (ss >> token) {
      if (token == "moves") {
        haveMoves = true;
        break;
      }
      out.fen += (out.fen.empty() ? "" : " ") + token;
    }
    if (out.fen.empty()) throw Error("position fen: missing FEN");
  } else {
    throw Error("position: expected 'startpos' or 'fen <FEN>', got '" + token + "'");
  }
  if (haveMoves)
    while (ss >> token) out.moves.push_back(token);
  return out;
}

}  // namespace janus
