#include "datagen/pgn_source.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <streambuf>
#include <string_view>

#include <fmt/format.h>

#include "core/pgn.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::datagen {

namespace {

constexpr size_t kMaxReportedErrors = 100;
constexpr size_t kMaxVariantNames = 32;
constexpr int kMateScore = 32000;  // search/score.h kMate; the format fixes this convention

int commentScore(const std::string& comment) {
  auto e = parseEvalComment(comment);
  if (!e) return records::kNoScore;
  if (e->mate) {
    int n = *e->mate;
    return n > 0 ? kMateScore - (2 * n - 1) : -(kMateScore - (2 * -n - 1));
  }
  return e->centipawns ? std::clamp(*e->centipawns, -30000, 30000) : records::kNoScore;
}

std::string_view trimView(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// Standard chess or Chess960 under any name PgnReader accepts (core/pgn.cpp).
bool isSupportedVariant(std::string_view value) {
  std::string v(trimView(value));
  for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::string_view kNames[] = {"",         "standard",      "chess",          "normal",
                                                "from position", "fromposition", "chess960",  "chess 960",
                                                "fischerandom",  "fischer random", "fischerrandom", "960"};
  return std::find(std::begin(kNames), std::end(kNames), v) != std::end(kNames);
}

/// "[Name "" at the start of a (left-trimmed) line: the shape of a tag pair.
bool looksLikeTagLine(std::string_view t) {
  if (t.empty() || t[0] != '[') return false;
  size_t i = 1;
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_')) ++i;
  if (i == 1) return false;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  return i < t.size() && t[i] == '"';
}

/// The value of a [Variant "..."] tag pair on the line (spaces allowed after '[', as PgnReader
/// allows them), if there is one.
bool findVariantTag(std::string_view line, std::string& value) {
  auto blankAt = [&](size_t i) { return i < line.size() && (line[i] == ' ' || line[i] == '\t'); };
  for (size_t at = line.find('['); at != std::string_view::npos; at = line.find('[', at + 1)) {
    size_t i = at + 1;
    while (blankAt(i)) ++i;
    if (line.substr(i, 7) != "Variant") continue;
    i += 7;
    while (blankAt(i)) ++i;
    if (i >= line.size() || line[i] != '"') continue;  // e.g. [VariantX "..."]
    value.clear();
    for (++i; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) ++i;
      value += line[i];
    }
    value = std::string(trimView(value));
    return true;
  }
  return false;
}

/// A stream buffer in front of the PGN reader that removes games of unsupported variants (see
/// pgn_source.h): their lines become empty lines. It follows PgnReader's game boundaries: a tag
/// section is a run of lines starting with '['; outside a comment a line starting with '['
/// starts the next game, inside a brace comment only a tag-shaped line after a blank line or an
/// "[Event " line does. Memory: one input block, one line (at most kMaxLine bytes are kept, a
/// longer line passes in pieces) and one tag section (at most kMaxTags bytes).
class VariantFilter final : public std::streambuf {
 public:
  VariantFilter(std::istream& in, std::function<void(const std::string&)> onVariantGame)
      : m_in(in), m_onVariantGame(std::move(onVariantGame)), m_block(kBlock) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    m_out.clear();
    while (m_out.empty() && step()) {
    }
    if (m_out.empty()) return traits_type::eof();
    setg(m_out.data(), m_out.data(), m_out.data() + m_out.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr size_t kBlock = size_t(1) << 16;
  static constexpr size_t kMaxLine = (size_t(1) << 20) + 2;  // PgnReader::kMaxLineLength, CR LF
  static constexpr size_t kMaxTags = size_t(1) << 20;

  enum class State { kBetween, kTags, kMoves };

  /// Consumes input; returns false at the end of input (after the last output).
  bool step() {
    if (m_blockPos == m_blockLen) {
      if (m_done) return false;
      m_in.read(m_block.data(), std::streamsize(m_block.size()));
      m_blockLen = size_t(m_in.gcount());
      m_blockPos = 0;
      if (m_blockLen == 0) {
        if (!m_line.empty() || m_longLine) endOfLine(false);
        if (m_state == State::kTags) endTags();
        m_done = true;
        return !m_out.empty();
      }
    }
    const char* begin = m_block.data() + m_blockPos;
    const size_t avail = m_blockLen - m_blockPos;
    const void* nl = std::memchr(begin, '\n', avail);
    const size_t take = nl ? size_t(static_cast<const char*>(nl) - begin) + 1 : avail;
    m_blockPos += take;
    if (m_longLine) {
      // The rest of an over-long line: passed on (or dropped) as it comes.
      if (!m_dropping) m_out.append(begin, take);
      else if (nl) m_out += '\n';
      if (nl) m_longLine = false;
      return true;
    }
    m_line.append(begin, take);
    if (nl) {
      endOfLine(true);
    } else if (m_line.size() > kMaxLine) {
      // Not a tag line and too long for the reader, which reports it: pass it on in pieces.
      if (m_state == State::kTags) endTags();
      m_state = State::kMoves;
      if (!m_dropping) m_out += m_line;
      m_line.clear();
      m_longLine = true;
      m_prevBlank = false;
    }
    return true;
  }

  /// m_line is a whole line (with its '\n' if `newline`): decides where it belongs.
  void endOfLine(bool newline) {
    if (m_longLine) {  // the input ended inside an over-long line
      m_longLine = false;
      m_line.clear();
      return;
    }
    std::string_view content(m_line);
    if (newline) content.remove_suffix(1);
    const std::string_view t = trimView(content);
    const bool blank = t.empty();
    bool tagLine = false;
    switch (m_state) {
      case State::kBetween:
        if (!blank && t[0] == '[') {
          startTags();
          tagLine = true;
        } else if (!blank && t[0] != '%') {
          m_state = State::kMoves;  // movetext without tags
          m_dropping = m_inComment = false;
        }
        break;
      case State::kTags:
        if (!blank && t[0] == '[') {
          tagLine = true;
        } else {
          endTags();
          m_state = State::kMoves;
        }
        break;
      case State::kMoves:
        if (!blank && t[0] == '[' &&
            (!m_inComment || (looksLikeTagLine(t) && (m_prevBlank || t.starts_with("[Event "))))) {
          startTags();
          tagLine = true;
        }
        break;
    }
    if (tagLine) {
      addTagLine(t);
    } else if (m_state == State::kMoves) {
      if (!m_dropping) m_out += m_line;
      else if (newline) m_out += '\n';
      scanComments(t);
      m_prevBlank = blank;
    } else {
      m_out += m_line;  // blank or escape ('%') lines between games
    }
    m_line.clear();
  }

  void startTags() {
    m_state = State::kTags;
    m_pending.clear();
    m_variant.clear();
    m_haveVariant = false;
    m_dropping = false;
    m_inComment = false;
    m_prevBlank = false;
  }

  void addTagLine(std::string_view t) {
    m_pending += m_line;
    std::string value;
    if (!m_haveVariant && findVariantTag(t, value)) {
      m_variant = value;
      m_haveVariant = true;
    }
    if (m_pending.size() > kMaxTags) {  // not a real tag section: let the reader judge it
      m_out += m_pending;
      m_pending.clear();
      m_state = State::kMoves;
    }
  }

  void endTags() {
    if (m_haveVariant && !isSupportedVariant(m_variant)) {
      m_dropping = true;
      m_out.append(size_t(std::count(m_pending.begin(), m_pending.end(), '\n')), '\n');
      m_onVariantGame(m_variant);
    } else {
      m_out += m_pending;
    }
    m_pending.clear();
  }

  /// Tracks brace comments ('{' ... '}', ';' to the end of the line outside braces).
  void scanComments(std::string_view t) {
    for (char c : t) {
      if (m_inComment) {
        if (c == '}') m_inComment = false;
      } else if (c == '{') {
        m_inComment = true;
      } else if (c == ';') {
        break;
      }
    }
  }

  std::istream& m_in;
  std::function<void(const std::string&)> m_onVariantGame;
  std::vector<char> m_block;
  size_t m_blockPos = 0, m_blockLen = 0;
  bool m_done = false;
  std::string m_line;      // the line being collected
  bool m_longLine = false; // inside a line longer than kMaxLine (its start was passed on)
  std::string m_out;       // output handed to the reader
  State m_state = State::kBetween;
  std::string m_pending;   // the current tag section's lines
  std::string m_variant;
  bool m_haveVariant = false;
  bool m_dropping = false, m_inComment = false, m_prevBlank = false;
};

}  // namespace

std::string PgnExtractStats::skippedSummary() const {
  std::vector<std::string> parts;
  for (const auto& [name, n] : variants) parts.push_back(fmt::format("{} variant '{}'", n, name));
  if (unfinished) parts.push_back(fmt::format("{} unfinished (*)", unfinished));
  if (malformed) parts.push_back(fmt::format("{} malformed", malformed));
  if (parts.empty()) return "none";
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out += ", " + parts[i];
  return out;
}

int pgnCommentScore(const std::string& comment) { return commentScore(comment); }

PgnExtractStats forEachPgnGame(const std::string& path,
                               const std::function<void(const PgnGame& game, const Position& start, records::Wdl result)>& onGame) {
  PgnExtractStats stats;
  auto countVariant = [&stats](const std::string& name) {
    ++stats.variantGames;
    if (stats.variants.count(name) || stats.variants.size() < kMaxVariantNames) ++stats.variants[name];
    else ++stats.variants["(other)"];
  };
  std::unique_ptr<std::istream> file = openInputFile(path);
  VariantFilter filter(*file, countVariant);
  std::istream filtered(&filter);
  filtered.exceptions(std::ios::badbit);  // let read errors (janus::Error) through
  PgnReader reader(filtered, path);

  // Variant games the filter missed and the reader rejected: only if the two disagree on a game
  // boundary in broken input, or a tag section is longer than the filter keeps.
  u64 variantErrors = 0;
  size_t errorsSeen = 0;
  PgnGame game;
  for (;;) {
    const bool more = reader.next(game);
    // Classify the games the reader skipped in this call (as far as it keeps their errors).
    for (; errorsSeen < reader.errors().size(); ++errorsSeen) {
      const PgnError& e = reader.errors()[errorsSeen];
      constexpr std::string_view kVariant = "unsupported variant '";
      if (e.message.starts_with(kVariant)) {
        const size_t end = e.message.find('\'', kVariant.size());
        countVariant(e.message.substr(kVariant.size(), end == std::string::npos ? std::string::npos : end - kVariant.size()));
        ++variantErrors;
      } else if (stats.errors.size() < kMaxReportedErrors) {
        stats.errors.push_back(fmt::format("{}:{}: {}", e.source, e.line, e.message));
      }
    }
    if (!more) break;
    records::Wdl result;
    if (game.result == "1-0") result = records::kWhiteWin;
    else if (game.result == "0-1") result = records::kBlackWin;
    else if (game.result == "1/2-1/2") result = records::kDraw;
    else {
      ++stats.unfinished;
      continue;
    }
    Position start;
    try {
      start = game.startPosition();
    } catch (const Error& e) {
      ++stats.malformed;
      if (stats.errors.size() < kMaxReportedErrors) stats.errors.push_back(fmt::format("{}:{}: {}", path, game.line, e.what()));
      continue;
    }
    ++stats.games;
    ++stats.results[result];
    onGame(game, start, result);
  }
  stats.malformed += reader.gamesSkipped() - variantErrors;
  return stats;
}

GameEnd pgnGameEnd(const PgnGame& game, const Position& final, records::Wdl result) {
  if (const std::optional<GameEnd> end = rulesGameEnd(final)) return *end;
  const std::string termination = game.tag("Termination");
  auto is = [&](std::string_view value) {
    return termination.size() == value.size() &&
           std::equal(value.begin(), value.end(), termination.begin(),
                      [](char a, char b) { return std::tolower(u8(a)) == std::tolower(u8(b)); });
  };
  if (is("time forfeit")) return GameEnd::kTimeForfeit;
  if (is("rules infraction")) return GameEnd::kIllegalMove;
  if (is("abandoned")) return GameEnd::kCrash;
  if (is("stalled connection")) return GameEnd::kStall;
  if (is("adjudication")) return result == records::kDraw ? GameEnd::kAdjudicatedDraw : GameEnd::kAdjudicatedWin;
  return result == records::kDraw ? GameEnd::kAgreedDraw : GameEnd::kResignation;
}

PgnExtractStats extractPgnPositions(const std::string& path, const PgnExtractOptions& options,
                                    const std::function<void(const records::PackedRecord&)>& sink) {
  u64 positions = 0;
  PgnExtractStats stats = forEachPgnGame(path, [&](const PgnGame& game, const Position& start, records::Wdl result) {
    // A taken record is passed on when the next one of its game is known, so that the game's last
    // taken record carries the game end.
    std::optional<records::PackedRecord> pending;
    Position pos = start;
    for (size_t i = 0; i < game.moves.size(); ++i) {
      const Move m = game.moves[i];
      if (int(i) >= options.skipPlies && (!options.quietOnly || (!pos.inCheck() && !pos.isNoisy(m)))) {
        int score = i > 0 ? commentScore(game.comments[i - 1]) : records::kNoScore;
        if (pending) sink(*pending);
        pending = records::packRecord(pos, score, result, m);
        ++positions;
      }
      pos.makeMove(m);
    }
    if (pending) {
      records::setGameEnd(*pending, pgnGameEnd(game, pos, result));
      sink(*pending);
    }
  });
  stats.positions = positions;
  return stats;
}

}  // namespace janus::datagen
