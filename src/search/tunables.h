#pragma once
// Every alpha-beta search constant, declared once with its default, range and SPSA step
// (one X-macro list, as Stockfish's TUNE() and Ethereal's tunables; the SPSA step follows
// OpenBench's convention of the c_end value).
// In a normal build each is a constexpr int; with -DJANUS_TUNE=ON they become mutable and are
// exposed as UCI spin options so that OpenBench SPSA can tune them (`janus spsa` prints the
// OpenBench input lines). Units: centipawns unless the name says otherwise; "x100" means
// the value is a fixed-point number with two decimals.
//
// Where the idea comes from (chessprogramming wiki pages): Aspiration Windows, Reverse
// Futility Pruning, Null Move Pruning, Futility Pruning, Late Move Reductions, Late Move
// Pruning (move count based pruning), Static Exchange Evaluation, Delta Pruning, History
// Heuristic, Internal Iterative Reductions, ProbCut.

#include <string>
#include <vector>

namespace janus::tunables {

// X(name, default, min, max, step)
#define JANUS_TUNABLES(X)                                                                         \
  X(AspirationDelta, 16, 5, 50, 3)          /* initial half-width of the aspiration window */    \
  X(AspirationMinDepth, 5, 2, 10, 1)        /* first depth searched with a window */             \
  X(RfpMaxDepth, 8, 4, 12, 1)               /* reverse futility pruning: max depth */            \
  X(RfpMargin, 75, 30, 150, 8)              /* ... margin per ply */                             \
  X(RfpImprovingMargin, 60, 20, 150, 8)     /* ... subtracted per ply when improving */          \
  X(RazorBase, 400, 150, 700, 30)           /* razoring: eval < alpha - base - k * depth^2 */    \
  X(RazorPerDepthSq, 250, 100, 500, 25)                                                          \
  X(NmpMinDepth, 3, 2, 6, 1)                /* null move pruning: min depth */                   \
  X(NmpBaseReduction, 4, 2, 6, 1)           /* ... base reduction R */                          \
  X(NmpDepthDivisor, 3, 2, 6, 1)            /* ... R += depth / divisor */                       \
  X(NmpEvalDivisor, 137, 80, 400, 10)       /* ... R += min((eval - beta) / divisor, max) */    \
  X(NmpEvalMaxReduction, 6, 2, 8, 1)        /* ... cap (SF: 4 + d/3 + min(x/173, 6), 126/p) */ \
  X(NmpVerifyDepth, 12, 8, 20, 1)           /* ... verification search from this depth */       \
  X(ProbCutMinDepth, 5, 4, 8, 1)            /* probcut: min depth */                             \
  X(ProbCutMargin, 200, 100, 350, 15)       /* ... beta margin */                               \
  X(IirMinDepth, 4, 3, 8, 1)                /* IIR at cut nodes without TT move (PV: -3) */     \
  X(FutilityMaxDepth, 8, 4, 12, 1)          /* futility pruning of quiets: max depth */          \
  X(FutilityBase, 90, 30, 200, 10)          /* ... base margin */                                \
  X(FutilityPerDepth, 100, 50, 200, 10)     /* ... margin per ply */                             \
  X(LmpBase, 3, 1, 6, 1)                    /* late move pruning: quiets allowed at depth 0 */   \
  X(LmpMaxDepth, 8, 4, 12, 1)               /* ... max depth */                                  \
  X(SeeQuietQuad, 21, 5, 50, 3)             /* SEE pruning of quiets: -(quad * d^2 + lin * d) */ \
  X(SeeQuietLin, 13, 0, 60, 4)              /* ... d = LMR depth (Stockfish 15.1: 27, 16 at 126/pawn) */ \
  X(SeeNoisyMargin, 90, 40, 200, 10)        /* SEE pruning of captures: -margin * depth */      \
  X(SeePruneMaxDepth, 8, 4, 12, 1)          /* ... max depth */                                  \
  X(HistoryPruneMaxDepth, 4, 2, 6, 1)       /* prune quiets with bad history up to this depth */ \
  X(HistoryPruneMargin, 3000, 1000, 8000, 300) /* ... threshold per ply */                      \
  X(LmrBaseX100, 75, 30, 130, 8)            /* LMR table: base + ln(d) ln(m) / divisor */        \
  X(LmrDivisorX100, 225, 150, 350, 12)                                                           \
  X(LmrHistoryDivisor, 8192, 4000, 16000, 500) /* reduction -= history / divisor */             \
  X(SingularMinDepth, 7, 5, 10, 1)          /* singular extension: min depth */                  \
  X(SingularMarginX10, 15, 5, 40, 2)        /* ... beta = ttScore - margin * depth / 10 */      \
  X(DoubleExtMargin, 20, 5, 50, 3)          /* ... double extension below singular beta */      \
  X(CheckExtMinDepth, 9, 0, 14, 1)          /* check extension above this depth ... */          \
  X(CheckExtMinEval, 82, 0, 300, 10)        /* ... when |static eval| exceeds this (cp) */       \
  X(QsFutilityMargin, 150, 50, 300, 15)     /* delta pruning in quiescence search */             \
  X(HistoryBonusMax, 1600, 800, 3000, 100)  /* history bonus = min(depth^2 * k, max) */          \
  X(HistoryBonusPerDepth, 16, 8, 32, 2)                                                          \
  X(LmrDeeperBase, 64, 20, 120, 8)          /* LMR re-search one ply deeper above alpha + base */ \
  X(LmrDeeperPerDepth, 11, 4, 20, 2)        /* ... + k * (plies the reduction saved) */          \
  X(PriorFailLowMargin, 62, 20, 150, 8)     /* fail low this far below alpha: double bonus */    \
  X(LmrPrevMoveCount, 7, 3, 15, 1)          /* LMR one ply less after the opponent's move number > k */ \
  X(TimeOptimumX100, 100, 50, 150, 5)       /* time management: optimum scale */                 \
  X(TimeMaximumX100, 500, 300, 800, 25)     /* ... maximum = optimum * k (capped by clock) */   \
  X(MovesToGoDefault, 35, 20, 50, 2)        /* moves left assumed for sudden death */            \
  X(SeeValuePawn, 100, 80, 120, 5)          /* piece values for SEE and MVV/LVA ordering */      \
  X(SeeValueKnight, 320, 280, 380, 10)                                                           \
  X(SeeValueBishop, 330, 280, 380, 10)                                                           \
  X(SeeValueRook, 500, 420, 600, 15)                                                             \
  X(SeeValueQueen, 950, 850, 1100, 20)

#ifdef JANUS_TUNE
#define JANUS_DECLARE_TUNABLE(name, def, min, max, step) inline int name = def;
#else
#define JANUS_DECLARE_TUNABLE(name, def, min, max, step) constexpr int name = def;
#endif
JANUS_TUNABLES(JANUS_DECLARE_TUNABLE)
#undef JANUS_DECLARE_TUNABLE

/// Description of one tunable (for UCI options in a tune build and `janus spsa`).
struct TunableInfo {
  std::string name;
  int defaultValue, min, max, step;
  int* value;  ///< non-null only in a JANUS_TUNE build
};

/// All tunables in declaration order.
[[nodiscard]] const std::vector<TunableInfo>& all();

/// SEE/ordering value of a piece type in centipawns (king: 0).
[[nodiscard]] int seeValue(int pieceType);

}  // namespace janus::tunables
