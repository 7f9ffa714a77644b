// Tests of the JANUSSP self-play record format (record.h): round trip (plain and zstd), replay
// with history, and rejection of bad files with messages that name the file and the game.

#include "selfplay/record.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "encoding/policy_map.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/test_temp_dir.h"

namespace janus::selfplay {
namespace {

using test::TempDir;

namespace fs = std::filesystem;

/// A short game 1. e4 e5 2. Nf3 with visit distributions on the first two plies.
SelfplayGame sampleGame() {
  SelfplayGame g;
  Position pos;
  g.start = records::packPosition(pos, records::kNoScore, records::kWhiteWin);
  g.result = records::kWhiteWin;
  g.end = GameEnd::kResignation;
  g.flags = kGameNoResign | kGameBlackWouldResign;
  const char* moves[] = {"e2e4", "e7e5", "g1f3"};
  for (int i = 0; i < 3; ++i) {
    SelfplayPly ply;
    const Move m = parseUci(pos, moves[i], false);
    ply.move = u16(encoding::policyIndex(pos, m));
    ply.q = i16(1000 * (i + 1));
    if (i < 2) {
      ply.flags = kPlyFullSearch | (i == 0 ? kPlySampled : 0);
      const MoveList legal = legalMoves(pos);
      ply.visits.push_back({ply.move, 40000});
      ply.visits.push_back({u16(encoding::policyIndex(pos, *(legal.begin() + (*legal.begin() == m ? 1 : 0)))), 25535});
    }
    g.plies.push_back(ply);
    pos.makeMove(m);
  }
  return g;
}

void expectSame(const SelfplayGame& a, const SelfplayGame& b) {
  EXPECT_EQ(std::memcmp(&a.start, &b.start, sizeof a.start), 0);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.flags, b.flags);
  ASSERT_EQ(a.plies.size(), b.plies.size());
  for (size_t i = 0; i < a.plies.size(); ++i) {
    EXPECT_EQ(a.plies[i].move, b.plies[i].move);
    EXPECT_EQ(a.plies[i].flags, b.plies[i].flags);
    EXPECT_EQ(a.plies[i].q, b.plies[i].q);
    ASSERT_EQ(a.plies[i].visits.size(), b.plies[i].visits.size());
    for (size_t j = 0; j < a.plies[i].visits.size(); ++j) {
      EXPECT_EQ(a.plies[i].visits[j].policyIndex, b.plies[i].visits[j].policyIndex);
      EXPECT_EQ(a.plies[i].visits[j].share, b.plies[i].visits[j].share);
    }
  }
}

TEST(SelfplayRecord, RoundTripPlainAndCompressed) {
  TempDir dir;
  for (const char* name : {"games.janussp", "games.janussp.zst"}) {
    const SelfplayGame g = sampleGame();
    SelfplayWriter w(dir.file(name), 2);
    w.write(g);
    w.write(g);
    w.commit();
    const auto games = readSelfplayFile(dir.file(name));
    ASSERT_EQ(games.size(), 2u) << name;
    expectSame(g, games[0]);
    expectSame(g, games[1]);
  }
  // A streaming header (no count) reads to the end of the file.
  SelfplayWriter s(dir.file("stream.janussp"));
  s.write(sampleGame());
  s.commit();
  EXPECT_EQ(readSelfplayFile(dir.file("stream.janussp")).size(), 1u);
}

TEST(SelfplayRecord, ReplayGivesEveryPositionWithItsHistoryAndMove) {
  const SelfplayGame g = sampleGame();
  std::vector<std::string> seen;
  int plies = 0;
  replayGame(g, "test", [&](const Position& pos, Move m, const SelfplayPly& ply) {
    seen.push_back(toUci(m, false));
    EXPECT_EQ(pos.gamePly(), plies);
    EXPECT_EQ(&ply, &g.plies[size_t(plies)]);
    ++plies;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));

  SelfplayGame bad = g;
  bad.plies[1].visits[0].policyIndex = 0;  // a1b1 in Black's view (a8b8): the rook is blocked
  try {
    replayGame(bad, "'x' 7", [](const Position&, Move, const SelfplayPly&) {});
    ADD_FAILURE() << "an illegal visit index was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("game 'x' 7: ply 1: visit index 0"), std::string::npos) << e.what();
  }
}

TEST(SelfplayRecord, RejectsBadFilesNamingTheFileAndGame) {
  TempDir dir;
  const std::string good = dir.file("good.janussp");
  {
    SelfplayWriter w(good, 1);
    w.write(sampleGame());
    w.commit();
  }
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto errorOf = [&](std::string content) -> std::string {
    const std::string path = dir.file("bad.janussp");
    std::ofstream(path, std::ios::binary) << content;
    try {
      (void)readSelfplayFile(path);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_NE(errorOf(magic).find("bad magic"), std::string::npos);
  std::string version = bytes;
  version[8] = 9;
  EXPECT_NE(errorOf(version).find("version 9"), std::string::npos);
  EXPECT_NE(errorOf(bytes.substr(0, 20)).find("truncated header"), std::string::npos);
  EXPECT_NE(errorOf(bytes.substr(0, bytes.size() - 3)).find("game 0: ply 2"), std::string::npos);
  std::string result = bytes;
  result[32 + 4] = 7;
  EXPECT_NE(errorOf(result).find("game 0: result 7"), std::string::npos);
  std::string moveIndex = bytes;
  moveIndex[32 + 40] = char(0xFF);
  moveIndex[32 + 41] = char(0xFF);
  EXPECT_NE(errorOf(moveIndex).find("ply 0: move index 65535 out of range"), std::string::npos);
  std::string missing = bytes;
  missing[16] = 2;  // declares 2 games, holds 1
  EXPECT_NE(errorOf(missing).find("game 1: missing"), std::string::npos);
  EXPECT_EQ(errorOf(bytes), "");
  EXPECT_NE(errorOf(magic).find("bad.janussp"), std::string::npos);
}

}  // namespace
}  // namespace janus::selfplay
