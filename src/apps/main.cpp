// janus: command-line entry point. Without a subcommand Janus speaks UCI on stdin/stdout.

#include <iostream>

#include "apps/commands.h"
#include "engine/engine.h"
#include "uci/uci.h"
#include "util/error.h"

int main(int argc, char** argv) {
  using namespace janus;
  CLI::App app{"Janus chess engine. Without a subcommand it speaks UCI on stdin/stdout."};
  app.require_subcommand(0, 1);
  apps::Commands commands;
  apps::addPerftCommands(app, commands);
  apps::addMatchCommand(app, commands);
  apps::addEvalCommand(app, commands);
  apps::addBenchCommand(app, commands);
  apps::addEpdCommand(app, commands);
  apps::addDepthStudyCommand(app, commands);
  apps::addSpsaCommand(app, commands);
  apps::addGuiCommand(app, commands);
  apps::addDatagenCommand(app, commands);
  apps::addTuneCommand(app, commands);
  apps::addCecpCommand(app, commands);
  apps::addScoreCommand(app, commands);
  apps::addOptionsCommand(app, commands);
  apps::addRelabelCommand(app, commands);
  apps::addTrainNnueCommand(app, commands);
  apps::addSelfplayCommand(app, commands);
  apps::addRlCommand(app, commands);
  apps::addTrainAzCommand(app, commands);
  bool showHidden = false;
  app.add_flag("--show-hidden", showHidden,
               "UCI: list the tuning options too (the MCTS face's constants; settable with setoption either way)");
  CLI11_PARSE(app, argc, argv);

  try {
    for (auto& c : commands)
      if (c.app->parsed()) return c.run();
    Engine engine;
    UciProtocol uci(engine, std::cout, showHidden);
    uci.loop(std::cin);
    return 0;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
