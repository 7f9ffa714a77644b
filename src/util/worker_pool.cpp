// WorkerPool (worker_pool.h).

#include "util/worker_pool.h"

#include <algorithm>

namespace janus {

WorkerPool::WorkerPool(int threads) : m_size(std::max(1, threads)) {
  for (int i = 1; i < m_size; ++i) m_threads.emplace_back([this, i] { worker(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_start.notify_all();
  for (auto& t : m_threads) t.join();
}

void WorkerPool::run(const std::function<void(int)>& job) {
  {
    std::lock_guard lock(m_mutex);
    m_job = &job;
    m_pending = m_size - 1;
    m_error = nullptr;
    ++m_generation;
  }
  m_start.notify_all();
  std::exception_ptr own;
  try {
    job(0);
  } catch (...) {
    own = std::current_exception();
  }
  std::unique_lock lock(m_mutex);
  m_done.wait(lock, [&] { return m_pending == 0; });
  m_job = nullptr;
  if (own) std::rethrow_exception(own);
  if (m_error) std::rethrow_exception(m_error);
}

void WorkerPool::worker(int index) {
  unsigned long seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock lock(m_mutex);
      m_start.wait(lock, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
      job = m_job;
    }
    std::exception_ptr error;
    try {
      (*job)(index);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(m_mutex);
      if (error && !m_error) m_error = error;
      if (--m_pending == 0) m_done.notify_one();
    }
  }
}

void WorkerPool::split(std::size_t n, int parts, int t, std::size_t& begin, std::size_t& end, std::size_t align) {
  auto at = [&](int k) {
    if (k >= parts) return n;
    const std::size_t b = n * std::size_t(k) / std::size_t(parts);
    return std::min(n, b / align * align);
  };
  begin = at(t);
  end = at(t + 1);
}

WorkerPool& ensurePool(std::unique_ptr<WorkerPool>& pool, int threads) {
  if (!pool || pool->size() != std::max(1, threads)) {
    pool.reset();  // the old threads end before the new ones start
    pool = std::make_unique<WorkerPool>(threads);
  }
  return *pool;
}

}  // namespace janus
