// Tests of the hand-crafted evaluation: symmetry, trace linearity, pawn hash, sanity of terms.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "eval/eval_report.h"
#include "eval/hce.h"
#include "eval/trace.h"
#include "eval/weights.h"
#include "util/error.h"

namespace janus {
namespace {

// ---- Test positions -------------------------------------------------------------------------------

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

/// First `limit` positions (4 FEN fields) of an EPD file.
std::vector<std::string> loadEpd(const std::string& relPath, std::size_t limit) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/" + relPath);
  EXPECT_TRUE(in) << relPath;
  std::vector<std::string> fens;
  for (std::string line; fens.size() < limit && std::getline(in, line);) {
    auto f = split(line);
    if (f.size() < 4) continue;
    fens.push_back(f[0] + " " + f[1] + " " + f[2] + " " + f[3]);
  }
  return fens;
}

/// Positions along seeded random games: every 4th ply of `games` games of up to 160 plies.
std::vector<std::string> randomPlayouts(unsigned seed, int games) {
  std::mt19937 rng(seed);
  std::vector<std::string> fens;
  for (int g = 0; g < games; ++g) {
    Position pos;
    for (int ply = 0; ply < 160; ++ply) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      pos.makeMove(moves[int(rng() % unsigned(moves.size()))]);
      if (ply % 4 == 3) fens.push_back(pos.fen());
    }
  }
  return fens;
}

const std::vector<std::string>& testPositions() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v = loadEpd("openings/8moves_v3-first200.epd", 200);
    for (auto& f : loadEpd("tactics/wac.epd", 300)) v.push_back(f);
    for (auto& f : loadEpd("tactics/bratko-kopec.epd", 24)) v.push_back(f);
    for (auto& f : loadEpd("tactics/ecmgcp.epd", 183)) v.push_back(f);
    for (auto& f : loadEpd("perft/standard.epd", 126)) v.push_back(f);
    for (auto& f : randomPlayouts(20240601, 12)) v.push_back(f);
    return v;
  }();
  return all;
}

// ---- Board transformations ------------------------------------------------------------------------

/// Colour flip: board mirrored vertically, colours swapped, side to move, castling rights and en
/// passant square swapped accordingly. The evaluation from the side to move must not change.
std::string flipColours(const std::string& fen) {
  auto f = split(fen);
  std::vector<std::string> ranks;
  std::string cur;
  for (char ch : f[0]) {
    if (ch == '/') {
      ranks.push_back(cur);
      cur.clear();
    } else {
      cur += std::isupper(static_cast<unsigned char>(ch)) ? char(std::tolower(ch)) : char(std::toupper(ch));
    }
  }
  ranks.push_back(cur);
  std::reverse(ranks.begin(), ranks.end());
  std::string board;
  for (std::size_t i = 0; i < ranks.size(); ++i) board += (i ? "/" : "") + ranks[i];
  std::string castling;
  if (f[2] == "-") {
    castling = "-";
  } else {
    std::string upper, lower;
    for (char ch : f[2])
      (std::islower(static_cast<unsigned char>(ch)) ? upper : lower) +=
          std::isupper(static_cast<unsigned char>(ch)) ? char(std::tolower(ch)) : char(std::toupper(ch));
    castling = upper + lower;
  }
  std::string ep = f[3];
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  std::string out = board + " " + (f[1] == "w" ? "b" : "w") + " " + castling + " " + ep;
  for (std::size_t i = 4; i < f.size(); ++i) out += " " + f[i];
  return out;
}

/// Left-right mirror (a-file <-> h-file); castling rights are dropped (they are not symmetric).
std::string mirrorFiles(const std::string& fen) {
  auto f = split(fen);
  std::string board, rank;
  auto flush = [&] {
    std::reverse(rank.begin(), rank.end());
    board += rank;
    rank.clear();
  };
  for (char ch : f[0]) {
    if (ch == '/') {
      flush();
      board += '/';
    } else {
      rank += ch;
    }
  }
  flush();
  std::string ep = f[3];
  if (ep != "-") ep[0] = char('h' - (ep[0] - 'a'));
  return board + " " + f[1] + " - " + ep;
}

std::string withoutCastling(const std::string& fen) {
  auto f = split(fen);
  return f[0] + " " + f[1] + " - " + f[3];
}

/// Default weights with every piece-square table made left-right symmetric (files e-h copy a-d).
EvalWeights symmetricPstWeights() {
  EvalWeights w = EvalWeights::defaults();
  for (int block = weight::kPstPawn; block <= weight::kPstKing; block += 64)
    for (int sq = 0; sq < 64; ++sq)
      if (fileOf(Square(sq)) >= 4) w[block + sq] = w[block + (sq ^ 7)];
  return w;
}

int evalWhite(const std::string& fen, const EvalWeights& w = EvalWeights::defaults()) {
  HceEvaluator hce(w);
  return hce.evaluateWhite(Position::fromFen(fen));
}

EvalBreakdown breakdown(const std::string& fen) {
  HceEvaluator hce;
  return evaluateTrace(hce.trace(Position::fromFen(fen)), hce.weights());
}

TaperedScore termOf(const EvalBreakdown& b, TermGroup g, Color c) { return b.term[int(g)][c]; }
int taperedTerm(const EvalBreakdown& b, TermGroup g, Color c) { return taper(termOf(b, g, c), b.phase); }

// ---- Parameter table ------------------------------------------------------------------------------

TEST(EvalWeights, TableIsContiguousAndNamesAreUnique) {
  int offset = 0;
  std::set<std::string_view> names;
  for (const auto& b : kWeightTable) {
    EXPECT_EQ(b.offset, offset) << b.name;
    EXPECT_GT(b.size, 0) << b.name;
    EXPECT_TRUE(names.insert(b.name).second) << b.name;
    offset += b.size;
  }
  EXPECT_EQ(offset, weight::kCount);
}

TEST(EvalWeights, EntryNamesRoundTrip) {
  std::set<std::string> seen;
  for (int i = 0; i < weight::kCount; ++i) {
    std::string name = weightEntryName(i);
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(findWeightEntry(name), i) << name;
  }
  EXPECT_EQ(weightEntryName(weight::kPstKnight + kE4), "pst_knight[e4]");
  EXPECT_EQ(weightEntryName(weight::kMaterial + kRook), "material[rook]");
  EXPECT_EQ(weightEntryName(weight::kTempo), "tempo");
  EXPECT_EQ(findWeightEntry("mobility_queen[27]"), weight::kMobilityQueen + 27);
  EXPECT_EQ(findWeightEntry("pst_knight[28]"), weight::kPstKnight + 28);
}

TEST(EvalWeights, GetSetByName) {
  EvalWeights w = EvalWeights::defaults();
  EXPECT_EQ(w.get("material[pawn]"), TaperedScore(82, 94));  // PeSTO
  EXPECT_EQ(w.get("material[queen]"), TaperedScore(1025, 936));
  EXPECT_EQ(w.get("pst_knight[a8]"), TaperedScore(-167, -58));  // PeSTO, diagram's top-left
  EXPECT_EQ(w.get("pst_king[g1]"), TaperedScore(24, -24));
  w.set("bishop_pair", TaperedScore(1, -2));
  EXPECT_EQ(w[weight::kBishopPair], TaperedScore(1, -2));
  EXPECT_THROW(w.set("no_such_weight", TaperedScore()), Error);
  EXPECT_THROW((void)w.get("pst_knight[i9]"), Error);
  EXPECT_THROW((void)w.get("pst_knight"), Error);
  EXPECT_THROW((void)w.get("mobility_knight[9]"), Error);
}

TEST(EvalWeights, TextRoundTrip) {
  const EvalWeights& d = EvalWeights::defaults();
  EvalWeights w;
  EXPECT_FALSE(w == d);
  w.loadText(d.toText());
  EXPECT_TRUE(w == d);
  w.loadText("# comment\n\n  tempo  -3 +4   # trailing\r\npst_pawn[e4] 7 8\n");
  EXPECT_EQ(w.get("tempo"), TaperedScore(-3, 4));
  EXPECT_EQ(w.get("pst_pawn[e4]"), TaperedScore(7, 8));
}

TEST(EvalWeights, BadTextIsRejectedWithoutChanges) {
  EvalWeights w = EvalWeights::defaults();
  for (const char* bad : {"tempo 1\n", "tempo 1 2 3\n", "tempo x 2\n", "nonsense 1 2\n", "tempo 1 99999\n"}) {
    try {
      w.loadText(std::string("bishop_pair 0 0\n") + bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(w == EvalWeights::defaults());
}

// ---- Symmetry -------------------------------------------------------------------------------------

TEST(HceSymmetry, ColourFlipGivesTheSameEvaluation) {
  ASSERT_GT(testPositions().size(), 900u);
  HceEvaluator hce;
  for (const auto& fen : testPositions()) {
    Position pos = Position::fromFen(fen);
    std::string flippedFen = flipColours(pos.fen());
    Position flipped = Position::fromFen(flippedFen);
    ASSERT_EQ(hce.evaluate(pos), hce.evaluate(flipped)) << fen << "\nflipped: " << flippedFen;
    ASSERT_EQ(hce.evaluateWhite(pos), -hce.evaluateWhite(flipped)) << fen;
  }
}

// PeSTO's piece-square tables are not left-right symmetric (they encode castling habits: e.g. the
// middlegame king table prefers g1 to b1), so the mirror test uses weights whose tables were
// made symmetric; every other term must then be mirror symmetric.
TEST(HceSymmetry, LeftRightMirrorWithSymmetricTables) {
  HceEvaluator hce(symmetricPstWeights());
  for (const auto& fen : testPositions()) {
    std::string plain = withoutCastling(Position::fromFen(fen).fen());
    std::string mirrored = mirrorFiles(plain);
    ASSERT_EQ(hce.evaluate(Position::fromFen(plain)), hce.evaluate(Position::fromFen(mirrored)))
        << plain << "\nmirrored: " << mirrored;
  }
}

// ---- Trace ----------------------------------------------------------------------------------------

TEST(HceTrace, ReproducesEvaluateWithDefaultWeights) {
  HceEvaluator hce;
  for (const auto& fen : testPositions()) {
    Position pos = Position::fromFen(fen);
    EvalBreakdown b = evaluateTrace(hce.trace(pos), hce.weights());
    ASSERT_EQ(b.white, hce.evaluateWhite(pos)) << fen;
    ASSERT_EQ(b.sideToMove, hce.evaluate(pos)) << fen;
  }
}

// The coefficients do not depend on the weights: a trace taken with the default weights must
// reproduce the evaluation under any other weights, which is what a tuner relies on.
TEST(HceTrace, CoefficientsAreIndependentOfTheWeights) {
  std::mt19937 rng(7);
  HceEvaluator reference;
  for (int round = 0; round < 3; ++round) {
    EvalWeights w = EvalWeights::defaults();
    for (int i = 0; i < weight::kCount; ++i) {
      int dm = int(rng() % 41) - 20, de = int(rng() % 41) - 20;
      w[i] = TaperedScore(w[i].mg() + dm, w[i].eg() + de);
    }
    HceEvaluator perturbed(w);
    for (const auto& fen : testPositions()) {
      Position pos = Position::fromFen(fen);
      ASSERT_EQ(evaluateTrace(reference.trace(pos), w).white, perturbed.evaluateWhite(pos)) << fen;
    }
  }
}

TEST(HceTrace, BreakdownSumsToTotal) {
  HceEvaluator hce;
  Position pos = Position::fromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 1");
  EvalBreakdown b = evaluateTrace(hce.trace(pos), hce.weights());
  TaperedScore sum;
  for (int g = 0; g < kTermGroupCount; ++g) sum += b.term[g][kWhite] - b.term[g][kBlack];
  EXPECT_EQ(sum, b.total);
  // The same total from the White-minus-Black coefficients of the linear weights plus the
  // non-linear king attack of each side.
  EvalTrace t = hce.trace(pos);
  TaperedScore linear;
  for (const auto& block : kWeightTable)
    if (block.kind == WeightKind::kLinear)
      for (int i = block.offset; i < block.offset + block.size; ++i) linear += hce.weights()[i] * t.net(i);
  EXPECT_EQ(linear + kingAttackScore(b.units[kWhite]) - kingAttackScore(b.units[kBlack]), b.total);
  EXPECT_EQ(b.phase, kPhaseMax - 1);  // White has one bishop only
  EXPECT_EQ(b.scale, kScaleNormal);
}

// ---- Pawn hash ------------------------------------------------------------------------------------

TEST(HcePawnHash, GivesTheSameResultsAsNoCache) {
  HceEvaluator cached, tiny(EvalWeights::defaults(), 2), uncached(EvalWeights::defaults(), 0);
  for (int pass = 0; pass < 2; ++pass)  // the second pass hits the cache
    for (const auto& fen : testPositions()) {
      Position pos = Position::fromFen(fen);
      int expected = uncached.evaluate(pos);
      ASSERT_EQ(cached.evaluate(pos), expected) << fen;
      ASSERT_EQ(tiny.evaluate(pos), expected) << fen;  // constant replacement and collisions
    }
  // Same pawns, different king squares: the cached shelter must follow the king.
  for (const char* fen : {"6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/1K6 w - - 0 1",
                          "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "1k6/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
                          // same pawns and kings, different castling rights
                          "r3k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R3K2R w KQkq - 0 1",
                          "r3k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R3K2R w - - 0 1",
                          "r3k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R3K2R w Qk - 0 1"}) {
    Position pos = Position::fromFen(fen);
    EXPECT_EQ(cached.evaluate(pos), uncached.evaluate(pos)) << fen;
  }
}

TEST(HcePawnHash, RejectsSizesThatAreNotPowersOfTwo) {
  EXPECT_THROW(HceEvaluator(EvalWeights::defaults(), 1000), Error);
  EXPECT_NO_THROW(HceEvaluator(EvalWeights::defaults(), 1024));
}

TEST(Hce, CloneAndInterface) {
  std::unique_ptr<Evaluator> e = makeHceEvaluator();
  EXPECT_EQ(e->name(), "hce");
  std::unique_ptr<Evaluator> c = e->clone();
  for (const auto& fen : testPositions()) {
    Position pos = Position::fromFen(fen);
    int v = e->evaluate(pos);
    ASSERT_EQ(v, c->evaluate(pos));
    ASSERT_LE(std::abs(v), kEvalMax);
  }
}

// ---- Sanity ---------------------------------------------------------------------------------------

TEST(HceSanity, StartPositionIsNearZero) {
  int v = evalWhite(Position::kStartFen);
  EXPECT_LT(std::abs(v), 30) << v;
}

TEST(HceSanity, ExtraQueenIsWorthAboutNinehundred) {
  int v = evalWhite("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_GT(v, 750);
  EXPECT_LT(v, 1100);
  int w = evalWhite("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
  EXPECT_LT(w, -750);
  EXPECT_GT(w, -1100);
}

TEST(HceSanity, InsufficientMaterialIsZero) {
  for (const char* fen : {
           "8/8/4k3/8/8/3K4/8/8 w - - 0 1",        // KvK
           "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",       // KBvK
           "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",       //
           "8/8/4k3/8/8/3K4/8/6n1 w - - 0 1",      // KvKN
           "8/8/4k3/8/8/3K4/8/6n1 b - - 0 1",      //
           "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1",     // KBvKB, same-coloured bishops
           "8/8/4k3/8/8/3K4/8/3NN3 w - - 0 1",     // KNNvK
           "8/8/4k3/8/8/3K4/8/3NN3 b - - 0 1",     //
           "8/8/4k3/8/8/3K4/8/3B1B2 w - - 0 1",    // KBBvK, both on light squares
       }) {
    Position pos = Position::fromFen(fen);
    HceEvaluator hce;
    EXPECT_EQ(hce.evaluate(pos), 0) << fen;
  }
}

TEST(HceSanity, WinningEndgamesAreNotScaled) {
  EXPECT_GT(evalWhite("8/8/4k3/8/8/3K4/8/R7 w - - 0 1"), 400);  // KRvK
  EXPECT_GT(evalWhite("8/8/4k3/8/8/3K4/8/R7 b - - 0 1"), 400);
  EXPECT_GT(evalWhite("8/8/4k3/8/8/3K4/8/2B2B2 w - - 0 1"), 400);  // KBBvK, bishops on c1 (dark) and f1 (light)
  EXPECT_GT(evalWhite("8/8/4k3/8/8/3K4/8/3QN3 w - - 0 1"), 900);
}

TEST(HceSanity, DrawishPawnlessEndgamesAreScaledDown) {
  int krkb = evalWhite("8/8/4k3/3b4/8/3K4/8/R7 w - - 0 1");
  EXPECT_GE(krkb, 0);
  EXPECT_LT(krkb, 60);
  int krkn = evalWhite("8/8/4k3/3n4/8/3K4/8/R7 w - - 0 1");
  EXPECT_LT(krkn, 60);
}

TEST(HceSanity, OppositeColouredBishopsAreDrawish) {
  // White is a pawn up; with opposite-coloured bishops much less than with same-coloured ones.
  int ocb = evalWhite("8/5k2/4b3/p7/8/P1P1B3/5K2/8 w - - 0 1");   // e6 light, e3 dark
  int same = evalWhite("8/5k2/3b4/p7/8/P1P1B3/5K2/8 w - - 0 1");  // d6 and e3 dark
  EXPECT_GT(ocb, 0);
  EXPECT_LT(ocb * 3, same * 2);
}

TEST(HceSanity, PassedPawnOnSeventhIsWorthMoreThanOnThird) {
  const char* seventh = "1r4k1/P4ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
  const char* third = "1r4k1/5ppp/8/8/8/P7/5PPP/R5K1 w - - 0 1";
  EXPECT_GT(evalWhite(seventh), evalWhite(third));
  // The advance is paid by the pawn's square bonus and the passed-pawn terms together (the tuner
  // decides how to split it), so the test looks at their sum.
  auto pawnTerms = [](const char* fen) {
    auto b = breakdown(fen);
    return taperedTerm(b, TermGroup::kPieceSquare, kWhite) + taperedTerm(b, TermGroup::kPassedPawns, kWhite);
  };
  EXPECT_GT(pawnTerms(seventh), pawnTerms(third));
  // Endgame: a free passer close to promotion against a far king.
  EXPECT_GT(evalWhite("8/1P6/8/8/8/8/6k1/K7 b - - 0 1"), evalWhite("8/8/8/8/8/1P6/6k1/K7 b - - 0 1"));
}

TEST(HceSanity, DoubledAndIsolatedPawnsScoreBelowHealthyOnes) {
  const char* healthy = "4k3/ppp2ppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1";
  const char* broken = "4k3/ppp2ppp/8/8/8/2P5/P1P2PPP/4K3 w - - 0 1";  // c-pawns doubled, a2 isolated
  EXPECT_GT(evalWhite(healthy), evalWhite(broken));
  EXPECT_GT(taperedTerm(breakdown(healthy), TermGroup::kPawnStructure, kWhite),
            taperedTerm(breakdown(broken), TermGroup::kPawnStructure, kWhite));
}

TEST(HceSanity, IntactShieldBeatsExposedKingInTheMiddlegame) {
  const char* intact = "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 1";
  const char* exposed = "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P1PPP/2NBPN2/PP6/R1BQ1RK1 w - - 0 1";
  EXPECT_GT(evalWhite(intact), evalWhite(exposed));
  EXPECT_GT(taperedTerm(breakdown(intact), TermGroup::kKingShelter, kWhite),
            taperedTerm(breakdown(exposed), TermGroup::kKingShelter, kWhite));
}

TEST(HceSanity, CentralPawnMovesBeforeCastlingDoNotHurtTheShelter) {
  // With castling rights the shelter is judged at the better castling square.
  EvalBreakdown start = breakdown(Position::kStartFen);
  EvalBreakdown e4d4 = breakdown("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
  EXPECT_EQ(termOf(start, TermGroup::kKingShelter, kWhite), termOf(e4d4, TermGroup::kKingShelter, kWhite));
  // Without them the king on e1 has lost its d- and e-pawn cover.
  EvalBreakdown noRights = breakdown("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b kq - 0 2");
  EXPECT_LT(taperedTerm(noRights, TermGroup::kKingShelter, kWhite), taperedTerm(e4d4, TermGroup::kKingShelter, kWhite));
}

TEST(HceSanity, KingAttackIsPenalised) {
  // Black's queen and knight hit White's king zone: White's king is in danger.
  EvalBreakdown b = breakdown("r1b2rk1/ppp2ppp/8/4p3/2B1P1nq/2NP4/PPP2PP1/R1BQ1RK1 w - - 0 1");
  EXPECT_GT(b.units[kBlack].mg(), 0);
  EXPECT_GT(taperedTerm(b, TermGroup::kKingAttack, kBlack), 0);
}

TEST(HceSanity, RookOnOpenFileBeatsClosedFile) {
  const char* open = "6k1/pp3ppp/8/8/8/8/PP3PPP/3R2K1 w - - 0 1";
  const char* closed = "6k1/pp3ppp/8/8/8/8/PP3PPP/1R4K1 w - - 0 1";
  EXPECT_GT(evalWhite(open), evalWhite(closed));
  EXPECT_GT(taperedTerm(breakdown(open), TermGroup::kRooks, kWhite),
            taperedTerm(breakdown(closed), TermGroup::kRooks, kWhite));
}

TEST(HceSanity, FreeingABishopIncreasesMobility) {
  const char* blocked = "4k3/8/8/8/8/8/1PPP4/2B1K3 w - - 0 1";
  const char* freed = "4k3/8/8/8/8/3P4/1PP5/2B1K3 w - - 0 1";
  EXPECT_GT(taperedTerm(breakdown(freed), TermGroup::kMobility, kWhite),
            taperedTerm(breakdown(blocked), TermGroup::kMobility, kWhite));
  EXPECT_GT(evalWhite(freed), evalWhite(blocked));
}

TEST(HceSanity, TempoFavoursTheSideToMove) {
  HceEvaluator hce;
  int w = hce.evaluate(Position::fromFen(Position::kStartFen));
  EXPECT_GT(w, 0);
}

// ---- Report ---------------------------------------------------------------------------------------

TEST(EvalReport, ContainsEveryTermAndTheTotals) {
  Position pos = Position::fromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 1");
  std::string report = formatEvalReport(pos, EvalWeights::defaults());
  for (int g = 0; g < kTermGroupCount; ++g)
    EXPECT_NE(report.find(termGroupName(TermGroup(g))), std::string::npos) << termGroupName(TermGroup(g));
  for (const char* s : {"White", "Black", "White - Black", "Phase: 23 / 24", "Endgame scale", "Total (White's view)",
                        "Total (side to move, White)"})
    EXPECT_NE(report.find(s), std::string::npos) << s;
  HceEvaluator hce;
  int v = hce.evaluate(pos);
  EXPECT_NE(report.find(fmt::format("Total (White's view): {:+} cp", v)), std::string::npos) << report;

  std::string details = formatEvalReport(pos, EvalWeights::defaults(), true);
  EXPECT_NE(details.find("pst_knight[c3]"), std::string::npos);
  EXPECT_NE(details.find("material[pawn]"), std::string::npos);
}

TEST(EvalReport, BlackToMoveShowsBothViews) {
  Position pos = Position::fromFen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  std::string report = formatEvalReport(pos, EvalWeights::defaults());
  HceEvaluator hce;
  int v = hce.evaluate(pos);
  EXPECT_NE(report.find(fmt::format("Total (side to move, Black): {:+} cp", v)), std::string::npos) << report;
  EXPECT_NE(report.find(fmt::format("Total (White's view): {:+} cp", -v)), std::string::npos) << report;
}

}  // namespace
}  // namespace janus
