// janus datagen: self-play training data (src/datagen/generator.h) into one JANUSDAT file or a
// directory of chunk files (a chunked run, sharded and resumable), or positions from PGN games
// (src/datagen/pgn_source.h) or from the MCTS face's self-play games (src/selfplay/export.h); the
// format is src/records/janusdat_format.h. See docs/tuning.md.

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "apps/commands.h"
#include "apps/progress.h"
#include "datagen/generator.h"
#include "datagen/pgn_source.h"
#include "records/janusdat.h"
#include "selfplay/export.h"
#include "util/duration.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct DatagenArgs {
  datagen::DatagenConfig config;
  records::ChunkedRun run;
  std::string shard = "1/1";
  std::vector<std::string> pgn;
  std::vector<std::string> selfplay;
  bool fullSearchesOnly = false;
  int skipPlies = 8;
  bool quiet = false;
};

std::string progressLine(const datagen::DatagenProgress& p) {
  const double gps = p.seconds > 0 ? p.gamesDone / p.seconds : 0;
  const double eta = p.gamesDone > 0 ? p.seconds / p.gamesDone * (p.gamesTotal - p.gamesDone) : -1;
  const std::string chunks =
      p.chunksTotal ? fmt::format("chunks {}/{}, ", p.chunksDone, p.chunksTotal) : std::string();
  return fmt::format("{}games {}/{} ({:.2f}/s), positions {} ({:.0f}/s), White W/D/L {}/{}/{}, {:.0f} plies/game, "
                     "elapsed {}, ETA {}",
                     chunks, p.gamesDone, p.gamesTotal, gps, p.positions, p.seconds > 0 ? double(p.positions) / p.seconds : 0.0,
                     p.results[records::kWhiteWin], p.results[records::kDraw], p.results[records::kBlackWin],
                     p.gamesDone ? double(p.plies) / p.gamesDone : 0.0, formatDuration(p.seconds),
                     formatDuration(eta));
}

using RecordSink = std::function<void(const records::PackedRecord&)>;

/// `files` converted into the one JANUSDAT file --output: `convert(path, sink)` passes a file's
/// records to `sink` and returns its summary line. `flag` names the option in the error.
int convertToFile(const DatagenArgs& a, const char* flag, const std::vector<std::string>& files,
                  const std::function<std::string(const std::string&, const RecordSink&)>& convert) {
  if (a.config.output.empty()) throw Error(fmt::format("datagen {} writes one file: give --output FILE", flag));
  records::DataWriter out(a.config.output);
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& path : files)
    std::cout << convert(path, [&](const records::PackedRecord& r) { out.write(r); }) << std::flush;
  out.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << fmt::format("wrote {} positions to {} in {:.1f} s ({:.0f} positions/s)\n", out.written(),
                           a.config.output, seconds, seconds > 0 ? double(out.written()) / seconds : 0.0);
  return 0;
}

int runPgnConversion(const DatagenArgs& a) {
  datagen::PgnExtractOptions options;
  options.skipPlies = a.skipPlies;
  options.quietOnly = false;  // every position, with its flags, move played and game end (format version 3)
  return convertToFile(a, "--pgn", a.pgn, [&](const std::string& path, const RecordSink& sink) {
    const datagen::PgnExtractStats s = datagen::extractPgnPositions(path, options, sink);
    for (const auto& e : s.errors) std::cerr << "  malformed: " << e << "\n";
    return fmt::format("{}: {} games (White W/D/L {}/{}/{}), {} positions; skipped games: {}\n", path, s.games,
                       s.results[records::kWhiteWin], s.results[records::kDraw], s.results[records::kBlackWin],
                       s.positions, s.skippedSummary());
  });
}

int runSelfplayConversion(const DatagenArgs& a) {
  return convertToFile(a, "--selfplay", a.selfplay, [&](const std::string& path, const RecordSink& sink) {
    const selfplay::SelfplayExportStats s = selfplay::exportSelfplayPositions(path, a.fullSearchesOnly, sink);
    return fmt::format("{}: {} games (White W/D/L {}/{}/{}), {} positions\n", path, s.games,
                       s.results[records::kWhiteWin], s.results[records::kDraw], s.results[records::kBlackWin],
                       s.positions);
  });
}

int runDatagen(DatagenArgs& a) {
  if (!a.pgn.empty() && !a.selfplay.empty()) throw Error("datagen: give --pgn or --selfplay, not both");
  if (!a.pgn.empty()) return runPgnConversion(a);
  if (!a.selfplay.empty()) return runSelfplayConversion(a);
  const auto& c = a.config;
  const bool chunked = !a.run.dir.empty();
  if (chunked) std::tie(a.run.shard, a.run.shards) = records::parseShard(a.shard);
  std::cout << fmt::format("datagen: {} games, {} nodes/move, {} thread(s), {}-{} random plies within ±{} cp, seed {}, book {}\n",
                           c.games, c.nodes, c.threads, c.randomisation.plies, c.randomisation.plies + 1,
                           c.randomisation.scoreLimit, c.seed,
                           c.openings.empty() ? "(default)" : c.openings);
  if (chunked)
    std::cout << fmt::format("chunked run in {}: {} chunks of {} games, shard {}/{}{}\n", a.run.dir,
                             c.games / std::max(1, a.run.chunkGames), a.run.chunkGames, a.run.shard, a.run.shards,
                             a.run.resume ? ", resuming" : "")
              << std::flush;
  ProgressPrinter printer(a.quiet);
  auto onProgress = [&](const datagen::DatagenProgress& p) { printer.update(p.seconds, progressLine(p)); };
  // One line per chunk file on stdout (tools/gen-nnue-data.sh keeps them in its progress log).
  auto onChunk = [&](const datagen::ChunkReport& r) {
    printer.clearLine();
    std::cout << fmt::format("{}: {} games, {} positions in {:.0f} s: {:.0f} positions/s, {:.0f} games/h", r.path,
                             a.run.chunkGames, r.positions, r.seconds, r.seconds > 0 ? r.positions / r.seconds : 0.0,
                             r.seconds > 0 ? a.run.chunkGames * 3600.0 / r.seconds : 0.0)
              << std::endl;
  };
  const datagen::DatagenProgress last =
      chunked ? datagen::generateChunks(c, a.run, onProgress, onChunk) : datagen::generateData(c, onProgress);
  printer.finish();
  if (chunked && last.chunksTotal == 0) {
    std::cout << fmt::format("nothing to do: all {} chunk(s) of shard {}/{} exist in {}\n", last.chunksSkipped,
                             a.run.shard, a.run.shards, a.run.dir);
    return 0;
  }
  if (chunked && last.chunksSkipped)
    std::cout << fmt::format("{} chunk(s) of shard {}/{} existed and were kept\n", last.chunksSkipped, a.run.shard,
                             a.run.shards);
  std::cout << progressLine(last) << "\n";
  std::cout << "game ends:";
  for (int e = 0; e < kGameEndCount; ++e)
    if (last.ends[e]) std::cout << fmt::format(" {} {}", gameEndName(GameEnd(e)), last.ends[e]);
  if (chunked)
    std::cout << fmt::format("\nwrote {} positions in {} chunk(s) to {}\n", last.positions, last.chunksDone, a.run.dir);
  else
    std::cout << fmt::format("\nwrote {} positions to {}\n", last.positions, c.output);
  return 0;
}

}  // namespace

void addDatagenCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<DatagenArgs>();
  auto& c = a->config;
  auto* cmd = app.add_subcommand("datagen",
                                 "Generate training positions by fixed-node self-play (or from PGN games) into a "
                                 "JANUSDAT file or a directory of chunk files; see docs/tuning.md");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--games", c.games, "Games to play (with --output-dir: of the whole run, all shards)")
      ->check(CLI::Range(1, 1000000000));
  cmd->add_option("--nodes", c.nodes, "Nodes per move (go nodes)")->check(CLI::Range(u64(1), u64(1) << 40));
  cmd->add_option("--threads", c.threads, "Worker threads, each with its own 1-thread engine")
      ->check(CLI::Range(1, 1024));
  auto* output =
      cmd->add_option("--output", c.output, "Output file (JANUSDAT; zstd-compressed if it ends in .zst)");
  auto* outputDir = cmd->add_option("--output-dir", a->run.dir,
                                    "Chunked run: write DIR/chunk-K.janusdat.zst files of --chunk-games games each "
                                    "(atomic, resumable, shardable)");
  output->excludes(outputDir);
  outputDir->excludes(output);
  cmd->add_option("--chunk-games", a->run.chunkGames, "With --output-dir: games per chunk file")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--shard", a->shard,
                  "With --output-dir: play shard I of N (I/N; chunk k belongs to shard k mod N + 1)");
  cmd->add_flag("--resume", a->run.resume, "With --output-dir: keep existing chunk files, play the missing ones");
  cmd->add_option("--openings", c.openings, "Opening book (EPD or PGN; default: the shipped data/openings book)");
  cmd->add_option("--random-plies", c.randomisation.plies,
                  "Random legal plies R after the book position (R or R+1, each in half of the games)")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--random-score-limit", c.randomisation.scoreLimit,
                  "Redraw random lines whose start position scores beyond +-this (cp, a search of --nodes); 0 = off")
      ->check(CLI::Range(0, 30000));
  cmd->add_option("--seed", c.seed, "Random seed (games are reproducible given seed, nodes and openings)");
  cmd->add_option("--hash", c.hashMiB, "Hash per engine in MiB")->check(CLI::Range(1, 4096));
  cmd->add_option("--eval", c.evaluation,
                  "Evaluation of the engines: hce, or an NNUE network file (default: the built-in network, "
                  "else hce); a chunked run records it");
  cmd->add_option("--adjudicate-win", c.adjudication.winScore, "Win: |score| >= this (cp) ...");
  cmd->add_option("--adjudicate-win-plies", c.adjudication.winPlies, "... for this many consecutive plies");
  cmd->add_option("--adjudicate-draw", c.adjudication.drawScore, "Draw: |score| <= this (cp) ...");
  cmd->add_option("--adjudicate-draw-plies", c.adjudication.drawPlies, "... for this many consecutive plies ...");
  cmd->add_option("--adjudicate-draw-after", c.adjudication.drawMinPly, "... from this game ply on");
  cmd->add_option("--max-plies", c.adjudication.maxPlies, "Games reaching this many plies are draws");
  cmd->add_option("--pgn", a->pgn, "Instead of self-play: convert the positions of these PGN games")->delimiter(',');
  cmd->add_option("--skip-plies", a->skipPlies, "With --pgn: plies at the start of each game that are not taken");
  cmd->add_option("--selfplay", a->selfplay,
                  "Instead of self-play: convert the positions of these JANUSSP games of `janus selfplay` (score: the "
                  "root Q in centipawns, src/selfplay/export.h)")
      ->delimiter(',');
  cmd->add_flag("--full-searches-only", a->fullSearchesOnly,
                "With --selfplay: only the positions of full searches (playout cap randomisation's targets)");
  cmd->add_flag("--quiet", a->quiet, "No progress line");
  cmd->callback([cmd, output, outputDir] {
    if (output->count() == 0 && outputDir->count() == 0) throw CLI::RequiredError("--output or --output-dir");
    for (const char* name : {"--chunk-games", "--shard", "--resume"})
      if (cmd->count(name) && outputDir->count() == 0) throw CLI::ValidationError(name, "needs --output-dir");
  });
  out.push_back({cmd, [a] { return runDatagen(*a); }});
}

}  // namespace janus::apps
