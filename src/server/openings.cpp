#include "server/openings.h"

#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "core/notation.h"
#include "core/position.h"

namespace janus::server {

namespace {

// An array, not a constexpr string_view: the literal is longer than GCC's constexpr loop limit.
const char kTable[] =
#include "server/openings_data.inc"
    ;

/// The FEN's first four fields (placement, side, castling, en passant): the position's identity.
std::string_view positionKey(std::string_view fen) {
  size_t at = 0;
  for (int field = 0; field < 4; ++field) {
    at = fen.find(' ', at);
    if (at == std::string_view::npos) return fen;
    if (field < 3) ++at;
  }
  return fen.substr(0, at);
}

struct Table {
  std::vector<Opening> openings;
  std::unordered_map<std::string, size_t> byPosition;  ///< positionKey -> index in openings
};

/// Replays every line of the table. A line that does not replay is a bug in the generated data:
/// the error names it.
Table buildTable() {
  Table t;
  std::istringstream lines{std::string(kTable, sizeof kTable - 1)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty()) continue;
    size_t tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
    if (tab1 == std::string::npos || tab2 == std::string::npos)
      throw std::logic_error("openings_data.inc line " + std::to_string(number) + ": expected 3 tab-separated fields");
    Position pos = Position::fromFen(Position::kStartFen);
    std::istringstream moves(line.substr(tab2 + 1));
    for (std::string san; moves >> san;) pos.makeMove(parseSan(pos, san));
    t.openings.push_back({line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1)});
    // A later line for the same position (a transposition listed twice) keeps the first name.
    t.byPosition.emplace(std::string(positionKey(pos.fen())), t.openings.size() - 1);
  }
  return t;
}

const Table& table() {
  static const Table t = buildTable();  // thread-safe initialisation
  return t;
}

}  // namespace

const Opening* findOpening(std::string_view fen) {
  const Table& t = table();
  auto it = t.byPosition.find(std::string(positionKey(fen)));
  return it == t.byPosition.end() ? nullptr : &t.openings[it->second];
}

std::vector<std::pair<int, const Opening*>> openingsOf(const std::vector<std::string>& fens) {
  std::vector<std::pair<int, const Opening*>> out;
  for (size_t i = 0; i < fens.size(); ++i)
    if (const Opening* o = findOpening(fens[i])) out.emplace_back(int(i), o);
  return out;
}

}  // namespace janus::server
