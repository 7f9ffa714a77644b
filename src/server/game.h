#pragma once
// The authoritative state of one GUI game: start position, the moves played (with their SAN and the
// FEN after each), the result and how the game ended. Every move is validated with the core
// (parseUci against the current position); game end is decided with the core too (checkmate,
// stalemate, Position::isRepetition(2), isFiftyMoveDraw, isInsufficientMaterial).
//
// Draws by threefold repetition and by the 50-move rule are applied automatically (no claim is
// needed), as most GUIs do in games against an engine. Not thread-safe: the owning session
// serialises access.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game_end.h"
#include "core/pgn.h"
#include "core/position.h"

namespace janus::server {

/// Short machine name of how a GUI game ended, used in JSON: "checkmate", "stalemate",
/// "threefold", "fifty-moves", "insufficient-material", "resignation", "time" (kTimeForfeit),
/// "adjudicated" (kAdjudicatedWin/kAdjudicatedDraw: a loaded PGN's result without an end by the
/// rules); "" while the game goes on (std::nullopt) and for ends a GUI game does not have.
[[nodiscard]] std::string_view terminationName(std::optional<GameEnd> end);

/// The most plies a GUI game may hold (played or loaded): a bound on what one session keeps in
/// memory (moves, SAN, one FEN per ply, and the state JSON built from them). The longest
/// tournament games have about 540 plies.
inline constexpr int kMaxGamePlies = 1200;

/// One game of a PGN text, as the Load dialog's picker lists it.
struct PgnGameSummary {
  std::vector<std::pair<std::string, std::string>> tags;  ///< the game's tags in file order
  int plies = 0;                                          ///< moves of its main line
  int line = 0;                                           ///< 1-based line where it starts
};

/// Every game of a PGN text (at most `maxGames`, default 10,000), read strictly as Game::loadPgn
/// reads one. Throws janus::Error naming the first fault ("PGN: line 1: unterminated tag value
/// ...") or "PGN: no game found".
[[nodiscard]] std::vector<PgnGameSummary> listPgnGames(const std::string& text, size_t maxGames = 10000);

class Game {
 public:
  /// A game from the standard start position.
  Game();

  /// Starts a new game from `fen` ("startpos" or "" for the standard start). Throws janus::Error
  /// ("bad FEN: <reason>") and keeps the current game when the FEN is invalid. A start position
  /// that is already over (mate, stalemate, dead position) is accepted and marked as ended.
  void reset(std::string_view fen);

  /// Replaces the game by game `index` (0-based) of a PGN text (tags kept, comments and
  /// variations dropped). A result other than "*" in the PGN is kept (termination
  /// kAdjudicatedWin or kAdjudicatedDraw unless the final position is over by the rules). Throws
  /// janus::Error naming the problem and keeps the current game: the first fault of the text up to
  /// that game ("PGN: line 3: move 3... 'Qxh8': no legal move matches ...", "PGN: line 1:
  /// unterminated tag value ...": a broken game is never skipped for a later one), "PGN: no game
  /// found", "PGN: the text has 2 games; game 5 was asked for", "PGN: the game has 8000 plies;
  /// ...at most 1200". Throws for `index` < 0.
  void loadPgn(const std::string& text, int index = 0);

  /// Plays a UCI move ("e2e4", "e7e8q"; castling as "e1g1" or "e1h1") at the end of the game.
  /// Throws janus::Error if the game is over ("the game is over (1-0)"), holds kMaxGamePlies
  /// plies already, or the move is malformed or illegal (the message of parseUci). Returns the move played.
  Move play(std::string_view uci);
  /// Plays a move known to be legal in the current position (e.g. from the engine). Throws
  /// janus::Error if it is not legal or the game is over.
  void play(Move m);

  /// Takes back the last `plies` moves (fewer if the game is shorter). Clears the result of an
  /// ended game. Returns the number of moves taken back.
  int undo(int plies);
  /// Keeps only the first `ply` moves (0..ply()). Throws janus::Error for a ply out of range.
  void truncate(int ply);

  /// Ends the game by resignation or loss on time of `loser`. On time, the result is a draw if
  /// the opponent has only a king and no pawns (FIDE Laws 6.9, simplified: only the bare-king
  /// case of "cannot checkmate by any series of legal moves" is detected). No-op if already over.
  void resign(Color loser);
  void flagTime(Color loser);

  // ---- Queries -------------------------------------------------------------------------------
  [[nodiscard]] const Position& position() const { return m_pos; }
  /// Position after `ply` moves (0 = start). Throws janus::Error if ply is out of range.
  [[nodiscard]] Position positionAt(int ply) const;
  [[nodiscard]] const Position& startPosition() const { return m_start; }
  /// FEN of the start position.
  [[nodiscard]] std::string startFen() const { return m_start.fen(); }
  /// Number of moves played.
  [[nodiscard]] int ply() const { return int(m_moves.size()); }
  [[nodiscard]] const std::vector<Move>& moves() const { return m_moves; }
  /// SAN of each move, same size as moves().
  [[nodiscard]] const std::vector<std::string>& sans() const { return m_sans; }
  /// FEN before the first move and after every move: ply() + 1 entries.
  [[nodiscard]] const std::vector<std::string>& fens() const { return m_fens; }
  /// UCI text of move i (standard castling notation e1g1 unless the game is Chess960).
  [[nodiscard]] std::string uci(int i) const;
  [[nodiscard]] bool over() const { return m_termination.has_value(); }
  /// Over by the rules of chess (the final position shows it): not by resignation, time or a
  /// loaded result.
  [[nodiscard]] bool overByRules() const { return m_termination && isRulesEnd(*m_termination); }
  /// "1-0", "0-1", "1/2-1/2" or "*".
  [[nodiscard]] const std::string& result() const { return m_result; }
  /// How the game ended; std::nullopt while it goes on.
  [[nodiscard]] std::optional<GameEnd> termination() const { return m_termination; }
  /// Sentence announcing the end, e.g. "Checkmate: White wins." ("" while the game goes on).
  [[nodiscard]] std::string endMessage() const;

  /// Extra PGN tags (Event, White, Black, TimeControl, ...) written by pgn().
  std::vector<std::pair<std::string, std::string>> tags;
  /// PGN of the game (core/pgn writePgn) with the Result and, when over, Termination tags.
  [[nodiscard]] std::string pgn() const;

 private:
  void afterMove();
  void detectEnd();

  Position m_start;
  Position m_pos;
  std::vector<Move> m_moves;
  std::vector<std::string> m_sans;
  std::vector<std::string> m_fens;
  std::string m_result = "*";
  std::optional<GameEnd> m_termination;
};

}  // namespace janus::server
