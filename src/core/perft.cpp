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
    try {
      size_t used = 0;
      int d = std::stoi(depthText, &used);
      if (used != depthText.size() || d < 0) fail("bad depth '" + depthText + "'");
      u64 n = std::stoull(nodesText, &used);
      if (used != nodesText.size()) fail("bad node count '" + nodesText + "'");
      return std::pair<int, u64>{d, n};
    } catch (const std::logic_error&) {
      fail("bad perft entry '" + depthText + " " + nodesText + "'");
    }
    return std::pair<int, u64>{};
  };
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string word;
    ss >> word;
    if (word == "id") {
      cases.push_back({line.substr(3), "", {}});
    } else if (word == "epd") {
      if (cases.empty() || !cases.back().fen.empty()) cases.push_back({"line " + std::to_string(lineNo), "", {}});
      cases.back().fen = line.substr(4);
    } else if (word == "perft") {
      std::string d, n;
      ss >> d >> n;
      if (cases.empty() || cases.back().fen.empty()) fail("'perft' before 'epd'");
      cases.back().expected.push_back(parseCount(d, n));
    } else {
      auto semi = line.find(';');
      if (semi == std::string::npos) fail("expected '<fen> ;D1 <nodes> ...'");
      PerftCase c{"line " + std::to_string(lineNo), line.substr(0, semi), {}};
      std::istringstream rest(line.substr(semi));
      std::string tok, nodes;
      while (rest >> tok) {
        if (tok.size() < 3 || tok[0] != ';' || tok[1] != 'D') fail("expected ';D<depth>', got '" + tok + "'");
        if (!(rest >> nodes)) fail("missing node count after '" + tok + "'");
        c.expected.push_back(parseCount(tok.substr(2), nodes));
      }
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace janus
