// The GUI server's one memory budget (memory_budget.h, issue 75 item 5): the cost model, the MCTS
// tree grant, reservations and the reclaimer, and the server refusing what does not fit with a 503
// that names the budget, then serving it once an idle session's tree was freed.

#include "server/memory_budget.h"

#include <gtest/gtest.h>

#include "server/server_test_util.h"

namespace janus::server {
namespace {

using Part = MemoryBudget::Part;

TEST(MemoryBudget, CostModel) {
  EXPECT_EQ(sessionCostMiB(16), 16 + MemoryCosts::kEngineMiB + MemoryCosts::kSessionDataMiB);
  EXPECT_EQ(secondEngineCostMiB(16), 16 + MemoryCosts::kEngineMiB + MemoryCosts::kSecondEngineExtraMiB);
  EXPECT_EQ(mctsCacheCostMiB(50000), 20);  // 50,000 x 400 bytes, rounded up to MiB
  EXPECT_EQ(mctsCacheCostMiB(0), 0);
  EXPECT_EQ(mctsTreeCostMiB(8, 50000), 10 + 20);
  EXPECT_EQ(mctsTreeCostMiB(256, 0), 295);
  EXPECT_EQ(minimumBudgetMiB(16, 50000), MemoryCosts::kServerBaseMiB + 34 + MemoryCosts::kMctsFixedMiB + 30);
  EXPECT_GE(defaultBudgetMiB(16, 50000), minimumBudgetMiB(16, 50000));
  EXPECT_LE(defaultBudgetMiB(16, 50000), MemoryCosts::kDefaultBudgetMiB);
}

TEST(MemoryBudget, TreeGrantIsTheConfiguredTreeWhenThereIsRoomElseAFairShare) {
  // Alone with plenty: the configured tree.
  EXPECT_EQ(mctsTreeGrant(1900, 0, true, 256, 50000), 256);
  // 20 sessions in 2560 MiB (the soak): each of the first gets an equal share of what is left
  // after every session's fixed MCTS part, (1832 - 20 x 60) / 20 / 1.15 = 27 MiB.
  EXPECT_EQ(mctsTreeGrant(1832, 19, true, 256, 50000), 27);
  // Short: the smallest tree when it fits by itself, else nothing.
  EXPECT_EQ(mctsTreeGrant(114, 1, true, 256, 50000), MemoryCosts::kMinTreeMiB);
  EXPECT_EQ(mctsTreeGrant(69, 0, true, 256, 50000), 0);
  EXPECT_EQ(mctsTreeGrant(70, 0, true, 256, 50000), MemoryCosts::kMinTreeMiB);
  EXPECT_EQ(mctsTreeGrant(30, 0, false, 256, 50000), MemoryCosts::kMinTreeMiB);  // the fixed part is held
  // Never more than configured, even below the smallest.
  EXPECT_EQ(mctsTreeGrant(1000, 0, true, 4, 50000), 4);
}

TEST(MemoryBudget, ReservationsStayWithinTheTotal) {
  MemoryBudget b(200);
  EXPECT_EQ(b.usedMiB(), MemoryCosts::kServerBaseMiB);
  EXPECT_TRUE(b.tryReserve("a", Part::kSession, 100));
  EXPECT_FALSE(b.tryReserve("b", Part::kSession, 100));  // 48 + 100 + 100 > 200
  EXPECT_TRUE(b.tryReserve("b", Part::kSession, 52));
  EXPECT_EQ(b.freeMiB(), 0);
  EXPECT_TRUE(b.tryReserve("a", Part::kSession, 90));  // a new size replaces the old one
  EXPECT_EQ(b.freeMiB(), 10);
  EXPECT_EQ(b.sessionsWithoutTree("a"), 1);
  EXPECT_TRUE(b.tryReserve("b", Part::kMctsTree, 10));
  EXPECT_EQ(b.sessionsWithoutTree("a"), 0);
  const MemoryBudget::Usage u = b.usage();
  EXPECT_EQ(u.sessions, 2);
  EXPECT_EQ(u.mctsTrees, 1);
  EXPECT_EQ(b.release("b", Part::kMctsTree), 10);
  EXPECT_EQ(b.release("b", Part::kMctsTree), 0);
  b.releaseAll("a");
  EXPECT_FALSE(b.holds("a", Part::kSession));
  EXPECT_EQ(b.usedMiB(), MemoryCosts::kServerBaseMiB + 52);
}

TEST(MemoryBudget, TheReclaimerIsAskedOnceWhenMemoryIsShort) {
  MemoryBudget b(200);
  ASSERT_TRUE(b.tryReserve("idle", Part::kSession, 50));
  ASSERT_TRUE(b.tryReserve("idle", Part::kMctsTree, 80));
  std::vector<std::string> asked;
  b.setReclaimer([&](const std::string& requester, i64 needed) {
    asked.push_back(requester);
    EXPECT_EQ(needed, 60);
    return b.release("idle", Part::kMctsTree);
  });
  EXPECT_TRUE(b.reserveOrReclaim("new", Part::kSession, 60));
  EXPECT_FALSE(b.reserveOrReclaim("other", Part::kSession, 60));  // nothing more to reclaim
  EXPECT_EQ(asked, (std::vector<std::string>{"new", "other"}));
}

TEST(MemoryBudget, ServerRefusesABudgetTooSmallForOneSession) {
  ServerConfig c;
  c.port = 0;
  c.dataDir = fs::temp_directory_path() / ("janus-budget-test-" + std::to_string(::getpid()));
  c.session.hashMiB = 16;
  c.memoryMiB = 100;
  try {
    GuiServer server(c);
    FAIL() << "a budget of 100 MiB was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--memory-mib 100 is too small: one session with an MCTS search needs " +
                                         std::to_string(minimumBudgetMiB(16, c.session.mctsCacheEntries)) + " MiB"),
              std::string::npos)
        << e.what();
  }
  fs::remove_all(c.dataDir);
}

class BudgetServerTest : public ServerTest {
 protected:
  // Two sessions (--hash 1: 19 MiB each) and one MCTS search at its smallest (70 MiB) fit, two do not.
  void SetUp() override { start(4, 200); }
};

TEST_F(BudgetServerTest, AnMctsAnalysisBeyondTheBudgetGets503UntilAnIdleTreeIsFreed) {
  const std::string one = "/api/sessions/" + newSession(), two = "/api/sessions/" + newSession();
  Json info = get("/api/info").second;
  EXPECT_EQ(info["memory"]["budgetMiB"], 200);
  EXPECT_EQ(info["memory"]["sessions"], 2);
  EXPECT_EQ(info["memory"]["usedMiB"], MemoryCosts::kServerBaseMiB + 2 * sessionCostMiB(1));

  InfoStream streamOne(m_port, one), streamTwo(m_port, two);
  ASSERT_EQ(post(one + "/mode", R"({"mode": "analysis"})").first, 200);
  ASSERT_EQ(post(two + "/mode", R"({"mode": "analysis"})").first, 200);
  auto [s1, st1] = post(one + "/analysis", R"({"on": true, "face": "mcts"})");
  ASSERT_EQ(s1, 200) << st1.dump();
  ASSERT_FALSE(streamOne.waitFor([](const Json& j) { return j["face"] == "mcts"; }).is_null());
  info = get("/api/info").second;
  EXPECT_EQ(info["memory"]["mctsTrees"], 1);
  EXPECT_LE(info["memory"]["usedMiB"].get<i64>(), 200);

  // The second session's MCTS analysis does not fit while the first one analyses.
  auto [s2, err] = post(two + "/analysis", R"({"on": true, "face": "mcts"})");
  EXPECT_EQ(s2, 503);
  EXPECT_EQ(err.value("error", "").rfind("the server's memory budget of 200 MiB (--memory-mib) is in use", 0), 0u) << err.dump();
  EXPECT_NE(err.value("error", "").find("an MCTS search needs 70 MiB"), std::string::npos) << err.dump();
  EXPECT_FALSE(get(two).second["analysis"]["on"].get<bool>());
  // "both" needs a second engine too: refused as well.
  EXPECT_EQ(post(two + "/analysis", R"({"on": true, "face": "both"})").first, 503);
  // Alpha-beta needs nothing more.
  EXPECT_EQ(post(two + "/analysis", R"({"on": true, "face": "alphabeta"})").first, 200);

  // The first stops: its tree is idle and is freed for the second.
  ASSERT_EQ(post(one + "/analysis", R"({"on": false})").first, 200);
  auto [s3, st3] = post(two + "/analysis", R"({"on": true, "face": "mcts"})");
  ASSERT_EQ(s3, 200) << st3.dump();
  ASSERT_FALSE(streamTwo.waitFor([](const Json& j) { return j["face"] == "mcts"; }).is_null());
  info = get("/api/info").second;
  EXPECT_EQ(info["memory"]["mctsTrees"], 1);
  EXPECT_LE(info["memory"]["usedMiB"].get<i64>(), 200);
  // A third session (19 MiB) does not fit in the 4 MiB left, and no session is idle long enough to
  // be closed for it: 503 naming the budget.
  auto [s4, full] = post("/api/sessions");
  EXPECT_EQ(s4, 503);
  EXPECT_NE(full.value("error", "").find("memory budget of 200 MiB"), std::string::npos) << full.dump();
  // Closing a session gives its memory back: now it fits.
  m_client->Delete(one.c_str(), kApiHeaders);
  info = get("/api/info").second;
  EXPECT_EQ(info["memory"]["sessions"], 1);
  EXPECT_FALSE(newSession().empty());
  post(two + "/analysis", R"({"on": false})");
}

}  // namespace
}  // namespace janus::server
