#include "search/tt.h"

#include <gtest/gtest.h>

#include <thread>

#include "util/error.h"
#include "util/worker_pool.h"

namespace janus {
namespace {

TEST(TranspositionTable, StoreAndProbeRoundTrip) {
  TranspositionTable tt;
  tt.resize(1);
  Move m(kE2, kE4);
  tt.store(0x1234567890ABCDEFULL, -321, 45, m, 7, Bound::kLower, true);
  TTData d;
  ASSERT_TRUE(tt.probe(0x1234567890ABCDEFULL, d));
  EXPECT_EQ(d.move, m);
  EXPECT_EQ(d.score, -321);
  EXPECT_EQ(d.eval, 45);
  EXPECT_EQ(d.depth, 7);
  EXPECT_EQ(d.bound, Bound::kLower);
  EXPECT_TRUE(d.pv);
  EXPECT_FALSE(tt.probe(0x1234567890ABCDEEULL, d));
}

TEST(TranspositionTable, KeepsMoveWhenOverwrittenWithoutOne) {
  TranspositionTable tt;
  tt.resize(1);
  tt.store(42, 10, 0, Move(kG1, kF3), 5, Bound::kExact, false);
  tt.store(42, 20, 0, Move::none(), 6, Bound::kUpper, false);
  TTData d;
  ASSERT_TRUE(tt.probe(42, d));
  EXPECT_EQ(d.move, Move(kG1, kF3));
  EXPECT_EQ(d.score, 20);
}

TEST(TranspositionTable, MateScoresAreAdjustedByPly) {
  int rootMate = mateIn(7);  // mate found 7 plies from the root
  int stored = scoreToTT(rootMate, 3);  // the node is at ply 3: mate in 4 plies from the node
  EXPECT_EQ(stored, mateIn(4));
  EXPECT_EQ(scoreFromTT(stored, 5), mateIn(9));  // same node reached at ply 5
  EXPECT_EQ(scoreToTT(-rootMate, 3), -mateIn(4));
  EXPECT_EQ(scoreToTT(123, 10), 123);
  EXPECT_EQ(mateInMoves(mateIn(1)), 1);
  EXPECT_EQ(mateInMoves(mateIn(3)), 2);
  EXPECT_EQ(mateInMoves(matedIn(2)), -1);
}

TEST(TranspositionTable, HashfullAndClear) {
  TranspositionTable tt;
  tt.resize(1);
  EXPECT_EQ(tt.hashfull(), 0);
  for (u64 k = 1; k < 200000; ++k) tt.store(k * 0x9E3779B97F4A7C15ULL, 0, 0, Move::none(), 1, Bound::kExact, false);
  EXPECT_GT(tt.hashfull(), 900);
  WorkerPool pool(2);
  tt.clear(&pool);
  EXPECT_EQ(tt.hashfull(), 0);
  for (u64 k = 1; k < 200000; ++k) tt.store(k * 0x9E3779B97F4A7C15ULL, 0, 0, Move::none(), 1, Bound::kExact, false);
  tt.clear();
  EXPECT_EQ(tt.hashfull(), 0);
}

// Regression (docs/malformed-input.md): "setoption name Hash value 65536" on a machine with less
// memory made resize() throw std::bad_alloc after freeing the table, so the next search
// dereferenced a null table (segfault). Now the error is a janus::Error and the old size is kept.
TEST(TranspositionTable, FailedResizeKeepsAUsableTable) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer allocators abort on impossible allocations instead of throwing";
#else
  TranspositionTable tt;
  tt.resize(2);
  try {
    tt.resize(size_t(1) << 40);  // 1 EiB: fails on any machine
    FAIL() << "an impossible allocation succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot allocate 1099511627776 MiB for the hash table"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(tt.sizeMiB(), 2u);
  tt.store(42, 10, 0, Move(kG1, kF3), 5, Bound::kExact, false);
  TTData d;
  ASSERT_TRUE(tt.probe(42, d));
  EXPECT_EQ(d.move, Move(kG1, kF3));
#endif
}

TEST(TranspositionTable, ConcurrentWritersNeverYieldTornEntries) {
  // Every writer stores data whose fields all derive from the key; a reader that gets a hit
  // must see consistent fields (lockless hashing rejects torn entries).
  TranspositionTable tt;
  tt.resize(1);
  auto writer = [&tt](u64 seed) {
    for (u64 i = 0; i < 200000; ++i) {
      u64 key = (i % 512 + 1) * 0x9E3779B97F4A7C15ULL;
      int v = int(key % 1000);
      tt.store(key, v, v, Move(u16(v)), int(seed), Bound::kExact, false);
    }
  };
  std::atomic<bool> done{false};
  std::thread a(writer, 1), b(writer, 2);
  std::thread reader([&] {
    while (!done.load()) {
      for (u64 i = 0; i < 512; ++i) {
        u64 key = (i + 1) * 0x9E3779B97F4A7C15ULL;
        TTData d;
        if (tt.probe(key, d)) {
          EXPECT_EQ(d.score, int(key % 1000));
          EXPECT_EQ(d.eval, int(key % 1000));
        }
      }
    }
  });
  a.join();
  b.join();
  done = true;
  reader.join();
  int hits = 0;
  for (u64 i = 0; i < 512; ++i) {
    TTData d;
    hits += tt.probe((i + 1) * 0x9E3779B97F4A7C15ULL, d);
  }
  EXPECT_GT(hits, 400);
}

}  // namespace
}  // namespace janus
