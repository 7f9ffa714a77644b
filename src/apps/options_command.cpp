// janus options: the engine's UCI options as a Markdown table (name, type and range, default,
// shown or hidden, help), hidden tuning options included: docs/mcts.md's option table is its
// output for the MCTS face (`janus options --prefix Search --prefix "MCTS "`), and a test
// compares the two.

#include <iostream>
#include <memory>

#include "apps/commands.h"
#include "engine/engine.h"

namespace janus::apps {

namespace {

struct OptionsArgs {
  std::vector<std::string> prefixes;
};

}  // namespace

void addOptionsCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<OptionsArgs>();
  auto* sub = app.add_subcommand("options",
                                 "The UCI options (hidden tuning options too) as a Markdown table: name, type, default, "
                                 "shown, meaning");
  sub->add_option("--prefix", args->prefixes, "Only options whose name starts with this (repeatable), e.g. \"MCTS \"");
  out.push_back({sub, [args] {
                   Engine engine;
                   std::cout << engine.options().markdownTable(args->prefixes);
                   return 0;
                 }});
}

}  // namespace janus::apps
