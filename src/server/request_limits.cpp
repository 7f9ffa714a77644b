#include "server/request_limits.h"

#include <cstdio>

namespace janus::server {

std::string formatBytes(size_t bytes) {
  auto unit = [&](size_t shift, const char* name) {
    const double v = double(bytes) / double(size_t(1) << shift);
    char buf[32];
    if (bytes % (size_t(1) << shift) == 0)
      std::snprintf(buf, sizeof buf, "%zu %s", bytes >> shift, name);
    else
      std::snprintf(buf, sizeof buf, "%.1f %s", v, name);
    return std::string(buf);
  };
  if (bytes >= (size_t(1) << 20)) return unit(20, "MiB");
  if (bytes >= (size_t(1) << 10)) return unit(10, "KiB");
  return std::to_string(bytes) + " bytes";
}

bool isLoadPath(std::string_view path) {
  if (path == "/api/pgn/games") return true;
  constexpr std::string_view kSessions = "/api/sessions/", kLoad = "/load";
  return path.rfind(kSessions, 0) == 0 && path.size() == kSessions.size() + 32 + kLoad.size() &&
         path.substr(path.size() - kLoad.size()) == kLoad;
}

size_t bodyLimit(std::string_view path) { return isLoadPath(path) ? kMaxBodyBytes : kMaxSmallBodyBytes; }

namespace {

/// "a PGN to load may have at most 1 MiB" / "a request to 'move' may have at most 64 KiB".
std::string limitText(std::string_view path) {
  if (isLoadPath(path)) return "a PGN to load may have at most " + formatBytes(kMaxPgnBytes);
  std::string_view action = path.substr(path.rfind('/') + 1);
  std::string what = path.rfind("/api/sessions/", 0) == 0 && path.size() > 14 + 32 ? "'" + std::string(action) + "'"
                                                                                     : "'" + std::string(path) + "'";
  return "a request to " + what + " may have at most " + formatBytes(kMaxSmallBodyBytes);
}

}  // namespace

std::string bodyTooLargeMessage(std::string_view path, size_t size) {
  return "request body too large" + (size ? " (" + formatBytes(size) + ")" : std::string()) + ": " + limitText(path);
}

void checkPgnSize(const std::string& pgn) {
  if (pgn.size() > kMaxPgnBytes)
    throw HttpError(413, "PGN too large (" + formatBytes(pgn.size()) + "): a PGN to load may have at most " +
                             formatBytes(kMaxPgnBytes));
}

}  // namespace janus::server
