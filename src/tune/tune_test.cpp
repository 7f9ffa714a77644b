// Tests of the Texel tuner: sparse traces reproduce the engine's evaluation, the analytic gradient
// matches finite differences, K and known weights are recovered on synthetic data, the C++ output
// holds exactly the weights, quiescence leaves, data loading.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/movegen.h"
#include "eval/hce.h"
#include "records/janusdat.h"
#include "tune/cpp_writer.h"
#include "tune/qsearch.h"
#include "tune/trace_set.h"
#include "tune/tuner.h"
#include "util/error.h"

namespace janus::tune {
namespace {

namespace fs = std::filesystem;

/// Positions along seeded random games (every 3rd ply, not in check), plus some tactical and
/// king-attack positions from the shared data.
std::vector<Position> testPositions(unsigned seed, int games, int plies = 120) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    Position pos;
    for (int ply = 0; ply < plies; ++ply) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) break;
      pos.makeMove(moves[int(rng() % unsigned(moves.size()))]);
      if (ply % 3 == 2 && !pos.inCheck()) out.push_back(pos);
    }
  }
  return out;
}

std::vector<Position> epdPositions(const std::string& rel, size_t limit) {
  std::ifstream in(std::string(JANUS_TEST_DATA) + "/" + rel);
  EXPECT_TRUE(in) << "cannot open " << JANUS_TEST_DATA << "/" << rel;
  std::vector<Position> out;
  for (std::string line; out.size() < limit && std::getline(in, line);) {
    std::istringstream s(line);
    std::string f[4];
    if (!(s >> f[0] >> f[1] >> f[2] >> f[3])) continue;
    Position p = Position::fromFen(f[0] + " " + f[1] + " " + f[2] + " " + f[3]);
    if (!p.inCheck()) out.push_back(p);
  }
  return out;
}

TraceSet traceAll(const std::vector<Position>& positions, const std::vector<double>& results) {
  HceEvaluator hce;
  TraceSet set;
  for (size_t i = 0; i < positions.size(); ++i) set.add(hce.trace(positions[i]), results[i], NAN);
  return set;
}

/// Default weights with every entry moved by up to +-`amount` (seeded).
EvalWeights perturbed(unsigned seed, int amount) {
  std::mt19937 rng(seed);
  EvalWeights w = EvalWeights::defaults();
  for (int i = 0; i < weight::kCount; ++i) {
    int dm = int(rng() % unsigned(2 * amount + 1)) - amount, de = int(rng() % unsigned(2 * amount + 1)) - amount;
    w[i] = TaperedScore(w[i].mg() + dm, w[i].eg() + de);
  }
  return w;
}

TEST(TraceSet, ExactEvaluationEqualsTheEngine) {
  std::vector<Position> positions = testPositions(1, 30);
  for (auto& p : epdPositions("tactics/wac.epd", 300)) positions.push_back(p);
  TraceSet set = traceAll(positions, std::vector<double>(positions.size(), 0.5));
  ASSERT_EQ(set.size(), positions.size());
  for (const EvalWeights& w : {EvalWeights::defaults(), perturbed(7, 25)}) {
    HceEvaluator engine(w);
    int withKingAttack = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
      ASSERT_EQ(set.evaluateExact(i, w), engine.evaluateWhite(positions[i])) << positions[i].fen();
      // The continuous form differs only by the integer truncations.
      EXPECT_NEAR(set.evaluate(i, toParams(w)).eval, engine.evaluateWhite(positions[i]), 6.0) << positions[i].fen();
      withKingAttack += set.evaluate(i, toParams(w)).kaMg[0] != 0 || set.evaluate(i, toParams(w)).kaMg[1] != 0;
    }
    EXPECT_GT(withKingAttack, 20);
  }
  EXPECT_LT(set.memoryBytes() / set.size(), 600u);  // sparse: far below the 2.3 KiB dense trace
}

TEST(TraceSet, ParamsRoundTrip) {
  EvalWeights w = perturbed(3, 40);
  EXPECT_EQ(toWeights(toParams(w)), w);
  Params p = toParams(w);
  p[0] += 0.4;
  p[1] -= 0.6;
  EXPECT_EQ(toWeights(p)[0], TaperedScore(w[0].mg(), w[0].eg() - 1));
}

TEST(Tuner, GradientMatchesFiniteDifferences) {
  std::vector<Position> positions = testPositions(5, 4, 80);
  for (auto& p : epdPositions("tactics/wac.epd", 40)) positions.push_back(p);
  std::vector<double> results;
  for (size_t i = 0; i < positions.size(); ++i) results.push_back(double(i % 3) / 2);
  TraceSet set = traceAll(positions, results);
  TraceSet none;
  Tuner tuner(set, none, 2);
  // Non-integer weights keep clear of the kinks (units exactly at 0 or 1000).
  Params p = toParams(perturbed(11, 20));
  std::mt19937 rng(2);
  for (double& x : p) x += double(rng() % 1000) / 1000.0 - 0.5;
  const double k = 1.3;
  std::vector<u32> order(set.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = u32(i);
  std::vector<double> grad;
  const double l = tuner.gradient(p, k, order, 0, order.size(), grad);
  EXPECT_NEAR(l, tuner.loss(set, p, k), 1e-12);
  int checked = 0, kingChecked = 0;
  for (int i = 0; i < kParamCount; ++i) {
    const double h = 1e-3;
    Params a = p, b = p;
    a[size_t(i)] += h;
    b[size_t(i)] -= h;
    const double fd = (tuner.loss(set, a, k) - tuner.loss(set, b, k)) / (2 * h);
    ASSERT_NEAR(grad[size_t(i)], fd, 1e-9 + 1e-4 * std::abs(fd)) << "parameter " << i << " ("
                                                                 << weightEntryName(i / 2) << (i % 2 ? " eg" : " mg") << ")";
    if (grad[size_t(i)] != 0) {
      ++checked;
      kingChecked += weightBlockOf(i / 2).kind == WeightKind::kKingAttack;
    }
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(kingChecked, 10);  // the chain rule through kingAttackScore is exercised
}

TEST(Tuner, FitsKOnSyntheticLabels) {
  std::vector<Position> positions = testPositions(9, 20);
  TraceSet unlabeled = traceAll(positions, std::vector<double>(positions.size(), 0.5));
  const Params p = toParams(EvalWeights::defaults());
  const double k0 = 1.7;
  std::vector<double> results;
  for (size_t i = 0; i < positions.size(); ++i) results.push_back(sigmoid(unlabeled.evaluate(i, p).eval, k0));
  TraceSet set = traceAll(positions, results);
  TraceSet none;
  Tuner tuner(set, none, 2);
  EXPECT_NEAR(tuner.fitK(p), k0, 1e-3);
  EXPECT_NEAR(tuner.loss(set, p, k0), 0.0, 1e-12);
}

TEST(Tuner, RecoversMaterialWeightsFromMaterialLabels) {
  // Labels from a known material-only evaluation; the tuner starts from zero material and may
  // change only the material block, so the known weights are the unique optimum (loss 0).
  std::vector<Position> positions = testPositions(21, 40, 160);
  ASSERT_GT(positions.size(), 1500u);
  EvalWeights truth;
  const int values[5][2] = {{90, 120}, {310, 290}, {330, 310}, {480, 530}, {950, 900}};
  for (int pt = 0; pt < 5; ++pt) truth[weight::kMaterial + pt] = TaperedScore(values[pt][0], values[pt][1]);
  const double k = 1.0;
  TraceSet unlabeled = traceAll(positions, std::vector<double>(positions.size(), 0.5));
  std::vector<double> results;
  for (size_t i = 0; i < positions.size(); ++i) results.push_back(sigmoid(unlabeled.evaluate(i, toParams(truth)).eval, k));
  TraceSet train = traceAll(positions, results);
  TraceSet none;
  Tuner tuner(train, none, 2);

  Params start(kParamCount, 0.0);
  std::vector<std::string> others;
  for (const auto& b : kWeightTable)
    if (b.name != std::string_view("material")) others.emplace_back(b.name);
  TuneConfig config;
  config.epochs = 300;
  config.lr = 8;
  config.beta2 = 0.9;  // full-batch gradients shrink by orders of magnitude here: forget them fast
  config.batch = 0;    // full batch
  config.threads = 2;
  config.frozen = frozenMask(others);
  std::vector<double> losses;
  Params result = tuner.run(start, k, config, [&](const EpochReport& r, const Params&) { losses.push_back(r.trainLoss); });
  ASSERT_EQ(losses.size(), 300u);
  EXPECT_LT(losses.back(), losses.front() / 1000);
  EXPECT_LT(losses[150], losses[10]);
  for (int pt = 0; pt < 5; ++pt) {
    EXPECT_NEAR(result[size_t(2 * (weight::kMaterial + pt))], values[pt][0], 5.0) << "piece " << pt << " mg";
    EXPECT_NEAR(result[size_t(2 * (weight::kMaterial + pt) + 1)], values[pt][1], 5.0) << "piece " << pt << " eg";
  }
  // Frozen parameters did not move.
  for (int i = 2 * (weight::kMaterial + 5); i < kParamCount; ++i) ASSERT_EQ(result[size_t(i)], 0.0) << i;
  EXPECT_THROW((void)frozenMask({"no_such_block"}), Error);
}

// ---- C++ output -------------------------------------------------------------------------------------

/// Reads the weights back from weightsToCpp's text: the integers of every b.add / b.addBoard
/// call in order (comment lines skipped).
EvalWeights parseCpp(const std::string& text) {
  std::istringstream in(text.substr(text.find("using namespace weight;")));
  std::string body;
  for (std::string line; std::getline(in, line);) {
    size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 2, "//") == 0) continue;
    body += line + "\n";
  }
  EvalWeights w;
  size_t pos = 0;
  for (int k = 0; k < kWeightBlockCount; ++k) {
    const WeightInfo& b = kWeightTable[k];
    pos = body.find("b.add", pos);
    EXPECT_NE(pos, std::string::npos);
    size_t open = body.find('{', pos), close = body.find(");", pos);
    std::vector<int> numbers;
    for (size_t i = open; i < close;) {
      if (body[i] == '-' || std::isdigit(static_cast<unsigned char>(body[i]))) {
        size_t used = 0;
        numbers.push_back(std::stoi(body.substr(i), &used));
        i += used;
      } else {
        ++i;
      }
    }
    if (b.label == IndexLabel::kSquare && b.size == 64) {
      EXPECT_EQ(body.compare(pos, 10, "b.addBoard"), 0);
      EXPECT_EQ(numbers.size(), 128u);
      for (int i = 0; i < 64; ++i) w[b.offset + (7 - i / 8) * 8 + i % 8] = TaperedScore(numbers[i], numbers[64 + i]);
    } else {
      EXPECT_EQ(numbers.size(), size_t(2 * b.size)) << b.name;
      for (int i = 0; i < b.size; ++i) w[b.offset + i] = TaperedScore(numbers[2 * i], numbers[2 * i + 1]);
    }
    pos = close;
  }
  return w;
}

TEST(CppWriter, HoldsExactlyTheWeightsInTheDefaultLayout) {
  for (const EvalWeights& w : {EvalWeights::defaults(), perturbed(17, 300)}) {
    const std::string text = weightsToCpp(w, {"test note"});
    EXPECT_NE(text.find("// test note"), std::string::npos);
    EXPECT_NE(text.find("const EvalWeights& EvalWeights::defaults() { return kDefaultWeights; }"), std::string::npos);
    EXPECT_EQ(parseCpp(text), w);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
  }
  const std::string text = weightsToCpp(EvalWeights::defaults(), {});
  EXPECT_NE(text.find("b.add(kMaterial, {S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936)});"),
            std::string::npos);
  EXPECT_NE(text.find("b.addBoard(kPstKnight,\n             {-167, -89, -34, -49,  61, -97, -15,-107,"),
            std::string::npos);
  EXPECT_EQ(weightBlockIds().size(), size_t(kWeightBlockCount));
  EXPECT_EQ(weightBlockIds().back(), "kKsBias");
}

// ---- Quiescence leaves and loading ------------------------------------------------------------------

TEST(Qsearch, LeafResolvesCapturesAndKeepsQuietPositions) {
  HceEvaluator hce;
  Position hanging = Position::fromFen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
  Position leaf = quiescenceLeaf(hanging, hce);
  EXPECT_EQ(leaf.pieces(kBlack, kQueen), 0u) << leaf.fen();
  EXPECT_EQ(leaf.movesMade(), 1);
  // Defended queen: Rxd5 exd5 still wins it, and the leaf is after the recapture.
  Position defended = Position::fromFen("4k3/8/4p3/3q4/8/8/3R4/4K3 w - - 0 1");
  Position leaf2 = quiescenceLeaf(defended, hce);
  EXPECT_EQ(leaf2.movesMade(), 2) << leaf2.fen();
  EXPECT_EQ(leaf2.pieces(kBlack, kQueen) | leaf2.pieces(kWhite, kRook), 0u) << leaf2.fen();
  // A defended rook attacked by a queen: Qxd5 exd5 loses, so White stands pat.
  Position bad = Position::fromFen("4k3/8/4p3/3r4/8/8/3Q4/4K3 w - - 0 1");
  EXPECT_EQ(quiescenceLeaf(bad, hce).fen(), bad.fen());
  Position quiet = Position::fromFen(Position::kStartFen);
  EXPECT_EQ(quiescenceLeaf(quiet, hce).fen(), quiet.fen());
}

TEST(Loading, DataFilesAndPgnWithValidationSplit) {
  const auto dir = fs::temp_directory_path() / ("janus_tune_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "d.jdat").string();
  std::vector<Position> positions = testPositions(4, 10);
  {
    records::DataWriter out(path);
    for (size_t i = 0; i < positions.size(); ++i)
      out.write(records::packRecord(positions[i], int(i), records::Wdl(i % 3)));
    out.commit();
  }
  LoadOptions options;
  options.validationFraction = 0.25;
  options.threads = 2;
  LoadedData d = loadTrainingData({path}, {std::string(JANUS_TEST_DATA) + "/pgn/kasparov-deep-blue-1997.pgn"},
                                  options, EvalWeights::defaults());
  EXPECT_GT(d.validation.size(), positions.size() / 4);  // PGN positions add to both sets
  EXPECT_EQ(d.skippedNotQuiet, 0u);
  // The file's positions come first, in order, with results 0, 0.5, 1 and their scores.
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(d.train.result(i), double(i % 3) / 2);
    EXPECT_EQ(d.train.score(i), double(i));
  }
  // Traces are those of the positions.
  HceEvaluator hce;
  EXPECT_EQ(d.train.evaluateExact(3, EvalWeights::defaults()), hce.evaluateWhite(positions[3]));

  // With --qsearch every leaf is traced; same count.
  options.qsearch = true;
  LoadedData q = loadTrainingData({path}, {}, options, EvalWeights::defaults());
  EXPECT_EQ(q.train.size() + q.validation.size(), positions.size());

  // A malformed record is reported with the file and its index.
  {
    records::DataWriter out(path);
    records::PackedRecord r = records::packRecord(positions[0], 0, records::kDraw);
    out.write(r);
    r.flags = 0x40;
    out.write(r);
    out.commit();
  }
  try {
    (void)loadTrainingData({path}, {}, options, EvalWeights::defaults());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("record 1: reserved flag bits"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(Tune, NoisyMoveRecordsAreSkippedWithoutQsearch) {
  std::vector<Position> positions = testPositions(2, 4);
  std::vector<records::PackedRecord> records;
  for (const Position& p : positions) records.push_back(records::packRecord(p, 10, records::kDraw));
  records[1].flags |= records::kFlagNoisyMove;  // the move played from it was a capture
  for (bool qsearch : {false, true}) {
    TraceSet set;
    u64 skipped = 0;
    traceRecords(records, 0, records.size(), "test", qsearch, EvalWeights::defaults(), set, skipped);
    EXPECT_EQ(skipped, qsearch ? 0u : 1u);
    EXPECT_EQ(set.size(), records.size() - skipped);
  }
}

}  // namespace
}  // namespace janus::tune
