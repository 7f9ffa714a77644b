// Tests of WorkerPool (worker_pool.h): every index runs once per run(), index 0 on the caller,
// the threads are kept between runs, the first exception comes back, split() covers [0, n), ensurePool
// replaces a pool only when the size changes.

#include "util/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace janus {
namespace {

TEST(WorkerPool, RunsEachIndexOnceWithIndexZeroOnTheCallerAndKeepsItsThreads) {
  WorkerPool pool(3);
  ASSERT_EQ(pool.size(), 3);
  std::vector<std::set<std::thread::id>> idsOf(3);
  std::mutex mutex;
  for (int round = 0; round < 4; ++round) {
    std::vector<int> calls(3, 0);
    pool.run([&](int t) {
      std::lock_guard lock(mutex);
      ++calls[size_t(t)];
      idsOf[size_t(t)].insert(std::this_thread::get_id());
    });
    EXPECT_EQ(calls, (std::vector<int>{1, 1, 1}));
  }
  EXPECT_EQ(idsOf[0], std::set<std::thread::id>{std::this_thread::get_id()});
  for (int t = 1; t < 3; ++t) {
    EXPECT_EQ(idsOf[size_t(t)].size(), 1u) << "index " << t << " ran on more than one thread";
    EXPECT_EQ(idsOf[size_t(t)].count(std::this_thread::get_id()), 0u);
  }
  EXPECT_NE(*idsOf[1].begin(), *idsOf[2].begin());
}

TEST(WorkerPool, OneThreadRunsOnTheCallerAndSizesBelowOneCountAsOne) {
  WorkerPool pool(0);
  EXPECT_EQ(pool.size(), 1);
  std::thread::id ran;
  pool.run([&](int t) {
    EXPECT_EQ(t, 0);
    ran = std::this_thread::get_id();
  });
  EXPECT_EQ(ran, std::this_thread::get_id());
}

TEST(WorkerPool, EnsurePoolKeepsAPoolOfTheRightSizeAndReplacesOneOfAnother) {
  std::unique_ptr<WorkerPool> pool;
  WorkerPool& first = ensurePool(pool, 2);
  EXPECT_EQ(&first, pool.get());
  EXPECT_EQ(first.size(), 2);
  EXPECT_EQ(&ensurePool(pool, 2), &first);  // same size: the same pool and threads
  EXPECT_EQ(ensurePool(pool, 3).size(), 3);
  EXPECT_EQ(ensurePool(pool, 0).size(), 1);  // sizes below one count as one
  WorkerPool* one = pool.get();
  EXPECT_EQ(&ensurePool(pool, 1), one);
  std::atomic<int> calls{0};
  ensurePool(pool, 4).run([&](int) { ++calls; });
  EXPECT_EQ(calls.load(), 4);
}

TEST(WorkerPool, RethrowsAJobsExceptionAfterEveryIndexHasReturned) {
  WorkerPool pool(2);
  std::atomic<int> finished{0};
  EXPECT_THROW(pool.run([&](int t) {
    ++finished;
    if (t == 1) throw std::runtime_error("job 1 failed");
  }),
               std::runtime_error);
  EXPECT_EQ(finished, 2);
  pool.run([&](int) { ++finished; });  // still usable after a failed run
  EXPECT_EQ(finished, 4);
}

TEST(WorkerPool, SplitCoversTheRangeInOrderWithAlignedBoundaries) {
  for (std::size_t n : {0u, 1u, 15u, 16u, 1000u, 1001u}) {
    for (int parts : {1, 2, 3, 7}) {
      std::size_t expectedBegin = 0;
      for (int t = 0; t < parts; ++t) {
        std::size_t begin = 0, end = 0;
        WorkerPool::split(n, parts, t, begin, end, 16);
        EXPECT_EQ(begin, expectedBegin) << "n " << n << " parts " << parts << " t " << t;
        EXPECT_LE(begin, end);
        if (t + 1 < parts) EXPECT_EQ(end % 16, 0u);
        expectedBegin = end;
      }
      EXPECT_EQ(expectedBegin, n) << "n " << n << " parts " << parts;
    }
  }
}

}  // namespace
}  // namespace janus
