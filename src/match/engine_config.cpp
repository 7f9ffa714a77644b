#include "match/engine_config.h"

#include <charconv>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::match {

std::vector<std::string> splitQuoted(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  bool inToken = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inToken = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (inToken) out.push_back(std::move(cur));
      cur.clear();
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (quote) throw Error(fmt::format("unbalanced {} quote in '{}'", quote, text));
  if (inToken) out.push_back(std::move(cur));
  return out;
}

std::vector<std::pair<std::string, std::string>> parseKeyValues(const std::vector<std::string>& tokens,
                                                                std::string_view what) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& token : tokens)
    for (const auto& t : splitQuoted(token)) {
      auto eq = t.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(fmt::format("{}: '{}' is not of the form key=value", what, t));
      out.emplace_back(t.substr(0, eq), t.substr(eq + 1));
    }
  return out;
}

namespace {
template <typename T>
T parseNumber(std::string_view key, std::string_view value) {
  T v{};
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v <= 0)
    throw Error(fmt::format("engine spec: {}='{}' is not a positive integer", key, value));
  return v;
}
}  // namespace

EngineConfig parseEngineSpec(std::string_view spec) {
  EngineConfig e;
  for (const auto& token : splitQuoted(spec)) {
    if (token == "ponder") {
      e.ponder = true;
      continue;
    }
    auto eq = token.find('=');
    if (eq == std::string::npos)
      throw Error(fmt::format("engine spec '{}': field '{}' is not key=value (nor 'ponder')", spec, token));
    std::string key = token.substr(0, eq), value = token.substr(eq + 1);
    if (key == "name") {
      e.name = value;
    } else if (key == "cmd") {
      e.command = value;
    } else if (key == "dir") {
      e.workDir = value;
    } else if (key == "arg") {
      e.args.push_back(value);
    } else if (key.starts_with("option.")) {
      std::string option = key.substr(7);
      if (option.empty()) throw Error(fmt::format("engine spec '{}': option without a name", spec));
      e.options.emplace_back(option, value);
    } else if (key == "tc") {
      e.timeControl = TimeControl::parse(value);
    } else if (key == "st") {
      e.moveTimeMs = parseSecondsToMs(value, "engine spec st");
      if (*e.moveTimeMs <= 0) throw Error("engine spec: st must be positive");
    } else if (key == "nodes") {
      e.nodes = parseNumber<u64>(key, value);
    } else if (key == "playouts") {
      e.playouts = parseNumber<u64>(key, value);
    } else if (key == "depth") {
      e.depth = parseNumber<int>(key, value);
    } else if (key == "ponder") {
      if (value != "true" && value != "false")
        throw Error(fmt::format("engine spec: ponder='{}' must be true or false", value));
      e.ponder = value == "true";
    } else {
      throw Error(fmt::format(
          "engine spec '{}': unknown field '{}' (known: name, cmd, dir, arg, option.NAME, ponder, tc, st, nodes, "
          "playouts, depth)",
          spec, key));
    }
  }
  if (e.command.empty()) throw Error(fmt::format("engine spec '{}': cmd=PATH is missing", spec));
  if (e.name.empty()) {
    auto slash = e.command.find_last_of('/');
    e.name = slash == std::string::npos ? e.command : e.command.substr(slash + 1);
  }
  return e;
}

TimeControl effectiveTimeControl(const EngineConfig& engine, const TimeControl& defaults) {
  TimeControl tc = defaults;
  if (engine.timeControl) {
    tc.movesPerPeriod = engine.timeControl->movesPerPeriod;
    tc.baseMs = engine.timeControl->baseMs;
    tc.incrementMs = engine.timeControl->incrementMs;
    tc.moveTimeMs = 0;
  }
  if (engine.moveTimeMs) tc.moveTimeMs = *engine.moveTimeMs;
  if (engine.nodes) tc.nodes = *engine.nodes;
  if (engine.playouts) tc.playouts = *engine.playouts;
  if (engine.depth) tc.depth = *engine.depth;
  return tc;
}

}  // namespace janus::match
