// Commands embedded in PGN comments ("[%eval ...]", "[%clk ...]"): parseEvalComment and
// parseClockComment (pgn.h).

#include "core/pgn.h"

#include <charconv>
#include <cmath>

#include "core/pgn_text.h"

namespace janus {

using namespace pgn_text;

namespace {

/// The argument of "[%<command> ...]" in `comment`, up to ']' (trimmed); nullopt if absent.
std::optional<std::string_view> commandArgument(std::string_view comment, std::string_view command) {
  std::string key = "[%" + std::string(command);
  size_t p = 0;
  while ((p = comment.find(key, p)) != std::string_view::npos) {
    size_t start = p + key.size();
    if (start < comment.size() && isSpace(comment[start])) {
      size_t end = comment.find(']', start);
      if (end == std::string_view::npos) return std::nullopt;
      return trim(comment.substr(start, end - start));
    }
    p = start;
  }
  return std::nullopt;
}

}  // namespace

std::optional<EvalComment> parseEvalComment(std::string_view comment) {
  auto arg = commandArgument(comment, "eval");
  if (!arg) return std::nullopt;
  std::string_view v = *arg;
  if (size_t comma = v.find(','); comma != std::string_view::npos) v = trim(v.substr(0, comma));  // "0.30,22"
  if (v.empty()) return std::nullopt;
  EvalComment result;
  if (v[0] == '#') {
    v.remove_prefix(1);
    if (!v.empty() && v[0] == '+') v.remove_prefix(1);
    int mate = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), mate);
    if (ec != std::errc() || ptr != v.data() + v.size() || mate == 0) return std::nullopt;
    result.mate = mate;
    return result;
  }
  if (v[0] == '+') v.remove_prefix(1);
  double pawns = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), pawns, std::chars_format::fixed);
  if (ec != std::errc() || ptr != v.data() + v.size() || !std::isfinite(pawns) || std::abs(pawns) > 1e6)
    return std::nullopt;
  result.centipawns = int(std::lround(pawns * 100));
  return result;
}

std::optional<int> parseClockComment(std::string_view comment) {
  auto arg = commandArgument(comment, "clk");
  if (!arg) return std::nullopt;
  std::string_view v = *arg;
  // H:MM:SS[.fff] or MM:SS[.fff]
  long fields[3] = {0, 0, 0};
  int count = 0;
  size_t i = 0;
  while (count < 3) {
    size_t start = i;
    long value = 0;
    while (i < v.size() && isDigit(v[i]) && i - start < 6) value = value * 10 + (v[i++] - '0');
    if (i == start) return std::nullopt;
    fields[count++] = value;
    if (i < v.size() && v[i] == ':') {
      ++i;
      continue;
    }
    break;
  }
  if (count < 2) return std::nullopt;
  long ms = 0;
  if (i < v.size() && v[i] == '.') {
    ++i;
    long scale = 100;
    size_t start = i;
    while (i < v.size() && isDigit(v[i])) {
      ms += (v[i++] - '0') * scale;
      scale /= 10;
    }
    if (i == start) return std::nullopt;
  }
  if (i != v.size()) return std::nullopt;
  long h = count == 3 ? fields[0] : 0, m = fields[count - 2], s = fields[count - 1];
  if (m >= 60 || s >= 60 || h > 500) return std::nullopt;
  return int(((h * 60 + m) * 60 + s) * 1000 + ms);
}

}  // namespace janus
