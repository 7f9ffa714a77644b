#pragma once
// Shared fixtures of the GUI server's API tests (server_http_test.cpp, server_game_test.cpp): a
// GuiServer on an ephemeral loopback port, driven with httplib's client (and a raw socket where
// the client would normalise the request path), and a reader of a session's event stream.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "server/server.h"

namespace janus::server {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

inline const httplib::Headers kApiHeaders = {{"X-Janus", "1"}};

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { start(16); }
  void TearDown() override { shutdown(); }

  /// Starts the server with at most `maxSessions` sessions and a memory budget of `memoryMiB`
  /// (0: the default).
  void start(int maxSessions, i64 memoryMiB = 0) {
    std::signal(SIGPIPE, SIG_IGN);
    m_base = fs::temp_directory_path() /
             ("janus-server-test-" + std::to_string(::getpid()) + "-" + std::to_string(m_instance++));
    fs::remove_all(m_base);
    fs::create_directories(m_base / "web" / "assets");
    std::ofstream(m_base / "web" / "index.html") << "<!doctype html><title>Janus</title>";
    std::ofstream(m_base / "web" / "assets" / "app.js") << "console.log('janus')";
    std::ofstream(m_base / "secret.txt") << "TOP-SECRET";
    ServerConfig c;
    c.port = 0;
    c.webDir = m_base / "web";
    c.dataDir = m_base / "data";
    c.maxSessions = maxSessions;
    c.memoryMiB = memoryMiB;
    c.debugEndpoints = true;
    c.session.hashMiB = 1;
    c.session.hintMoveTimeMs = 200;
    c.session.evalMoveTimeMs = 100;
    m_server = std::make_unique<GuiServer>(c);
    m_port = m_server->bind();
    m_thread = std::thread([this] { m_server->run(); });
    m_client = std::make_unique<httplib::Client>("127.0.0.1", m_port);
    m_client->set_read_timeout(30, 0);
  }

  void shutdown() {
    m_client.reset();
    if (m_server) m_server->stop();
    if (m_thread.joinable()) m_thread.join();
    m_server.reset();
    fs::remove_all(m_base);
  }

  /// POST with the API header; returns status and parsed JSON body (null if not JSON).
  std::pair<int, Json> post(const std::string& path, const std::string& body = "{}") {
    auto r = m_client->Post(path.c_str(), kApiHeaders, body, "application/json");
    if (!r) return {0, nullptr};
    return {r->status, Json::parse(r->body, nullptr, false)};
  }
  std::pair<int, Json> get(const std::string& path) {
    auto r = m_client->Get(path.c_str());
    if (!r) return {0, nullptr};
    return {r->status, Json::parse(r->body, nullptr, false)};
  }
  std::string newSession() {
    auto [status, j] = post("/api/sessions");
    EXPECT_EQ(status, 200) << j.dump();
    return j.value("id", "");
  }
  /// Polls the state until `pred` holds (at most 20 s of waiting; a failing test, not a timing one).
  Json waitState(const std::string& id, const std::function<bool(const Json&)>& pred) {
    Json s;
    for (int i = 0; i < 1000; ++i) {
      s = get("/api/sessions/" + id).second;
      if (pred(s)) return s;
      std::this_thread::sleep_for(20ms);
    }
    ADD_FAILURE() << "state never reached the expected condition: " << s.dump();
    return s;
  }

  /// Raw HTTP GET of `target` exactly as given (no client-side normalisation).
  std::pair<int, std::string> rawGet(const std::string& target, const std::string& host = "127.0.0.1") {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(u16(m_port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      return {0, ""};
    }
    std::string req = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
    (void)!::write(fd, req.data(), req.size());
    std::string resp;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) resp.append(buf, size_t(n));
    ::close(fd);
    int status = resp.size() > 12 ? std::atoi(resp.c_str() + 9) : 0;
    return {status, resp};
  }

  fs::path m_base;
  int m_instance = 0;
  int m_port = 0;
  std::unique_ptr<GuiServer> m_server;
  std::thread m_thread;
  std::unique_ptr<httplib::Client> m_client;
};

/// Reads a session's event stream on its own thread and keeps the "info" events, parsed.
class InfoStream {
 public:
  InfoStream(int port, const std::string& base) : m_client("127.0.0.1", port) {
    m_reader = std::thread([this, base] {
      m_client.Get((base + "/events").c_str(), [&](const char* data, size_t n) {
        std::lock_guard lock(m_mutex);
        m_buffer.append(data, n);
        for (size_t end; (end = m_buffer.find("\n\n")) != std::string::npos; m_buffer.erase(0, end + 2)) {
          const std::string event = m_buffer.substr(0, end);  // "[retry|id: ...\n]event: T\ndata: D"
          if (size_t at = event.find("event: state\ndata: "); at != std::string::npos) {
            m_connected = true;
            m_lastState = Json::parse(event.substr(at + 19));
          }
          if (size_t at = event.find("event: info\ndata: "); at != std::string::npos)
            m_infos.push_back(Json::parse(event.substr(at + 18)));
        }
        return !m_done;
      });
    });
  }
  ~InfoStream() {
    m_done = true;
    m_client.stop();
    m_reader.join();
  }
  [[nodiscard]] bool connected() const { return m_connected; }
  /// The last "state" event the stream delivered (null before the first).
  [[nodiscard]] Json lastState() {
    std::lock_guard lock(m_mutex);
    return m_lastState;
  }
  /// Waits (at most 20 s) for an info event that satisfies `pred`, and returns it (null if none came).
  Json waitFor(const std::function<bool(const Json&)>& pred) {
    for (int i = 0; i < 1000; ++i) {
      {
        std::lock_guard lock(m_mutex);
        for (const Json& j : m_infos)
          if (pred(j)) return j;
      }
      std::this_thread::sleep_for(20ms);
    }
    return nullptr;
  }
  void clear() {
    std::lock_guard lock(m_mutex);
    m_infos.clear();
  }
  [[nodiscard]] std::vector<Json> all() {
    std::lock_guard lock(m_mutex);
    return m_infos;
  }

 private:
  httplib::Client m_client;
  std::mutex m_mutex;
  std::string m_buffer;    // guarded by m_mutex
  std::vector<Json> m_infos;  // guarded by m_mutex
  Json m_lastState;           // guarded by m_mutex
  std::atomic<bool> m_connected{false}, m_done{false};
  std::thread m_reader;
};

}  // namespace janus::server
