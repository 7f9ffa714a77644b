#include "util/duration.h"

#include <gtest/gtest.h>

#include <limits>

namespace janus {
namespace {

TEST(FormatDuration, HoursMinutesAndSeconds) {
  EXPECT_EQ(formatDuration(0), "0s");
  EXPECT_EQ(formatDuration(59.4), "59s");
  EXPECT_EQ(formatDuration(59.6), "1m00s");
  EXPECT_EQ(formatDuration(245), "4m05s");
  EXPECT_EQ(formatDuration(3723), "1h02m03s");
  EXPECT_EQ(formatDuration(100 * 3600 + 61), "100h01m01s");
}

TEST(FormatDuration, UnknownForNegativeOrNonFinite) {
  EXPECT_EQ(formatDuration(-1), "?");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::infinity()), "?");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::quiet_NaN()), "?");
}

}  // namespace
}  // namespace janus
