#pragma once
// Text helpers shared by the PGN reader (pgn.cpp), writer (pgn_write.cpp) and comment command
// parsers (pgn_comments.cpp). Internal to the core library; see pgn.h for the format.

#include <string>
#include <string_view>

#include "core/position.h"

namespace janus::pgn_text {

constexpr std::string_view kWhiteSpace = " \t\r\n\f\v";

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

inline std::string_view trimLeft(std::string_view s) {
  size_t i = s.find_first_not_of(kWhiteSpace);
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

inline std::string_view trim(std::string_view s) {
  s = trimLeft(s);
  size_t j = s.find_last_not_of(kWhiteSpace);
  return j == std::string_view::npos ? std::string_view() : s.substr(0, j + 1);
}

inline std::string toLower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return r;
}

/// A game termination marker (spec 8.2.6).
inline bool isResultToken(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

/// A Variant tag value that names Chess960 ("Chess960", "chess 960", "fischerandom", ...).
inline bool isChess960Variant(std::string_view value) {
  std::string v = toLower(trim(value));
  return v == "chess960" || v == "chess 960" || v == "fischerandom" || v == "fischer random" ||
         v == "fischerrandom" || v == "960";
}

/// "12." or "12..." for the side to move in `pos`.
inline std::string moveLabel(const Position& pos) {
  return std::to_string(pos.fullmoveNumber()) + (pos.sideToMove() == kWhite ? "." : "...");
}

}  // namespace janus::pgn_text
