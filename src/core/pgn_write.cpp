// PGN writing: writePgn (pgn.h), the export format of the PGN standard, section 8.

#include "core/pgn.h"

#include <algorithm>
#include <cctype>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/pgn_text.h"
#include "util/error.h"

namespace janus {

using namespace pgn_text;

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

}  // namespace janus
