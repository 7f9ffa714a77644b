#include "server/storage.h"

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::server {

namespace fs = std::filesystem;

std::string localTimeStamp(bool pgnDate) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, pgnDate ? "%Y.%m.%d" : "%Y%m%d-%H%M%S", &tm);
  return buf;
}

Storage::Storage(fs::path dataDir) : m_dir(std::move(dataDir)) {
  std::error_code ec;
  for (const fs::path& p : {m_dir, m_dir / "games", m_dir / "reports"}) {
    fs::create_directories(p, ec);
    if (ec || !fs::is_directory(p)) throw Error("cannot create data folder '" + p.string() + "': " + ec.message());
  }
}

fs::path Storage::defaultDataDir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return fs::path(xdg) / "janus";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local" / "share" / "janus";
  return fs::path("janus-data");
}

std::string Storage::newGameFileName(const std::string& sessionId) {
  std::lock_guard lock(m_mutex);
  return localTimeStamp() + "-" + sessionId.substr(0, 8) + "-" + std::to_string(++m_counter) + ".pgn";
}

void Storage::writeAtomically(const fs::path& path, const std::string& text) {
  OutputFile out(path.string(), /*compress=*/false);
  out << text;
  out.commit();
}

void Storage::saveGame(const std::string& fileName, const std::string& pgn) {
  writeAtomically(m_dir / "games" / fileName, pgn);
}

std::string Storage::writeReport(const std::string& text) noexcept {
  try {
    std::string name;
    {
      std::lock_guard lock(m_mutex);
      name = "report-" + localTimeStamp() + "-" + std::to_string(++m_counter) + ".txt";
    }
    writeAtomically(m_dir / "reports" / name, text);
    return name;
  } catch (...) {
    return "";
  }
}

std::optional<std::string> Storage::readReport(const std::string& name) const {
  if (name.empty() || name[0] == '.' || name.size() > 200) return std::nullopt;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return std::nullopt;
  std::ifstream in(m_dir / "reports" / name, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace janus::server
