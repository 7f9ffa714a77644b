#pragma once
// Configuration of one engine in a match, and the `--engine` spec string that describes it.
//
// Spec grammar (fields separated by blanks; single or double quotes group text with blanks,
// e.g. "name='Stockfish 15'" or "'option.Move Overhead=30'"):
//   name=NAME             name used in the PGN and reports (default: the file name of cmd)
//   cmd=PATH              engine program (required); a relative path is resolved against the
//                         runner's current directory, a bare name is looked up in PATH
//   dir=DIR               working directory of the engine process
//   arg=TEXT              one command-line argument (repeat for more)
//   option.NAME=VALUE     UCI option sent with setoption before the first game (repeatable)
//   ponder                let the engine ponder (sets the UCI option Ponder=true)
//   tc=TC                 this engine's clock, overriding --tc ("10+0.1", "40/60+0.5", "inf")
//   st=SECONDS            fixed time per move (go movetime), overriding --st
//   nodes=N               node limit per move (go nodes)
//   playouts=N            playout limit per move (go playouts: Janus's MCTS face)
//   depth=N               depth limit per move (go depth)

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/time_control.h"

namespace janus::match {

struct EngineConfig {
  std::string name;                                         ///< display / PGN name
  std::string command;                                      ///< program path
  std::string workDir;                                      ///< working directory ("" = current)
  std::vector<std::string> args;                            ///< program arguments
  std::vector<std::pair<std::string, std::string>> options;  ///< UCI options, in the given order
  bool ponder = false;                                      ///< ponder on the opponent's time
  std::optional<TimeControl> timeControl;                   ///< clock override (tc=)
  std::optional<i64> moveTimeMs;                            ///< st= override, ms
  std::optional<u64> nodes;                                 ///< nodes= override
  std::optional<u64> playouts;                              ///< playouts= override
  std::optional<int> depth;                                 ///< depth= override
};

/// Parses an --engine spec (grammar above). Throws janus::Error naming the bad field: unknown
/// key, missing cmd, malformed number or time control, unbalanced quote.
[[nodiscard]] EngineConfig parseEngineSpec(std::string_view spec);

/// Splits text at unquoted blanks; quotes (' or ") group and are removed. Throws janus::Error on
/// an unbalanced quote.
[[nodiscard]] std::vector<std::string> splitQuoted(std::string_view text);

/// Parses "key=value key=value" settings (as used by --resign / --draw) into pairs. Throws
/// janus::Error naming a token without '='.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> parseKeyValues(const std::vector<std::string>& tokens,
                                                                              std::string_view what);

/// Resulting time control of an engine: `defaults` with the engine's overrides applied.
[[nodiscard]] TimeControl effectiveTimeControl(const EngineConfig& engine, const TimeControl& defaults);

}  // namespace janus::match
