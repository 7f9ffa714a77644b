#pragma once
// Writes an EvalWeights as C++ source in the layout of src/eval/default_weights.cpp (the same
// Builder, the blocks in JANUS_HCE_WEIGHTS order, piece-square tables as two 8x8 boards with
// rank 8 first), so that a tuning result can replace that file as it is.

#include <string>
#include <vector>

#include "eval/weights.h"

namespace janus::tune {

/// The C++ identifier of every weight block in table order ("kMaterial", "kPstPawn", ...).
[[nodiscard]] const std::vector<std::string>& weightBlockIds();

/// The complete source file. `notes` become comment lines in the file header (data set, K,
/// losses, command line).
[[nodiscard]] std::string weightsToCpp(const EvalWeights& weights, const std::vector<std::string>& notes);

}  // namespace janus::tune
