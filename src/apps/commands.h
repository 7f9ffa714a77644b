#pragma once
// Each janus subcommand lives in its own file and registers itself here. main() parses the
// command line and runs the action of the subcommand that was given.

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace janus::apps {

/// A registered subcommand: its CLI11 node and the action to run (returns the exit code).
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

using Commands = std::vector<Command>;

void addPerftCommands(CLI::App& app, Commands& out);   // perft, divide, perftsuite (perft_command.cpp)
void addMatchCommand(CLI::App& app, Commands& out);     // match (match_command.cpp)
void addEvalCommand(CLI::App& app, Commands& out);     // eval (eval_command.cpp)
void addBenchCommand(CLI::App& app, Commands& out);    // bench (bench_command.cpp)
void addEpdCommand(CLI::App& app, Commands& out);      // epdtest (epd_command.cpp)
void addDepthStudyCommand(CLI::App& app, Commands& out);  // depthstudy (depthstudy_command.cpp)
void addSpsaCommand(CLI::App& app, Commands& out);     // spsa (spsa_command.cpp)
void addGuiCommand(CLI::App& app, Commands& out);      // gui (gui_command.cpp)
void addDatagenCommand(CLI::App& app, Commands& out);  // datagen (datagen_command.cpp)
void addTuneCommand(CLI::App& app, Commands& out);     // tune (tune_command.cpp)
void addCecpCommand(CLI::App& app, Commands& out);     // cecp (cecp_command.cpp)
void addScoreCommand(CLI::App& app, Commands& out);    // score (score_command.cpp)
void addOptionsCommand(CLI::App& app, Commands& out);  // options (options_command.cpp)
void addRelabelCommand(CLI::App& app, Commands& out);  // relabel (relabel_command.cpp)
void addTrainNnueCommand(CLI::App& app, Commands& out);  // train-nnue (train_nnue_command.cpp)
void addSelfplayCommand(CLI::App& app, Commands& out);   // selfplay (selfplay_command.cpp)
void addRlCommand(CLI::App& app, Commands& out);         // rl (rl_command.cpp)
void addTrainAzCommand(CLI::App& app, Commands& out);    // train-az (train_az_command.cpp)

}  // namespace janus::apps
