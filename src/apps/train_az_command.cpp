// janus train-az: trains the MCTS face's policy/value network (mcts/pvnet.h) on JANUSDAT or PGN
// files; docs/mcts-networks.md, "Training the network".
//
// The trainer uses libtorch and lives in the separate executable janus-train-az (built next to
// janus when CMake finds libtorch), so that janus itself neither links nor loads libtorch: this
// command replaces the process by that program with the same arguments (`janus train-az --help`
// prints its options).

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "apps/commands.h"
#include "util/error.h"

namespace janus::apps {

namespace {

/// Replaces this process by janus-train-az (next to this executable) with `args`. Returns only
/// by throwing.
[[noreturn]] void execAzTrainer(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path trainer = self.parent_path() / "janus-train-az";
  if (ec || !fs::exists(trainer))
    throw Error(fmt::format("train-az: needs '{}', the libtorch trainer, which is built only when CMake finds libtorch "
                            "(Debian: libtorch-dev; not in sanitizer builds; -DJANUS_TORCH=ON forces it)",
                            trainer.string()));
  std::vector<std::string> copy = args;
  std::vector<char*> argv = {const_cast<char*>(trainer.c_str())};
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(trainer.c_str(), argv.data());
  throw Error(fmt::format("train-az: cannot run '{}': {}", trainer.string(), std::strerror(errno)));
}

}  // namespace

void addTrainAzCommand(CLI::App& app, Commands& out) {
  auto* cmd = app.add_subcommand("train-az", "Train the MCTS face's policy/value network (libtorch, runs janus-train-az "
                                             "with these arguments; --help lists its options); see docs/mcts-networks.md");
  cmd->set_help_flag();           // --help goes to janus-train-az
  cmd->allow_extras();
  cmd->prefix_command();          // everything after train-az is the trainer's
  out.push_back({cmd, [cmd]() -> int { execAzTrainer(cmd->remaining()); }});
}

}  // namespace janus::apps
