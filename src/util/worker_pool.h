#pragma once
// A fixed set of threads that run one job at a time: run(job) calls job(t) for t = 0..size()-1,
// t = 0 on the calling thread, and returns when every call has returned. The NNUE trainer calls it
// a few times per batch and the alpha-beta search once per search (Lazy SMP helpers), so the
// threads are kept instead of being started for each call: starting a thread costs a clone and,
// when it ends, glibc's madvise of its unused stack (a TLB shootdown across the cores) and page
// faults the next time that stack is touched.
//
// Threading contract: run() blocks; it must not be called from inside a job or from two
// threads at once. An exception thrown by a job is rethrown by run() (the first one).

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace janus {

class WorkerPool {
 public:
  /// `threads` >= 1 (values below 1 count as 1).
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  [[nodiscard]] int size() const { return m_size; }
  /// Runs job(t) for every t in [0, size()) and waits for all of them.
  void run(const std::function<void(int)>& job);

  /// The sub-range [begin, end) of [0, n) that thread t of `parts` handles (contiguous chunks,
  /// boundaries rounded down to multiples of `align`, the last chunk ends at n).
  static void split(std::size_t n, int parts, int t, std::size_t& begin, std::size_t& end, std::size_t align = 1);

 private:
  void worker(int index);

  int m_size;
  std::vector<std::thread> m_threads;
  std::mutex m_mutex;
  std::condition_variable m_start, m_done;
  const std::function<void(int)>* m_job = nullptr;
  unsigned long m_generation = 0;
  int m_pending = 0;
  bool m_stop = false;
  std::exception_ptr m_error;
};

/// Returns `*pool` after (re)creating it when it is empty or its size is not `threads`: the
/// searches keep one pool between searches and call this before each, so the threads are
/// started again only when the Threads option changed.
WorkerPool& ensurePool(std::unique_ptr<WorkerPool>& pool, int threads);

}  // namespace janus
