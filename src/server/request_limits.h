#pragma once
// How large a request may be, per kind of request, and the HTTP errors the server answers with a
// status of their own (413 for a request over its limit, 503 for a full server, 404 ...).
//
// Limits: every body is read only up to kMaxBodyBytes (2 MiB; httplib stops reading there). A PGN to
// load may have kMaxPgnBytes (1 MiB) of text; its body may be larger (JSON escapes: a newline is
// "\n"), up to kMaxBodyBytes. Every other request is small: kMaxSmallBodyBytes (64 KiB). A request
// over its limit gets 413 with a message that names the limit of that request ("a PGN to load may
// have at most 1 MiB"), not the reading limit.

#include <cstddef>
#include <string>
#include <string_view>

#include "util/error.h"

namespace janus::server {

/// An error answered with its own HTTP status (413, 503, 404, ...) and message; janus::Error is
/// answered 400, anything else 500 with a bug report.
class HttpError : public Error {
 public:
  HttpError(int status, const std::string& message) : Error(message), m_status(status) {}
  [[nodiscard]] int status() const { return m_status; }

 private:
  int m_status;
};

/// Largest body read from any request (bytes): 2 MiB. /api/info gives it as "maxBodyBytes".
inline constexpr size_t kMaxBodyBytes = size_t(2) << 20;
/// Largest PGN text a load may carry (bytes, the decoded "pgn" field): 1 MiB. /api/info "maxPgnBytes".
inline constexpr size_t kMaxPgnBytes = size_t(1) << 20;
/// Largest body of every request other than a load (bytes): 64 KiB (a move, a FEN, settings).
inline constexpr size_t kMaxSmallBodyBytes = size_t(64) << 10;

/// "2 MiB", "64 KiB", "1.5 MiB", "300 bytes": a byte count for messages.
[[nodiscard]] std::string formatBytes(size_t bytes);

/// Whether `path` carries a PGN: a load (POST /api/sessions/{id}/load) or the list of a PGN's
/// games (POST /api/pgn/games).
[[nodiscard]] bool isLoadPath(std::string_view path);

/// The largest body a POST to `path` may have, in bytes: kMaxBodyBytes for a load (its PGN is
/// checked against kMaxPgnBytes once decoded), kMaxSmallBodyBytes for everything else.
[[nodiscard]] size_t bodyLimit(std::string_view path);

/// The message of a 413 for a body of `size` bytes (0: unknown) sent to `path`: for a load
/// "request body too large (2.4 MiB): a PGN to load may have at most 1 MiB", for other requests
/// "request body too large (100 KiB): a request to 'move' may have at most 64 KiB".
[[nodiscard]] std::string bodyTooLargeMessage(std::string_view path, size_t size);

/// Throws HttpError 413 "PGN too large (1.1 MiB): a PGN to load may have at most 1 MiB" when
/// `pgn` is over kMaxPgnBytes.
void checkPgnSize(const std::string& pgn);

}  // namespace janus::server
