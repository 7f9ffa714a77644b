#include "core/pgn.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <istream>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus {

namespace {

constexpr std::string_view kWhiteSpace = " \t\r\n\f\v";

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view trimLeft(std::string_view s) {
  size_t i = s.find_first_not_of(kWhiteSpace);
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

std::string_view trim(std::string_view s) {
  s = trimLeft(s);
  size_t j = s.find_last_not_of(kWhiteSpace);
  return j == std::string_view::npos ? std::string_view() : s.substr(0, j + 1);
}

bool isBlank(std::string_view s) { return trimLeft(s).empty(); }

std::string toLower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return r;
}

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

bool isResultToken(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

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

bool isChess960Variant(std::string_view value) {
  std::string v = toLower(trim(value));
  return v == "chess960" || v == "chess 960" || v == "fischerandom" || v == "fischer random" ||
         v == "fischerrandom" || v == "960";
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

/// "12." or "12..." for the side to move in `pos`.
std::string moveLabel(const Position& pos) {
  return std::to_string(pos.fullmoveNumber()) + (pos.sideToMove() == kWhite ? "." : "...");
}

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

// ---- Writing -------------------------------------------------------------------------------

namespace {

constexpr size_t kMaxColumns = 79;  // export format (spec 8.2.2.2): lines of at most 79 characters

std::string escapeTagValue(std::string_view v) {
  std::string r;
  for (char c : v) {
    if (c == '"' || c == '\\') r += '\\';
    r += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return r;
}

/// Joins tokens into lines of at most kMaxColumns characters.
class LineWrapper {
 public:
  explicit LineWrapper(std::string& out) : m_out(out) {}
  /// Appends a token, starting a new line if it would not fit, unless `noBreakBefore`.
  void add(std::string_view token, bool noBreakBefore = false) {
    if (m_column > 0 && m_column + 1 + token.size() > kMaxColumns && !noBreakBefore) {
      m_out += '\n';
      m_column = 0;
    }
    if (m_column > 0) {
      m_out += ' ';
      ++m_column;
    }
    m_out += token;
    m_column += token.size();
  }
  void addComment(std::string_view text) {
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && isSpace(text[i])) ++i;
      size_t j = i;
      while (j < text.size() && !isSpace(text[j])) ++j;
      if (j > i) words.push_back(text.substr(i, j - i));
      i = j;
    }
    if (words.empty()) return;
    if (text.find('}') == std::string_view::npos) {
      for (size_t k = 0; k < words.size(); ++k) {
        std::string w(words[k]);
        if (k == 0) w.insert(w.begin(), '{');
        if (k + 1 == words.size()) w += '}';
        // A comment line that starts with '[' and a name can look like the next game's tag pair
        // section ([Event "...), which the reader takes as the end of an unterminated comment;
        // keep such a word on the line before (found by pgn_fuzz's round-trip property).
        bool tagLike = w.size() > 1 && w[0] == '[' && (std::isalnum(static_cast<unsigned char>(w[1])) || w[1] == '_');
        add(w, tagLike);
      }
      return;
    }
    // A brace comment cannot hold '}': use rest-of-line comments (spec 5), one per line; the
    // reader joins consecutive ones with a space, which gives back the same text.
    add(";");
    for (std::string_view w : words) {
      if (m_column > 1 && m_column + 1 + w.size() > kMaxColumns) {
        m_out += "\n;";
        m_column = 1;
      }
      m_out += ' ';
      m_out += w;
      m_column += 1 + w.size();
    }
    m_out += '\n';
    m_column = 0;
  }

 private:
  std::string& m_out;
  size_t m_column = 0;
};

}  // namespace

std::string writePgn(const PgnGame& game) {
  if (!isResultToken(game.result))
    throw Error("writePgn: result '" + game.result + "' is not 1-0, 0-1, 1/2-1/2 or *");
  Position pos = game.startPosition();
  std::string out;
  auto writeTag = [&](std::string_view name, std::string_view value) {
    out += '[';
    out += name;
    out += " \"";
    out += escapeTagValue(value);
    out += "\"]\n";
  };
  static constexpr std::string_view kRoster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
  for (std::string_view name : kRoster) {
    std::string value = name == "Result" ? game.result : game.tag(name);
    if (value.empty()) value = name == "Date" ? "????.??.??" : "?";
    writeTag(name, value);
  }
  if (game.chess960) writeTag("Variant", "Chess960");
  if (game.chess960 || !game.startFen.empty()) {
    writeTag("SetUp", "1");
    writeTag("FEN", pos.fen());
  }
  for (const auto& [name, value] : game.tags) {
    if (std::find(std::begin(kRoster), std::end(kRoster), name) != std::end(kRoster)) continue;
    if (name == "SetUp" || name == "FEN") continue;
    if (name == "Variant" && (game.chess960 || isChess960Variant(value))) continue;
    writeTag(name, value);
  }
  out += '\n';

  LineWrapper wrap(out);
  wrap.addComment(game.preComment);
  bool needNumber = true;  // Black's move needs "N..." at the start and after a comment
  for (size_t i = 0; i < game.moves.size(); ++i) {
    Move m = game.moves[i];
    MoveList legal = legalMoves(pos);
    if (!legal.contains(m))
      throw Error("writePgn: move " + moveLabel(pos) + " '" + toUci(m, pos.isChess960()) + "' is illegal in position " +
                  pos.fen());
    if (pos.sideToMove() == kWhite || needNumber) wrap.add(moveLabel(pos));
    wrap.add(toSan(pos, m));
    pos.makeMove(m);
    const std::string* comment = i < game.comments.size() ? &game.comments[i] : nullptr;
    needNumber = comment && !trim(*comment).empty();
    if (needNumber) wrap.addComment(*comment);
  }
  wrap.add(game.result);
  out += "\n\n";
  return out;
}

// ---- Comment commands ----------------------------------------------------------------------

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
