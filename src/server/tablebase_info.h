#pragma once
// The GUI's view of the Syzygy tablebases: which folder the server's engines use (set with
// `janus gui --syzygy-path` or from the page, POST /api/tablebases), what it holds, whether the
// Fathom library could be loaded, and the tables' verdict on a position in the form the page shows
// next to a score ("TB win · DTZ 3 · #11"). The tables are process-wide (Fathom has one state, see
// tb/syzygy.h): a change serves every session at once.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/position.h"
#include "tb/syzygy.h"

namespace janus::server {

/// The tables' verdict on `root` for a score of the API, White's view: {"result": "win"|"cursed
/// win"|"draw"|"blessed loss"|"loss", "dtz": n} (n: plies to the zeroing move, >= 0; absent when
/// the folder has no DTZ table for it). With `first` (a legal move of `root`, the first move of a
/// line) it is that move's value and DTZ (the move counted), else the root's (its best move's).
/// Null when `probe` holds no entry for `first`.
[[nodiscard]] nlohmann::json tablebaseVerdictJson(const SyzygyRootProbe& probe, Color rootSideToMove, Move first);

class TablebaseInfo {
 public:
  /// Loads the Syzygy tables of `path` (folders separated by ':'; "" switches them off) for every
  /// engine of the process and returns status(). Throws janus::Error naming what is wrong (a folder
  /// that does not exist, one without tables, Fathom missing); the tables in use then stay.
  static nlohmann::json load(const std::string& path);

  /// {"syzygy": {"path", "wdl", "dtz", "maxPieces", "problems": [...], "summary"}, "fathom":
  /// {"available": bool, "error": "..." | null}}: what the page's settings show. Thread-safe.
  static nlohmann::json status();

  /// Counts the loads: a root probe cached under an older generation is stale.
  [[nodiscard]] static unsigned generation();

  /// The root probe of `pos` by the tables in use; std::nullopt when they do not cover it (more
  /// pieces, castling rights, no tables) or a table is missing. Thread-safe.
  [[nodiscard]] static std::optional<SyzygyRootProbe> probeRoot(const Position& pos);
};

}  // namespace janus::server
