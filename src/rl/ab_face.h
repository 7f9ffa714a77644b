#pragma once
// The alpha-beta face's generation steps of `janus rl --face ab` (rl_loop.h, docs/rl.md): the
// self-play data of the current default NNUE network (a chunked `janus datagen` run at fixed
// nodes), its fine-tuning (`janus train-nnue --init BEST`) on the generations' data still on the
// machine, and the engine of the gates (EvalFile = the network). The loop's state, gate, direct
// match against generation 0 and report are the MCTS face's (one mechanism for both faces).
//
// The chain of fine-tunings on the network's own newest self-play is how the default network was
// grown (docs/nnue-runs.md: nn-5c75 -> ... -> nn-cd95, each step an SPRT H1); Lc0 and Monty train
// each net on the recent self-play of the nets before it in the same way.

#include <ostream>
#include <string>
#include <vector>

#include "datagen/generator.h"
#include "match/engine_config.h"
#include "rl/rl_loop.h"

namespace janus::rl {

/// The datagen settings of generation `gen`: c.datagen with the evaluation `net` (a .jnn file)
/// and the seed c.datagen.seed * 1000003 + gen (every generation plays other games; the same
/// command replays the same chunks byte for byte, datagen/generator.h), c.gamesPerGeneration
/// games in chunks of c.chunkGames.
[[nodiscard]] datagen::DatagenConfig abDatagenConfig(const RlConfig& c, const std::string& net, int gen);

/// Games and positions (JANUSDAT records) in the chunk files of a datagen run directory; 0 and 0
/// when it does not exist. Throws janus::Error naming a file that cannot be read.
struct DataCount {
  u64 games = 0;      ///< records whose gameEnd field marks a game's last position
  u64 positions = 0;  ///< records
  u64 chunks = 0;     ///< chunk files
};
[[nodiscard]] DataCount countDatagenRun(const std::string& dir);

/// The command line that fine-tunes `init` (a .jnn file) into `outDir`: c.janus train-nnue
/// --init init --data <files> --seed 1 --threads <c.datagen.threads> --out-dir outDir
/// --description `description` followed by `recipe` (loss, learning-rate schedule, superbatches,
/// QAT: c.nnueTrainArgs for the alpha-beta network, c.valueTrainArgs for the MCTS face's value
/// network), and --resume when outDir holds a checkpoint.
[[nodiscard]] std::vector<std::string> nnueTrainCommand(const RlConfig& c, const std::string& init,
                                                        const std::vector<std::string>& data, const std::string& outDir,
                                                        const std::string& description,
                                                        const std::vector<std::string>& recipe);

/// Whether two network files have the same shape (hidden size, output buckets, king buckets,
/// activation):
/// networks of one shape search at the same speed. Throws janus::Error for a file that does not load.
[[nodiscard]] bool abSameShape(const std::string& a, const std::string& b);

/// The search speed of network `net` relative to `reference`: the median over `runs` runs each
/// (alternating, `reference` first) of `janus bench --evalfile` nodes per CPU second (user +
/// system time of the bench process, not wall time, so that other jobs on the machine bias it
/// less; docs/lab/nnue-runs-log.md found wall-clock nps of a loaded machine too noisy), net's
/// over reference's. The bench output goes to `log`. Prints one line per run to `out`. Throws
/// janus::Error when a bench fails or prints no node count.
[[nodiscard]] double abRelativeSpeed(const RlConfig& c, const std::string& net, const std::string& reference, int runs,
                                     const std::string& log, std::ostream& out);

/// The node limit of a network of relative speed `speed` in a match whose reference plays
/// `nodes` a move: nodes x speed, rounded, at least 1 (equal time in nodes: a network at 92% of
/// the speed gets 92% of the nodes, as tools/sprt-net.sh --nps-scaled).
[[nodiscard]] u64 abScaledNodes(u64 nodes, double speed);

/// The alpha-beta engine of the loop's matches for network `net` (a .jnn file; the path made
/// absolute): c.janus with EvalFile = net, Threads 1, Hash 64 MiB (as tools/sprt-net.sh).
[[nodiscard]] match::EngineConfig abMatchEngine(const RlConfig& c, const std::string& name, const std::string& net);

}  // namespace janus::rl
