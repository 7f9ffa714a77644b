// janus-train-az: supervised training of the MCTS face's policy/value network (mcts/pvnet.h) with
// libtorch; docs/mcts-networks.md, "Training the network". A separate executable so that the janus binary
// neither links nor loads libtorch; `janus train-az ...` runs this program with its arguments.

#include <malloc.h>

#include <iostream>

#include "training/az/az_cli.h"
#include "util/error.h"

int main(int argc, char** argv) {
  using namespace janus;
  // Every step allocates and frees tensors of several MiB; glibc would map and unmap them each
  // time (and fault their pages in again): keep them on the heap instead. Measured: a quarter of
  // the training time went to page faults without this.
  ::mallopt(M_MMAP_THRESHOLD, 512 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{"Janus policy/value network trainer (libtorch): JANUSDAT or PGN -> pv-<hash>.jpv for the MCTS "
               "face's pvnet backend (or rn-<hash>.jrn with --arch resnet; the value-only research baselines "
               "--arch value-mlp / value-cnn write no network file); see docs/mcts-networks.md"};
  training::az::AzCli cli;
  training::az::addAzOptions(app, cli);
  CLI11_PARSE(app, argc, argv);
  try {
    return training::az::runAzCli(cli);
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
