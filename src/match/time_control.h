#pragma once
// Time control of one engine in a match, and the clock that enforces it.
//
// Text forms (cutechess-cli's, seconds unless noted):
//   "10+0.1"      10 s for the game, 0.1 s increment per move
//   "40/60+0.5"   60 s for every 40 moves (added again after each 40 moves), 0.5 s increment
//   "1:30+1"      minutes:seconds base time
//   "inf"         no clock (only with a node or depth limit)
// Fixed time per move (`go movetime`) and node / depth limits are set separately.

#include <optional>
#include <string>
#include <string_view>

#include "core/types.h"

namespace janus::match {

struct TimeControl {
  int movesPerPeriod = 0;  ///< moves per period ("40/..."), 0 = the base time is for the whole game
  i64 baseMs = 0;          ///< time per period in milliseconds
  i64 incrementMs = 0;     ///< increment per move in milliseconds
  i64 moveTimeMs = 0;      ///< fixed time per move (go movetime); 0 = none
  u64 nodes = 0;           ///< node limit per move (go nodes); 0 = none
  /// Playout limit per move (go playouts, Janus's MCTS extension: playouts whatever its alpha-beta
  /// hints search); 0 = none
  u64 playouts = 0;
  int depth = 0;           ///< depth limit per move (go depth); 0 = none

  /// Parses the clock part ("10+0.1", "40/60+0.5", "1:30+1", "inf"). Throws janus::Error naming
  /// the text and what is wrong.
  static TimeControl parse(std::string_view text);

  /// True if a game clock runs (base time or increment given, no fixed move time).
  [[nodiscard]] bool hasClock() const { return moveTimeMs == 0 && (baseMs > 0 || incrementMs > 0); }
  /// True if the engine is given any limit at all (a search without one would never end).
  [[nodiscard]] bool isLimited() const { return hasClock() || moveTimeMs > 0 || nodes > 0 || playouts > 0 || depth > 0; }

  /// PGN TimeControl tag value (PGN spec 9.6.1): "10+0.1", "40/60+0.5", movetime "0.1/move"
  /// (cutechess-cli's form), "-" when there is no time limit.
  [[nodiscard]] std::string pgnTag() const;
  /// Human-readable description: "10+0.1", "movetime 100 ms", "nodes 5000", "playouts 200",
  /// "10+0.1, depth 8".
  [[nodiscard]] std::string describe() const;
};

/// "12.3" -> 12300 ms. Throws janus::Error for negative or malformed numbers; `what` names the
/// value in the message.
[[nodiscard]] i64 parseSecondsToMs(std::string_view text, std::string_view what);

}  // namespace janus::match
