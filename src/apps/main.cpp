// janus: command-line entry point. Without a subcommand Janus speaks UCI on stdin/stdout.

#include <chrono>
#include <iostream>

#include <CLI/CLI.hpp>

#include "core/notation.h"
#include "core/perft.h"
#include "util/error.h"

using namespace janus;

int main(int argc, char** argv) {
  CLI::App app{"Janus chess engine"};
  app.require_subcommand(0, 1);

  int depth = 1;
  std::string fen = Position::kStartFen;
  bool chess960 = false;
  auto* perftCmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree");
  auto* divideCmd = app.add_subcommand("divide", "Perft split by root move");
  for (auto* cmd : {perftCmd, divideCmd}) {
    cmd->add_option("depth", depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
    cmd->add_option("fen", fen, "Position (FEN, X-FEN or Shredder-FEN); default: start position");
    cmd->add_flag("--chess960", chess960, "Print castling moves as king-takes-rook");
  }
  std::string suitePath;
  u64 maxNodes = ~u64(0);
  auto* suiteCmd = app.add_subcommand("perftsuite", "Check every position of a perft suite (EPD or .perft)");
  suiteCmd->add_option("file", suitePath, "Suite file")->required();
  suiteCmd->add_option("--max-nodes", maxNodes, "Skip (position, depth) entries expecting more nodes");
  suiteCmd->add_flag("--chess960", chess960, "Treat every position as Chess960");
  CLI11_PARSE(app, argc, argv);

  try {
    if (suiteCmd->parsed()) {
      auto start = std::chrono::steady_clock::now();
      int checked = 0, failed = 0, skipped = 0;
      u64 total = 0;
      for (const auto& c : loadPerftSuite(suitePath)) {
        Position pos = Position::fromFen(c.fen, chess960);
        for (auto [d, expected] : c.expected) {
          if (expected > maxNodes) {
            ++skipped;
            continue;
          }
          u64 got = perft(pos, d);
          total += got;
          ++checked;
          if (got != expected) {
            ++failed;
            std::cout << "FAIL " << c.name << " " << c.fen << " depth " << d << ": expected " << expected << ", got "
                      << got << "\n";
          }
        }
      }
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cout << suitePath << ": " << checked - failed << "/" << checked << " (position, depth) counts match, "
                << skipped << " skipped, " << total << " nodes in " << int(secs * 1000) << " ms\n";
      return failed ? 1 : 0;
    }
    if (perftCmd->parsed() || divideCmd->parsed()) {
      Position pos = Position::fromFen(fen, chess960);
      auto start = std::chrono::steady_clock::now();
      u64 nodes = 0;
      if (divideCmd->parsed()) {
        for (auto [m, n] : divide(pos, depth)) {
          std::cout << toUci(m, chess960 || pos.isChess960()) << ": " << n << "\n";
          nodes += n;
        }
        std::cout << "\n";
      } else {
        nodes = perft(pos, depth);
      }
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cout << "Nodes searched: " << nodes << "\n"
                << "Time: " << int(secs * 1000) << " ms, " << u64(nodes / std::max(secs, 1e-9)) << " nps\n";
      return 0;
    }
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
