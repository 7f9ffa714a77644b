#include "engine/options.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace janus {
namespace {

Options make(int* changes) {
  Options o;
  o.add({"Hash", OptionSpec::Type::kSpin, "16", 1, 1024, {}, ""}, [changes](const std::string&) { ++*changes; });
  o.add({"Ponder", OptionSpec::Type::kCheck, "false", 0, 0, {}, ""});
  o.add({"Style", OptionSpec::Type::kCombo, "Normal", 0, 0, {"Solid", "Normal", "Risky"}, ""});
  o.add({"Clear Hash", OptionSpec::Type::kButton, "", 0, 0, {}, ""}, [changes](const std::string&) { *changes += 100; });
  return o;
}

std::string errorOf(Options& o, const std::string& n, const std::string& v) {
  try {
    o.set(n, v);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Options, DefaultsAndCaseInsensitiveNames) {
  int changes = 0;
  Options o = make(&changes);
  EXPECT_EQ(o.integer("Hash"), 16);
  EXPECT_FALSE(o.boolean("ponder"));
  o.set("hash", "64");
  EXPECT_EQ(o.integer("HASH"), 64);
  EXPECT_EQ(changes, 1);
  o.set("style", "risky");
  EXPECT_EQ(o.value("Style"), "Risky");
  o.set("Clear Hash", "");
  EXPECT_EQ(changes, 101);
  ASSERT_EQ(o.specs().size(), 4u);
  EXPECT_EQ(o.specs()[0]->name, "Hash");
}

TEST(Options, RejectsBadValuesAndKeepsTheOldOne) {
  int changes = 0;
  Options o = make(&changes);
  EXPECT_EQ(errorOf(o, "Hsh", "1"), "unknown option 'Hsh'");
  EXPECT_EQ(errorOf(o, "Hash", "0"), "option Hash: 0 is out of range 1..1024");
  EXPECT_EQ(errorOf(o, "Hash", "99999"), "option Hash: 99999 is out of range 1..1024");
  EXPECT_EQ(errorOf(o, "Hash", "abc"), "option Hash: 'abc' is not an integer");
  EXPECT_EQ(errorOf(o, "Hash", "12x"), "option Hash: '12x' is not an integer");
  EXPECT_EQ(errorOf(o, "Hash", ""), "option Hash: '' is not an integer");
  EXPECT_EQ(errorOf(o, "Ponder", "yes"), "option Ponder: 'yes' is not true or false");
  EXPECT_EQ(errorOf(o, "Style", "Wild"), "option Style: 'Wild' is not one of Solid, Normal, Risky");
  EXPECT_EQ(o.integer("Hash"), 16);
  EXPECT_EQ(changes, 0);
}

// Regression: a Hash value whose memory cannot be allocated used to be stored although the table
// kept its old size. Now an onChange that throws leaves the old value.
TEST(Options, FailingOnChangeKeepsTheOldValue) {
  Options o;
  o.add({"Hash", OptionSpec::Type::kSpin, "16", 1, 65536, {}, ""}, [](const std::string& v) {
    if (v == "65536") throw Error("cannot allocate 65536 MiB for the hash table (out of memory); it keeps 16 MiB");
  });
  EXPECT_EQ(errorOf(o, "Hash", "65536"),
            "cannot allocate 65536 MiB for the hash table (out of memory); it keeps 16 MiB");
  EXPECT_EQ(o.integer("Hash"), 16);
  o.set("Hash", "32");
  EXPECT_EQ(o.integer("Hash"), 32);
}

}  // namespace
}  // namespace janus
