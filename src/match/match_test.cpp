#include "match/match.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "core/pgn.h"
#include "util/duration.h"
#include "util/error.h"

using namespace janus;
using namespace janus::match;
using namespace std::chrono_literals;

namespace {
std::string tempPath(const std::string& name) {
  auto p = std::filesystem::temp_directory_path() / ("janus_match_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove(p);
  return p.string();
}

EngineConfig fake(const std::string& name, const std::vector<std::string>& args = {}) {
  EngineConfig c;
  c.name = name;
  c.command = JANUS_FAKE_ENGINE;
  c.args = args;
  return c;
}

MatchConfig baseConfig(EngineConfig a, EngineConfig b, int games) {
  MatchConfig c;
  c.engines = {std::move(a), std::move(b)};
  c.timeControl = TimeControl::parse("5+0.05");
  c.games = games;
  c.stopGrace = 300ms;
  c.seed = 7;
  return c;
}

std::vector<PgnGame> readPgn(const std::string& path) {
  auto reader = PgnReader::open(path);
  std::vector<PgnGame> games;
  PgnGame g;
  while (reader->next(g)) games.push_back(g);
  EXPECT_TRUE(reader->errors().empty()) << reader->errors().front().message;
  return games;
}

bool isRuleEnding(const std::string& reason) {
  static const std::set<std::string> kRules = {"White mates",
                                               "Black mates",
                                               "Draw by stalemate",
                                               "Draw by 3-fold repetition",
                                               "Draw by fifty moves rule",
                                               "Draw by insufficient mating material"};
  return kRules.count(reason) > 0;
}
}  // namespace

TEST(Match, RandomEnginesWithConcurrencyWritePgn) {
  std::string pgn = tempPath("random.pgn");
  MatchConfig c = baseConfig(fake("R1", {"--seed", "11"}), fake("R2", {"--seed", "12"}), 6);
  c.concurrency = 2;
  c.pgnOut = pgn;
  c.randomOpenings = true;
  std::ostringstream out;
  Match m(c, out);
  MatchResult r = m.run();
  EXPECT_EQ(r.gamesPlayed, 6);
  EXPECT_EQ(r.wins + r.draws + r.losses, 6);
  int pairs = 0;
  for (int p : r.pairs) pairs += p;
  EXPECT_EQ(pairs, 3);
  EXPECT_TRUE(r.incidents.empty());
  for (const auto& [reason, count] : r.endings) EXPECT_TRUE(isRuleEnding(reason)) << reason;

  auto games = readPgn(pgn);
  ASSERT_EQ(games.size(), 6u);
  std::set<std::string> rounds;
  int firstEnginePoints2 = 0;  // twice the points of R1
  for (const auto& g : games) {
    rounds.insert(g.tag("Round"));
    EXPECT_EQ(g.tag("TimeControl"), "5+0.05");
    EXPECT_EQ(g.tag("Termination"), "normal");
    EXPECT_EQ(g.tag("PlyCount"), std::to_string(g.moves.size()));
    ASSERT_GE(g.comments.size(), 17u);
    EXPECT_EQ(g.comments[0], "book");
    EXPECT_TRUE(isRuleEnding(g.comments.back().substr(g.comments.back().rfind(", ") + 2))) << g.comments.back();
    bool r1White = g.tag("White") == "R1";
    if (g.result == "1/2-1/2") firstEnginePoints2 += 1;
    if ((g.result == "1-0" && r1White) || (g.result == "0-1" && !r1White)) firstEnginePoints2 += 2;
  }
  EXPECT_EQ(rounds.size(), 6u);
  EXPECT_EQ(firstEnginePoints2, 2 * r.wins + r.draws);
  std::string text = out.str();
  EXPECT_NE(text.find("[6/6] Game"), std::string::npos) << text;
  EXPECT_NE(text.find("R1: none"), std::string::npos) << text;
  EXPECT_NE(text.find("R2: none"), std::string::npos) << text;
  // Every engine move left a clock reading: at least 0 (no forfeits), at most the base time
  // plus the increments of the longest possible game (the fake engines move at once).
  for (const auto& clocks : r.clockLeftMs) {
    ASSERT_FALSE(clocks.empty());
    for (i64 ms : clocks) EXPECT_TRUE(ms >= 0 && ms <= 5000 + 50 * 600) << ms;
  }
  EXPECT_NE(text.find("Clock left when a move arrived (ms, before the increment):\n  R1: min "), std::string::npos)
      << text;
  // One thinking time per engine move (each has a clock reading), within the clock it was read
  // from (the fake engines move at once).
  for (int e = 0; e < 2; ++e) {
    EXPECT_EQ(r.moveTimeMs[size_t(e)].size(), r.clockLeftMs[size_t(e)].size());
    for (i64 ms : r.moveTimeMs[size_t(e)]) EXPECT_TRUE(ms >= 0 && ms <= 5000 + 50 * 600) << ms;
  }
  EXPECT_NE(text.find("Time per move (ms, wall clock, book moves left out):\n  R1: mean "), std::string::npos) << text;
  std::filesystem::remove(pgn);
}

namespace {
/// R1 (seed `seed`) vs R2 (seed `seed` + 1) for `games` games into the PGN file `pgn`.
MatchConfig pgnMatch(const std::string& pgn, int seed, int games) {
  MatchConfig c = baseConfig(fake("R1", {"--seed", std::to_string(seed)}),
                             fake("R2", {"--seed", std::to_string(seed + 1)}), games);
  c.pgnOut = pgn;
  return c;
}

// Twice the points of engine R1 in `games` (read back from a PGN file).
int r1Points2(const std::vector<PgnGame>& games) {
  int points2 = 0;
  for (const auto& g : games) {
    bool r1White = g.tag("White") == "R1";
    if (g.result == "1/2-1/2") points2 += 1;
    if ((g.result == "1-0" && r1White) || (g.result == "0-1" && !r1White)) points2 += 2;
  }
  return points2;
}
}  // namespace

TEST(Match, ResumeCountsThePgnGamesAndPlaysOnlyTheMissingOnes) {
  std::string pgn = tempPath("resume.pgn");
  MatchConfig c = pgnMatch(pgn, 21, 4);
  c.resume = true;  // no file yet: a fresh match
  std::ostringstream out1;
  MatchResult first = Match(c, out1).run();
  EXPECT_EQ(first.gamesRestored, 0);
  EXPECT_EQ(first.gamesPlayed, 4);

  c.games = 8;
  std::ostringstream out2;
  MatchResult second = Match(c, out2).run();
  EXPECT_EQ(second.gamesRestored, 4);
  EXPECT_EQ(second.gamesPlayed, 8);
  EXPECT_EQ(second.wins + second.draws + second.losses, 8);
  int pairs = 0;
  for (int p : second.pairs) pairs += p;
  EXPECT_EQ(pairs, 4);
  EXPECT_NE(out2.str().find("resumed: 4 games counted from"), std::string::npos) << out2.str();
  EXPECT_NE(out2.str().find("[5/8] Game"), std::string::npos) << out2.str();
  EXPECT_EQ(out2.str().find("[4/8] Game"), std::string::npos) << out2.str();
  EXPECT_NE(out2.str().find("(4 of them restored from the PGN file by --resume)"), std::string::npos) << out2.str();

  auto games = readPgn(pgn);
  ASSERT_EQ(games.size(), 8u);
  std::set<std::string> rounds;
  for (const auto& g : games) rounds.insert(g.tag("Round"));
  EXPECT_EQ(rounds, (std::set<std::string>{"1", "2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_EQ(r1Points2(games), 2 * second.wins + second.draws);
  int endings = 0;
  for (const auto& [reason, count] : second.endings) {
    EXPECT_TRUE(isRuleEnding(reason)) << reason;
    endings += count;
  }
  EXPECT_EQ(endings, 8);

  // All games there: nothing to play, the same score.
  std::ostringstream out3;
  MatchResult third = Match(c, out3).run();
  EXPECT_EQ(third.gamesRestored, 8);
  EXPECT_EQ(third.gamesPlayed, 8);
  EXPECT_EQ(third.wins, second.wins);
  EXPECT_EQ(third.draws, second.draws);
  EXPECT_EQ(third.pairs, second.pairs);
  EXPECT_NE(out3.str().find("8 games counted from " + pgn + ", 0 to play"), std::string::npos) << out3.str();
  EXPECT_EQ(readPgn(pgn).size(), 8u);
  std::filesystem::remove(pgn);
}

TEST(Match, ResumePlaysAGameCutOffInThePgnAgain) {
  std::string pgn = tempPath("resume-cut.pgn");
  MatchConfig c = pgnMatch(pgn, 31, 4);
  std::ostringstream firstOut;
  Match(c, firstOut).run();
  // Cut the file inside the last game's last comment, as a kill during the append would.
  std::string text;
  {
    std::ifstream in(pgn, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  size_t brace = text.rfind('{');
  ASSERT_NE(brace, std::string::npos);
  std::ofstream(pgn, std::ios::binary | std::ios::trunc) << text.substr(0, brace + 3);

  c.resume = true;
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.gamesRestored, 3);
  EXPECT_EQ(r.gamesPlayed, 4);
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.back().find("it is played again"), std::string::npos) << r.warnings.back();

  auto reader = PgnReader::open(pgn);
  PgnGame g;
  std::set<std::string> rounds;
  while (reader->next(g)) rounds.insert(g.tag("Round"));
  EXPECT_EQ(rounds, (std::set<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(reader->gamesSkipped(), 1u);  // the cut copy
  std::filesystem::remove(pgn);
}

TEST(Match, ResumeRejectsAPgnOfAnotherMatch) {
  std::string pgn = tempPath("resume-other.pgn");
  MatchConfig c = pgnMatch(pgn, 41, 4);
  std::ostringstream out;
  Match(c, out).run();

  MatchConfig other = baseConfig(fake("R1", {"--seed", "41"}), fake("R3"), 4);
  other.pgnOut = pgn;
  other.resume = true;
  try {
    Match m(other, out);
    FAIL() << "a PGN of R1 vs R2 resumed as R1 vs R3";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("but this match has R1 vs R3 in it"), std::string::npos) << e.what();
  }
  MatchConfig fewer = c;
  fewer.resume = true;
  fewer.games = 2;
  try {
    Match m(fewer, out);
    FAIL() << "game 3 resumed in a 2-game match";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a game number from 1 to 2"), std::string::npos) << e.what();
  }
  MatchConfig noFile = c;
  noFile.resume = true;
  noFile.pgnOut.clear();
  EXPECT_THROW(Match m(noFile, out), Error);
  std::filesystem::remove(pgn);
}

TEST(Match, CrashingEngineIsRestartedEveryGame) {
  MatchConfig c = baseConfig(fake("Crasher", {"--crash-at", "3"}), fake("Steady"), 4);
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.gamesPlayed, 4);
  EXPECT_EQ(r.losses, 4);
  ASSERT_EQ(r.incidents.size(), 4u);
  for (const auto& i : r.incidents) {
    EXPECT_EQ(i.engine, 0);
    EXPECT_EQ(i.kind, Incident::Kind::kCrash);
  }
  EXPECT_NE(out.str().find("Crasher: 0 time forfeits, 0 illegal moves, 4 crashes, 0 stalls"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Steady: none"), std::string::npos);
}

TEST(Match, HangingAndIllegalEnginesAreReportedAndTheMatchGoesOn) {
  MatchConfig c = baseConfig(fake("Hangs", {"--hang-at", "2"}), fake("Illegal", {"--illegal-at", "4"}), 4);
  c.timeControl = TimeControl::parse("0.3+0");
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.gamesPlayed, 4);
  // In every game Hangs is asked for its 2nd move before Illegal for its 4th: every game is a
  // time forfeit of Hangs, which is killed and restarted each time.
  ASSERT_EQ(r.incidents.size(), 4u);
  for (const auto& i : r.incidents) {
    EXPECT_EQ(i.engine, 0);
    EXPECT_EQ(i.kind, Incident::Kind::kTimeForfeit);
  }
  EXPECT_EQ(r.losses, 4);
}

TEST(Match, IllegalMovesAreListed) {
  MatchConfig c = baseConfig(fake("Good"), fake("Bad", {"--illegal-at", "1"}), 2);
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.wins, 2);
  ASSERT_EQ(r.incidents.size(), 2u);
  EXPECT_EQ(r.incidents[0].kind, Incident::Kind::kIllegalMove);
  EXPECT_NE(out.str().find("makes an illegal move"), std::string::npos);
  EXPECT_NE(out.str().find("Bad: 0 time forfeits, 2 illegal moves"), std::string::npos) << out.str();
}

TEST(Match, MovesThatDoNotBeginTheirLastPvAreCountedAndNamed) {
  MatchConfig c = baseConfig(fake("Liar", {"--wrong-pv-at", "2", "--seed", "5"}),
                             fake("Honest", {"--score", "10", "--seed", "6"}), 2);
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.pvProblems[0], 2);  // its second move of each game
  EXPECT_EQ(r.pvProblems[1], 0);
  EXPECT_NE(out.str().find("Liar: bestmove"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("does not match the beginning of the last PV"), std::string::npos);
  EXPECT_NE(out.str().find("fastchess's PV checks): Liar 2, Honest 0"), std::string::npos) << out.str();
}

TEST(Match, SprtStopsWhenH1IsAccepted) {
  MatchConfig c = baseConfig(fake("Strong", {"--score", "900"}), fake("Weak", {"--score", "-900"}), 400);
  c.adjudication.resignMoveCount = 1;
  c.adjudication.resignScore = 500;
  c.sprt = SprtConfig{0, 10, 0.05, 0.05};
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.decision, SprtDecision::kAcceptH1);
  EXPECT_LT(r.gamesPlayed, 400);
  // The fake engines answer at once, but under ThreadSanitizer on a loaded 2-core machine one
  // of them can lose a game on time (seen once in CI); the strong side must still win nearly all.
  EXPECT_LE(r.losses * 10, r.wins);
  ASSERT_TRUE(r.llr);
  EXPECT_GE(*r.llr, 2.94);
  EXPECT_EQ(r.stopReason, "SPRT: H1 accepted");
  EXPECT_NE(out.str().find("| LLR "), std::string::npos);
  // The verdict is the one reached when the LLR crossed; games still running then are counted
  // after it.
  EXPECT_GT(r.decisionGames, 0);
  EXPECT_LE(r.decisionGames, r.gamesPlayed);
  EXPECT_NE(out.str().find("H1 accepted after " + std::to_string(r.decisionGames) + " games"), std::string::npos) << out.str();
}

TEST(Match, Chess960BookSetsTheUciOption) {
  std::string book = tempPath("960.epd");
  std::ofstream(book) << "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1\n"
                      << "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n";
  std::string log = tempPath("960.log");
  std::string pgn = tempPath("960.pgn");
  MatchConfig c = baseConfig(fake("A"), fake("B"), 4);
  c.openingsPath = book;
  c.debugLog = log;
  c.pgnOut = pgn;
  c.adjudication.maxMoves = 40;
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.gamesPlayed, 4);
  EXPECT_TRUE(r.incidents.empty());
  std::ifstream in(log);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(all.find("> setoption name UCI_Chess960 value true"), std::string::npos);
  auto games = readPgn(pgn);
  ASSERT_EQ(games.size(), 4u);
  for (const auto& g : games) {
    EXPECT_TRUE(g.chess960);
    EXPECT_FALSE(g.startFen.empty());
  }
  std::filesystem::remove(book);
  std::filesystem::remove(log);
  std::filesystem::remove(pgn);
}

TEST(Match, ConfigurationErrors) {
  std::ostringstream out;
  MatchConfig noLimit = baseConfig(fake("A"), fake("B"), 2);
  noLimit.timeControl = TimeControl{};
  EXPECT_THROW(Match(noLimit, out), Error);
  MatchConfig zeroGames = baseConfig(fake("A"), fake("B"), 0);
  EXPECT_THROW(Match(zeroGames, out), Error);
  MatchConfig badBook = baseConfig(fake("A"), fake("B"), 2);
  badBook.openingsPath = "/nonexistent/book.epd";
  EXPECT_THROW(Match(badBook, out), Error);
  MatchConfig missing = baseConfig(fake("A"), EngineConfig{"Missing", "/nonexistent/engine"}, 2);
  Match m(missing, out);
  try {
    (void)m.run();
    FAIL() << "a missing engine must stop the match";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/engine"), std::string::npos) << e.what();
  }
}

TEST(Match, StockfishSelfPlay) {
  if (access("/usr/games/stockfish", X_OK) != 0) GTEST_SKIP() << "/usr/games/stockfish is not installed";
  std::string pgn = tempPath("sf.pgn");
  EngineConfig a{"SF-a", "/usr/games/stockfish"};
  a.options = {{"Hash", "8"}};
  EngineConfig b{"SF-b", "/usr/games/stockfish"};
  b.options = {{"Hash", "8"}};
  MatchConfig c = baseConfig(a, b, 2);
  c.concurrency = 2;
  c.timeControl = TimeControl::parse("1+0.01");
  c.pgnOut = pgn;
  c.adjudication.resignMoveCount = 3;
  c.adjudication.resignScore = 600;
  c.adjudication.drawMoveNumber = 30;
  c.adjudication.drawMoveCount = 6;
  c.adjudication.drawScore = 10;
  std::ostringstream out;
  MatchResult r = Match(c, out).run();
  EXPECT_EQ(r.gamesPlayed, 2);
  EXPECT_EQ(r.wins + r.draws + r.losses, 2);
  auto games = readPgn(pgn);
  ASSERT_EQ(games.size(), 2u);
  int points2 = 0;
  for (const auto& g : games) {
    EXPECT_NE(g.result, "*");
    EXPECT_GT(g.moves.size(), 16u);
    bool aWhite = g.tag("White") == "SF-a";
    if (g.result == "1/2-1/2") points2 += 1;
    if ((g.result == "1-0" && aWhite) || (g.result == "0-1" && !aWhite)) points2 += 2;
    // Engine moves carry "score/depth time" comments.
    EXPECT_NE(g.comments[16].find('/'), std::string::npos) << g.comments[16];
    EXPECT_NE(g.comments[16].find('s'), std::string::npos) << g.comments[16];
  }
  EXPECT_EQ(points2, 2 * r.wins + r.draws);
  std::filesystem::remove(pgn);
}

TEST(Match, FixedLimitMatchesLongerThanTwiceTheBookAreWarnedOf) {
  // A one-opening book: games 1 and 2 are its two colourings; at fixed nodes game 3 can only
  // replay one of them.
  const std::string book = tempPath("one-opening.epd");
  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
  auto warned = [&](const TimeControl& tc, int games) {
    MatchConfig c = baseConfig(fake("R1", {"--seed", "11"}), fake("R2", {"--seed", "12"}), games);
    c.timeControl = tc;
    c.openingsPath = book;
    std::ostringstream out;
    const MatchResult r = Match(c, out).run();
    for (const std::string& w : r.warnings)
      if (w.find("replay the same games after game 2") != std::string::npos) return out.str().find("warning:") != std::string::npos;
    return false;
  };
  TimeControl nodes;
  nodes.nodes = 500;
  EXPECT_TRUE(warned(nodes, 4));
  EXPECT_FALSE(warned(nodes, 2));                         // within the book
  EXPECT_FALSE(warned(TimeControl::parse("5+0.05"), 4));  // a clock: games differ
  std::filesystem::remove(book);
}

TEST(Match, RunnerCpuTimeCountsOnlyTheMatch) {
  // `janus rl` plays its gates in the process that generated the data: the runner's CPU time
  // must start at run(), not at the process's start.
  const double start = processCpuSeconds();
  volatile double sink = 0;
  while (processCpuSeconds() - start < 1.0) sink = sink + 1.0;
  std::ostringstream out;
  const MatchResult r = Match(baseConfig(fake("R1", {"--seed", "11"}), fake("R2", {"--seed", "12"}), 2), out).run();
  EXPECT_GE(r.runnerCpuSeconds, 0.0);
  EXPECT_LT(r.runnerCpuSeconds, 1.0) << "the CPU burnt before the match was counted";
  EXPECT_NE(out.str().find("Runner CPU time"), std::string::npos);
}
