// NNUE inference tests: file validation, SIMD == scalar, incremental accumulators == full
// refresh after random move sequences (castling, en passant, promotion, Chess960, null moves),
// and quantised integer inference == the float network within a stated tolerance.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "eval/hce.h"
#include "nnue/network.h"
#include "nnue/nnue_evaluator.h"
#include "nnue/simd.h"
#include "nnue/test_net.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::nnue {
namespace {

using testing::FloatNet;
using testing::quantise;
using testing::randomFloatNet;

std::shared_ptr<const Network> load(const std::vector<unsigned char>& bytes) {
  return Network::fromBytes(bytes, "test.jnn");
}

std::string loadError(std::vector<unsigned char> bytes) {
  try {
    load(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "(loaded)";
}

/// FENs of a perft suite (first `limit` lines).
std::vector<std::string> perftFens(const std::string& file, size_t limit) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/perft/" + file);
  std::vector<std::string> fens;
  for (std::string line; fens.size() < limit && std::getline(in, line);)
    if (auto semi = line.find(';'); semi != std::string::npos && !line.empty() && line[0] != '#')
      fens.push_back(line.substr(0, semi));
  return fens;
}

TEST(NnueNetwork, LoadsAndDescribesAValidFile) {
  auto bytes = quantise(randomFloatNet(32, 8, Activation::kSCReLU, 1), "unit");
  auto net = load(bytes);
  EXPECT_EQ(net->hidden(), 32);
  EXPECT_EQ(net->outputBuckets(), 8);
  EXPECT_EQ(net->activation(), Activation::kSCReLU);
  NetHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(net->contentHash(), h.contentHash);
  EXPECT_EQ(net->name().size(), 3u + 16u);
  EXPECT_NE(net->describe().find("768x2->32->8 buckets, SCReLU, unit"), std::string::npos) << net->describe();
}

TEST(NnueNetwork, RejectsBadFilesWithAClearMessage) {
  const auto good = quantise(randomFloatNet(32, 1, Activation::kCReLU, 2));
  auto with = [&](auto edit) {
    auto b = good;
    edit(b);
    return loadError(b);
  };
  auto expectError = [&](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find("NNUE network 'test.jnn': "), std::string::npos) << error;  // names the file
    EXPECT_NE(error.find(part), std::string::npos) << error;
  };
  // The shared fields (netfile.h).
  expectError(with([](auto& b) { b.resize(10); }), "shorter than the 64-byte header");
  expectError(with([](auto& b) { b[0] = 'X'; }), "wrong magic (not a JANUSNN file)");
  expectError(with([](auto& b) { b[offsetof(NetHeader, version)] = 9; }), "unsupported version 9");
  expectError(with([](auto& b) { b[offsetof(NetHeader, reserved1) + 2] = 1; }), "reserved header field");
  expectError(with([](auto& b) { b[offsetof(NetHeader, archId)] ^= 1; }), "architecture id");
  expectError(with([](auto& b) { b[offsetof(NetHeader, payloadBytes)] ^= 2; }), "payload bytes");
  expectError(with([](auto& b) { b.pop_back(); }), "truncated");
  expectError(with([](auto& b) { b.push_back(0); }), "1 trailing bytes");
  expectError(with([](auto& b) { b[100] ^= 0x40; }), "corrupted");
  // This format's own fields.
  expectError(with([](auto& b) { b[offsetof(NetHeader, hidden)] = 17; }), "hidden size 17");
  expectError(with([](auto& b) { b[offsetof(NetHeader, activation)] = 7; }), "unknown activation 7");
  expectError(with([](auto& b) { b[offsetof(NetHeader, qa)] = 7; }), "quantisation QA 7");
  EXPECT_EQ(loadError(good), "(loaded)");
  try {
    Network::fromFile("/nonexistent/net.jnn");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open '/nonexistent/net.jnn'"), std::string::npos) << e.what();
  }
}

TEST(NnueNetwork, ReadsACompressedFile) {
  const auto bytes = quantise(randomFloatNet(32, 2, Activation::kSCReLU, 5), "zstd");
  const std::string path = ::testing::TempDir() + "janus-nnue-zstd.jnn";
  OutputFile out(path, /*compress=*/true);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.commit();
  ASSERT_TRUE(isZstdFile(path));
  EXPECT_EQ(Network::fromFile(path)->contentHash(), load(bytes)->contentHash());
  std::remove(path.c_str());
}

// Every network committed under nets/ loads and is named by its content hash.
TEST(NnueNetwork, EveryCommittedNetLoadsUnderItsName) {
  int nets = 0;
  for (const auto& entry : std::filesystem::directory_iterator(JANUS_NETS_DIR)) {
    if (entry.path().extension() != ".jnn") continue;
    const auto net = Network::fromFile(entry.path().string());
    EXPECT_EQ(netfile::fileName(kNetFormat, net->contentHash()), entry.path().filename().string());
    ++nets;
  }
  EXPECT_GT(nets, 0);
}

TEST(NnueSimd, DotEqualsScalarReferenceAtTheExtremes) {
  std::mt19937 rng(3);
  for (int n : {16, 32, 48, 256, 1024, 2048}) {
    AlignedArray<std::int16_t> acc{size_t(n)}, w{size_t(n)};
    for (int trial = 0; trial < 20; ++trial) {
      for (int i = 0; i < n; ++i) {
        // Mix of saturated, negative and in-range activations; weights up to the clip limit.
        int r = int(rng() % 4);
        acc[size_t(i)] = std::int16_t(r == 0 ? 300 : r == 1 ? -50 : int(rng() % 256));
        w[size_t(i)] = std::int16_t(trial == 0 ? 127 : int(rng() % 255) - 127);
      }
      for (bool screlu : {true, false})
        EXPECT_EQ(simd::dot(acc.get(), w.get(), n, kQA, screlu), simd::dotScalar(acc.get(), w.get(), n, kQA, screlu))
            << "n " << n << " screlu " << screlu << " path " << simd::kPath;
    }
  }
}

// Random games from perft-suite positions (standard and Chess960), with unmakes and null moves
// mixed in: at every ply both accumulators equal a full refresh and evaluate() equals
// evaluateFromScratch().
void checkIncremental(const FloatNet& fnet, const std::vector<std::string>& fens, bool chess960, unsigned seed) {
  auto net = load(quantise(fnet));
  NnueEvaluator eval(net), fresh(net);
  std::mt19937 rng(seed);
  int checked = 0, castles = 0, enPassants = 0, promotions = 0, kingCrossings = 0;
  for (const auto& fen : fens) {
    Position pos = Position::fromFen(fen, chess960);
    eval.reset(pos);
    std::vector<Move> line;
    for (int step = 0; step < 60; ++step) {
      MoveList moves = legalMoves(pos);
      const bool back = !line.empty() && (moves.empty() || rng() % 5 == 0);
      if (back) {
        Move m = line.back();
        line.pop_back();
        if (m == Move::null()) {
          pos.unmakeNullMove();
        } else {
          pos.unmakeMove(m);
        }
        eval.onUnmakeMove(pos, m);
      } else if (moves.empty()) {
        break;
      } else if (!pos.inCheck() && rng() % 10 == 0) {
        eval.onMakeMove(pos, Move::null());
        pos.makeNullMove();
        line.push_back(Move::null());
      } else {
        Move m = moves[int(rng() % unsigned(moves.size()))];
        castles += m.isCastling();
        enPassants += m.isEnPassant();
        promotions += m.isPromotion();
        if (typeOf(pos.movedPiece(m)) == kKing) {
          const Color us = pos.sideToMove();
          const Square to = m.isCastling() ? castlingKingTo(us, m.to() > m.from()) : m.to();
          kingCrossings += kingBucketKey(us, m.from(), fnet.kingBuckets) != kingBucketKey(us, to, fnet.kingBuckets);
        }
        eval.onMakeMove(pos, m);
        pos.makeMove(m);
        line.push_back(m);
      }
      if (rng() % 3 == 0) continue;  // lazy updates: some plies are never evaluated
      NnueEvaluator scratch(net);
      scratch.reset(pos);
      for (Color c : {kWhite, kBlack})
        ASSERT_EQ(eval.accumulator(pos, c), scratch.accumulator(pos, c)) << pos.fen() << " perspective " << int(c);
      ASSERT_EQ(eval.evaluate(pos), fresh.evaluateFromScratch(pos)) << pos.fen();
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(castles + enPassants + promotions, 0) << "the random lines should include special moves";
  if (fnet.kingBuckets > 1) {
    EXPECT_GT(kingCrossings, 0) << "the random lines should move kings across buckets";
  }
}

TEST(NnueEvaluator, IncrementalEqualsRefreshStandard) {
  checkIncremental(randomFloatNet(64, 8, Activation::kSCReLU, 4), perftFens("standard.epd", 60), false, 5);
  checkIncremental(randomFloatNet(48, 1, Activation::kCReLU, 6), perftFens("cpw.epd", 10), false, 7);
}

TEST(NnueEvaluator, IncrementalEqualsRefreshChess960) {
  checkIncremental(randomFloatNet(32, 4, Activation::kSCReLU, 8), perftFens("chess960.epd", 40), true, 9);
}

TEST(NnueEvaluator, IncrementalEqualsRefreshWithKingBuckets) {
  checkIncremental(randomFloatNet(32, 8, Activation::kSCReLU, 21, 0.15f, 0.5f, 4), perftFens("standard.epd", 60), false, 22);
  checkIncremental(randomFloatNet(32, 1, Activation::kCReLU, 23, 0.15f, 0.5f, 16), perftFens("cpw.epd", 10), false, 24);
  checkIncremental(randomFloatNet(32, 4, Activation::kSCReLU, 25, 0.15f, 0.5f, 8), perftFens("chess960.epd", 40), true, 26);
}

TEST(NnueFormat, KingBucketLayoutsUseEveryBucketAndStayInRange) {
  for (int k : {1, 2, 4, 8, 16}) {
    std::vector<int> used(size_t(k), 0);
    for (int sq = 0; sq < 64; ++sq) {
      if ((sq & 7) >= 4) continue;  // the a-d half: the other is mirrored onto it
      const int b = kingBucket(sq, k);
      ASSERT_GE(b, 0);
      ASSERT_LT(b, k) << "K " << k << " square " << sq;
      ++used[size_t(b)];
    }
    for (int b = 0; b < k; ++b) EXPECT_GT(used[size_t(b)], 0) << "K " << k << " bucket " << b << " has no square";
    for (int persp = 0; persp < 2; ++persp)
      for (int king = 0; king < 64; ++king)
        for (int sq = 0; sq < 64; sq += 7) {
          const int f = featureIndex(persp, 1, 3, sq, king, k);
          ASSERT_GE(f, 0);
          ASSERT_LT(f, kInputs * k);
          if (k == 1) {
            ASSERT_EQ(f, featureIndex(persp, 1, 3, sq));
          }
        }
  }
  // White king e1 and Black king e8 see the board alike (each from its own side, mirrored).
  EXPECT_EQ(featureIndex(0, 0, 1, 6 /*g1*/, 4 /*e1*/, 4), featureIndex(1, 1, 1, 62 /*g8*/, 60 /*e8*/, 4));
  // A king on e1 mirrors: the knight on g1 is read as on b1.
  EXPECT_EQ(featureIndex(0, 0, 1, 6, 4, 4), featureIndex(0, 0, 1, 1, 3, 4));
}

TEST(NnueNetwork, LoadsAKingBucketNetAndRejectsAnUnknownLayout) {
  const auto good = quantise(randomFloatNet(32, 8, Activation::kSCReLU, 27, 0.15f, 0.5f, 4), "kb");
  auto net = load(good);
  EXPECT_EQ(net->kingBuckets(), 4);
  EXPECT_NE(net->describe().find("4 king buckets x 768x2->32->8"), std::string::npos) << net->describe();
  auto bad = good;
  bad[offsetof(NetHeader, kingBuckets)] = 3;
  EXPECT_NE(loadError(bad).find("3 king buckets"), std::string::npos) << loadError(bad);
  bad[offsetof(NetHeader, kingBuckets)] = 0;  // a plain net's header over a king-bucket payload
  EXPECT_NE(loadError(bad).find("inputs"), std::string::npos) << loadError(bad);
}

// With king buckets the board is mirrored for a king on files e-h, so a position without
// castling rights and its a <-> h mirror image are the same inputs; a plain net sees them apart.
TEST(NnueEvaluator, KingBucketNetsEvaluateFileMirroredPositionsAlike) {
  const std::pair<const char*, const char*> cases[] = {
      {"8/2k5/3p4/p2P1p2/P2P1P2/8/6K1/8 w - - 0 1", "8/5k2/4p3/2p1P2p/2P1P2P/8/1K6/8 w - - 0 1"},
      {"r4rk1/1p3ppp/p1n1b3/3p4/3N4/1B2P3/PP3PPP/2R2RK1 b - - 0 1", "1kr4r/ppp3p1/3b1n1p/4p3/4N3/3P2B1/PPP3PP/1KR2R2 b - - 0 1"},
      {"4k3/8/8/3QK3/8/8/8/5q2 w - - 0 1", "3k4/8/8/3KQ3/8/8/8/2q5 w - - 0 1"},
  };
  auto kb = load(quantise(randomFloatNet(32, 8, Activation::kSCReLU, 28, 0.15f, 0.5f, 8)));
  auto plain = load(quantise(randomFloatNet(32, 8, Activation::kSCReLU, 28)));
  NnueEvaluator withBuckets(kb), without(plain);
  int differ = 0;
  for (const auto& [fen, mirrored] : cases) {
    const Position a = Position::fromFen(fen), b = Position::fromFen(mirrored);
    EXPECT_EQ(withBuckets.evaluateFromScratch(a), withBuckets.evaluateFromScratch(b)) << fen;
    differ += without.evaluateFromScratch(a) != without.evaluateFromScratch(b);
  }
  EXPECT_GT(differ, 0) << "a plain net should tell mirrored positions apart (else the test proves nothing)";
}

TEST(NnueEvaluator, AccumulatorCacheGivesExactValuesAcrossUnrelatedPositions) {
  // The cache entry of a king bucket keeps the pieces it last saw; a refresh in another game (or
  // after the pieces changed completely) must apply the whole difference. The king shuttles
  // between e1/d1 (board half change) and e1/e2 (bucket change with K = 16) in positions that
  // share little, each evaluated incrementally and compared with a full refresh.
  auto net = load(quantise(randomFloatNet(32, 4, Activation::kSCReLU, 31, 0.15f, 0.5f, 16)));
  NnueEvaluator eval(net);
  const char* fens[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                        "r3k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R2QK2R w KQkq - 0 1",
                        "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1"};
  for (int round = 0; round < 2; ++round)
    for (const char* fen : fens) {
      Position pos = Position::fromFen(fen);
      eval.reset(pos);
      ASSERT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos)) << fen;
      for (const char* line : {"e1d1", "e1e2", "e1f1"}) {
        const MoveList moves = legalMoves(pos);
        const auto it = std::find_if(moves.begin(), moves.end(), [&](Move m) { return toUci(m, false) == line; });
        if (it == moves.end()) continue;
        eval.onMakeMove(pos, *it);
        pos.makeMove(*it);
        ASSERT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos)) << fen << " " << line;
        pos.unmakeMove(*it);
        eval.onUnmakeMove(pos, *it);
        ASSERT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos)) << fen << " " << line << " unmade";
      }
    }
}

TEST(NnueEvaluator, SpecialMovesUpdateExactly) {
  // Each position has one special move: castling both ways, en passant, promotion with capture,
  // Chess960 castling where the king stays on its square.
  const std::pair<const char*, const char*> cases[] = {
      {"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "e1g1"},
      {"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", "e8c8"},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n"},
      {"4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "g1h1"}, {"4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "g1a1"},
  };
  for (int kingBuckets : {1, 4})
  for (const auto& [fen, uci] : cases) {
    auto net = load(quantise(randomFloatNet(32, 8, Activation::kSCReLU, 10, 0.15f, 0.5f, kingBuckets)));
    Position pos = Position::fromFen(fen);
    NnueEvaluator eval(net);
    eval.reset(pos);
    Move move = parseUci(pos, uci, pos.isChess960());
    ASSERT_TRUE(move.isCastling() || move.isEnPassant() || move.isPromotion()) << fen << " " << uci;
    eval.onMakeMove(pos, move);
    pos.makeMove(move);
    EXPECT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos)) << fen << " " << uci << " K " << kingBuckets;
    pos.unmakeMove(move);
    eval.onUnmakeMove(pos, move);
    EXPECT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos)) << fen << " after unmake, K " << kingBuckets;
  }
}

// Quantisation error: output weights are rounded to 1/64 and feature weights to 1/255, so the
// integer evaluation differs from the float net by a few centipawns. Stated tolerance for these
// random nets (hidden 64, weights up to +-0.5 at the output): mean |diff| <= 8 cp, max <= 25 cp
// (measured: 6.7 cp mean for the CReLU net over the perft positions without a lone king).
TEST(NnueEvaluator, QuantisedEqualsFloatWithinTolerance) {
  for (auto [act, kingBuckets] : {std::pair{Activation::kSCReLU, 1}, std::pair{Activation::kCReLU, 1},
                                   std::pair{Activation::kSCReLU, 16}}) {
    FloatNet fnet = randomFloatNet(64, 8, act, 11, 0.15f, 0.5f, kingBuckets);
    auto net = load(quantise(fnet));
    NnueEvaluator eval(net);
    double sum = 0, worst = 0;
    int n = 0;
    for (const auto& fen : perftFens("standard.epd", 100)) {
      Position pos = Position::fromFen(fen);
      if (NnueEvaluator::loneKing(pos)) continue;  // a lone king: the hand-crafted evaluation answers (LoneKingPositionsUseTheHandCraftedEvaluation)
      double diff = std::abs(eval.evaluateFromScratch(pos) - testing::floatEval(fnet, pos));
      sum += diff;
      worst = std::max(worst, diff);
      ++n;
    }
    EXPECT_LE(sum / n, 8.0) << "activation " << int(act);
    EXPECT_LE(worst, 25.0) << "activation " << int(act);
  }
}

TEST(NnueEvaluator, LoneKingPositionsUseTheHandCraftedEvaluation) {
  auto net = load(quantise(randomFloatNet(32, 8, Activation::kSCReLU, 13)));
  NnueEvaluator eval(net);
  HceEvaluator hce;
  // One side with nothing but its king: the HCE's value (mop-up towards the mate), both ways.
  for (const char* fen : {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
                          "3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "8/8/8/3k4/8/2B5/2N5/4K3 b - - 0 1"}) {
    const Position pos = Position::fromFen(fen);
    eval.reset(pos);
    EXPECT_EQ(eval.evaluate(pos), hce.evaluate(pos)) << fen;
    EXPECT_EQ(eval.evaluateFromScratch(pos), hce.evaluate(pos)) << fen;
  }
  // With material on both sides the network answers (the net's value differs from the HCE's).
  const Position pos = Position::fromFen("8/8/8/4k3/8/8/1p6/R3K3 w - - 0 1");
  eval.reset(pos);
  EXPECT_NE(eval.evaluate(pos), hce.evaluate(pos));
  EXPECT_EQ(eval.evaluate(pos), eval.evaluateFromScratch(pos));
}

TEST(NnueEvaluator, ColourFlippedPositionsEvaluateTheSame) {
  // The perspective encoding makes a position and its colour-flipped mirror identical inputs.
  auto net = load(quantise(randomFloatNet(32, 8, Activation::kSCReLU, 12)));
  NnueEvaluator eval(net);
  Position a = Position::fromFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  Position b = Position::fromFen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
  EXPECT_EQ(eval.evaluateFromScratch(a), eval.evaluateFromScratch(b));
}

}  // namespace
}  // namespace janus::nnue
