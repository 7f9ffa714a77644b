#pragma once
// Pieces shared by the session's source files: session_engine.cpp (engine control, search
// callbacks, lifetime), session_state.cpp (the state JSON, clocks, saving) and
// session_requests.cpp (the requests of the JSON API). Not part of the server's interface.

#include <string>
#include <vector>

#include "server/session.h"

namespace janus::server {

/// "white" or "black" (the JSON API's colour names).
[[nodiscard]] const char* colorName(Color c);
/// Centipawns from White's view of a side-to-move `score`, mates and large scores clamped to
/// +-kReviewClampCp (for graphs and the review).
[[nodiscard]] int clampedWhite(int score, Color stm);
/// The hand-crafted evaluation of `pos` term by term (eval/trace.h EvalBreakdown) and the built-in
/// NNUE network's static evaluation, as the "static" object of POST .../evaluate (docs/gui.md).
[[nodiscard]] Json staticEvalJson(const Position& pos);

}  // namespace janus::server
