// janus eval [FEN] [--details] [--weights FILE] [--print-weights] [--evalfile NET]: the hand-crafted
// evaluation of a position, term by term, and the NNUE score next to it; or the weight table.

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "apps/commands.h"
#include "eval/eval_report.h"
#include "eval/weights.h"
#include "nnue/nnue_evaluator.h"
#include "util/error.h"

namespace janus::apps {

namespace {
struct EvalArgs {
  std::string fen = Position::kStartFen;
  std::string weightsPath;
  std::string evalFile;  ///< NNUE network; "" = the embedded one
  bool details = false;
  bool printWeights = false;
  bool chess960 = false;
};

int runEval(const EvalArgs& a) {
  EvalWeights w = EvalWeights::defaults();
  if (!a.weightsPath.empty()) {
    std::ifstream in(a.weightsPath);
    if (!in) throw Error("cannot open weights file '" + a.weightsPath + "'");
    std::stringstream text;
    text << in.rdbuf();
    w.loadText(text.str());
  }
  if (a.printWeights) {
    std::cout << w.toText();
    return 0;
  }
  Position pos = Position::fromFen(a.fen, a.chess960);
  std::cout << formatEvalReport(pos, w, a.details);
  auto net = a.evalFile.empty() ? nnue::defaultNetwork() : nnue::Network::fromFile(a.evalFile);
  if (!net) {
    std::cout << "NNUE: no network built in (give --evalfile FILE)\n";
    return 0;
  }
  const int stm = nnue::NnueEvaluator(net).evaluateFromScratch(pos);
  std::cout << fmt::format("NNUE: {} cp (White's view), {} cp (side to move's view); network {}{}\n",
                           pos.sideToMove() == kWhite ? stm : -stm, stm, net->describe(),
                           nnue::NnueEvaluator::loneKing(pos)
                               ? "; a side has only its king, so this is the hand-crafted evaluation (the network is not used there)"
                               : "");
  return 0;
}
}  // namespace

void addEvalCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval", "Print the hand-crafted evaluation of a position, term by term, and the NNUE score");
  cmd->add_option("fen", args->fen, "Position (FEN, X-FEN or Shredder-FEN); default: start position");
  cmd->add_option("--weights", args->weightsPath, "Weights file in the text form of EvalWeights::toText()");
  cmd->add_flag("--details", args->details, "Also list every feature with a non-zero count and its weight");
  cmd->add_flag("--print-weights", args->printWeights,
                "Print every weight (after --weights) in the text form that --weights reads, and exit");
  cmd->add_flag("--chess960", args->chess960, "Chess960 castling rules");
  cmd->add_option("--evalfile", args->evalFile, "NNUE network file for the NNUE line (default: the one built in)");
  out.push_back({cmd, [args] { return runEval(*args); }});
}

}  // namespace janus::apps
