// janus selfplay: MCTS self-play games for the reinforcement-learning loop (src/selfplay/selfplay.h)
// into a chunked, sharded, resumable run directory of JANUSSP files (src/selfplay/record.h).
// See docs/rl.md.

#include <iostream>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "apps/commands.h"
#include "apps/progress.h"
#include "selfplay/selfplay.h"
#include "tb/gaviota.h"
#include "util/duration.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct SelfplayArgs {
  selfplay::SelfplayConfig config;
  records::ChunkedRun run;
  std::string shard = "1/1";
  std::string tbPath;
  double policyTemperature = 1.0;
  std::vector<std::string> mctsOptions;  ///< --mcts-option NAME=VALUE
  bool quiet = false;
};

std::string progressLine(const selfplay::SelfplayProgress& p) {
  const double eta = p.gamesDone > 0 ? p.seconds / double(p.gamesDone) * double(p.gamesTotal - p.gamesDone) : -1;
  return fmt::format("chunks {}/{}, games {}/{} ({:.0f}/h), positions {} ({:.1f}/s), targets {}, White W/D/L {}/{}/{}, "
                     "{:.0f} plies/game, elapsed {}, ETA {}",
                     p.chunksDone, p.chunksTotal, p.gamesDone, p.gamesTotal,
                     p.seconds > 0 ? double(p.gamesDone) * 3600.0 / p.seconds : 0.0, p.plies,
                     p.seconds > 0 ? double(p.plies) / p.seconds : 0.0, p.fullSearches, p.results[records::kWhiteWin],
                     p.results[records::kDraw], p.results[records::kBlackWin],
                     p.gamesDone ? double(p.plies) / double(p.gamesDone) : 0.0, formatDuration(p.seconds),
                     formatDuration(eta));
}

int runSelfplay(SelfplayArgs& a) {
  auto& c = a.config;
  std::tie(a.run.shard, a.run.shards) = records::parseShard(a.shard);
  c.backendParams["policy-temperature"] = fmt::format("{}", a.policyTemperature);
  mcts::applyFaceAssignments(c.face, a.mctsOptions);  // an unknown name or a bad value throws, naming it
  GaviotaTablebases tb;
  if (!a.tbPath.empty()) {
    if (!tb.init(a.tbPath, 32)) throw Error("selfplay: no Gaviota tablebase files found in '" + a.tbPath + "'");
    c.tablebases = &tb;
  }
  std::cout << fmt::format("selfplay: {} games, {} visits ({} fast, full searches {:.0f}%), temperature {} for {} plies, "
                           "resign below Q -{} for {} moves ({:.0f}% of games without), {} thread(s), seed {}, backend {}{}, value {}\n",
                           c.games, c.visits, c.fastVisits, c.fullFraction * 100, c.temperature, c.temperaturePlies,
                           c.resignQ, c.resignPlies, c.noResignFraction * 100, c.threads, c.seed, c.backend,
                           c.weights.empty() ? "" : " " + c.weights, c.value)
            << fmt::format("chunked run in {}: {} chunks of {} games, shard {}/{}{}\n", a.run.dir,
                           c.games / std::max(1, a.run.chunkGames), a.run.chunkGames, a.run.shard, a.run.shards,
                           a.run.resume ? ", resuming" : "")
            << std::flush;
  ProgressPrinter printer(a.quiet);
  auto onProgress = [&](const selfplay::SelfplayProgress& p) { printer.update(p.seconds, progressLine(p)); };
  auto onChunk = [&](const selfplay::SelfplayChunk& r) {
    printer.clearLine();
    std::cout << fmt::format("{}: {} games, {} positions ({} targets) in {:.0f} s: {:.1f} positions/s, {:.0f} games/h",
                             r.path, r.games, r.plies, r.fullSearches, r.seconds, r.seconds > 0 ? double(r.plies) / r.seconds : 0.0,
                             r.seconds > 0 ? double(r.games) * 3600.0 / r.seconds : 0.0)
              << std::endl;
  };
  const selfplay::SelfplayProgress p = selfplay::generateSelfplay(c, a.run, onProgress, onChunk);
  printer.finish();
  if (p.chunksTotal == 0) {
    std::cout << fmt::format("nothing to do: all {} chunk(s) of shard {}/{} exist in {}\n", p.chunksSkipped, a.run.shard,
                             a.run.shards, a.run.dir);
    return 0;
  }
  std::cout << progressLine(p) << "\ngame ends:";
  for (int e = 0; e < kGameEndCount; ++e)
    if (p.ends[e]) std::cout << fmt::format(" {} {}", gameEndName(GameEnd(e)), p.ends[e]);
  std::cout << fmt::format("\nresignation: {} games without it, a side would have resigned in {}, wrongly in {} "
                           "(false-resign rate {:.1f}%)\n",
                           p.noResignGames, p.wouldResign, p.falseResign,
                           p.wouldResign ? 100.0 * double(p.falseResign) / double(p.wouldResign) : 0.0);
  return 0;
}

}  // namespace

void addSelfplayCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<SelfplayArgs>();
  auto& c = a->config;
  auto* cmd = app.add_subcommand("selfplay",
                                 "MCTS self-play games (JANUSSP records with visit distributions) for the "
                                 "reinforcement-learning loop, as a chunked, sharded, resumable run; see docs/rl.md");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--output-dir", a->run.dir, "Run directory: DIR/chunk-K.janussp.zst files of --chunk-games games")
      ->required();
  cmd->add_option("--games", c.games, "Games of the whole run (all shards)")->check(CLI::Range(1, 1000000000));
  cmd->add_option("--chunk-games", a->run.chunkGames, "Games per chunk file")->check(CLI::Range(1, 1000000));
  cmd->add_option("--shard", a->shard, "Play shard I of N (I/N; chunk k belongs to shard k mod N + 1)");
  cmd->add_flag("--resume", a->run.resume, "Keep existing chunk files, play the missing ones");
  cmd->add_option("--threads", c.threads, "Games played at once (one search thread each)")->check(CLI::Range(1, 1024));
  cmd->add_option("--backend", c.backend, "MCTS backend (pvnet, uniform)");
  cmd->add_option("--weights", c.weights, "Network file of the backend (pvnet: .jpv; default: the embedded one)");
  cmd->add_option("--value", c.value,
                  "Leaf values: net (the network's value head, AlphaZero) or nnue (the alpha-beta face's NNUE after "
                  "one-ply and quiescence searches, as MCTS Value nnue; the network gives the priors)")
      ->check(CLI::IsMember({"net", "nnue"}));
  cmd->add_option("--eval-file", c.evalFile, "--value nnue: the NNUE network (.jnn; default: the embedded one)");
  cmd->add_option("--value-file", c.valueFile,
                  "--value nnue: the network (.jnn) that values the leaves (MCTS ValueFile; the hints keep --eval-file's); "
                  "default: --eval-file's");
  cmd->add_option("--mcts-option", a->mctsOptions,
                  "A tuning setting of the MCTS face, NAME=VALUE with the engine's option name (repeatable), e.g. "
                  "--mcts-option \"MCTS Hint Visits=0\"; `janus --show-hidden` then `uci` lists them; default: the "
                  "engine's default face");
  cmd->add_option("--policy-temperature", a->policyTemperature, "Softmax temperature of the priors")
      ->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--visits", c.visits, "Playouts of a full search (a training target)")->check(CLI::Range(1, 10000000));
  cmd->add_option("--fast-visits", c.fastVisits, "Playouts of a fast search (not a target)")->check(CLI::Range(1, 10000000));
  cmd->add_option("--full-fraction", c.fullFraction, "Share of moves with a full search (playout cap randomisation)");
  cmd->add_option("--temperature-plies", c.temperaturePlies, "Plies whose move is sampled from the visit counts");
  cmd->add_option("--temperature", c.temperature, "Sampling temperature (visits^(1/T))");
  cmd->add_option("--resign-q", c.resignQ, "Resign when the root Q stays below -this (0: never)");
  cmd->add_option("--resign-plies", c.resignPlies, "... for this many consecutive own moves");
  cmd->add_option("--no-resign-fraction", c.noResignFraction, "Share of games played out to measure false resignations");
  cmd->add_option("--max-plies", c.maxPlies, "Games reaching this many plies are draws");
  cmd->add_option("--batch", c.batch, "MCTS leaves per backend call")->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", c.seed, "Random seed (games are reproducible given the seed, settings and network)");
  cmd->add_option("--openings", c.openings, "Start positions from an EPD/PGN book (default: the standard start position)");
  cmd->add_option("--tb-path", a->tbPath, "Gaviota tablebase directory: adjudication and leaf probes");
  cmd->add_flag("--quiet", a->quiet, "No progress line");
  out.push_back({cmd, [a] { return runSelfplay(*a); }});
}

}  // namespace janus::apps
