// janus-train-torch: `janus train-nnue` with the libtorch backend registered (and the default).
// A separate executable so that the janus binary neither links nor loads libtorch; janus
// train-nnue --backend torch runs this program with its arguments.

#include <iostream>

#include "training/torch/torch_gradient_backend.h"
#include "training/train_cli.h"
#include "util/error.h"

int main(int argc, char** argv) {
  using namespace janus;
  CLI::App app{"Janus NNUE trainer with the libtorch reference backend (the options of janus train-nnue; "
               "--backend sparse selects the sparse CPU backend)"};
  training::registerTorchBackend();
  training::TrainCli cli;
  cli.run.config.backend = "torch";
  training::addTrainNnueOptions(app, cli);
  CLI11_PARSE(app, argc, argv);
  try {
    return training::runTrainNnue(cli);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
