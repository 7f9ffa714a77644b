#pragma once
// TaskThread: one persistent thread that runs tasks one at a time, asynchronously. The engine
// runs each search (a `go`) on it: start() hands the task over and returns at once, wait()
// blocks until it has returned. The same thread serves every task, so a search does not pay for
// a new thread: std::thread's clone, and on its exit glibc's madvise(MADV_DONTNEED) of the unused
// stack (advise_stack_range in nptl), a TLB shootdown across the cores, then page faults when the
// next thread touches that stack again. Measured with `perf record` on `janus datagen` (5000
// nodes a move, a search per move): 7.6% of the time in that madvise and 3.8% in page faults.
//
// Threading contract: start() and wait() are called by one controlling thread (or under its
// lock), never from inside a task. The thread is started by the first start(); the destructor
// waits for the task in progress, then ends the thread. An exception that escapes a task ends
// the program (std::terminate), as it would from a std::thread's function.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace janus {

class TaskThread {
 public:
  TaskThread() = default;
  ~TaskThread();
  TaskThread(const TaskThread&) = delete;
  TaskThread& operator=(const TaskThread&) = delete;

  /// Runs `task` on the thread and returns without waiting for it. Throws std::logic_error if a
  /// task is still running (call wait() first) or if called from inside a task.
  void start(std::function<void()> task);
  /// Blocks until the task started last has returned (at once if none is running). Throws
  /// std::logic_error if called from inside a task (it would wait for itself).
  void wait();
  /// True from start() until the task has returned.
  [[nodiscard]] bool busy() const;

 private:
  void loop();

  mutable std::mutex m_mutex;
  std::condition_variable m_cv;  ///< signals a new task, the end of a task, or m_quit
  std::function<void()> m_task;  ///< the task not yet taken by the thread
  bool m_busy = false;
  bool m_quit = false;
  std::thread::id m_id;  ///< the thread's id once it runs (guarded by m_mutex)
  std::thread m_thread;  ///< touched by the controlling thread only
};

}  // namespace janus
