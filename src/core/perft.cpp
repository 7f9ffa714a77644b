#include "core/perft.h"

#include "core/movegen.h"

namespace janus {

u64 perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return u64(countLegalMoves(pos));
  MoveList moves;
  generateMoves(pos, moves);
  u64 nodes = 0;
  for (Move m : moves) {
    pos.makeMove(m);
    nodes += perft(pos, depth - 1);
    pos.unmakeMove(m);
  }
  return nodes;
}

std::vector<std::pair<Move, u64>> divide(Position& pos, int depth) {
  std::vector<std::pair<Move, u64>> result;
  for (Move m : legalMoves(pos)) {
    pos.makeMove(m);
    result.emplace_back(m, perft(pos, depth - 1));
    pos.unmakeMove(m);
  }
  return result;
}

}  // namespace janus

#include <charconv>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace janus {

std::vector<PerftCase> loadPerftSuite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open perft suite '" + path + "'");
  std::vector<PerftCase> cases;
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string& why) { throw Error(path + ":" + std::to_string(lineNo) + ": " + why); };
  auto parseCount = [&](const std::string& depthText, const std::string& nodesText) {
    int d = 0;
    u64 n = 0;
    auto [dEnd, dErr] = std::from_chars(depthText.data(), depthText.data() + depthText.size(), d);
    if (depthText.empty() || dErr != std::errc() || dEnd != depthText.data() + depthText.size() || d < 0 ||
        d > kMaxPerftSuiteDepth)
      fail("bad depth '" + depthText + "' (expected 0.." + std::to_string(kMaxPerftSuiteDepth) + ")");
    auto [nEnd, nErr] = std::from_chars(nodesText.data(), nodesText.data() + nodesText.size(), n);
    if (nodesText.empty() || nErr != std::errc() || nEnd != nodesText.data() + nodesText.size())
      fail("bad node count '" + nodesText + "' after depth " + depthText);
    return std::pair<int, u64>{d, n};
  };
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string word, rest;
    ss >> word;
    std::getline(ss, rest);
    size_t b = rest.find_first_not_of(" \t"), e = rest.find_last_not_of(" \t");
    rest = b == std::string::npos ? "" : rest.substr(b, e - b + 1);
    if (word == "id") {
      cases.push_back({rest.empty() ? "line " + std::to_string(lineNo) : rest, "", {}});
    } else if (word == "epd") {
      if (rest.empty()) fail("'epd' without a FEN");
      if (cases.empty() || !cases.back().fen.empty()) cases.push_back({"line " + std::to_string(lineNo), "", {}});
      cases.back().fen = rest;
    } else if (word == "perft") {
      std::istringstream counts(rest);
      std::string d, n, extra;
      counts >> d >> n;
      if (cases.empty() || cases.back().fen.empty()) fail("'perft' before 'epd'");
      if (counts >> extra) fail("unexpected '" + extra + "' after 'perft " + d + " " + n + "'");
      cases.back().expected.push_back(parseCount(d, n));
    } else {
      auto semi = line.find(';');
      if (semi == std::string::npos) fail("expected '<fen> ;D1 <nodes> ...'");
      PerftCase c{"line " + std::to_string(lineNo), line.substr(0, semi), {}};
      std::istringstream entries(line.substr(semi));
      std::string tok, nodes;
      while (entries >> tok) {
        if (tok.size() < 3 || tok[0] != ';' || tok[1] != 'D') fail("expected ';D<depth>', got '" + tok + "'");
        if (!(entries >> nodes)) fail("missing node count after '" + tok + "'");
        c.expected.push_back(parseCount(tok.substr(2), nodes));
      }
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace janus
