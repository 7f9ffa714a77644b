#include "match/time_control.h"

#include <gtest/gtest.h>

#include "util/error.h"

using namespace janus::match;

TEST(TimeControl, Parse) {
  TimeControl a = TimeControl::parse("10+0.1");
  EXPECT_EQ(a.baseMs, 10000);
  EXPECT_EQ(a.incrementMs, 100);
  EXPECT_EQ(a.movesPerPeriod, 0);
  EXPECT_TRUE(a.hasClock());
  EXPECT_EQ(a.pgnTag(), "10+0.1");

  TimeControl b = TimeControl::parse("40/60+0.5");
  EXPECT_EQ(b.movesPerPeriod, 40);
  EXPECT_EQ(b.baseMs, 60000);
  EXPECT_EQ(b.incrementMs, 500);
  EXPECT_EQ(b.pgnTag(), "40/60+0.5");

  TimeControl c = TimeControl::parse("1:30+1");
  EXPECT_EQ(c.baseMs, 90000);
  EXPECT_EQ(c.incrementMs, 1000);

  TimeControl d = TimeControl::parse("1+0.01");
  EXPECT_EQ(d.baseMs, 1000);
  EXPECT_EQ(d.incrementMs, 10);
  EXPECT_EQ(d.pgnTag(), "1+0.01");

  TimeControl inf = TimeControl::parse("inf");
  EXPECT_FALSE(inf.hasClock());
  EXPECT_FALSE(inf.isLimited());
  inf.nodes = 1000;
  EXPECT_TRUE(inf.isLimited());
  EXPECT_EQ(inf.pgnTag(), "-");
  EXPECT_EQ(inf.describe(), "nodes 1000");
  TimeControl playouts = TimeControl::parse("inf");
  playouts.playouts = 200;
  EXPECT_TRUE(playouts.isLimited());
  EXPECT_EQ(playouts.describe(), "playouts 200");

  TimeControl st;
  st.moveTimeMs = 100;
  EXPECT_FALSE(st.hasClock());
  EXPECT_EQ(st.pgnTag(), "0.1/move");
}

TEST(TimeControl, Errors) {
  for (const char* bad : {"", "abc", "10+", "+1", "0+0.1", "x/60", "40/", "-5+1", "10+-1", "1:xx"}) {
    EXPECT_THROW((void)TimeControl::parse(bad), janus::Error) << bad;
  }
  try {
    (void)TimeControl::parse("10+x");
    FAIL();
  } catch (const janus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("10+x"), std::string::npos);
  }
}
