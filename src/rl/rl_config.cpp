// checkRlConfig (rl_loop.h): the loop's settings checked before anything is written.

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "match/engine_config.h"
#include "match/openings.h"
#include "mcts/pvnet.h"
#include "nnue/network.h"
#include "rl/launcher.h"
#include "rl/rl_loop.h"
#include "util/error.h"

namespace janus::rl {

namespace fs = std::filesystem;

void checkRlConfig(const RlConfig& c) {
  auto fail = [](const std::string& what) { return Error("rl: " + what); };
  if (c.face != "mcts" && c.face != "ab") throw fail(fmt::format("--face '{}' is neither mcts nor ab", c.face));
  if (c.dir.empty()) throw fail("no run directory (--dir)");
  if (c.hours < 0) throw fail("--hours must not be negative");
  if (c.generations < 1) throw fail("--generations must be at least 1");
  if (c.gamesPerGeneration < 1 || c.chunkGames < 1 || c.gamesPerGeneration % c.chunkGames != 0)
    throw fail(fmt::format("--games-per-gen {} must be a positive multiple of --chunk-games {}", c.gamesPerGeneration,
                           c.chunkGames));
  if (c.window < 1) throw fail("--window must be at least 1");
  if (c.gateGames < 2 || c.gateVisits < 1 || c.gateNodes < 1)
    throw fail("--gate-games must be at least 2, --gate-visits and --gate-nodes at least 1");
  if (c.gen0Games < 2) throw fail("--gen0-games must be at least 2");
  if (c.anchorEvery < 1 || c.anchorGames < 2) throw fail("--anchor-every must be >= 1 and --anchor-games >= 2");
  if (c.janus.empty() || ::access(c.janus.c_str(), X_OK) != 0) throw fail(fmt::format("'{}' is not an executable", c.janus));
  if (c.face == "ab") {
    if (c.initNet.empty()) throw fail("--face ab needs --init-net, the NNUE network (.jnn) of generation 0");
    (void)nnue::Network::fromFile(c.initNet);  // throws naming what is wrong
    if (c.datagen.nodes < 1 || c.datagen.threads < 1) throw fail("--nodes and --threads must be at least 1");
    // Fixed-node alpha-beta games are deterministic: a match longer than twice its book replays
    // the same games (the SPRT that promoted nn-cd95 held 600 distinct games in 1156, docs/rl.md).
    const std::string book = c.openings.empty() ? match::defaultOpeningBook() : c.openings;
    const std::size_t positions = match::loadOpenings(book, false).openings.size();
    const int longest = std::max(c.gateGames, c.gen0Games);
    if (2 * positions < std::size_t(longest))
      throw fail(fmt::format("the match book '{}' has {} positions: a match of {} games at fixed nodes replays identical "
                             "games after {} (each opening twice, colours swapped); give --openings a book of at least {} "
                             "positions (e.g. data/openings/8moves_v3.epd.zst, 34,700)",
                             book, positions, longest, 2 * positions, (longest + 1) / 2));
  } else {
    if (c.trainer.empty() || ::access(c.trainer.c_str(), X_OK) != 0)
      throw fail(fmt::format("the trainer '{}' is not an executable (janus-train-az is built with libtorch)", c.trainer));
    if (!c.initNet.empty()) (void)mcts::pvnet::PvNetwork::fromFile(c.initNet);  // throws naming what is wrong
  }
  if (!c.anchor.empty()) (void)match::parseEngineSpec(c.anchor);
  for (const std::string& f : c.heldout)
    if (!fs::is_regular_file(f)) throw fail(fmt::format("--heldout '{}' is not a file", f));
  if (c.face == "mcts") selfplay::checkConfig(c.selfplay);
  if (!c.valueInit.empty()) {
    if (c.face != "mcts" || c.selfplay.value != "nnue")
      throw fail("--value-init trains the MCTS face's value network: it needs --face mcts --value nnue");
    (void)nnue::Network::fromFile(c.valueInit);  // throws naming what is wrong
    if (c.selfplay.face.leaf.valueScale <= 0)
      throw fail("--value-init: a value network is read as the expected score sigmoid(cp / s) of its training: give "
                 "--mcts-option \"MCTS Value Scale=187\" (train-nnue's --sigmoid-scale)");
  }
  if (c.face == "ab" && c.launcher == "slurm")
    throw fail("--launcher slurm runs MCTS self-play shards; for --face ab run tools/gen-nnue-data.sh shards (docs/slurm.md)");
  if (c.launcher != "local" && c.launcher != "slurm") throw fail(fmt::format("--launcher '{}' is neither local nor slurm", c.launcher));
  if (c.launcher == "slurm") {
    if (c.slurmShards < 1 || c.slurmSubmissions < 1 || !(c.slurmPollSeconds > 0))
      throw fail("--slurm-shards must be at least 1 and the poll interval positive");
    for (const char* program : {"sbatch", "squeue"})
      if (findProgram(program).empty())
        throw fail(fmt::format("--launcher slurm needs {} in PATH (Slurm's client commands, Debian's slurm-client)", program));
  }
}

}  // namespace janus::rl
