// janus train-nnue: train an NNUE network (nnue/format.h) on JANUSDAT files with the sparse CPU
// trainer of src/training/. See docs/nnue.md, section "Trainer".
//
// --backend torch needs the libtorch reference backend, which lives in the separate executable
// janus-train-torch (built next to janus when CMake finds libtorch) so that janus itself does not
// link or load libtorch; this command then runs that program with the same arguments.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "apps/commands.h"
#include "training/nnue_trainer.h"
#include "training/train_cli.h"
#include "util/error.h"

namespace janus::apps {

namespace {

/// Replaces this process by janus-train-torch (next to this executable) with the arguments that
/// followed "train-nnue". Returns only by throwing.
[[noreturn]] void execTorchTrainer() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path torch = self.parent_path() / "janus-train-torch";
  if (ec || !fs::exists(torch))
    throw Error(fmt::format("train-nnue: --backend torch needs '{}', the libtorch trainer, which is built only when "
                            "CMake finds libtorch (Debian: libtorch-dev)",
                            torch.string()));
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> args;
  for (std::size_t start = 0; start < raw.size();) {
    const std::size_t end = raw.find('\0', start);
    args.push_back(raw.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<char*> argv = {const_cast<char*>(torch.c_str())};
  bool after = false;
  for (auto& a : args) {
    if (after) argv.push_back(a.data());
    after = after || a == "train-nnue";
  }
  argv.push_back(nullptr);
  std::cerr << "train-nnue: running " << torch.string() << " for the torch backend\n" << std::flush;
  ::execv(torch.c_str(), argv.data());
  throw Error(fmt::format("train-nnue: cannot run '{}': {}", torch.string(), std::strerror(errno)));
}

}  // namespace

void addTrainNnueCommand(CLI::App& app, Commands& out) {
  auto cli = std::make_shared<training::TrainCli>();
  auto* cmd = app.add_subcommand("train-nnue", "Train an NNUE network on JANUSDAT files (sparse CPU trainer); see "
                                               "docs/nnue.md");
  training::addTrainNnueOptions(*cmd, *cli);
  out.push_back({cmd, [cli] {
                   if (cli->run.config.backend == "torch" && !training::backendAvailable("torch")) execTorchTrainer();
                   return training::runTrainNnue(*cli);
                 }});
}

}  // namespace janus::apps
