// janus eval [FEN] [--details] [--weights FILE] [--print-weights]: the hand-crafted evaluation of
// a position, term by term; or the weight table in text form.

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/commands.h"
#include "eval/eval_report.h"
#include "eval/weights.h"
#include "util/error.h"

namespace janus::apps {

namespace {
struct EvalArgs {
  std::string fen = Position::kStartFen;
  std::string weightsPath;
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
  return 0;
}
}  // namespace

void addEvalCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval", "Print the hand-crafted evaluation of a position, term by term");
  cmd->add_option("fen", args->fen, "Position (FEN, X-FEN or Shredder-FEN); default: start position");
  cmd->add_option("--weights", args->weightsPath, "Weights file in the text form of EvalWeights::toText()");
  cmd->add_flag("--details", args->details, "Also list every feature with a non-zero count and its weight");
  cmd->add_flag("--print-weights", args->printWeights,
                "Print every weight (after --weights) in the text form that --weights reads, and exit");
  cmd->add_flag("--chess960", args->chess960, "Chess960 castling rules");
  out.push_back({cmd, [args] { return runEval(*args); }});
}

}  // namespace janus::apps
