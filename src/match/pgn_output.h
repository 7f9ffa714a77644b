#pragma once
// PGN of match games (through core's writePgn, the codebase's one PGN writer) and the
// append-only file they go to.

#include <array>
#include <mutex>
#include <string>

#include "core/pgn.h"
#include "match/game.h"

namespace janus::match {

/// Match-wide values that go into every game's tags.
struct PgnContext {
  std::string event = "Janus match";
  std::string site = "?";
  std::array<TimeControl, 2> timeControl;  ///< by engine slot
};

/// Comment of one move, cutechess-cli style: "+0.35/12 0.512s" (mover's score in pawns, or
/// "+M5" for mate in 5, "/depth", thinking time in seconds), "0.512s" without a score,
/// "book" for opening moves.
[[nodiscard]] std::string moveComment(const MoveRecord& move);

/// The game as a PgnGame: Seven Tag Roster (Round = game number), TimeControl (or
/// WhiteTimeControl / BlackTimeControl when they differ), Time, Termination, PlyCount,
/// GameDuration, ECO (a three-character code) or Opening (other names) from the book, SetUp/FEN
/// (via startFen) for games not from the standard start, Variant for Chess960; one comment per
/// move, the last one ending with the reason ("..., White mates"); the reason is the pre-game
/// comment when no move was played.
[[nodiscard]] PgnGame toPgnGame(const GameRecord& game, const PgnContext& context);

/// A PGN file that whole games are appended to: each game is one write(2) on an O_APPEND
/// descriptor, so a crash of the runner cannot leave half a game behind, and games from
/// several workers never interleave. Thread-safe.
class PgnFile {
 public:
  /// Opens `path` for appending (created if missing). Throws janus::Error if it cannot.
  explicit PgnFile(const std::string& path);
  ~PgnFile();
  PgnFile(const PgnFile&) = delete;
  PgnFile& operator=(const PgnFile&) = delete;

  /// Appends `text` (one or more complete games). Throws janus::Error on a write error.
  void append(const std::string& text);

 private:
  std::mutex m_mutex;
  std::string m_path;
  int m_fd = -1;
};

}  // namespace janus::match
