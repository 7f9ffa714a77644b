#pragma once
// Safe mapping of request paths to files of the built web assets folder (web/dist).
//
// A request path is served only if, after percent-decoding, it is a relative path made of plain
// segments (no "..", no ".", no empty segment other than a trailing "/", no backslash, no NUL or
// other control character), and the canonical path of the file (symbolic links resolved) lies
// inside the canonical root folder. This rejects "../", "%2e%2e/", "..%2f", "%252e" (decoded only
// once, so it stays a literal '%' name that does not exist), absolute paths ("//etc/passwd") and NUL
// bytes ("%00"). OWASP "Path Traversal" lists these attack forms.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace janus::server {

/// Decodes %XX escapes of a URL path. std::nullopt for a malformed escape ("%", "%4", "%zz").
/// '+' is left as is (it is a space only in query strings).
[[nodiscard]] std::optional<std::string> percentDecode(std::string_view s);

/// The file under `root` that URL path `urlPath` (as received, still percent-encoded, starting
/// with '/') names; "/" and paths ending in '/' name the folder's index.html. std::nullopt if the
/// path is unsafe (see the file comment), does not exist or is not a regular file.
[[nodiscard]] std::optional<std::filesystem::path> resolveStaticPath(const std::filesystem::path& root,
                                                                     std::string_view urlPath);

/// Content-Type for a file name by its extension (html, js, css, svg, png, json, map, ico, txt,
/// woff2); "application/octet-stream" for others.
[[nodiscard]] std::string mimeType(const std::filesystem::path& file);

}  // namespace janus::server
