#include "match/engine_config.h"

#include <gtest/gtest.h>

#include "util/error.h"

using namespace janus::match;

TEST(EngineSpec, ParsesAllFields) {
  EngineConfig e = parseEngineSpec(
      "name='Stockfish 15' cmd=/usr/games/stockfish dir=/tmp arg=--x arg=\"two words\" "
      "option.UCI_LimitStrength=true option.UCI_Elo=1800 'option.Move Overhead=30' ponder tc=40/60+0.5 nodes=5000 "
      "depth=12 st=0.25");
  EXPECT_EQ(e.name, "Stockfish 15");
  EXPECT_EQ(e.command, "/usr/games/stockfish");
  EXPECT_EQ(e.workDir, "/tmp");
  ASSERT_EQ(e.args.size(), 2u);
  EXPECT_EQ(e.args[1], "two words");
  ASSERT_EQ(e.options.size(), 3u);
  EXPECT_EQ(e.options[0], (std::pair<std::string, std::string>{"UCI_LimitStrength", "true"}));
  EXPECT_EQ(e.options[1], (std::pair<std::string, std::string>{"UCI_Elo", "1800"}));
  EXPECT_EQ(e.options[2], (std::pair<std::string, std::string>{"Move Overhead", "30"}));
  EXPECT_TRUE(e.ponder);
  ASSERT_TRUE(e.timeControl);
  EXPECT_EQ(e.timeControl->movesPerPeriod, 40);
  EXPECT_EQ(*e.nodes, 5000u);
  EXPECT_EQ(*e.depth, 12);
  EXPECT_EQ(*e.moveTimeMs, 250);
}

TEST(EngineSpec, DefaultNameAndMainJobSpec) {
  EngineConfig e = parseEngineSpec("name=Janus cmd=build/janus");
  EXPECT_EQ(e.name, "Janus");
  EXPECT_EQ(e.command, "build/janus");
  EXPECT_FALSE(e.ponder);
  EXPECT_EQ(parseEngineSpec("cmd=/usr/games/toga2").name, "toga2");
}

TEST(EngineSpec, Errors) {
  EXPECT_THROW((void)parseEngineSpec("name=x"), janus::Error);               // no cmd
  EXPECT_THROW((void)parseEngineSpec("cmd=x colour=red"), janus::Error);     // unknown key
  EXPECT_THROW((void)parseEngineSpec("cmd=x nodes=-3"), janus::Error);       // bad number
  EXPECT_THROW((void)parseEngineSpec("cmd=x tc=fast"), janus::Error);        // bad time control
  EXPECT_THROW((void)parseEngineSpec("cmd='x"), janus::Error);               // unbalanced quote
  EXPECT_THROW((void)parseEngineSpec("cmd=x option.=1"), janus::Error);      // option without name
  EXPECT_THROW((void)parseEngineSpec("cmd=x bogus"), janus::Error);          // not key=value
}

TEST(EngineSpec, EffectiveTimeControl) {
  TimeControl defaults = TimeControl::parse("10+0.1");
  EngineConfig plain = parseEngineSpec("cmd=x");
  EXPECT_EQ(effectiveTimeControl(plain, defaults).pgnTag(), "10+0.1");
  EngineConfig own = parseEngineSpec("cmd=x tc=5+0.05 nodes=100");
  TimeControl t = effectiveTimeControl(own, defaults);
  EXPECT_EQ(t.pgnTag(), "5+0.05");
  EXPECT_EQ(t.nodes, 100u);
  EXPECT_EQ(t.playouts, 0u);
  EXPECT_EQ(effectiveTimeControl(parseEngineSpec("cmd=x playouts=200"), defaults).playouts, 200u);
  EngineConfig movetime = parseEngineSpec("cmd=x st=0.1");
  EXPECT_FALSE(effectiveTimeControl(movetime, defaults).hasClock());
}

TEST(EngineSpec, KeyValues) {
  auto kv = parseKeyValues({"movecount=3 score=700"}, "--resign");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[1].first, "score");
  EXPECT_EQ(kv[1].second, "700");
  EXPECT_THROW((void)parseKeyValues({"movecount"}, "--resign"), janus::Error);
}
