// TaskThread (task_thread.h).

#include "util/task_thread.h"

#include <stdexcept>

namespace janus {

TaskThread::~TaskThread() {
  if (!m_thread.joinable()) return;
  {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return !m_busy; });
    m_quit = true;
  }
  m_cv.notify_all();
  m_thread.join();
}

void TaskThread::start(std::function<void()> task) {
  // The thread first: if starting it throws, no task is marked busy that nothing would run.
  if (!m_thread.joinable()) m_thread = std::thread([this] { loop(); });
  {
    std::lock_guard lock(m_mutex);
    if (std::this_thread::get_id() == m_id) throw std::logic_error("TaskThread::start called from inside a task");
    if (m_busy) throw std::logic_error("TaskThread::start while a task is running (wait first)");
    m_task = std::move(task);
    m_busy = true;
  }
  m_cv.notify_all();
}

void TaskThread::wait() {
  std::unique_lock lock(m_mutex);
  if (std::this_thread::get_id() == m_id)
    throw std::logic_error("TaskThread::wait called from inside a task (it would wait for itself)");
  m_cv.wait(lock, [&] { return !m_busy; });
}

bool TaskThread::busy() const {
  std::lock_guard lock(m_mutex);
  return m_busy;
}

void TaskThread::loop() {
  std::unique_lock lock(m_mutex);
  m_id = std::this_thread::get_id();
  for (;;) {
    m_cv.wait(lock, [&] { return m_quit || m_task; });
    if (!m_task) return;  // m_quit, nothing left to run
    std::function<void()> task = std::move(m_task);
    m_task = nullptr;
    lock.unlock();
    task();
    task = nullptr;  // the task's captures are destroyed before wait() returns
    lock.lock();
    m_busy = false;
    m_cv.notify_all();
  }
}

}  // namespace janus
