#pragma once
// The uniform backend: the test and reference backend of the MCTS search (lc0 has the same
// idea in src/neural/backends/network_trivial.cc and network_random.cc). No network: every
// legal move gets the same prior 1/n, and the value is one of
//   * kMaterial (default, registered as "uniform"): the material balance of the side to move,
//     pawn 1, knight 3, bishop 3, rook 5, queen 9 (as in search/wdl.h), read as centipawns
//     (100 per pawn) and mapped to Q by the inverse of the UCI display mapping (value.h), so
//     "score cp" shows the material count: Q = atan(100 * balance / 111.714640912) / 1.5620688421
//     (a pawn up: Q = 0.47, a rook: 0.86, a queen: 0.93). WDL: win = max(Q, 0),
//     loss = max(-Q, 0), draw = 1 - |Q|.
//   * kDraw ("uniform" with params value=draw): always a certain draw, W/D/L = 0/1/0.
// Both are pure functions of the position: searches with one thread are reproducible.
// Registered as "uniform" with priority 0 (BackendRegistry); it reads no network file.
// Thread-safe; computations keep their own results.

#include "mcts/backend.h"

namespace janus::mcts {

enum class UniformValue { kMaterial, kDraw };

class UniformBackend final : public Backend {
 public:
  explicit UniformBackend(UniformValue value = UniformValue::kMaterial) : m_value(value) {}

  [[nodiscard]] std::unique_ptr<BackendComputation> newComputation() override;
  [[nodiscard]] BackendAttributes attributes() const override;

  /// The value described above for `pos` (side to move's view).
  [[nodiscard]] static Wdl evaluate(const Position& pos, UniformValue value);

 private:
  UniformValue m_value;
};

}  // namespace janus::mcts
