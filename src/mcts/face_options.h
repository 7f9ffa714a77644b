#pragma once
// The MCTS face's tuning settings as one table: a name (the UCI option's, e.g. "MCTS CPuct"), a
// kind and range, a help line and where the value lives in FaceSettings. The engine declares its
// UCI options from it (hidden, like lc0's tuning options, shown by `janus --show-hidden`), and
// `janus selfplay` / `janus rl` take the same names with `--mcts-option NAME=VALUE` and pass them
// on to their self-play tasks and match engines, so a setting means the same everywhere and is
// written down once. The defaults are the default face's (face.h), the one source of them.

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mcts/face.h"

namespace janus::mcts {

/// Everything the face's search and leaf backend are tuned by: the search's settings and the
/// leaf searches' (MCTS Value nnue).
struct FaceSettings {
  MctsParams params = defaultFaceParams();
  LeafSearchParams leaf = defaultFaceLeaf();
};

/// One tuning setting of the table.
struct FaceOption {
  enum class Kind { kInteger, kReal, kBool };
  const char* name;   ///< UCI option name, matched case-insensitively by findFaceOption
  Kind kind;
  double min, max;    ///< inclusive range (integers and reals; unused for bools)
  const char* help;   ///< one line: what it does, its unit
  double (*get)(const FaceSettings&);
  void (*set)(FaceSettings&, double);
};

/// The table, in the order the engine declares the options.
[[nodiscard]] std::span<const FaceOption> faceOptions();

/// The option called `name` (case-insensitive), or nullptr.
[[nodiscard]] const FaceOption* findFaceOption(const std::string& name);

/// `option`'s value in `s` as text: an integer, "true"/"false", or the shortest decimal that
/// reads back as the same double.
[[nodiscard]] std::string faceOptionText(const FaceOption& option, const FaceSettings& s);

/// Parses `value` for `option` and stores it in `s`. Throws janus::Error naming the option and
/// the problem ("option MCTS CPuct: 'x' is not a number", "... 200 is out of range 0..100",
/// "... 'yes' is not true or false"); `s` is unchanged then.
void setFaceOption(FaceSettings& s, const FaceOption& option, const std::string& value);

/// Applies "NAME=VALUE" assignments (`--mcts-option` of selfplay and rl) in order. Throws
/// janus::Error naming an unknown name, a missing '=' or a bad value.
void applyFaceAssignments(FaceSettings& s, const std::vector<std::string>& assignments);

/// The settings of `s` that differ from the default face's, as (name, value text) pairs in
/// table order: what a self-play task or a match engine must be told to play `s`.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> changedFaceOptions(const FaceSettings& s);

}  // namespace janus::mcts
