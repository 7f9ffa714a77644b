#pragma once
// A bounded, thread-safe queue of server-sent events for one session.
//
// Producers (HTTP handlers, the engine's search thread through its callbacks, the review thread)
// push() and never block on a reader: when more than kCapacity events are kept, the oldest are
// dropped, and also while the kept events' data exceed kCapacityBytes (the newest event is always
// kept): a state event of a long game is large, and 512 of them would hold hundreds of MB. Each stream reader keeps its own cursor (the sequence number of the last event it sent)
// and waits for newer events. A reader that fell behind loses the dropped events; "state" events
// carry the full game state, so the page recovers with the next one.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace janus::server {

struct ServerEvent {
  u64 seq = 0;        ///< 1, 2, 3, ... in push order
  std::string type;   ///< SSE event name: "state", "info", "review", "error"
  std::string data;   ///< JSON text (one line)
};

class EventQueue {
 public:
  static constexpr size_t kCapacity = 512;
  static constexpr size_t kCapacityBytes = size_t(4) << 20;  ///< 4 MiB of event data per session

  /// Appends an event and wakes the readers. Never blocks for long (one short lock).
  void push(std::string type, std::string data) {
    {
      std::lock_guard lock(m_mutex);
      m_bytes += data.size();
      m_events.push_back({++m_lastSeq, std::move(type), std::move(data)});
      while (m_events.size() > kCapacity || (m_bytes > kCapacityBytes && m_events.size() > 1)) {
        m_bytes -= m_events.front().data.size();
        m_events.pop_front();
      }
    }
    m_cv.notify_all();
  }

  /// Events with seq > `after`, waiting up to `timeout` for the first one. Empty on time-out or
  /// when the queue is closed.
  [[nodiscard]] std::vector<ServerEvent> waitAfter(u64 after, std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    m_cv.wait_for(lock, timeout, [&] { return m_closed || m_lastSeq > after; });
    std::vector<ServerEvent> out;
    if (m_closed) return out;
    for (const ServerEvent& e : m_events)
      if (e.seq > after) out.push_back(e);
    return out;
  }

  /// Sequence number of the newest event (0 if none yet).
  [[nodiscard]] u64 lastSeq() const {
    std::lock_guard lock(m_mutex);
    return m_lastSeq;
  }

  /// Events kept and the bytes of their data (for tests of the bounds).
  [[nodiscard]] std::pair<size_t, size_t> kept() const {
    std::lock_guard lock(m_mutex);
    return {m_events.size(), m_bytes};
  }

  /// Ends every wait (the session is going away); later waits return at once.
  void close() {
    {
      std::lock_guard lock(m_mutex);
      m_closed = true;
    }
    m_cv.notify_all();
  }
  [[nodiscard]] bool closed() const {
    std::lock_guard lock(m_mutex);
    return m_closed;
  }

 private:
  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  std::deque<ServerEvent> m_events;
  u64 m_lastSeq = 0;
  size_t m_bytes = 0;  ///< sum of data.size() over m_events
  bool m_closed = false;
};

}  // namespace janus::server
