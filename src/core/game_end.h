#pragma once
// How a game ended: the one list shared by data generation (JANUSDAT), self-play (JANUSSP),
// engine matches and the GUI server. The numeric codes are stored in files (JANUSSP's GameHeader
// end byte, JANUSDAT version 3's gameEnd byte = 1 + code), so they never change: a new way for a
// game to end takes the next free code.
//
// The ends by the rules follow the FIDE Laws of Chess (articles 5 and 9): checkmate, stalemate,
// threefold repetition, the 50-move rule, a dead position (Position::isInsufficientMaterial
// detects the material-only cases). The rest are decisions outside the rules of play: a
// resignation, an adjudication, a length limit, or an engine failure in a match.

#include <optional>

#include "core/types.h"

namespace janus {

class Position;

enum class GameEnd : u8 {
  kCheckmate = 0,
  kStalemate = 1,
  kRepetition = 2,            ///< threefold repetition (FIDE 9.2)
  kFiftyMoves = 3,            ///< 50-move rule (FIDE 9.3)
  kInsufficientMaterial = 4,  ///< neither side can mate (FIDE 5.2.2, material-only cases)
  kResignation = 5,           ///< a side resigned (a player, or self-play's value-based resignation)
  kTablebase = 6,             ///< adjudicated by endgame tablebases
  kMaxPlies = 7,              ///< a length limit was reached: a draw
  kAdjudicatedWin = 8,        ///< adjudicated a win from search scores (match: both engines agree)
  kAdjudicatedDraw = 9,       ///< adjudicated a draw from search scores
  kTimeForfeit = 10,          ///< a side lost on time
  kIllegalMove = 11,          ///< an engine played an illegal move (a match)
  kCrash = 12,                ///< an engine process died (a match)
  kStall = 13,                ///< an engine stopped answering (a match)
  kAgreedDraw = 14,           ///< a draw not forced by the rules (PGN games: by agreement)
};

/// Number of GameEnd codes (0 .. kGameEndCount - 1).
inline constexpr int kGameEndCount = 15;

/// True if `code` is a GameEnd code.
[[nodiscard]] constexpr bool isGameEndCode(int code) { return code >= 0 && code < kGameEndCount; }

/// True for the ends by the rules of chess (checkmate, stalemate, repetition, 50 moves,
/// insufficient material): the final position itself shows them.
[[nodiscard]] constexpr bool isRulesEnd(GameEnd e) { return u8(e) <= u8(GameEnd::kInsufficientMaterial); }

/// Human-readable name: "checkmate", "stalemate", "threefold repetition", "50-move rule",
/// "insufficient material", "resignation", "tablebase", "length limit", "adjudicated win",
/// "adjudicated draw", "time forfeit", "illegal move", "crash", "stall", "agreed draw"; "?" for a value outside
/// the enum.
[[nodiscard]] constexpr const char* gameEndName(GameEnd e) {
  switch (e) {
    case GameEnd::kCheckmate: return "checkmate";
    case GameEnd::kStalemate: return "stalemate";
    case GameEnd::kRepetition: return "threefold repetition";
    case GameEnd::kFiftyMoves: return "50-move rule";
    case GameEnd::kInsufficientMaterial: return "insufficient material";
    case GameEnd::kResignation: return "resignation";
    case GameEnd::kTablebase: return "tablebase";
    case GameEnd::kMaxPlies: return "length limit";
    case GameEnd::kAdjudicatedWin: return "adjudicated win";
    case GameEnd::kAdjudicatedDraw: return "adjudicated draw";
    case GameEnd::kTimeForfeit: return "time forfeit";
    case GameEnd::kIllegalMove: return "illegal move";
    case GameEnd::kCrash: return "crash";
    case GameEnd::kStall: return "stall";
    case GameEnd::kAgreedDraw: return "agreed draw";
  }
  return "?";
}

/// The PGN Termination tag value (PGN standard 8.2.5 / 9.8.1) of a game end: "time forfeit"
/// (kTimeForfeit), "rules infraction" (kIllegalMove), "abandoned" (kCrash), "stalled connection"
/// (kStall), "adjudication" (kAdjudicatedWin, kAdjudicatedDraw, kMaxPlies, kTablebase), and
/// "normal" for the rest (ends by the rules, resignation, agreed draw).
[[nodiscard]] constexpr const char* pgnTerminationTag(GameEnd e) {
  switch (e) {
    case GameEnd::kTimeForfeit: return "time forfeit";
    case GameEnd::kIllegalMove: return "rules infraction";
    case GameEnd::kCrash: return "abandoned";
    case GameEnd::kStall: return "stalled connection";
    case GameEnd::kAdjudicatedWin:
    case GameEnd::kAdjudicatedDraw:
    case GameEnd::kMaxPlies:
    case GameEnd::kTablebase: return "adjudication";
    default: return "normal";
  }
}

/// The end by the rules of the game in `pos`, if any, checked in this order: no legal move
/// (checkmate if in check, else stalemate; checkmate takes precedence over the 50-move rule as
/// FIDE 9.3 says), threefold repetition (Position::isRepetition(2)), the 50-move rule
/// (Position::isFiftyMoveDraw), insufficient material (Position::isInsufficientMaterial).
[[nodiscard]] std::optional<GameEnd> rulesGameEnd(const Position& pos);

}  // namespace janus
