#include "match/time_control.h"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::match {

namespace {
std::string secondsText(i64 ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000);
  std::string s = fmt::format("{:.3f}", ms / 1000.0);
  while (s.back() == '0') s.pop_back();
  return s;
}
}  // namespace

i64 parseSecondsToMs(std::string_view text, std::string_view what) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    throw Error(fmt::format("{}: '{}' is not a number of seconds", what, text));
  return i64(std::llround(v * 1000.0));
}

TimeControl TimeControl::parse(std::string_view text) {
  TimeControl tc;
  std::string_view rest = text;
  if (rest == "inf" || rest == "infinite") return tc;
  auto fail = [&](std::string_view why) {
    throw Error(fmt::format("time control '{}': {} (expected e.g. 10+0.1, 40/60+0.5, 1:30+1 or inf)", text, why));
  };
  if (rest.empty()) fail("empty");
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    std::string_view moves = rest.substr(0, slash);
    auto [end, ec] = std::from_chars(moves.data(), moves.data() + moves.size(), tc.movesPerPeriod);
    if (moves.empty() || ec != std::errc() || end != moves.data() + moves.size() || tc.movesPerPeriod <= 0)
      fail("the number of moves before '/' must be a positive integer");
    rest = rest.substr(slash + 1);
  }
  std::string_view base = rest, inc;
  if (auto plus = rest.find('+'); plus != std::string_view::npos) {
    base = rest.substr(0, plus);
    inc = rest.substr(plus + 1);
    if (inc.empty()) fail("missing increment after '+'");
  }
  try {
    if (auto colon = base.find(':'); colon != std::string_view::npos) {
      std::string_view minutes = base.substr(0, colon);
      int m = 0;
      auto [end, ec] = std::from_chars(minutes.data(), minutes.data() + minutes.size(), m);
      if (minutes.empty() || ec != std::errc() || end != minutes.data() + minutes.size() || m < 0)
        fail("minutes before ':' must be a whole number");
      tc.baseMs = i64(m) * 60000 + parseSecondsToMs(base.substr(colon + 1), "seconds");
    } else {
      tc.baseMs = parseSecondsToMs(base, "base time");
    }
    if (!inc.empty()) tc.incrementMs = parseSecondsToMs(inc, "increment");
  } catch (const Error& e) {
    fail(e.what());
  }
  if (tc.baseMs <= 0) fail("the base time must be positive");
  return tc;
}

std::string TimeControl::pgnTag() const {
  if (moveTimeMs > 0) return secondsText(moveTimeMs) + "/move";
  if (!hasClock()) return "-";
  std::string moves = movesPerPeriod > 0 ? fmt::format("{}/", movesPerPeriod) : std::string();
  std::string inc = incrementMs > 0 ? fmt::format("+{}", secondsText(incrementMs)) : std::string();
  return fmt::format("{}{}{}", moves, secondsText(baseMs), inc);
}

std::string TimeControl::describe() const {
  std::string s;
  if (moveTimeMs > 0)
    s = fmt::format("movetime {} ms", moveTimeMs);
  else if (hasClock())
    s = pgnTag();
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (nodes > 0) add(fmt::format("nodes {}", nodes));
  if (playouts > 0) add(fmt::format("playouts {}", playouts));
  if (depth > 0) add(fmt::format("depth {}", depth));
  return s.empty() ? "no limit" : s;
}

}  // namespace janus::match
