// janus rl: the self-play generation loop of both faces (src/rl/rl_loop.h): self-play (MCTS games,
// or alpha-beta datagen with --face ab), training on a window of generations, gating, the match
// against generation 0, anchor matches, report. See docs/rl.md.

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/commands.h"
#include "match/engine_config.h"
#include "rl/rl_loop.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct RlArgs {
  rl::RlConfig config;
  std::vector<std::string> sprt;  ///< elo0 elo1 [alpha beta]
  std::string trainArgs;          ///< one string, split at blanks (quotes group)
  std::string valueTrainArgs;     ///< the same for the value network's recipe
  std::string sbatchArgs;         ///< the same for the slurm launcher's sbatch options
  std::vector<std::string> mctsOptions;  ///< --mcts-option NAME=VALUE
};

int runRl(RlArgs& a) {
  auto& c = a.config;
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  if (c.janus.empty()) c.janus = self.string();
  if (c.trainer.empty()) c.trainer = (self.parent_path() / "janus-train-az").string();
  if (!a.trainArgs.empty()) (c.face == "ab" ? c.nnueTrainArgs : c.trainArgs) = match::splitQuoted(a.trainArgs);
  if (!a.valueTrainArgs.empty()) c.valueTrainArgs = match::splitQuoted(a.valueTrainArgs);
  // One --threads and one --seed for both faces' self-play.
  c.datagen.threads = c.selfplay.threads;
  c.datagen.seed = c.selfplay.seed;
  if (!a.sbatchArgs.empty()) c.sbatchArgs = match::splitQuoted(a.sbatchArgs);
  // The alpha-beta face's networks differ by a few Elo a step (docs/nnue-runs.md): SPRT(0, 10).
  if (c.face == "ab") c.gateSprt.elo1 = 10;
  mcts::applyFaceAssignments(c.selfplay.face, a.mctsOptions);  // an unknown name or a bad value throws, naming it
  if (!a.sprt.empty()) {
    if (a.sprt.size() != 2 && a.sprt.size() != 4) throw Error("rl: --gate-sprt takes elo0 elo1 [alpha beta]");
    c.gateSprt.elo0 = std::stod(a.sprt[0]);
    c.gateSprt.elo1 = std::stod(a.sprt[1]);
    if (a.sprt.size() == 4) {
      c.gateSprt.alpha = std::stod(a.sprt[2]);
      c.gateSprt.beta = std::stod(a.sprt[3]);
    }
  }
  const rl::RlState s = rl::runLoop(c, std::cout);
  std::cout << rl::reportMarkdown(s.history);
  return 0;
}

}  // namespace

void addRlCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<RlArgs>();
  auto& c = a->config;
  auto& sp = c.selfplay;
  auto* cmd = app.add_subcommand("rl",
                                 "The self-play generation loop of either face: self-play, train, gate, match against "
                                 "generation 0, anchor, generation after generation; resumable (docs/rl.md)");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--face", c.face,
                  "mcts: AlphaZero loop of the MCTS face (pvnet self-play, janus-train-az); ab: the alpha-beta face's "
                  "NNUE (datagen at --nodes, train-nnue --init, gates at --gate-nodes)")
      ->check(CLI::IsMember({"mcts", "ab"}));
  cmd->add_option("--dir", c.dir, "Run directory (rl-state.json, gen-NNN/ with the match PGNs, rl-report.md, rl-elo.svg)")
      ->required();
  cmd->add_option("--data-dir", c.dataDir, "Self-play records and training runs (default: --dir); disposable");
  cmd->add_option("--nets-dir", c.netsDir, "Copy every candidate network here (e.g. nets; default: leave it in the training run)");
  cmd->add_option("--hours", c.hours, "Start no step after this many hours (0: no limit); the same command resumes")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--nodes", c.datagen.nodes, "ab: nodes a move of the self-play data (datagen)")->check(CLI::Range(u64(1), u64(1) << 40));
  cmd->add_option("--data-book", c.datagen.openings, "ab: opening book of the self-play data (default: the shipped one)");
  cmd->add_option("--gate-nodes", c.gateNodes, "ab: nodes a move in the gates and the matches against generation 0")
      ->check(CLI::Range(u64(1), u64(1) << 40));
  cmd->add_option("--speed-runs", c.speedRuns,
                  "ab: bench runs of each network that measure the speed of a candidate of another shape than its "
                  "parent (e.g. --hidden 512 in --train-args); its matches then give it nodes in proportion")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--match-seed", c.matchSeed, "ab: generation g's matches play the book in the order of seed match-seed + g");
  cmd->add_option("--generations", c.generations, "Generations to reach (a resumed run continues up to it)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--init-net", c.initNet,
                  "Generation 0's network (mcts: .jpv, default the uniform backend, a random start; ab: .jnn, required)");
  cmd->add_option("--games-per-gen", c.gamesPerGeneration, "Self-play games per generation");
  cmd->add_option("--chunk-games", c.chunkGames, "Self-play games per chunk file");
  cmd->add_option("--threads", sp.threads, "Self-play games at once")->check(CLI::Range(1, 1024));
  cmd->add_option("--visits", sp.visits, "Self-play: playouts of a full search");
  cmd->add_option("--fast-visits", sp.fastVisits, "Self-play: playouts of a fast search");
  cmd->add_option("--full-fraction", sp.fullFraction, "Self-play: share of full searches");
  cmd->add_option("--temperature-plies", sp.temperaturePlies, "Self-play: plies sampled from the visits");
  cmd->add_option("--resign-q", sp.resignQ, "Self-play: resign below Q = -this (0: never)");
  cmd->add_option("--no-resign-fraction", sp.noResignFraction, "Self-play: share of games without resignation");
  cmd->add_option("--max-plies", sp.maxPlies, "Self-play: length limit (a draw)");
  cmd->add_option("--value", sp.value,
                  "Leaf values of self-play and of every match: net (the network's value head, AlphaZero: RL trains "
                  "it) or nnue (the engine's default: NNUE one-ply and quiescence searches, the network gives the priors)")
      ->check(CLI::IsMember({"net", "nnue"}));
  cmd->add_option("--eval-file", sp.evalFile, "--value nnue: the NNUE network (.jnn; default: the embedded one)");
  cmd->add_option("--value-init", c.valueInit,
                  "--value nnue: generation 0's value network (.jnn) of the MCTS leaves (MCTS ValueFile; the hints keep "
                  "--eval-file's): each generation then fine-tunes it on the games' results and gates it with the policy; "
                  "needs --mcts-option \"MCTS Value Scale=187\"");
  cmd->add_option("--value-train-args", a->valueTrainArgs,
                  "--value-init: the value network's train-nnue recipe after --init/--data/--seed/--threads/--out-dir, "
                  "replacing the default \"--lambda 1.0 --sigmoid-scale 187 --mirror --superbatches 10 --lr 0.0001 "
                  "--lr-final 0.000001 --qat\"");
  cmd->add_option("--mcts-option", a->mctsOptions,
                  "A tuning setting of the MCTS face for self-play and every match, NAME=VALUE with the engine's option "
                  "name (repeatable), e.g. --mcts-option \"MCTS Hint Visits=0\"; default: the engine's default face");
  cmd->add_option("--seed", sp.seed, "Seed of the self-play (generation g uses a seed derived from it and g)");
  cmd->add_option("--window", c.window, "Generations of self-play records the trainer sees");
  cmd->add_option("--trainer", c.trainer, "janus-train-az (default: next to this janus)");
  cmd->add_option("--train-args", a->trainArgs,
                  "mcts: more janus-train-az arguments, e.g. \"--epochs 4 --hidden 256\"; ab: the train-nnue recipe after "
                  "--init/--data/--seed/--threads/--out-dir, replacing the default \"--lambda 0.3 --sigmoid-scale 187 "
                  "--mirror --superbatches 10 --lr 0.0005 --lr-final 0.00001 --qat\"");
  cmd->add_option("--gate-games", c.gateGames, "Most games of a gating match");
  cmd->add_option("--gate-visits", c.gateVisits, "Playouts per move in gating matches");
  cmd->add_option("--gate-sprt", a->sprt,
                  "SPRT of the gate: elo0 elo1 [alpha beta] (default 0 30 0.05 0.05; ab: 0 10 0.05 0.05); only H1 promotes")
      ->expected(2, 4);
  cmd->add_option("--gen0-games", c.gen0Games,
                  "Games of each new best network against generation 0 (at --gate-visits): the Elo per generation");
  cmd->add_option("--anchor", c.anchor, "Engine spec of the outside anchor, e.g. \"cmd=build/janus arg=cecp arg=/usr/games/phalanx\"");
  cmd->add_option("--anchor-every", c.anchorEvery, "Generations between anchor matches");
  cmd->add_option("--anchor-games", c.anchorGames, "Games of an anchor match");
  cmd->add_option("--anchor-tc", c.anchorTc, "Clock of the anchor matches");
  cmd->add_option("--concurrency", c.concurrency, "Match games at once");
  cmd->add_option("--openings", c.openings, "Opening book of the matches (default: the shipped one)");
  cmd->add_option("--heldout", c.heldout,
                  "Held-out games (JANUSDAT or PGN, comma-separated or repeated), e.g. a stronger engine's: every "
                  "candidate is evaluated on them (janus-train-az --evaluate: policy CE, top-1, value CE against the "
                  "results) and the report shows it; a finished run resumed with it is evaluated too")
      ->delimiter(',');
  cmd->add_option("--launcher", c.launcher,
                  "Where self-play runs: local (this process) or slurm (per generation a Slurm job array of janus "
                  "selfplay shards, waited for; missing shards resubmitted; docs/slurm.md)")
      ->check(CLI::IsMember({"local", "slurm"}));
  cmd->add_option("--slurm-shards", c.slurmShards, "Slurm launcher: array tasks per generation")->check(CLI::Range(1, 100000));
  cmd->add_option("--sbatch-args", a->sbatchArgs,
                  "Slurm launcher: more sbatch options, e.g. \"--partition cpu --account proj --time 1:00:00\"");
  cmd->add_option("--slurm-poll", c.slurmPollSeconds, "Slurm launcher: seconds between squeue polls while waiting")
      ->check(CLI::Range(0.1, 3600.0));
  out.push_back({cmd, [a] { return runRl(*a); }});
}

}  // namespace janus::apps
