// Tests of the chunked-run machinery's pure parts (chunked_run.h): per-game seeds, the openings
// hash, shard parsing and the assignment of chunks to shards. The run directory itself (manifest,
// locks, resume) is tested through its users, datagen (generator_test.cpp) and selfplay.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "records/chunked_run.h"
#include "util/error.h"

namespace janus::records {
namespace {

TEST(ChunkedRun, RunsWithDifferentSeedsPlayDifferentGames) {
  // Seeds 1 and 2 must not play the same games shifted by one index (as splitmix64(seed + g) would).
  std::set<u64> seen;
  for (u64 seed = 1; seed <= 64; ++seed)
    for (int g = 0; g < 256; ++g) EXPECT_TRUE(seen.insert(gameSeed(seed, g)).second) << seed << " " << g;
}

TEST(ChunkedRun, GameSeedsAndTheOpeningsHashAreThoseOfEarlierRuns) {
  // Resumed runs (--resume, chunked runs) and their manifests need the values of the runs that
  // wrote them: gameSeed = SplitMix64(SplitMix64(seed) + game) (util/hash.h) and the openings hash
  // FNV-1a 64 (util/hash.h) of the start positions' FENs, one per line. The values were computed
  // with datagen's own SplitMix64 and FNV-1a loop before util/hash.h replaced them.
  EXPECT_EQ(gameSeed(1, 0), 0x5e41ab087439611eULL);
  EXPECT_EQ(gameSeed(1, 1), 0x86d6fd953217ae03ULL);
  EXPECT_EQ(gameSeed(0xdeadbeef, 123456789), 0x2d86f82af4998943ULL);
  EXPECT_EQ(startPositionsHash({Position()}), 0xed9b3daaae11bc5fULL);
  EXPECT_EQ(startPositionsHash({}), 0xcbf29ce484222325ULL);
}

TEST(ChunkedRun, ShardParsingAndAssignment) {
  EXPECT_EQ(parseShard("3/8"), std::make_pair(3, 8));
  EXPECT_EQ(parseShard("1/1"), std::make_pair(1, 1));
  for (const char* bad : {"0/4", "5/4", "4", "a/4", "1/", "/4", "1/0", "1/4x", "-1/4"}) {
    try {
      (void)parseShard(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("bad --shard '") + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(shardChunks(10, 2, 4), (std::vector<u64>{1, 5, 9}));
  // Every chunk belongs to exactly one shard, whatever the number of shards.
  for (int shards : {1, 3, 7}) {
    std::vector<int> owners(20, 0);
    for (int s = 1; s <= shards; ++s)
      for (u64 k : shardChunks(20, s, shards)) ++owners[k];
    for (int n : owners) EXPECT_EQ(n, 1);
  }
}

}  // namespace
}  // namespace janus::records
