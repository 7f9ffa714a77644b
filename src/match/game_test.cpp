#include "match/game.h"

#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "core/notation.h"
#include "tb/syzygy.h"
#include "util/error.h"

using namespace janus;
using namespace janus::match;
using namespace std::chrono_literals;

namespace {
std::unique_ptr<UciEngine> fakeEngine(const std::string& name, const std::vector<std::string>& args,
                                      bool ponder = false, bool chess960 = false) {
  EngineConfig c;
  c.name = name;
  c.command = JANUS_FAKE_ENGINE;
  c.args = args;
  c.ponder = ponder;
  auto e = std::make_unique<UciEngine>(c, name, nullptr);
  e->start(chess960, 5000ms);
  return e;
}

GameSettings fastSettings(const std::string& tc = "5+0.05") {
  GameSettings s;
  s.timeControl = {TimeControl::parse(tc), TimeControl::parse(tc)};
  s.stopGrace = 300ms;
  s.stallTimeout = 2000ms;
  s.readyTimeout = 2000ms;
  return s;
}

Opening fenOpening(const std::string& fen) {
  Opening o;
  o.fen = fen;
  return o;
}

// Both engines play `script` (UCI moves by ply), White = engine 0.
GameRecord scripted(const std::string& script, const Opening& opening = {}, GameSettings settings = fastSettings()) {
  auto a = fakeEngine("A", {"--script", script, "--seed", "1"});
  auto b = fakeEngine("B", {"--script", script, "--seed", "2"});
  return playGame({a.get(), b.get()}, 0, opening, 1, settings);
}
}  // namespace

TEST(Game, GoCommand) {
  std::array<TimeControl, 2> tc = {TimeControl::parse("10+0.1"), TimeControl::parse("10+0.1")};
  EXPECT_EQ(goCommand(tc, {9000, 8000}, {0, 0}, kWhite, false), "go wtime 9000 btime 8000 winc 100 binc 100");
  EXPECT_EQ(goCommand(tc, {9000, 8000}, {0, 0}, kBlack, true), "go ponder wtime 9000 btime 8000 winc 100 binc 100");
  std::array<TimeControl, 2> periods = {TimeControl::parse("40/60"), TimeControl::parse("40/60")};
  EXPECT_EQ(goCommand(periods, {60000, 59000}, {40, 39}, kBlack, false), "go wtime 60000 btime 59000 movestogo 39");
  TimeControl nodes;
  nodes.nodes = 5000;
  TimeControl movetime;
  movetime.moveTimeMs = 100;
  EXPECT_EQ(goCommand({nodes, movetime}, {0, 0}, {0, 0}, kWhite, false), "go nodes 5000");
  EXPECT_EQ(goCommand({nodes, movetime}, {0, 0}, {0, 0}, kBlack, false), "go movetime 100");
  EXPECT_EQ(goCommand(tc, {0, 5}, {0, 0}, kWhite, false), "go wtime 1 btime 5 winc 100 binc 100");
  TimeControl playouts;  // Janus's MCTS face: playouts, whatever its alpha-beta hints search
  playouts.playouts = 200;
  EXPECT_EQ(goCommand({playouts, nodes}, {0, 0}, {0, 0}, kWhite, false), "go playouts 200");
}

TEST(Game, AdjudicatorResign) {
  AdjudicationConfig c;
  c.resignMoveCount = 2;
  c.resignScore = 700;
  Adjudicator a(c);
  // White's engine thinks it is winning, Black's engine agrees it is losing.
  EXPECT_FALSE(a.update(kWhite, 800, 20, 40));
  EXPECT_FALSE(a.update(kBlack, -750, 20, 41));
  EXPECT_FALSE(a.update(kWhite, 900, 21, 42));
  auto v = a.update(kBlack, -720, 21, 43);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->result, GameResult::kWhiteWins);
  EXPECT_EQ(v->reason, "Adjudication: Black resigns");
  // Disagreement resets the count.
  Adjudicator b(c);
  EXPECT_FALSE(b.update(kWhite, 800, 20, 40));
  EXPECT_FALSE(b.update(kBlack, -750, 20, 41));
  EXPECT_FALSE(b.update(kWhite, 900, 21, 42));
  EXPECT_FALSE(b.update(kBlack, -100, 21, 43));
  EXPECT_FALSE(b.update(kWhite, 900, 22, 44));
  EXPECT_FALSE(b.update(kBlack, std::nullopt, 22, 45));  // no score: no agreement
}

TEST(Game, AdjudicatorDrawAndMaxMoves) {
  AdjudicationConfig c;
  c.drawMoveNumber = 30;
  c.drawMoveCount = 2;
  c.drawScore = 10;
  Adjudicator a(c);
  EXPECT_FALSE(a.update(kWhite, 5, 29, 56));
  EXPECT_FALSE(a.update(kBlack, -5, 29, 57));  // before move 30: not counted
  EXPECT_FALSE(a.update(kWhite, 5, 30, 58));
  EXPECT_FALSE(a.update(kBlack, 0, 30, 59));
  EXPECT_FALSE(a.update(kWhite, -10, 31, 60));
  auto v = a.update(kBlack, 10, 31, 61);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->result, GameResult::kDraw);
  EXPECT_EQ(v->termination, GameEnd::kAdjudicatedDraw);

  AdjudicationConfig m;
  m.maxMoves = 10;
  Adjudicator cap(m);
  EXPECT_FALSE(cap.update(kWhite, std::nullopt, 10, 19));
  auto w = cap.update(kBlack, std::nullopt, 10, 20);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->termination, GameEnd::kMaxPlies);
}

TEST(Game, CheckmateFoolsMate) {
  GameRecord g = scripted("f2f3 e7e5 g2g4 d8h4");
  EXPECT_EQ(g.result, GameResult::kBlackWins);
  EXPECT_EQ(g.termination, GameEnd::kCheckmate);
  EXPECT_EQ(g.reason, "Black mates");
  ASSERT_EQ(g.moves.size(), 4u);
  EXPECT_EQ(g.moves[3].san, "Qh4#");
  EXPECT_TRUE(g.moves[3].clockMs.has_value());
  EXPECT_FALSE(g.incident);
  EXPECT_EQ(g.pointsOf(1), 1.0);
  EXPECT_EQ(g.pointsOf(0), 0.0);
}

TEST(Game, StalemateLoyd) {
  // Sam Loyd's 10-move stalemate: 1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7
  // 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6.
  GameRecord g = scripted("e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 "
                          "f7g6 c8e6");
  EXPECT_EQ(g.result, GameResult::kDraw);
  EXPECT_EQ(g.termination, GameEnd::kStalemate);
  EXPECT_EQ(g.reason, "Draw by stalemate");
  EXPECT_EQ(g.moves.size(), 19u);
}

TEST(Game, ThreefoldRepetition) {
  GameRecord g = scripted("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
  EXPECT_EQ(g.termination, GameEnd::kRepetition);
  EXPECT_EQ(g.reason, "Draw by 3-fold repetition");
  EXPECT_EQ(g.moves.size(), 8u);
}

TEST(Game, FiftyMoveRule) {
  GameRecord g = scripted("a1a2", fenOpening("8/8/8/4k3/8/8/8/R3K3 w - - 99 80"));
  EXPECT_EQ(g.termination, GameEnd::kFiftyMoves);
  EXPECT_EQ(g.reason, "Draw by fifty moves rule");
  EXPECT_EQ(g.moves.size(), 1u);
  EXPECT_EQ(g.startFen, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80");
}

TEST(Game, InsufficientMaterial) {
  GameRecord g = scripted("e2d2", fenOpening("8/8/8/4k3/8/8/3rK3/8 w - - 0 1"));
  EXPECT_EQ(g.termination, GameEnd::kInsufficientMaterial);
  EXPECT_EQ(g.result, GameResult::kDraw);
  ASSERT_EQ(g.moves.size(), 1u);
  EXPECT_EQ(g.moves[0].san, "Kxd2");
}

TEST(Game, SyzygyAdjudication) {
  const std::string dir = std::string(JANUS_TEST_DATA) + "/syzygy";
  ASSERT_TRUE(std::filesystem::exists(dir + "/KQvK.rtbw")) << "Syzygy test tables missing: " << dir;
  SyzygyTablebases tb;
  tb.init(dir);
  GameSettings settings = fastSettings();
  settings.adjudication.tablebases = &tb;
  // Five pieces; the queen takes the rook: K+Q+N v K is in the tables, a White win.
  GameRecord g = scripted("d2d4", fenOpening("4k3/8/8/8/3r4/8/3Q4/4K2N w - - 0 1"), settings);
  EXPECT_EQ(g.termination, GameEnd::kTablebase);
  EXPECT_EQ(g.result, GameResult::kWhiteWins);
  EXPECT_EQ(g.reason, "Adjudication: tablebase win for White");
  EXPECT_EQ(g.moves.size(), 1u);
  EXPECT_STREQ(terminationTag(g.termination), "adjudication");
  // A K+B+N v K win that the 50-move rule spoils (56 plies to zeroing, 50 on the clock): a draw
  // as soon as the game starts.
  GameRecord cursed = scripted("a2b2", fenOpening("8/4k3/8/8/2B5/8/K7/7N w - - 50 60"), settings);
  EXPECT_EQ(cursed.termination, GameEnd::kTablebase);
  EXPECT_EQ(cursed.result, GameResult::kDraw);
  EXPECT_EQ(cursed.reason, "Adjudication: tablebase draw");
  EXPECT_TRUE(cursed.moves.empty());
}

TEST(Game, BookMovesComeFirst) {
  Opening o;
  Position p;
  o.moves.push_back(parseUci(p, "e2e4", false));
  p.makeMove(o.moves[0]);
  o.moves.push_back(parseUci(p, "e7e5", false));
  std::vector<std::string> seen;
  auto a = fakeEngine("A", {"--script", "x x f1c4 b8c6 d1h5 g8f6 h5f7", "--seed", "3"});
  auto b = fakeEngine("B", {"--script", "x x f1c4 b8c6 d1h5 g8f6 h5f7", "--seed", "4"});
  GameRecord g = playGame({a.get(), b.get()}, 0, o, 1, fastSettings(),
                          [&](const GameRecord&, const MoveRecord& m) { seen.push_back(m.san); });
  EXPECT_EQ(g.reason, "White mates");
  ASSERT_EQ(g.moves.size(), 7u);
  EXPECT_TRUE(g.moves[0].book && g.moves[1].book && !g.moves[2].book);
  EXPECT_EQ(seen, (std::vector<std::string>{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"}));
  EXPECT_EQ(g.moves[6].moveNumber, 4);
  EXPECT_EQ(g.moves[6].color, kWhite);
}

TEST(Game, IllegalMoveLoses) {
  auto a = fakeEngine("A", {"--illegal-at", "2"});
  auto b = fakeEngine("B", {});
  GameRecord g = playGame({a.get(), b.get()}, 1, {}, 7, fastSettings());  // A plays Black
  EXPECT_EQ(g.result, GameResult::kWhiteWins);
  EXPECT_EQ(g.termination, GameEnd::kIllegalMove);
  EXPECT_TRUE(g.reason.starts_with("Black makes an illegal move: ")) << g.reason;
  ASSERT_TRUE(g.incident);
  EXPECT_EQ(g.incident->kind, Incident::Kind::kIllegalMove);
  EXPECT_EQ(g.incident->engine, 0);
  EXPECT_EQ(g.incident->color, kBlack);
  EXPECT_EQ(g.incident->game, 7);
  EXPECT_NE(g.incident->detail.find("in position "), std::string::npos);
  EXPECT_EQ(g.moves.size(), 3u);
  EXPECT_TRUE(a->running());  // an illegal move does not need a restart
}

TEST(Game, CrashLosesAndIsReported) {
  auto a = fakeEngine("A", {"--crash-at", "2"});
  auto b = fakeEngine("B", {});
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, fastSettings());
  EXPECT_EQ(g.result, GameResult::kBlackWins);
  EXPECT_EQ(g.termination, GameEnd::kCrash);
  EXPECT_EQ(g.reason, "White crashes");
  ASSERT_TRUE(g.incident);
  EXPECT_NE(g.incident->detail.find("exited with code 3"), std::string::npos) << g.incident->detail;
  EXPECT_FALSE(a->running());
  // After a restart the engine plays again.
  a->start(false, 5000ms);
  EXPECT_TRUE(a->running());

  auto c = fakeEngine("C", {"--abort-at", "1"});
  GameRecord h = playGame({b.get(), c.get()}, 0, {}, 2, fastSettings());
  EXPECT_EQ(h.reason, "Black crashes");
  EXPECT_NE(h.incident->detail.find("signal 6"), std::string::npos) << h.incident->detail;
}

TEST(Game, HangingEngineLosesOnTimeAndIsKilled) {
  auto a = fakeEngine("A", {});
  auto b = fakeEngine("B", {"--hang-at", "2"});
  auto start = std::chrono::steady_clock::now();
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, fastSettings("0.3+0"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(g.result, GameResult::kWhiteWins);
  EXPECT_EQ(g.termination, GameEnd::kTimeForfeit);
  EXPECT_EQ(g.reason, "Black loses on time");
  ASSERT_TRUE(g.incident);
  EXPECT_EQ(g.incident->kind, Incident::Kind::kTimeForfeit);
  EXPECT_NE(g.incident->detail.find("engine killed"), std::string::npos) << g.incident->detail;
  EXPECT_FALSE(b->running());
  EXPECT_TRUE(a->running());
}

TEST(Game, LateAnswerLosesOnTimeButEngineSurvives) {
  auto a = fakeEngine("A", {"--slow-at", "1", "--delay", "500"});
  auto b = fakeEngine("B", {});
  GameSettings s = fastSettings("0.2+0");
  s.stopGrace = 2000ms;
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, s);
  EXPECT_EQ(g.reason, "White loses on time");
  ASSERT_TRUE(g.incident);
  EXPECT_EQ(g.incident->detail.find("engine killed"), std::string::npos) << g.incident->detail;
  EXPECT_NE(g.incident->detail.find("overrun "), std::string::npos) << g.incident->detail;
  EXPECT_TRUE(a->running());
  EXPECT_TRUE(a->newGame(2000ms));  // still in sync: the late bestmove was consumed
}

TEST(Game, StallWithoutClock) {
  auto a = fakeEngine("A", {"--hang-at", "1"});
  auto b = fakeEngine("B", {});
  GameSettings s = fastSettings();
  TimeControl nodes;
  nodes.nodes = 100;
  s.timeControl = {nodes, nodes};
  s.stallTimeout = 300ms;
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, s);
  EXPECT_EQ(g.termination, GameEnd::kStall);
  EXPECT_EQ(g.reason, "White's connection stalls");
  EXPECT_FALSE(a->running());
}

TEST(Game, TimeForfeitAgainstBareKingIsADraw) {
  auto a = fakeEngine("A", {"--hang-at", "1"});
  auto b = fakeEngine("B", {});
  GameRecord g = playGame({a.get(), b.get()}, 0, fenOpening("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), 1,
                          fastSettings("0.2+0"));
  EXPECT_EQ(g.result, GameResult::kDraw);
  EXPECT_EQ(g.termination, GameEnd::kTimeForfeit);
  EXPECT_EQ(g.reason, "Draw by timeout vs insufficient material");
}

TEST(Game, PonderHits) {
  // --first predicts the first legal reply, and the opponent with --first plays it: every
  // prediction is a ponderhit.
  auto a = fakeEngine("A", {"--first"}, true);
  auto b = fakeEngine("B", {"--first"});
  GameSettings s = fastSettings();
  s.adjudication.maxMoves = 15;
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, s);
  EXPECT_FALSE(g.incident);
  int hits = 0;
  for (const auto& m : g.moves) hits += m.ponderHit;
  EXPECT_GE(hits, 5);
  for (const auto& m : g.moves)
    if (m.ponderHit) {
      EXPECT_EQ(m.color, kWhite);
    }
  EXPECT_TRUE(a->newGame(2000ms));  // pondering stopped cleanly at the end
}

TEST(Game, PonderMisses) {
  auto a = fakeEngine("A", {"--first"}, true);
  auto b = fakeEngine("B", {"--seed", "99"});
  GameSettings s = fastSettings();
  s.adjudication.maxMoves = 20;
  GameRecord g = playGame({a.get(), b.get()}, 0, {}, 1, s);
  EXPECT_FALSE(g.incident) << g.incident->detail;
  EXPECT_TRUE(g.result != GameResult::kNone);
  EXPECT_TRUE(a->newGame(2000ms));
}

TEST(Game, ResignAndDrawAdjudication) {
  auto a = fakeEngine("A", {"--score", "800"});
  auto b = fakeEngine("B", {"--score", "-800"});
  GameSettings s = fastSettings();
  s.adjudication.resignMoveCount = 2;
  s.adjudication.resignScore = 700;
  GameRecord g = playGame({a.get(), b.get()}, 1, {}, 1, s);  // A plays Black and "wins"
  EXPECT_EQ(g.result, GameResult::kBlackWins);
  EXPECT_EQ(g.termination, GameEnd::kAdjudicatedWin);
  EXPECT_EQ(g.reason, "Adjudication: White resigns");
  EXPECT_EQ(g.moves.size(), 4u);

  auto c = fakeEngine("C", {"--score", "0"});
  auto d = fakeEngine("D", {"--score", "3"});
  GameSettings t = fastSettings();
  t.adjudication.drawMoveNumber = 1;
  t.adjudication.drawMoveCount = 3;
  t.adjudication.drawScore = 10;
  GameRecord h = playGame({c.get(), d.get()}, 0, {}, 2, t);
  EXPECT_EQ(h.result, GameResult::kDraw);
  EXPECT_EQ(h.reason, "Adjudication: draw");
  EXPECT_EQ(h.moves.size(), 6u);
  ASSERT_TRUE(h.moves[0].score);
  EXPECT_EQ(h.moves[0].score->value, 0);
}

TEST(Game, Chess960Opening) {
  Opening o = fenOpening("rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1");
  o.chess960 = true;
  // O-O for White here is king b1 takes rook g1 in UCI_Chess960 notation.
  auto a = fakeEngine("A", {"--script", "b1g1", "--seed", "5"}, false, true);
  auto b = fakeEngine("B", {"--seed", "6"}, false, true);
  GameSettings s = fastSettings();
  s.chess960 = true;
  s.adjudication.maxMoves = 20;
  GameRecord g = playGame({a.get(), b.get()}, 0, o, 1, s);
  EXPECT_TRUE(g.chess960);
  ASSERT_FALSE(g.moves.empty());
  EXPECT_EQ(g.moves[0].san, "O-O");
  EXPECT_EQ(g.moves[0].uci, "b1g1");
  EXPECT_FALSE(g.incident);
}

TEST(PvProblem, NamesAMismatchAnIllegalPvMoveAndAPvPastMateOrStalemate) {
  const Position start = Position::fromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(pvProblem(start, "e2e4", {}, false), "");  // no PV sent
  EXPECT_EQ(pvProblem(start, "e2e4", {"e2e4", "e7e5", "g1f3"}, false), "");
  EXPECT_EQ(pvProblem(start, "f7f5", {"e2e4", "e7e5"}, false),
            "bestmove f7f5 does not match the beginning of the last PV: e2e4 e7e5");
  EXPECT_NE(pvProblem(start, "e2e4", {"e2e4", "e2e4"}, false).find("PV move 2 (e2e4) is illegal"), std::string::npos);
  // Fool's mate: the PV ends at 2...Qh4#; a move after it is reported.
  const Position fools = Position::fromFen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  EXPECT_EQ(pvProblem(fools, "d8h4", {"d8h4"}, false), "");
  EXPECT_EQ(pvProblem(fools, "d8h4", {"d8h4", "h2h3"}, false), "PV continues after checkmate (ply 1 of: d8h4 h2h3)");
  // Stalemate after 1. Qg6 in this ending: nothing may follow.
  const Position stale = Position::fromFen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1");
  EXPECT_EQ(pvProblem(stale, "g1g6", {"g1g6", "h8h7"}, false), "PV continues after stalemate (ply 1 of: g1g6 h8h7)");
}
