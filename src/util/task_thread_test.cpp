// Tests of TaskThread (task_thread.h): tasks run asynchronously, one at a time, on one thread
// that is kept from task to task.

#include "util/task_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <vector>

namespace janus {
namespace {

TEST(TaskThread, RunsEveryTaskOnOneThreadThatIsNotTheCaller) {
  TaskThread thread;
  std::vector<std::thread::id> ids;
  for (int i = 0; i < 5; ++i) {
    thread.start([&] { ids.push_back(std::this_thread::get_id()); });
    thread.wait();
  }
  ASSERT_EQ(ids.size(), 5u);
  for (const auto& id : ids) {
    EXPECT_EQ(id, ids[0]);
    EXPECT_NE(id, std::this_thread::get_id());
  }
}

TEST(TaskThread, StartReturnsBeforeTheTaskEndsAndWaitWaitsForIt) {
  TaskThread thread;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> done{false};
  thread.start([&] {
    released.wait();
    done = true;
  });
  EXPECT_TRUE(thread.busy());
  EXPECT_FALSE(done);  // the task cannot end before it is released
  EXPECT_THROW(thread.start([] {}), std::logic_error);
  release.set_value();
  thread.wait();
  EXPECT_TRUE(done);
  EXPECT_FALSE(thread.busy());
}

TEST(TaskThread, WaitOrStartFromInsideATaskThrowsInsteadOfDeadlocking) {
  TaskThread thread;
  bool waitThrew = false, startThrew = false;
  thread.start([&] {
    try {
      thread.wait();
    } catch (const std::logic_error&) {
      waitThrew = true;
    }
    try {
      thread.start([] {});
    } catch (const std::logic_error&) {
      startThrew = true;
    }
  });
  thread.wait();
  EXPECT_TRUE(waitThrew);
  EXPECT_TRUE(startThrew);
}

TEST(TaskThread, WaitWithoutATaskReturnsAndTheDestructorFinishesTheTaskInProgress) {
  std::atomic<int> runs{0};
  {
    TaskThread idle;
    idle.wait();  // never started: returns at once
    EXPECT_FALSE(idle.busy());
  }
  {
    TaskThread thread;
    thread.start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++runs;
    });
  }  // the destructor waits for the task
  EXPECT_EQ(runs, 1);
}

}  // namespace
}  // namespace janus
