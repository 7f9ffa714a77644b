// janus perft | divide | perftsuite

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>

#include "apps/commands.h"
#include "core/notation.h"
#include "core/perft.h"

namespace janus::apps {

namespace {
struct PerftArgs {
  int depth = 1;
  std::string fen = Position::kStartFen;
  bool chess960 = false;
  std::string suitePath;
  u64 maxNodes = ~u64(0);
};

int runPerft(const PerftArgs& a, bool split) {
  Position pos = Position::fromFen(a.fen, a.chess960);
  auto start = std::chrono::steady_clock::now();
  u64 nodes = 0;
  if (split) {
    for (auto [m, n] : divide(pos, a.depth)) {
      std::cout << toUci(m, a.chess960 || pos.isChess960()) << ": " << n << "\n";
      nodes += n;
    }
    std::cout << "\n";
  } else {
    nodes = perft(pos, a.depth);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "Nodes searched: " << nodes << "\n"
            << "Time: " << int(secs * 1000) << " ms, " << u64(double(nodes) / std::max(secs, 1e-9)) << " nps\n";
  return 0;
}

int runSuite(const PerftArgs& a) {
  auto start = std::chrono::steady_clock::now();
  int checked = 0, failed = 0, skipped = 0;
  u64 total = 0;
  for (const auto& c : loadPerftSuite(a.suitePath)) {
    Position pos = Position::fromFen(c.fen, a.chess960);
    for (auto [d, expected] : c.expected) {
      if (expected > a.maxNodes) {
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
  std::cout << a.suitePath << ": " << checked - failed << "/" << checked << " (position, depth) counts match, "
            << skipped << " skipped, " << total << " nodes in " << int(secs * 1000) << " ms\n";
  return failed ? 1 : 0;
}
}  // namespace

void addPerftCommands(CLI::App& app, Commands& out) {
  auto args = std::make_shared<PerftArgs>();
  auto* perftCmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree");
  auto* divideCmd = app.add_subcommand("divide", "Perft split by root move");
  for (auto* cmd : {perftCmd, divideCmd}) {
    cmd->add_option("depth", args->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
    cmd->add_option("fen", args->fen, "Position (FEN, X-FEN or Shredder-FEN); default: start position");
    cmd->add_flag("--chess960", args->chess960, "Chess960 castling (king takes rook in output)");
  }
  auto* suiteCmd = app.add_subcommand("perftsuite", "Check every position of a perft suite (EPD or .perft)");
  suiteCmd->add_option("file", args->suitePath, "Suite file")->required();
  suiteCmd->add_option("--max-nodes", args->maxNodes, "Skip (position, depth) entries expecting more nodes");
  suiteCmd->add_flag("--chess960", args->chess960, "Treat every position as Chess960");
  out.push_back({perftCmd, [args] { return runPerft(*args, false); }});
  out.push_back({divideCmd, [args] { return runPerft(*args, true); }});
  out.push_back({suiteCmd, [args] { return runSuite(*args); }});
}

}  // namespace janus::apps
