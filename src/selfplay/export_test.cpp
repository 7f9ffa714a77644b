// Tests of the JANUSSP -> JANUSDAT export (export.h): one record per ply with the replayed
// position, the move played, the most visited move, the result, the root Q as centipawns in
// White's view, and the game's end on the last record taken.

#include "selfplay/export.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "encoding/policy_map.h"
#include "records/janusdat.h"
#include "search/wdl.h"
#include "selfplay/record.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::selfplay {
namespace {

using test::TempDir;

/// 1. e4 e5 2. Nf3 Nc6, Black won by resignation; plies 0 and 2 full searches (ply 2's visits
/// prefer d2d4 over the move played), Q = +0.2, +0.1, +0.3, -0.4 for the side to move.
SelfplayGame sampleGame() {
  SelfplayGame g;
  Position pos;
  g.start = records::packPosition(pos, records::kNoScore, records::kBlackWin);
  g.result = records::kBlackWin;
  g.end = GameEnd::kResignation;
  const char* moves[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
  const double q[] = {0.2, 0.1, 0.3, -0.4};
  for (int i = 0; i < 4; ++i) {
    SelfplayPly ply;
    const Move m = parseUci(pos, moves[i], false);
    ply.move = u16(encoding::policyIndex(pos, m));
    ply.q = i16(q[i] * 32767);
    if (i % 2 == 0) {
      ply.flags = kPlyFullSearch;
      const Move other = parseUci(pos, "d2d4", false);
      ply.visits.push_back({ply.move, u16(i == 0 ? 50000 : 15535)});
      ply.visits.push_back({u16(encoding::policyIndex(pos, other)), u16(i == 0 ? 15535 : 50000)});
    }
    g.plies.push_back(ply);
    pos.makeMove(m);
  }
  return g;
}

std::vector<records::PackedRecord> exportFile(const std::string& path, bool fullOnly, SelfplayExportStats* stats = nullptr) {
  std::vector<records::PackedRecord> out;
  const SelfplayExportStats s = exportSelfplayPositions(path, fullOnly, [&](const records::PackedRecord& r) { out.push_back(r); });
  if (stats) *stats = s;
  return out;
}

TEST(SelfplayExport, OneRecordPerPlyWithPositionMovesResultAndScore) {
  TempDir dir;
  const std::string path = dir.file("games.janussp.zst");
  SelfplayWriter w(path, 2);
  w.write(sampleGame());
  w.write(sampleGame());
  w.commit();
  SelfplayExportStats stats;
  const auto records = exportFile(path, false, &stats);
  EXPECT_EQ(stats.games, 2u);
  EXPECT_EQ(stats.positions, 8u);
  EXPECT_EQ(stats.results[records::kBlackWin], 2u);
  ASSERT_EQ(records.size(), 8u);

  Position pos;
  const char* moves[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
  const double q[] = {0.2, 0.1, 0.3, -0.4};
  for (int i = 0; i < 4; ++i) {
    const records::PackedRecord& r = records[size_t(i)];
    EXPECT_EQ(Position::fromFen(records::recordFen(r)).fen(), pos.fen()) << "ply " << i;
    EXPECT_EQ(r.wdl, records::kBlackWin);
    const Move played = parseUci(pos, moves[i], false);
    EXPECT_EQ(records::decodeMove(pos, r.played), played) << "ply " << i;
    // Full searches name their most visited move (e2e4 at ply 0, d2d4 at ply 2), fast ones none.
    EXPECT_EQ(r.best, i == 0 ? records::encodeMove(played) : i == 2 ? records::encodeMove(parseUci(pos, "d2d4", false)) : 0)
        << "ply " << i;
    const int stmCp = qToCentipawns(double(i16(q[i] * 32767)) / 32767.0, wdlMaterial(pos));
    EXPECT_EQ(r.score, pos.sideToMove() == kWhite ? stmCp : -stmCp) << "ply " << i;
    EXPECT_EQ(r.score > 0, i != 1) << "White's view: Black's +0.1 at ply 1 is White's -0.1";
    EXPECT_EQ(records::recordGameEnd(r), i == 3 ? std::optional<GameEnd>(GameEnd::kResignation) : std::nullopt);
    pos.makeMove(played);
  }
}

TEST(SelfplayExport, FullSearchesOnlyTakesTheTargetsAndEndsTheGameOnTheLastOne) {
  TempDir dir;
  const std::string path = dir.file("games.janussp");
  SelfplayWriter w(path, 1);
  w.write(sampleGame());
  w.commit();
  const auto records = exportFile(path, true);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].fullmove, 1);
  EXPECT_EQ(records[1].fullmove, 2);
  EXPECT_FALSE(records::recordGameEnd(records[0]));
  EXPECT_EQ(records::recordGameEnd(records[1]), std::optional<GameEnd>(GameEnd::kResignation));
}

TEST(SelfplayExport, AnIllegalMoveIndexNamesTheFileAndTheGame) {
  TempDir dir;
  const std::string path = dir.file("bad.janussp");
  SelfplayGame g = sampleGame();
  g.plies[1].move = u16(encoding::kPolicySize - 1);  // the last index, an underpromotion: not legal at ply 1
  SelfplayWriter w(path, 1);
  w.write(g);
  w.commit();
  try {
    (void)exportFile(path, false);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.janussp' game 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace janus::selfplay
