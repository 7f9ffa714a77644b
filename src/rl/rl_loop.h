#pragma once
// `janus rl`: the reinforcement-learning loop of both faces (docs/rl.md). For the MCTS face
// (--face mcts, the default) the AlphaZero loop, after
// Silver et al. 2017 ("Mastering the game of Go without human knowledge": self-play, training,
// evaluation gating against the best network) and 2018 (AlphaZero), with KataGo's playout cap
// randomisation in the self-play (selfplay/selfplay.h).
//
// Generation g = 1, 2, ... has four steps; the loop's state (RUN/rl-state.json, written
// atomically after every step) names the step it is in, so a killed run resumes there:
//   1. selfplay  `janus selfplay` games of the current best network into RUN/gen-<g>/selfplay
//                (a chunked run: resuming keeps its finished chunks);
//   2. train     janus-train-az on the self-play records of generations g-window+1 .. g (a
//                sliding window), starting from the best network's weights (--init), into
//                RUN/gen-<g>/train (resuming continues from its checkpoint); the result is the
//                candidate network pv-<hash>.jpv;
//   3. gate      the candidate plays the best with `gateVisits` playouts per move, an SPRT
//                (elo0, elo1) over at most `gateGames` games; promoted only if the SPRT accepts
//                H1 (H0, or no verdict after gateGames games, rejects it: AlphaGo Zero's 55%
//                rule promoted on noise when gates were short);
//   4. measure   a new best network plays generation 0's directly (`gen0Games` games at
//                gateVisits playouts per move): the generation's Elo over generation 0, with its
//                error bar, measured rather than summed from gates; and every anchorEvery
//                generations the best network plays a fixed outside engine (e.g. phalanx through
//                `janus cecp`) at a time control.
// Generation 0 is the starting network (--init-net, e.g. the supervised default net), or the
// "uniform" backend (equal priors, material value) when none is given: training then starts
// from random weights, as AlphaZero did.
//
// For the alpha-beta face (--face ab, rl/ab_face.h) the same four steps with its own tools:
// selfplay is a chunked `janus datagen` run of the best NNUE network at fixed nodes, train is
// `janus train-nnue --init BEST` on the data of the window's generations still on the machine, and
// the matches play alpha-beta engines with EvalFile = the network at gateNodes nodes a move.
//
// What lasts and what does not: the state, the report, the plot and the matches' PGNs are in
// `dir` (small: meant to be committed, so that a new machine resumes a gate from its PGN); the
// data and the trainer's runs are in `dataDir` (disposable; a lost generation's data is played
// again from its seed); with `netsDir` every candidate network is copied there (e.g. nets/, where
// it is committed). Paths in the state are relative to the working directory when they are inside
// it, so a committed state works in any clone run from its root.
//
// Every generation's networks stay on disk with their content hash and their parent's
// (rl-state.json). RUN/rl-report.md (a table) and RUN/rl-elo.svg (gating Elo per generation,
// Elo against generation 0, Elo against the anchor) are rewritten after every step.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "datagen/generator.h"
#include "match/engine_config.h"
#include "match/stats.h"
#include "selfplay/selfplay.h"

namespace janus::rl {

struct RlConfig {
  std::string face = "mcts";        ///< "mcts" (pvnet self-play, janus-train-az) or "ab" (datagen, train-nnue)
  std::string dir;                  ///< run directory: state, report, plot, match PGNs (small, committable)
  std::string dataDir;              ///< self-play data and training runs ("" = dir); disposable
  std::string netsDir;              ///< "" = candidates stay where the trainer wrote them; else copied here
  double hours = 0;                 ///< > 0: no step starts after this many hours (a resumed run goes on)
  int generations = 5;              ///< generations to reach (a resumed run continues up to it)
  int gamesPerGeneration = 200;     ///< self-play games per generation
  int chunkGames = 50;              ///< games per self-play chunk file
  selfplay::SelfplayConfig selfplay;  ///< visits, temperature, resignation...; weights set per generation
  std::string initNet;              ///< generation 0's network (.jpv; ab: .jnn, required); "" = the uniform backend
  /// ab: the data of a generation (nodes a move, book, random plies, threads, hash; the seed of
  /// generation g is datagen.seed * 1000003 + g and the evaluation is the best network).
  datagen::DatagenConfig datagen;
  /// ab: the train-nnue recipe after --init/--data/--seed/--threads/--out-dir: the fine-tuning
  /// steps of the default network's chain (tools/finetune-net.sh, steps d-g): lambda 0.3, sigmoid
  /// scale 187 cp, mirrored boards, 10 superbatches of 1M positions (about 3 passes over a
  /// 30,000-game generation), cosine lr 0.0005 -> 1e-5, QAT.
  std::vector<std::string> nnueTrainArgs = {"--lambda", "0.3", "--sigmoid-scale", "187", "--mirror", "--superbatches",
                                            "10", "--lr", "0.0005", "--lr-final", "0.00001", "--qat"};
  /// mcts with selfplay.value "nnue": generation 0's value network (.jnn) of the MCTS leaves
  /// (MCTS ValueFile; the hints keep selfplay.evalFile's network), which then learns with the
  /// policy: each generation fine-tunes the best value network on the window's game results
  /// (train-nnue, valueTrainArgs) and the gate plays both new networks against both old ones.
  /// "" = no value network: the leaves keep evalFile's network and only the policy learns.
  /// Needs MCTS Value Scale > 0 in selfplay.face (the logistic the network is trained with).
  std::string valueInit;
  /// The value network's train-nnue recipe after --init/--data/--seed/--threads/--out-dir: game
  /// results alone (lambda 1; Monty found result-only value targets +28 Elo over a 50/50 blend),
  /// sigmoid scale 187 cp, mirrored boards, 10 superbatches, cosine lr 0.0001 -> 1e-6, QAT (the
  /// recipe of nn-3cfb15f621a707c5, docs/lab/rl-log.md).
  std::vector<std::string> valueTrainArgs = {"--lambda", "1.0", "--sigmoid-scale", "187", "--mirror", "--superbatches",
                                             "10", "--lr", "0.0001", "--lr-final", "0.000001", "--qat"};
  int window = 4;                   ///< generations of self-play records the trainer sees
  std::string trainer;              ///< path of janus-train-az
  std::vector<std::string> trainArgs;  ///< more trainer arguments (sizes, epochs, lr, ...)
  std::string janus;                ///< path of the janus binary for the match engines
  int gateGames = 100;              ///< most games of a gating match
  int gateVisits = 200;             ///< mcts: playouts per move in gating and generation-0 matches
  u64 gateNodes = 25000;            ///< ab: nodes per move in gating and generation-0 matches (of the slower side's reference)
  int speedRuns = 3;                ///< ab: bench runs of each network when a candidate's shape differs from its parent's
  u64 matchSeed = 1;                ///< ab: the book order of generation g's matches is shuffled with matchSeed + g
  match::SprtConfig gateSprt{0.0, 30.0, 0.05, 0.05};
  int gen0Games = 100;              ///< games of each new best network against generation 0
  std::string anchor;               ///< engine spec of the outside anchor ("" = none)
  int anchorEvery = 2;              ///< generations between anchor matches (and after the last)
  int anchorGames = 40;
  std::string anchorTc = "10+0.1";  ///< the anchor match's clock for both engines
  int concurrency = 1;              ///< games at once in the matches
  std::string openings;             ///< book of the matches ("" = the shipped one)
  /// Where a generation's self-play runs: "local" (in this process) or "slurm" (a Slurm job
  /// array of `janus selfplay` shards submitted with sbatch and waited for; docs/slurm.md).
  std::string launcher = "local";
  int slurmShards = 4;                  ///< slurm: array tasks (shards) per generation
  std::vector<std::string> sbatchArgs;  ///< slurm: more sbatch options (partition, account, time...)
  double slurmPollSeconds = 5;          ///< slurm: seconds between squeue polls while waiting
  int slurmSubmissions = 3;             ///< slurm: submissions before missing chunks are an error
  /// Held-out games (JANUSDAT or PGN files, e.g. games of a stronger engine) on which every
  /// generation's candidate (generation 0: its network) is evaluated by `janus-train-az
  /// --evaluate` after training: policy CE and top-1 against the moves played, value CE against
  /// the game results (--lambda 1). Empty: no evaluation. Self-play's own matches cannot see a
  /// network that fits only the run's own positions; these figures can (docs/rl.md).
  std::vector<std::string> heldout;
};

/// A network's figures on the held-out games (RlConfig::heldout).
struct HeldoutFigures {
  double policyCe = 0;  ///< nats, positions with a move
  double top1 = 0;      ///< share 0..1 of positions whose most likely legal move is the one played
  double valueCe = 0;   ///< nats, against the game result
  u64 positions = 0;
};

/// One generation's record in rl-state.json and the report.
struct Generation {
  int number = 0;
  std::string net;        ///< this generation's best network after gating ("" = uniform)
  std::string candidate;  ///< the trained candidate (may be rejected)
  std::string parent;     ///< the best network the candidate started from and played
  std::string valueNet;        ///< mcts: the best value network after gating ("" = none: EvalFile's values)
  std::string valueCandidate;  ///< mcts: the value network trained with the candidate ("" = none)
  /// ab: the candidate's search speed relative to generation 0's network (abRelativeSpeed;
  /// 1 for generation 0, the parent's for a candidate of the parent's shape). The matches give a
  /// network gateNodes x its speed (relative to the other side's) nodes a move: equal time.
  double candidateSpeed = 1;
  /// The NNUE trainer's losses (ab: the network's; mcts: the value network's) after its last
  /// superbatch (metrics.csv: train_loss, val_loss on the 2% of the training games it holds out),
  /// and val_loss after its first superbatch.
  std::optional<double> trainLoss, valLoss, firstValLoss;
  u64 selfplayGames = 0, selfplayPositions = 0, selfplayTargets = 0;
  /// Positions made within selfplaySeconds: a self-play step killed before its end loses its
  /// seconds and these positions alike, so selfplayTimedPositions / selfplaySeconds is the rate
  /// (positions/s) of the timed sessions, whatever a kill cut off.
  u64 selfplayTimedPositions = 0;
  double selfplaySeconds = 0, trainSeconds = 0, gateSeconds = 0;
  int gateWins = 0, gateDraws = 0, gateLosses = 0;  ///< candidate's view
  double gateElo = 0, gateError = 0;
  bool promoted = false;
  /// The best network against generation 0's (its view), from a direct match; for a generation
  /// that promoted nothing, the measurement of the generation whose network it kept.
  std::optional<double> gen0Elo, gen0Error;
  int gen0Wins = 0, gen0Draws = 0, gen0Losses = 0;
  std::optional<double> anchorElo, anchorError;  ///< best network vs the anchor
  std::optional<HeldoutFigures> heldout;  ///< the candidate (generation 0: its network) on RlConfig::heldout
  int anchorWins = 0, anchorDraws = 0, anchorLosses = 0;
};

/// The loop's state: the generation and step it is in, and every finished generation.
struct RlState {
  int generation = 1;           ///< the generation being made
  std::string step = "selfplay";  ///< selfplay, train, train-value (mcts with a value network), gate, measure
  std::string best;             ///< the current best network ("" = uniform)
  std::string bestValue;        ///< mcts: the current best value network ("" = none)
  std::vector<Generation> history;  ///< generation 0 first
  Generation current;           ///< the generation in progress
};

/// Reads RUN/rl-state.json; std::nullopt when it does not exist. Throws janus::Error naming the
/// file for malformed JSON or fields.
[[nodiscard]] std::optional<RlState> loadState(const std::string& dir);
/// Writes RUN/rl-state.json atomically.
void saveState(const std::string& dir, const RlState& state);

/// Writes `text` to `path` atomically (OutputFile: temporary name, fsync, rename). Throws
/// janus::Error when it cannot.
void writeAtomically(const std::string& path, const std::string& text);
/// "+12.3 ± 45.6" (Elo and its 95% error margin), "+12.3" with an infinite margin, "+inf"/"-inf".
[[nodiscard]] std::string eloText(double elo, double error);
/// A network's name for reports: the file's stem (pv-<hash>), "uniform" for "".
[[nodiscard]] std::string shortNet(const std::string& net);
/// The engine of the loop's matches (gates, generation 0, anchor) for network `net` (a .jpv
/// file; "" = the uniform backend) and value network `valueNet` (a .jnn file, MCTS ValueFile;
/// "" = none): `c.janus` with Search mcts, 1 thread, and the leaf values of the self-play
/// (`c.selfplay.value`, with its NNUE file and leaf searches for nnue), so that a match measures
/// the face the self-play trained.
[[nodiscard]] match::EngineConfig mctsMatchEngine(const RlConfig& c, const std::string& name, const std::string& net,
                                                  const std::string& valueNet = "");
/// The figures of the first network in a CSV file of `janus-train-az --evaluate-csv` (its first
/// data row; "nan" where the data had no moves). Throws janus::Error naming the file when it is missing or malformed.
[[nodiscard]] HeldoutFigures readHeldoutCsv(const std::string& path);
/// The Markdown table of rl-report.md.
[[nodiscard]] std::string reportMarkdown(const std::vector<Generation>& history);

/// The self-play files the trainer sees in generation `generation`: the chunk files
/// (DIR/gen-NNN/<sub>/chunk-*.zst, sub = "selfplay" for mcts, "data" for ab) of generations
/// max(1, generation - window + 1) .. generation that exist, oldest generation first, each
/// generation's chunks in order.
[[nodiscard]] std::vector<std::string> trainingWindow(const std::string& dir, int generation, int window,
                                                      const std::string& sub = "selfplay");

/// How the state names file `path`: relative to the working directory when it is inside it
/// (a committed state then works in any clone run from its root), else absolute; "" stays "".
[[nodiscard]] std::string storedPath(const std::string& path);

/// The Slurm launcher's task command: `janus selfplay` with the settings of `sc`, writing the
/// chunked run `dir` (--resume, --quiet), without --shard (each array task adds its own). The
/// chunks equal those of the local launcher. Throws janus::Error for a setting the command line
/// cannot carry (tablebases, backend parameters other than policy-temperature).
[[nodiscard]] std::vector<std::string> selfplayTaskCommand(const selfplay::SelfplayConfig& sc, const std::string& janus,
                                                           const std::string& dir, int chunkGames);

/// The shards (1-based, ascending) of a chunked self-play run of `chunks` chunks in `dir` split
/// into `shards` that lack at least one chunk file (chunk k belongs to shard k mod shards + 1).
[[nodiscard]] std::vector<int> missingSelfplayShards(const std::string& dir, int chunks, int shards);

/// Checks `c` before a run writes anything: face, sizes, executables (janus, the trainer), the
/// networks (they must load), the match book's size for fixed-node games, held-out files, the
/// value network's settings and the launcher. Throws janus::Error naming what is wrong.
void checkRlConfig(const RlConfig& c);

/// Runs (or resumes) the loop until config.generations generations are done. Prints one line per
/// step to `out`. Throws janus::Error for a bad configuration, a trainer that fails (its exit
/// status), a network that does not load, or a match that cannot run.
RlState runLoop(const RlConfig& config, std::ostream& out);

}  // namespace janus::rl
