// PGN reading: PgnGame and PgnReader (pgn.h). Writing is in pgn_write.cpp, the comment commands
// ([%eval], [%clk]) in pgn_comments.cpp.

#include "core/pgn.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <istream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pgn_text.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus {

using namespace pgn_text;

namespace {

bool isBlank(std::string_view s) { return trimLeft(s).empty(); }

/// Appends `text` to `out` with white space runs collapsed to one space; a space separates it
/// from what `out` already holds.
void appendNormalised(std::string& out, std::string_view text) {
  bool pendingSpace = !out.empty();
  for (char c : text) {
    if (isSpace(c)) {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += c;
  }
}

/// "[Name "..." at the start of a line: the shape of a tag pair (used to detect where an
/// unterminated comment ran into the next game).
bool looksLikeTagLine(std::string_view line) {
  line = trimLeft(line);
  if (line.empty() || line[0] != '[') return false;
  size_t i = 1;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
  if (i == 1) return false;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i < line.size() && line[i] == '"';
}

bool isStandardVariant(std::string_view value) {
  std::string v = toLower(trim(value));
  return v.empty() || v == "standard" || v == "chess" || v == "normal" || v == "from position" ||
         v == "fromposition";
}

/// Thrown inside the parser for a malformed game; caught by PgnReader::next.
struct GameError {
  int line;
  std::string message;
};

}  // namespace

// ---- PgnGame -------------------------------------------------------------------------------

std::string PgnGame::tag(std::string_view name) const {
  for (const auto& [n, v] : tags)
    if (n == name) return v;
  return {};
}

void PgnGame::setTag(std::string name, std::string value) {
  for (auto& [n, v] : tags)
    if (n == name) {
      v = std::move(value);
      return;
    }
  tags.emplace_back(std::move(name), std::move(value));
}

Position PgnGame::startPosition() const {
  try {
    return Position::fromFen(startFen.empty() ? std::string_view(Position::kStartFen) : startFen, chess960);
  } catch (const Error& e) {
    throw Error("bad FEN tag '" + startFen + "': " + e.what());
  }
}

// ---- Line reader ---------------------------------------------------------------------------

/// Splits the input into lines without "\n" / "\r\n", reading it in chunks (no getline, no copy
/// per line). A line is a view into the buffer, valid until the next call of next().
class LineReader {
 public:
  explicit LineReader(std::istream& in) : m_in(in), m_buf(kChunk) {}

  /// Next line; false at the end of input. A line longer than PgnReader::kMaxLineLength is
  /// returned cut to that length with truncated() true, and the rest of it is skipped.
  bool next(std::string_view& line) {
    if (m_unread) {
      m_unread = false;
      line = m_line;
      return true;
    }
    if (!fetch()) return false;
    line = m_line;
    return true;
  }

  /// Makes next() return the last line again.
  void unread() { m_unread = true; }
  /// 1-based number of the last line returned.
  [[nodiscard]] int lineNumber() const { return m_lineNumber; }
  [[nodiscard]] bool truncated() const { return m_truncated; }
  [[nodiscard]] u64 bytesRead() const { return m_consumed; }

 private:
  static constexpr size_t kChunk = size_t(1) << 16;

  bool fetch() {
    m_truncated = false;
    for (;;) {
      const char* start = m_buf.data() + m_pos;
      size_t avail = m_end - m_pos;
      const char* nl = avail ? static_cast<const char*>(std::memchr(start, '\n', avail)) : nullptr;
      if (m_discarding) {  // the tail of an overlong line
        size_t used = nl ? size_t(nl - start) + 1 : avail;
        m_pos += used;
        m_consumed += used;
        if (nl) m_discarding = false;
        else if (!refill()) return false;
        continue;
      }
      if (nl) return emit(start, size_t(nl - start), size_t(nl - start) + 1);
      if (avail >= PgnReader::kMaxLineLength) {
        m_truncated = m_discarding = true;
        return emit(start, PgnReader::kMaxLineLength, PgnReader::kMaxLineLength);
      }
      if (!refill()) {  // last line without '\n' (refill may have moved the bytes)
        avail = m_end - m_pos;
        return avail > 0 && emit(m_buf.data() + m_pos, avail, avail);
      }
    }
  }

  bool emit(const char* start, size_t length, size_t used) {
    m_line = std::string_view(start, length);
    m_pos += used;
    m_consumed += used;
    ++m_lineNumber;
    if (!m_line.empty() && m_line.back() == '\r') m_line.remove_suffix(1);
    if (m_lineNumber == 1 && m_line.substr(0, 3) == "\xEF\xBB\xBF") m_line.remove_prefix(3);  // UTF-8 BOM
    return true;
  }

  /// Moves the unread bytes to the front, grows the buffer if it is full and reads more.
  /// False at the end of input.
  bool refill() {
    if (m_eof) return false;
    size_t avail = m_end - m_pos;
    if (m_pos > 0) {
      std::memmove(m_buf.data(), m_buf.data() + m_pos, avail);
      m_end = avail;
      m_pos = 0;
    }
    if (m_end == m_buf.size()) m_buf.resize(std::min(m_buf.size() * 2, PgnReader::kMaxLineLength));
    m_in.read(m_buf.data() + m_end, std::streamsize(m_buf.size() - m_end));
    size_t got = size_t(m_in.gcount());
    if (m_in.bad()) throw Error("read error");
    m_end += got;
    if (got == 0) m_eof = true;
    return got > 0;
  }

  std::istream& m_in;
  std::vector<char> m_buf;
  size_t m_pos = 0, m_end = 0;
  bool m_eof = false;
  std::string_view m_line;
  int m_lineNumber = 0;
  bool m_unread = false;
  bool m_truncated = false;
  bool m_discarding = false;
  u64 m_consumed = 0;
};

// ---- Game parser ---------------------------------------------------------------------------

struct PgnReader::Impl {
  Impl(std::istream& in, std::string source) : lines(in), sourceName(std::move(source)) {}

  LineReader lines;
  std::string sourceName;
  bool resyncReady = false;  // the unread line is the start of the next game

  [[noreturn]] void fail(int line, std::string message) { throw GameError{line, std::move(message)}; }

  // Per-game state.
  PgnGame* game = nullptr;
  Position pos;
  std::vector<int> tagLines;
  int varDepth = 0, varLine = 0;
  bool inComment = false, keepComment = false;
  int commentLine = 0;
  std::string commentText;
  bool ended = false;  // termination marker seen

  void addComment(std::string_view text) {
    std::string& target = game->moves.empty() ? game->preComment : game->comments.back();
    appendNormalised(target, text);
  }

  /// Parses the tag pairs on one line ("[Name "value"]", possibly several).
  void parseTagLine(std::string_view s, int line) {
    size_t i = 0, n = s.size();
    auto skipSpace = [&] {
      while (i < n && isSpace(s[i])) ++i;
    };
    skipSpace();
    while (i < n) {
      if (s[i] != '[') fail(line, "unexpected text after a tag pair: '" + std::string(trim(s.substr(i))) + "'");
      ++i;
      skipSpace();
      size_t nameStart = i;
      while (i < n && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      std::string name(s.substr(nameStart, i - nameStart));
      if (name.empty()) fail(line, "bad tag line '" + std::string(trim(s)) + "': no tag name");
      skipSpace();
      if (i >= n || s[i] != '"') fail(line, "bad tag line '" + std::string(trim(s)) + "': value of tag '" + name +
                                                "' is not a quoted string");
      size_t valueStart = ++i;
      std::string value;
      bool closed = false;
      while (i < n) {
        char c = s[i++];
        if (c == '\\' && i < n && (s[i] == '"' || s[i] == '\\')) {
          value += s[i++];
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          value += c;
        }
      }
      if (!closed) fail(line, "unterminated tag value in '" + std::string(trim(s)) + "' (missing '\"')");
      skipSpace();
      if (i >= n || s[i] != ']') {
        // Real files contain unescaped quotes inside values: [Event "The "Big" Open"]. Accept
        // them when the line ends with "] and holds no other tag.
        std::string_view rest = trim(s);
        size_t lastQuote = s.rfind('"');
        if (rest.size() >= 2 && rest.substr(rest.size() - 2) == "\"]" && lastQuote >= valueStart &&
            s.substr(valueStart).find('[') == std::string_view::npos) {
          value.clear();
          for (size_t k = valueStart; k < lastQuote; ++k) {
            if (s[k] == '\\' && k + 1 < lastQuote && (s[k + 1] == '"' || s[k + 1] == '\\')) ++k;
            value += s[k];
          }
          i = s.find(']', lastQuote);
        } else {
          fail(line, "bad tag line '" + std::string(trim(s)) + "': missing ']' after the value of tag '" + name + "'");
        }
      }
      ++i;  // ']'
      game->tags.emplace_back(std::move(name), std::move(value));
      tagLines.push_back(line);
      skipSpace();
      if (i < n && s[i] == ';') break;  // rest-of-line comment after the tags
    }
  }

  /// Sets up the start position from the Variant, SetUp and FEN tags.
  void setUpPosition() {
    int fenLine = 0;
    bool haveFen = false;
    for (size_t k = 0; k < game->tags.size(); ++k) {
      const auto& [name, value] = game->tags[k];
      if (name == "Variant") {
        if (isChess960Variant(value))
          game->chess960 = true;
        else if (!isStandardVariant(value))
          fail(tagLines[k], "unsupported variant '" + value + "' (tag [Variant]; only standard chess and Chess960)");
      } else if (name == "FEN" && !haveFen) {
        haveFen = true;
        game->startFen = std::string(trim(value));
        fenLine = tagLines[k];
      }
    }
    try {
      pos = game->startPosition();
    } catch (const Error& e) {
      fail(fenLine, e.what());
    }
  }

  /// Handles one movetext token that is not a comment, variation bracket or NAG.
  void handleToken(std::string_view tok, int line) {
    if (tok == "\xC2\xBD-\xC2\xBD") tok = "1/2-1/2";  // "½-½"
    if (isResultToken(tok)) {
      if (varDepth == 0) {
        game->result = std::string(tok);
        ended = true;
      }
      return;
    }
    if (varDepth > 0) return;  // variations are skipped

    // Null moves (ChessBase "Z0", "--", UCI "0000", ...) cannot be played on a Position.
    if (tok == "Z0" || tok == "--" || tok == "0000" || tok == "@@@@" || tok == "null" || tok == "<>")
      fail(line, "move " + moveLabel(pos) + " '" + std::string(tok) + "': null moves are not supported");

    // Move number, possibly glued to the move: "12.", "12...", "12.Nf3", "12…".
    bool castlingWithZeros = tok.substr(0, 3) == "0-0";
    if (!castlingWithZeros && !tok.empty() && isDigit(tok[0])) {
      size_t k = 0;
      while (k < tok.size() && isDigit(tok[k])) ++k;
      if (k == tok.size()) return;  // bare number
      if (tok[k] != '.' && tok.substr(k, 3) != "\xE2\x80\xA6")
        fail(line, "move " + moveLabel(pos) + " '" + std::string(tok) + "': not a move or move number");
      tok.remove_prefix(k);
    }
    while (!tok.empty() && (tok[0] == '.' || tok.substr(0, 3) == "\xE2\x80\xA6"))
      tok.remove_prefix(tok[0] == '.' ? 1 : 3);
    if (tok.empty()) return;

    // Annotation glyphs and evaluation symbols written as their own token: "!?", "+-", "=", "±".
    if (std::all_of(tok.begin(), tok.end(), [](char c) {
          return std::string_view("!?+-=/~").find(c) != std::string_view::npos || static_cast<unsigned char>(c) >= 0x80;
        }))
      return;
    if (tok == "e.p." || tok == "ep") return;
    if (tok.size() > 4 && tok.substr(tok.size() - 4) == "e.p.") tok.remove_suffix(4);
    if (tok.find('@') != std::string_view::npos)
      fail(line, "move " + moveLabel(pos) + " '" + std::string(tok) + "': piece drops are not standard chess");

    Move m;
    try {
      m = parseSan(pos, tok);
    } catch (const Error& e) {
      std::string why = e.what();
      std::string prefix = "SAN '" + std::string(tok) + "': ";
      if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
      fail(line, "move " + moveLabel(pos) + " '" + std::string(tok) + "': " + why);
    }
    pos.makeMove(m);
    game->moves.push_back(m);
    game->comments.emplace_back();
  }

  /// Processes one line of movetext (outside or inside a comment).
  void parseMovetextLine(std::string_view s, int line) {
    size_t i = 0, n = s.size();
    if (inComment) {
      size_t close = s.find('}');
      if (close == std::string_view::npos) {
        if (keepComment) commentText.append(s).push_back(' ');
        if (commentText.size() > kMaxLineLength)
          fail(commentLine, "comment longer than " + std::to_string(kMaxLineLength) + " bytes (missing '}'?)");
        return;
      }
      if (keepComment) {
        commentText.append(s.substr(0, close));
        addComment(commentText);
      }
      inComment = false;
      i = close + 1;
    } else if (n > 0 && s[0] == '%') {
      return;  // escape line (spec 6)
    }
    while (i < n && !ended) {
      char c = s[i];
      if (isSpace(c)) {
        ++i;
      } else if (c == '{') {
        size_t close = s.find('}', i + 1);
        if (close == std::string_view::npos) {
          inComment = true;
          keepComment = varDepth == 0;
          commentLine = line;
          commentText.clear();
          if (keepComment) commentText.append(s.substr(i + 1)).push_back(' ');
          return;
        }
        if (varDepth == 0) addComment(s.substr(i + 1, close - i - 1));
        i = close + 1;
      } else if (c == ';') {
        if (varDepth == 0) addComment(s.substr(i + 1));
        return;
      } else if (c == '(') {
        if (varDepth++ == 0) varLine = line;
        ++i;
      } else if (c == ')') {
        if (varDepth == 0) fail(line, "')' without an open variation");
        --varDepth;
        ++i;
      } else if (c == '$') {
        ++i;
        while (i < n && isDigit(s[i])) ++i;
      } else if (c == '}') {
        fail(line, "'}' outside a comment");
      } else if (c == '[' || c == ']') {
        fail(line, std::string("unexpected '") + c + "' in movetext: '" + std::string(trim(s.substr(i, 40))) + "'");
      } else {
        size_t j = i;
        while (j < n && !isSpace(s[j]) && std::string_view("{}();[]$").find(s[j]) == std::string_view::npos) ++j;
        handleToken(s.substr(i, j - i), line);
        i = j;
      }
    }
  }

  /// Reads one game. Returns false at the end of input (no game).
  bool parse(PgnGame& g) {
    game = &g;
    g.tags.clear();
    g.startFen.clear();
    g.chess960 = false;
    g.moves.clear();
    g.comments.clear();
    g.preComment.clear();
    g.result.assign(1, '*');  // (not = "*": GCC 12 -Wrestrict false positive)
    tagLines.clear();
    varDepth = 0;
    inComment = false;
    ended = false;
    resyncReady = false;

    std::string_view s;
    do {
      if (!lines.next(s)) return false;
    } while (isBlank(s) || s[0] == '%');
    g.line = lines.lineNumber();

    // Tag pair section.
    bool eof = false;
    while (trimLeft(s).substr(0, 1) == "[") {
      if (lines.truncated()) fail(lines.lineNumber(), "line longer than " + std::to_string(kMaxLineLength) + " bytes");
      parseTagLine(s, lines.lineNumber());
      if (!lines.next(s)) {
        eof = true;
        break;
      }
    }
    if (!eof) lines.unread();
    setUpPosition();

    // Movetext section.
    bool prevBlank = false;
    while (!ended) {
      if (!lines.next(s)) {
        if (inComment) fail(commentLine, "unterminated comment (no '}' before the end of the input)");
        if (varDepth > 0) fail(varLine, "unterminated variation (no ')' before the end of the input)");
        break;
      }
      int line = lines.lineNumber();
      if (lines.truncated()) fail(line, "line longer than " + std::to_string(kMaxLineLength) + " bytes");
      if (inComment) {
        if (looksLikeTagLine(s) && (prevBlank || trimLeft(s).substr(0, 7) == "[Event ")) {
          lines.unread();
          resyncReady = true;
          fail(commentLine, "unterminated comment (no '}' before the next game at line " + std::to_string(line) + ")");
        }
      } else if (trimLeft(s).substr(0, 1) == "[") {
        // The next tag pair section: this game had no termination marker.
        lines.unread();
        if (varDepth > 0) {
          resyncReady = true;
          fail(varLine, "unterminated variation (no ')' before the next game at line " + std::to_string(line) + ")");
        }
        break;
      }
      prevBlank = isBlank(s);
      parseMovetextLine(s, line);
    }
    if (!ended) {
      std::string tagResult = g.tag("Result");
      g.result = isResultToken(tagResult) ? tagResult : "*";
    }
    return true;
  }

  /// Skips to the start of the next game after an error.
  void resync() {
    if (resyncReady) return;
    std::string_view s;
    bool prevBlank = false;
    while (lines.next(s)) {
      std::string_view t = trimLeft(s);
      if (!t.empty() && t[0] == '[' && (prevBlank || t.substr(0, 7) == "[Event ")) {
        lines.unread();
        return;
      }
      prevBlank = t.empty();
    }
  }
};

// ---- PgnReader -----------------------------------------------------------------------------

PgnReader::PgnReader(std::istream& in, std::string sourceName)
    : m_impl(std::make_unique<Impl>(in, std::move(sourceName))) {}

PgnReader::~PgnReader() = default;

std::unique_ptr<PgnReader> PgnReader::open(const std::string& path) {
  std::unique_ptr<std::istream> in = openInputFile(path);
  auto reader = std::make_unique<PgnReader>(*in, path);
  reader->m_owned = std::move(in);
  return reader;
}

bool PgnReader::next(PgnGame& game) {
  for (;;) {
    try {
      if (!m_impl->parse(game)) return false;
      ++m_gamesRead;
      return true;
    } catch (const GameError& e) {
      ++m_gamesSkipped;
      if (m_errors.size() < kMaxStoredErrors) m_errors.push_back(PgnError{m_impl->sourceName, e.line, e.message});
      m_impl->resync();
    } catch (const Error& e) {
      // Stream failures (e.g. corrupt zstd data) end the reading; name the source if needed.
      std::string what = e.what();
      if (what.find(m_impl->sourceName) == std::string::npos) throw Error("'" + m_impl->sourceName + "': " + what);
      throw;
    }
  }
}

u64 PgnReader::bytesRead() const { return m_impl->lines.bytesRead(); }

}  // namespace janus
