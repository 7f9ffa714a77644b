#include "match/openings.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "core/movegen.h"
#include "core/pgn.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::match {

namespace {
bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isNumber(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void checkPlayable(const Opening& o) {
  Position pos = o.startPosition();
  for (Move m : o.moves) pos.makeMove(m);
  if (!hasLegalMove(pos)) throw Error("the position has no legal move (the game is already over)");
}
}  // namespace

Position Opening::startPosition() const {
  return Position::fromFen(fen.empty() ? std::string(Position::kStartFen) : fen, chess960);
}

Opening parseEpdLine(const std::string& line, bool chess960) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (i < line.size() && fields.size() < 6) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != ';') ++j;
    if (j == i) break;
    std::string f = line.substr(i, j - i);
    // After the 4 mandatory fields, only numbers (halfmove / fullmove clocks) belong to the FEN.
    if (fields.size() >= 4 && !isNumber(f)) break;
    fields.push_back(f);
    i = j;
  }
  if (fields.size() < 4)
    throw Error(fmt::format("expected at least 4 FEN fields, found {}", fields.size()));
  std::string fen = fields[0];
  for (size_t k = 1; k < fields.size(); ++k) fen += " " + fields[k];
  Opening o;
  o.fen = Position::fromFen(fen, chess960).fen();
  o.chess960 = Position::fromFen(fen, chess960).isChess960();
  if (auto id = line.find(" id "); id != std::string::npos) {
    size_t q1 = line.find('"', id), q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
    if (q2 != std::string::npos) o.name = line.substr(q1 + 1, q2 - q1 - 1);
  }
  checkPlayable(o);
  return o;
}

OpeningBook loadOpenings(const std::string& path, bool chess960) {
  OpeningBook book;
  if (endsWith(path, ".pgn") || endsWith(path, ".pgn.zst")) {
    auto reader = PgnReader::open(path);
    PgnGame game;
    while (reader->next(game)) {
      Opening o;
      o.line = game.line;
      o.chess960 = game.chess960 || chess960;
      o.moves = game.moves;
      o.name = game.tag("Opening");
      if (o.name.empty()) o.name = game.tag("ECO");
      if (o.name.empty()) o.name = game.tag("Eco");
      try {
        Position start = game.startPosition();
        o.chess960 = o.chess960 || start.isChess960();
        if (!game.startFen.empty() || o.chess960) o.fen = start.fen();
        checkPlayable(o);
        book.openings.push_back(std::move(o));
      } catch (const Error& e) {
        book.errors.push_back(fmt::format("{}:{}: {}", path, game.line, e.what()));
      }
    }
    for (const auto& e : reader->errors())
      book.errors.push_back(fmt::format("{}:{}: {}", path, e.line, e.message));
  } else {
    std::unique_ptr<std::istream> in;
    try {
      in = openInputFile(path);  // plain or zstd-compressed (.epd.zst)
    } catch (const Error& e) {
      throw Error(fmt::format("cannot open opening file '{}': {}", path, e.what()));
    }
    std::string line;
    int lineNo = 0;
    while (std::getline(*in, line)) {
      ++lineNo;
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') continue;
      try {
        Opening o = parseEpdLine(line, chess960);
        o.line = lineNo;
        book.openings.push_back(std::move(o));
      } catch (const Error& e) {
        book.errors.push_back(fmt::format("{}:{}: {}", path, lineNo, e.what()));
      }
    }
  }
  if (book.openings.empty()) {
    std::string why = book.errors.empty() ? "" : " (first problem: " + book.errors.front() + ")";
    throw Error(fmt::format("opening file '{}' holds no valid opening{}", path, why));
  }
  return book;
}

std::string defaultOpeningBook() {
  namespace fs = std::filesystem;
  const std::string file = "openings/janus-8moves-300.pgn";
  std::vector<fs::path> candidates;
#ifdef JANUS_DATA_DIR
  candidates.emplace_back(fs::path(JANUS_DATA_DIR) / file);
#endif
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "data" / file);
    candidates.push_back(exe.parent_path().parent_path() / "data" / file);
    candidates.push_back(exe.parent_path().parent_path() / "share" / "janus" / file);
  }
  for (const auto& c : candidates)
    if (fs::exists(c, ec)) return c.string();
  std::string tried;
  for (const auto& c : candidates) tried += (tried.empty() ? "" : ", ") + c.string();
  throw Error(fmt::format("the default opening book was not found (looked at: {}); give one with --openings", tried));
}

std::vector<int> openingOrder(int count, int start, bool random, u64 seed) {
  std::vector<int> order(size_t(std::max(count, 0)));
  if (count <= 0) return order;
  for (int i = 0; i < count; ++i) order[size_t(i)] = i;
  if (random) {
    std::mt19937_64 rng(seed);
    // Fisher-Yates with rejection sampling (std::uniform_int_distribution is not specified
    // precisely enough to give the same order with every standard library).
    for (int i = count - 1; i > 0; --i) {
      u64 range = u64(i) + 1, limit = ~u64(0) - (~u64(0) % range), r;
      do r = rng();
      while (r >= limit);
      std::swap(order[size_t(i)], order[size_t(r % range)]);
    }
  }
  int s = ((start % count) + count) % count;
  std::rotate(order.begin(), order.begin() + s, order.end());
  return order;
}

}  // namespace janus::match
