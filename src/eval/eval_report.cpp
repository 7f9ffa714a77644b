// `janus eval` report.

#include "eval/eval_report.h"

#include <fmt/format.h>

#include "eval/hce.h"
#include "eval/trace.h"

namespace janus {

namespace {

std::string cell(TaperedScore s, int phase) {
  return fmt::format("{:>6} {:>6} {:>6}", s.mg(), s.eg(), taper(s, phase));
}

std::string row(std::string_view name, TaperedScore white, TaperedScore black, int phase) {
  return fmt::format("{:<20}| {} | {} | {}\n", name, cell(white, phase), cell(black, phase),
                     cell(white - black, phase));
}

}  // namespace

std::string formatEvalReport(const Position& pos, const EvalWeights& w, bool details) {
  HceEvaluator hce(w, 0);
  const EvalTrace trace = hce.trace(pos);
  const EvalBreakdown b = evaluateTrace(trace, w);

  std::string out = fmt::format("Position: {}\n\n", pos.fen());
  out += fmt::format("{:<20}| {:^20} | {:^20} | {:^20}", "Term", "White", "Black", "White - Black");
  while (out.back() == ' ') out.pop_back();
  out += "\n";
  out += fmt::format("{:<20}| {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}\n", "", "mg", "eg", "cp", "mg",
                     "eg", "cp", "mg", "eg", "cp");
  const std::string rule = std::string(20, '-') + "+" + std::string(22, '-') + "+" + std::string(22, '-') + "+" +
                           std::string(22, '-') + "\n";
  out += rule;
  TaperedScore sum[2];
  for (int g = 0; g < kTermGroupCount; ++g) {
    out += row(termGroupName(TermGroup(g)), b.term[g][kWhite], b.term[g][kBlack], b.phase);
    sum[kWhite] += b.term[g][kWhite];
    sum[kBlack] += b.term[g][kBlack];
  }
  out += rule;
  out += row("Sum", sum[kWhite], sum[kBlack], b.phase);
  out += "\n";
  out += fmt::format("King attack units (before the quadratic): White {} mg {} eg, Black {} mg {} eg\n",
                     b.units[kWhite].mg(), b.units[kWhite].eg(), b.units[kBlack].mg(), b.units[kBlack].eg());
  out += fmt::format("Phase: {} / {} (middlegame weight {}%)\n", b.phase, kPhaseMax, b.phase * 100 / kPhaseMax);
  out += fmt::format("Endgame scale: {} / {} (stronger side: {})\n", b.scale, kScaleNormal,
                     strongerSide(b.total) == kWhite ? "White" : "Black");
  out += fmt::format("Total (White's view): {:+} cp\n", b.white);
  out += fmt::format("Total (side to move, {}): {:+} cp\n", pos.sideToMove() == kWhite ? "White" : "Black",
                     b.sideToMove);

  if (details) {
    out += fmt::format("\n{:<28} {:>7} {:>7} {:>7} {:>7}\n", "Feature", "White", "Black", "mg", "eg");
    for (int i = 0; i < weight::kCount; ++i) {
      if (!trace.coeff[i][kWhite] && !trace.coeff[i][kBlack]) continue;
      out += fmt::format("{:<28} {:>7} {:>7} {:>7} {:>7}\n", weightEntryName(i), trace.coeff[i][kWhite],
                         trace.coeff[i][kBlack], w[i].mg(), w[i].eg());
    }
  }
  return out;
}

}  // namespace janus
