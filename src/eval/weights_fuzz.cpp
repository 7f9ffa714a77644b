// libFuzzer target: EvalWeights::loadText (the text weight files of `janus eval --weights` and
// the tuner), then the evaluation with whatever weights were accepted.
//
// Input: weight text. Bad text must end in janus::Error and leave the weights unchanged.
// Accepted weights must survive toText() -> loadText(), and with them the evaluation of a few
// positions must stay within [-kEvalMax, kEvalMax], agree with the trace recomputation
// (evaluateTrace(trace(pos), w)), and be free of undefined behaviour (UBSan) even with extreme
// values (|w| <= 30000).

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/position.h"
#include "eval/hce.h"
#include "eval/trace.h"
#include "eval/weights.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {
const char* const kFens[] = {
    Position::kStartFen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 b - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "1r4k1/5pp1/2n4p/8/8/2B5/5PPP/3QR1K1 w - - 0 1",
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  EvalWeights w = EvalWeights::defaults();
  try {
    w.loadText(text);
  } catch (const Error&) {
    fuzz::check(w == EvalWeights::defaults(), "rejected weight text changes nothing");
    return 0;
  }
  EvalWeights again;
  again.loadText(w.toText());
  fuzz::check(again == w, "toText() -> loadText() gives the same weights");

  HceEvaluator eval(w);
  for (const char* fen : kFens) {
    Position pos = Position::fromFen(fen);
    int white = eval.evaluateWhite(pos);
    fuzz::check(white >= -kEvalMax && white <= kEvalMax, "evaluation within +-kEvalMax", fen);
    int fromTrace = evaluateTrace(eval.trace(pos), w).white;
    fuzz::check(fromTrace == white, "evaluateTrace(trace(pos), w) == evaluateWhite(pos)",
                std::string(fen) + ": " + std::to_string(fromTrace) + " vs " + std::to_string(white));
  }
  return 0;
}
