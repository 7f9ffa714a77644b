// janus relabel: re-scores the records of a JANUSDAT file with an external UCI engine
// (src/datagen/relabel.h). See docs/tuning.md.

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/commands.h"
#include "apps/progress.h"
#include "datagen/relabel.h"
#include "match/engine_config.h"
#include "util/duration.h"
#include "util/error.h"

namespace janus::apps {

namespace {

struct RelabelArgs {
  datagen::RelabelConfig config;
  std::string engineSpec;
  int depth = 0;
  u64 nodes = 0;
  double timeoutSeconds = 60;
  bool quiet = false;
};

std::string progressLine(const datagen::RelabelProgress& p) {
  const double rate = p.seconds > 0 ? double(p.done) / p.seconds : 0;
  const std::string total = p.total ? fmt::format("/{}", *p.total) : std::string();
  const double eta = p.total && rate > 0 ? double(*p.total - p.done) / rate : -1;
  return fmt::format("records {}{} ({:.0f}/s), {} mate scores, {} without a score, elapsed {}, ETA {}", p.done, total,
                     rate, p.mates, p.noScore, formatDuration(p.seconds), formatDuration(eta));
}

int runRelabel(RelabelArgs& a) {
  auto& c = a.config;
  c.engine = match::parseEngineSpec(a.engineSpec);
  if (a.depth > 0) c.depth = a.depth;
  if (a.nodes > 0) c.nodes = a.nodes;
  c.timeout = std::chrono::milliseconds(i64(a.timeoutSeconds * 1000));
  ProgressPrinter printer(a.quiet);
  const datagen::RelabelProgress last =
      datagen::relabelFile(c, [&](const datagen::RelabelProgress& p) { printer.update(p.seconds, progressLine(p)); });
  printer.finish();
  std::cout << progressLine(last) << "\n";
  std::cout << fmt::format("wrote {} relabelled records to {}\n", last.done, c.output);
  return 0;
}

}  // namespace

void addRelabelCommand(CLI::App& app, Commands& out) {
  auto a = std::make_shared<RelabelArgs>();
  auto& c = a->config;
  auto* cmd = app.add_subcommand("relabel",
                                 "Re-score every record of a JANUSDAT file with an external UCI engine (several "
                                 "processes, order kept, output atomic); see docs/tuning.md");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--engine", a->engineSpec,
                  "UCI engine as in janus match: \"cmd=/usr/games/stockfish option.Hash=16 option.Threads=1\"")
      ->required();
  auto* depth = cmd->add_option("--depth", a->depth, "Search depth per position (go depth)")->check(CLI::Range(1, 200));
  auto* nodes = cmd->add_option("--nodes", a->nodes, "Nodes per position (go nodes)")->check(CLI::Range(u64(1), u64(1) << 40));
  depth->excludes(nodes);
  cmd->add_option("--jobs", c.jobs, "Engine processes searching at once")->check(CLI::Range(1, 1024));
  cmd->add_option("--timeout", a->timeoutSeconds, "Seconds an engine may take for one position")
      ->check(CLI::Range(0.1, 1e6));
  cmd->add_flag("--quiet", a->quiet, "No progress line");
  cmd->add_option("input", c.input, "JANUSDAT file to relabel (version 1 or 2, plain or .zst)")->required();
  cmd->add_option("output", c.output, "Relabelled JANUSDAT file (written atomically; .zst: compressed)")->required();
  out.push_back({cmd, [a] { return runRelabel(*a); }});
}

}  // namespace janus::apps
