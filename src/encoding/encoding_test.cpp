// Tests of the MCTS face's encodings: the 1858-entry policy map (Lc0 layout) and the input planes.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "util/error.h"

namespace janus::encoding {
namespace {

std::vector<std::string> perftFens(const std::string& file) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/perft/" + file);
  std::vector<std::string> fens;
  for (std::string line; std::getline(in, line);)
    if (auto semi = line.find(';'); semi != std::string::npos && !line.empty() && line[0] != '#')
      fens.push_back(line.substr(0, semi));
  return fens;
}

Position play(const std::string& fen, const std::vector<std::string>& moves) {
  Position pos = fen == "startpos" ? Position() : Position::fromFen(fen);
  for (const auto& m : moves) pos.makeMove(parseUci(pos, m, false));
  return pos;
}

float at(const std::vector<float>& planes, int plane, const char* square) {
  return planes[size_t(plane) * 64 + size_t((square[1] - '1') * 8 + (square[0] - 'a'))];
}

float planeSum(const std::vector<float>& planes, int plane) {
  return std::accumulate(planes.begin() + plane * 64, planes.begin() + (plane + 1) * 64, 0.0f);
}

TEST(PolicyMap, LayoutMatchesLc0) {
  EXPECT_EQ(policyMoveName(0), "a1b1");
  EXPECT_EQ(policyMoveName(6), "a1h1");
  EXPECT_EQ(policyMoveName(7), "a1a2");
  EXPECT_EQ(policyMoveName(9), "a1c2");  // knight move in to-square order
  EXPECT_EQ(policyMoveName(22), "a1h8");
  EXPECT_EQ(policyMoveName(23), "b1a1");
  EXPECT_EQ(policyMoveName(1791), "h8g8");
  EXPECT_EQ(policyMoveName(1792), "a7a8q");
  EXPECT_EQ(policyMoveName(1795), "a7b8q");
  EXPECT_EQ(policyMoveName(1857), "h7h8b");
  std::set<std::string> names;
  for (int i = 0; i < kPolicySize; ++i) names.insert(policyMoveName(i));
  EXPECT_EQ(names.size(), size_t(kPolicySize));
  EXPECT_THROW((void)policyMove(kPolicySize), Error);
}

// Every legal move of every perft-suite position has an index, the index decodes back to the
// move's squares (mirrored for Black) and promotion piece, and different moves of a standard
// position get different indices.
int checkSuite(const std::string& file, bool chess960) {
  int positions = 0, moves = 0;
  for (const auto& fen : perftFens(file)) {
    Position pos = Position::fromFen(fen, chess960);
    std::set<int> seen;
    for (Move m : legalMoves(pos)) {
      const int index = policyIndex(pos, m);
      EXPECT_TRUE(index >= 0 && index < kPolicySize) << fen;
      if (index < 0 || index >= kPolicySize) continue;
      const PolicyMove pm = policyMove(index);
      auto orient = [&](Square s) { return pos.sideToMove() == kWhite ? s : Square(s ^ 56); };
      if (m.isCastling()) {
        EXPECT_EQ(policyMoveName(index), m.to() > m.from() ? "e1h1" : "e1a1") << fen;
      } else {
        EXPECT_EQ(orient(pm.from), m.from()) << fen;
        EXPECT_EQ(orient(pm.to), m.to()) << fen;
        EXPECT_EQ(pm.promotion, m.isPromotion() && m.promotion() != kKnight ? m.promotion() : kNoPieceType) << fen;
      }
      if (!chess960) EXPECT_TRUE(seen.insert(index).second) << fen << " index " << index << " twice";
      ++moves;
    }
    ++positions;
  }
  EXPECT_GT(positions, 0) << file;
  return moves;
}

TEST(PolicyMap, EveryLegalMoveOfThePerftSuitesRoundTrips) {
  int moves = checkSuite("standard.epd", false) + checkSuite("cpw.epd", false) + checkSuite("ep-extra.epd", false) +
              checkSuite("chess960.epd", true);
  EXPECT_GT(moves, 2000);
}

TEST(PolicyMap, BlackMovesAreMirrored) {
  Position pos = play("startpos", {"e2e4"});
  Position white;
  EXPECT_EQ(policyIndex(pos, parseUci(pos, "e7e5", false)), policyIndex(white, parseUci(white, "e2e4", false)));
  EXPECT_EQ(policyIndex(pos, parseUci(pos, "g8f6", false)), policyIndex(white, parseUci(white, "g1f3", false)));
}

TEST(PolicyMap, MaskedSoftmaxCoversOnlyLegalMoves) {
  Position pos;
  std::vector<float> logits(kPolicySize, 100.0f);  // huge on every illegal entry too
  MoveList list = legalMoves(pos);
  std::vector<Move> moves(list.begin(), list.end());
  for (Move m : moves) logits[size_t(policyIndex(pos, m))] = 0.0f;
  const Move e4 = parseUci(pos, "e2e4", false);
  logits[size_t(policyIndex(pos, e4))] = std::log(20.0f);  // e4 twenty times any other move
  std::vector<float> p(moves.size());
  legalPolicy(pos, logits, moves, p);
  EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0f), 1.0f, 1e-5);
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_NEAR(p[i], moves[i] == e4 ? 20.0f / 39.0f : 1.0f / 39.0f, 1e-5);
}

TEST(Planes, StartPositionAndFirstMove) {
  auto p = encodePlanes(Position());
  ASSERT_EQ(p.size(), size_t(kBasePlanes) * 64);
  EXPECT_EQ(planeSum(p, 0), 8);       // own pawns
  EXPECT_EQ(at(p, 0, "e2"), 1);
  EXPECT_EQ(at(p, 6, "e7"), 1);       // their pawns
  EXPECT_EQ(at(p, 5, "e1"), 1);       // own king
  EXPECT_EQ(planeSum(p, 14), 0);      // no history before the start
  EXPECT_EQ(planeSum(p, 112), 0);     // White to move
  for (int c = 113; c <= 116; ++c) EXPECT_EQ(planeSum(p, c), 64) << c;
  EXPECT_EQ(planeSum(p, 117), 0);
  EXPECT_EQ(planeSum(p, 118), 64);

  // After 1.e4 Black is to move: the board is seen from Black's side.
  auto q = encodePlanes(play("startpos", {"e2e4"}));
  EXPECT_EQ(planeSum(q, 112), 64);
  EXPECT_EQ(at(q, 0, "e2"), 1);       // Black's e7 pawn, mirrored
  EXPECT_EQ(at(q, 6, "e5"), 1);       // White's e4 pawn, mirrored
  EXPECT_EQ(at(q, 6, "e7"), 0);
  EXPECT_EQ(at(q, 14 + 6, "e7"), 1);  // one ply earlier the white pawn stood on e2 (mirrored e7)
  EXPECT_EQ(planeSum(q, 28), 0);      // two plies earlier: before the game
}

TEST(Planes, ColourFlipSymmetry) {
  // A position and its colour-flipped mirror encode the same, but for the Black-to-move plane.
  const std::pair<const char*, const char*> pairs[] = {
      {"r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 3 5",
       "rnbqk2r/ppp2ppp/3p1n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 3 5"},
      {"8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 12 60", "8/8/p4p1k/Pp2pP1p/1P1pP2P/3P4/5K2/8 w - - 12 60"},
  };
  EncoderOptions all{true, true, true, true};
  for (const auto& [a, b] : pairs) {
    auto pa = encodePlanes(Position::fromFen(a), all), pb = encodePlanes(Position::fromFen(b), all);
    for (int plane = 0; plane < planeCount(all); ++plane) {
      if (plane == 112) continue;
      for (int s = 0; s < 64; ++s) ASSERT_EQ(pa[size_t(plane * 64 + s)], pb[size_t(plane * 64 + s)]) << a << " plane " << plane;
    }
  }
}

TEST(Planes, RepetitionsAndRule50) {
  auto p = encodePlanes(play("startpos", {"g1f3", "g8f6", "f3g1", "f6g8"}));
  EXPECT_EQ(planeSum(p, 12), 64);  // the start position again: seen once before
  EXPECT_EQ(planeSum(p, 13), 0);
  EXPECT_FLOAT_EQ(at(p, 117, "a1"), 0.04f);
  auto q = encodePlanes(play("startpos", {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}));
  EXPECT_EQ(planeSum(q, 13), 64);  // seen twice before
}

TEST(Planes, HistoryStepsHideThePlanesTheNetworkDoesNotSee) {
  const Position pos = play("startpos", {"g1f3", "g8f6", "f3g1", "f6g8", "e2e4"});
  const std::vector<float> full = encodePlanes(pos);
  EncoderOptions o;
  EXPECT_EQ(encodePlanes(pos, o), full);  // 8 history steps: the plain encoding

  o.historySteps = 2;
  std::vector<float> planes = encodePlanes(pos, o);
  for (std::size_t i = 0; i < full.size(); ++i) {
    const bool hidden = i >= 28 * 64 && i < 112 * 64;
    EXPECT_EQ(planes[i], hidden ? 0.0f : full[i]) << "plane " << i / 64;
  }
  // The position one ply ago (after g8f6-f3g1-f6g8) repeats the start: its repetition plane is
  // set in the full encoding and stays with 2 steps.
  EXPECT_EQ(planeSum(planes, 14 + 12), 64);

  o.historySteps = 1;
  planes = encodePlanes(pos, o);
  for (std::size_t i = 0; i < full.size(); ++i) {
    const bool hidden = i >= 12 * 64 && i < 112 * 64;
    EXPECT_EQ(planes[i], hidden ? 0.0f : full[i]) << "plane " << i / 64;
  }
  // One step: not even the current position's repetition planes.
  EXPECT_EQ(planeSum(encodePlanes(play("startpos", {"g1f3", "g8f6", "f3g1", "f6g8"}), o), 12), 0);

  o.historySteps = 0;
  EXPECT_THROW((void)encodePlanes(pos, o), Error);
  o.historySteps = kHistory + 1;
  EXPECT_THROW((void)encodePlanes(pos, o), Error);
}

TEST(Planes, EncoderFlagsRoundTrip) {
  for (int flags = 0; flags < 16; ++flags) {
    const EncoderOptions o = encoderOptions(flags, 3);
    EXPECT_EQ(encoderFlags(o), flags);
    EXPECT_EQ(o.historySteps, 3);
    EXPECT_EQ(planeCount(o), kBasePlanes + 2 * (flags & 1) + (flags & 2) + (flags & 4) + (flags & 8) / 4);
  }
  static_assert(planeCount(encoderOptions(15)) == 129);
}

TEST(Planes, OptionalFeaturePlanes) {
  EncoderOptions o{true, true, true, true};
  EXPECT_EQ(planeCount(o), 129);
  EXPECT_EQ(planeTable(o).size(), 129u);
  // White: the knight on d2 is pinned by the bishop on b4 to the king on e1; a5 is passed,
  // g2/g3 are doubled and held by Black's h4. Black: d7 is passed, h4 is not.
  Position pos = Position::fromFen("4k3/3p4/8/P7/1b5p/6P1/3N2P1/4K3 w - - 0 1");
  auto p = encodePlanes(pos, o);
  const int pins = kBasePlanes, control = pins + 2, pawns = control + 2, mobility = pawns + 4;
  EXPECT_EQ(at(p, pins, "d2"), 1);
  EXPECT_EQ(planeSum(p, pins), 1);
  EXPECT_EQ(planeSum(p, pins + 1), 0);
  EXPECT_FLOAT_EQ(at(p, control + 1, "d2"), 1.0f / 8);  // the bishop attacks d2
  EXPECT_FLOAT_EQ(at(p, control, "f3"), 2.0f / 8);      // knight d2 and pawn g2
  EXPECT_EQ(at(p, pawns, "a5"), 1);
  EXPECT_EQ(at(p, pawns, "g3"), 0);
  EXPECT_EQ(at(p, pawns + 1, "d7"), 1);
  EXPECT_EQ(at(p, pawns + 1, "h4"), 0);
  EXPECT_EQ(at(p, pawns + 2, "g2"), 1);
  EXPECT_EQ(at(p, pawns + 2, "g3"), 1);
  EXPECT_EQ(planeSum(p, pawns + 2), 2);
  EXPECT_EQ(planeSum(p, pawns + 3), 0);
  EXPECT_EQ(at(p, mobility, "a6"), 1);
  EXPECT_EQ(at(p, mobility, "b3"), 0);  // the pinned knight cannot go there
  EXPECT_EQ(at(p, mobility + 1, "h3"), 1);
  EXPECT_EQ(at(p, mobility + 1, "d2"), 1);  // Bxd2+
  std::vector<float> small(10);
  EXPECT_THROW(encodePlanes(pos, o, small), Error);
}

}  // namespace
}  // namespace janus::encoding
