#pragma once
// The GUI's data folder: saved games and bug reports.
//
//   <data-dir>/games/<yyyymmdd-hhmmss>-<session>-<n>.pgn   one file per game, rewritten after every
//                                                           change, so that a crash loses nothing;
//                                                           Result "*" marks an interrupted game
//   <data-dir>/reports/report-<yyyymmdd-hhmmss>-<n>.txt     bug reports: the error, the request,
//                                                           the game's PGN and FEN history
// Every file is written atomically (util/zstd_stream.h OutputFile: "<name>.tmp", fsync, rename).
// Thread-safe.

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "core/types.h"

namespace janus::server {

class Storage {
 public:
  /// Creates `dataDir`, games/ and reports/ if missing. Throws janus::Error if it cannot.
  explicit Storage(std::filesystem::path dataDir);

  /// The default data folder: $XDG_DATA_HOME/janus, else $HOME/.local/share/janus, else
  /// ./janus-data (XDG Base Directory Specification).
  [[nodiscard]] static std::filesystem::path defaultDataDir();

  [[nodiscard]] const std::filesystem::path& dataDir() const { return m_dir; }

  /// A new file name (no folder) for a game of session `sessionId`: "<time>-<first 8 of id>-<n>.pgn".
  [[nodiscard]] std::string newGameFileName(const std::string& sessionId);
  /// Writes (replaces) games/<fileName> atomically. Throws janus::Error on I/O errors.
  void saveGame(const std::string& fileName, const std::string& pgn);

  /// Writes a new bug report and returns its file name ("report-<time>-<n>.txt"). Never throws:
  /// if the report cannot be written the returned name is empty.
  [[nodiscard]] std::string writeReport(const std::string& text) noexcept;
  /// Contents of reports/<name> if `name` is a report file name (letters, digits, '-', '_', '.',
  /// no leading '.') that exists; std::nullopt otherwise.
  [[nodiscard]] std::optional<std::string> readReport(const std::string& name) const;

 private:
  void writeAtomically(const std::filesystem::path& path, const std::string& text);
  std::filesystem::path m_dir;
  std::mutex m_mutex;
  u64 m_counter = 0;
};

/// Local time as "yyyymmdd-hhmmss" (for file names) or, with `pgnDate`, "yyyy.mm.dd".
[[nodiscard]] std::string localTimeStamp(bool pgnDate = false);

}  // namespace janus::server
