#include "server/static_files.h"

#include <algorithm>
#include <system_error>

namespace janus::server {

namespace fs = std::filesystem;

std::optional<std::string> percentDecode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += char(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::optional<fs::path> resolveStaticPath(const fs::path& root, std::string_view urlPath) {
  // Drop a query string or fragment; the path itself must start with exactly one '/'.
  urlPath = urlPath.substr(0, urlPath.find_first_of("?#"));
  if (urlPath.empty() || urlPath[0] != '/') return std::nullopt;
  auto decoded = percentDecode(urlPath.substr(1));
  if (!decoded) return std::nullopt;
  std::string rel = *decoded;
  if (rel.empty() || rel.back() == '/') rel += "index.html";
  if (rel[0] == '/') return std::nullopt;  // "//etc/passwd": absolute after the leading slash
  for (unsigned char c : rel)
    if (c < 0x20 || c == 0x7F || c == '\\' || c == ':') return std::nullopt;
  // Every segment must be a plain name.
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string_view seg(rel.data() + start, end - start);
    if (seg.empty() || seg == "." || seg == "..") return std::nullopt;
    start = end + 1;
  }
  std::error_code ec;
  fs::path canonicalRoot = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  fs::path file = fs::canonical(canonicalRoot / fs::path(rel), ec);
  if (ec) return std::nullopt;
  // The canonical file must lie strictly inside the canonical root (symlinks resolved).
  auto [rootEnd, fileIt] = std::mismatch(canonicalRoot.begin(), canonicalRoot.end(), file.begin(), file.end());
  if (rootEnd != canonicalRoot.end() || fileIt == file.end()) return std::nullopt;
  if (!fs::is_regular_file(file, ec) || ec) return std::nullopt;
  return file;
}

std::string mimeType(const fs::path& file) {
  std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

}  // namespace janus::server
