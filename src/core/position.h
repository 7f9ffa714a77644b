#pragma once
// Position: the board, side to move, castling rights, en passant square, move clocks and the
// history of states needed to unmake moves and detect repetitions.
//
// Representation: 6 piece-type bitboards + 2 colour bitboards + a 64-entry mailbox
// (chessprogramming wiki "Bitboard Board-Definition"). Moves are made and unmade in place;
// each makeMove pushes one StateInfo (key, rights, clocks, captured piece, checkers) onto a
// stack that unmakeMove pops, so the Zobrist key is updated incrementally and restored exactly.
//
// Castling is stored as "king takes own rook" (Move::to() is the rook's square). This one
// representation serves standard chess and Chess960 (Fischer Random, FIDE Laws appendix
// "Chess960 rules", castling: king to g/c file, rook to f/d file).

#include <string>
#include <string_view>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"

namespace janus {

/// Everything makeMove changes that cannot be recomputed cheaply on unmake.
struct StateInfo {
  u64 key = 0;                ///< Zobrist key of the position (after the move)
  u64 pawnKey = 0;            ///< Zobrist key of pawns only (for pawn-structure caches)
  u64 nonPawnKey[2] = {0, 0};  ///< [colour] Zobrist key of that colour's knights, bishops, rooks, queens and king
  Bitboard checkers = 0;      ///< enemy pieces giving check to the side to move
  CastlingRights castling = kNoCastling;
  Square epSquare = kNoSquare;  ///< set only when an en passant capture is legal
  u16 halfmoveClock = 0;      ///< plies since the last capture or pawn move (50-move rule)
  u16 pliesFromNull = 0;      ///< plies since the last null move (bounds repetition scans)
  Piece captured = kNoPiece;  ///< piece captured by the move that led here
  Move move;                  ///< the move that led here (Move::none() at the root)
};

/// Chess960-aware castling geometry of one game, fixed when the position is set up.
struct CastlingGeometry {
  Square rookFrom[4] = {kNoSquare, kNoSquare, kNoSquare, kNoSquare};  ///< by castlingIndex
  Bitboard emptyPath[4] = {};  ///< squares that must be empty (excluding king and rook)
  Bitboard kingPath[4] = {};   ///< squares the king stands on or crosses (must not be attacked)
  u8 rightsMask[64] = {};      ///< rights lost when a piece moves from/to a square
};

/// What a move needs to give check (chessprogramming wiki "Check"), for the side to move:
/// `checkSquares[pt]` = the squares from which a piece of type pt (kPawn..kKing, 6 entries;
/// kKing's is empty) attacks the opponent's king `ksq` with the current occupancy, and
/// `discoverers` = the side to move's pieces that are the only blocker between one of its own
/// sliders and that king (moving one off the line uncovers a check). Computed once per node.
struct CheckInfo {
  Bitboard checkSquares[6];
  Bitboard discoverers;
  Square ksq;
};

class Position {
 public:
  static constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  /// The standard starting position.
  Position();

  /// Parses FEN, X-FEN or Shredder-FEN (https://www.chessprogramming.org/Forsyth-Edwards_Notation,
  /// https://en.wikipedia.org/wiki/X-FEN). The halfmove and fullmove fields may be omitted
  /// (EPD); extra fields after them are an error. Castling letters K/Q/k/q take the outermost
  /// rook on that side; A-H/a-h name the rook's file. Chess960 mode is switched on when the
  /// castling rooks or king are not on their standard squares, or when `chess960` is true.
  /// Throws janus::Error naming the field and the reason: bad syntax, a missing or extra king,
  /// pawns on the first or last rank, more than 16 pieces or 8 pawns of one colour, the side
  /// not to move in check, a castling right without its king and rook, an impossible en
  /// passant square.
  static Position fromFen(std::string_view fen, bool chess960 = false);

  /// FEN of the current position. Castling uses KQkq, or X-FEN file letters in Chess960 when the
  /// rook is not the outermost one. The en passant square is written only when an en passant
  /// capture is legal (as Stockfish and python-chess do).
  [[nodiscard]] std::string fen() const;

  // ---- Board queries -------------------------------------------------------------------------
  [[nodiscard]] Piece pieceOn(Square s) const { return m_board[s]; }
  [[nodiscard]] bool empty(Square s) const { return m_board[s] == kNoPiece; }
  [[nodiscard]] Bitboard pieces() const { return m_byColor[kWhite] | m_byColor[kBlack]; }
  [[nodiscard]] Bitboard pieces(Color c) const { return m_byColor[c]; }
  [[nodiscard]] Bitboard pieces(PieceType pt) const { return m_byType[pt]; }
  [[nodiscard]] Bitboard pieces(PieceType a, PieceType b) const { return m_byType[a] | m_byType[b]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType pt) const { return m_byColor[c] & m_byType[pt]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return m_byColor[c] & (m_byType[a] | m_byType[b]);
  }
  [[nodiscard]] Square kingSquare(Color c) const { return lsb(pieces(c, kKing)); }
  [[nodiscard]] Color sideToMove() const { return m_sideToMove; }
  [[nodiscard]] int count(Color c, PieceType pt) const { return popCount(pieces(c, pt)); }

  // ---- State ---------------------------------------------------------------------------------
  [[nodiscard]] const StateInfo& state() const { return m_states.back(); }
  [[nodiscard]] u64 key() const { return state().key; }
  [[nodiscard]] u64 pawnKey() const { return state().pawnKey; }
  [[nodiscard]] u64 nonPawnKey(Color c) const { return state().nonPawnKey[c]; }
  [[nodiscard]] Bitboard checkers() const { return state().checkers; }
  [[nodiscard]] bool inCheck() const { return state().checkers != 0; }
  [[nodiscard]] CastlingRights castlingRights() const { return state().castling; }
  [[nodiscard]] Square epSquare() const { return state().epSquare; }
  [[nodiscard]] int halfmoveClock() const { return state().halfmoveClock; }
  /// Full-move number as in FEN (starts at 1, incremented after Black's move).
  [[nodiscard]] int fullmoveNumber() const { return 1 + (m_gamePly - (m_sideToMove == kBlack)) / 2; }
  /// Plies played since the game's first position (from the FEN's fullmove number).
  [[nodiscard]] int gamePly() const { return m_gamePly; }
  /// Number of moves made on this object since it was set up (size of the undo stack).
  [[nodiscard]] int movesMade() const { return int(m_states.size()) - 1; }
  [[nodiscard]] Move lastMove() const { return state().move; }
  [[nodiscard]] Piece capturedPiece() const { return state().captured; }
  [[nodiscard]] bool isChess960() const { return m_chess960; }
  [[nodiscard]] const CastlingGeometry& castling() const { return m_castling; }
  [[nodiscard]] bool canCastle(CastlingRights cr) const { return state().castling & cr; }

  // ---- Attacks -------------------------------------------------------------------------------
  /// All pieces of both colours attacking `s` given occupancy `occ`.
  [[nodiscard]] Bitboard attackersTo(Square s, Bitboard occ) const;
  [[nodiscard]] Bitboard attackersTo(Square s) const { return attackersTo(s, pieces()); }
  /// True if any piece of colour `by` attacks `s` with occupancy `occ`.
  [[nodiscard]] bool attacked(Square s, Color by, Bitboard occ) const;
  /// Pieces of either colour that are the only blocker between `c`'s king and an enemy slider.
  [[nodiscard]] Bitboard blockersForKing(Color c) const;

  // ---- Moves ---------------------------------------------------------------------------------
  /// Piece that moves (the king for castling).
  [[nodiscard]] Piece movedPiece(Move m) const { return m_board[m.from()]; }
  [[nodiscard]] bool isCapture(Move m) const {
    return (!empty(m.to()) && !m.isCastling()) || m.isEnPassant();
  }
  /// Captures and promotions: what quiescence search looks at.
  [[nodiscard]] bool isNoisy(Move m) const { return isCapture(m) || m.isPromotion(); }
  /// Full legality test of an arbitrary 16-bit move (e.g. from the transposition table).
  [[nodiscard]] bool isLegal(Move m) const;
  /// True if `m` (legal) gives check.
  [[nodiscard]] bool givesCheck(Move m) const { return givesCheck(m, checkInfo()); }
  /// The same with the node's CheckInfo (from checkInfo() of this very position), which makes
  /// the test a few table reads for the usual move: the search asks it of every move it looks at.
  [[nodiscard]] bool givesCheck(Move m, const CheckInfo& ci) const;
  /// What makes a move of the side to move give check; see CheckInfo.
  [[nodiscard]] CheckInfo checkInfo() const;

  /// Key after `m`, ignoring castling-right and en passant changes: good enough to prefetch the
  /// transposition table entry of the child before making the move.
  [[nodiscard]] u64 keyAfter(Move m) const;

  /// Makes a legal move. The caller guarantees legality (use isLegal for untrusted moves).
  void makeMove(Move m);
  /// Unmakes the last move made with makeMove. Restores every field exactly.
  void unmakeMove(Move m);
  /// Passes the turn (null move pruning). Must not be called when in check.
  void makeNullMove();
  void unmakeNullMove();

  // ---- Game end ------------------------------------------------------------------------------
  /// True if the current position occurred before at least `times` times (within the
  /// stretch since the last irreversible move). times = 2 is FIDE threefold repetition.
  [[nodiscard]] bool isRepetition(int times) const;
  /// Repetition test for search: a repetition of a position after the root (`plyFromRoot`
  /// plies ago or later) counts at once; one before the root needs to have happened twice.
  [[nodiscard]] bool isSearchRepetition(int plyFromRoot) const;
  /// Neither side has mating material (K vs K, K+minor vs K, K+B vs K+B same colour squares).
  [[nodiscard]] bool isInsufficientMaterial() const;
  /// 50-move rule: at least 100 plies without capture or pawn move (checkmate takes precedence).
  [[nodiscard]] bool isFiftyMoveDraw() const { return state().halfmoveClock >= 100; }
  /// True if the side to move has a non-pawn, non-king piece (null-move zugzwang guard).
  [[nodiscard]] bool hasNonPawnMaterial(Color c) const {
    return pieces(c) & ~pieces(kPawn, kKing);
  }

  /// Recomputes key, pawn key and checkers from scratch (for tests of incremental updates).
  [[nodiscard]] u64 computeKey() const;
  [[nodiscard]] u64 computePawnKey() const;
  [[nodiscard]] u64 computeNonPawnKey(Color c) const;

  /// Human-readable board diagram.
  [[nodiscard]] std::string pretty() const;

 private:
  struct Uninitialised {};
  explicit Position(Uninitialised) {}
  void clear();
  void putPiece(Piece p, Square s);
  void removePiece(Square s);
  void movePiece(Square from, Square to);
  void addCastlingRight(Color c, Square rookSq);
  [[nodiscard]] bool epCaptureLegal(Square ep) const;

  Bitboard m_byType[6] = {};
  Bitboard m_byColor[2] = {};
  Piece m_board[64];
  Color m_sideToMove = kWhite;
  int m_gamePly = 0;
  bool m_chess960 = false;
  CastlingGeometry m_castling;
  std::vector<StateInfo> m_states;
};

/// Where the king and rook land when castling: g/c file and f/d file on the back rank.
constexpr Square castlingKingTo(Color c, bool kingSide) {
  return relativeSquare(c, kingSide ? kG1 : kC1);
}
constexpr Square castlingRookTo(Color c, bool kingSide) {
  return relativeSquare(c, kingSide ? kF1 : kD1);
}

}  // namespace janus
