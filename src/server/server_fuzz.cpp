// libFuzzer target: the GUI server's HTTP/JSON request handlers (server_routes.cpp, session_*.cpp,
// static_files.cpp), driven over loopback HTTP exactly as the page drives them.
//
// One GuiServer (port 0, data folder under /dev/shm) serves the whole run. Each input is a script
// of requests, one per line:   METHOD PATH [BODY]
// METHOD is GET, POST or DELETE; "{sid}" in PATH is replaced by a session made for this input (a
// POST /api/sessions before the script; the session is deleted after it). The "X-Janus: 1" header
// is sent unless the line starts with '!'. Up to 32 requests per input.
// Properties: the server answers every request (no lost connection, no crash under ASan/UBSan)
// and never with 500 (internal error: bad input must be 400/403/404/405/413/503 with a JSON
// {"error": ...} body), and a static file request never returns a file outside the web folder.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "server/server.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

struct Fixture {
  std::filesystem::path root = "/dev/shm/janus-server-fuzz-" + std::to_string(::getpid());
  std::unique_ptr<server::GuiServer> gui;
  std::thread thread;
  std::unique_ptr<httplib::Client> client;
  unsigned long inputs = 0;

  Fixture() {
    std::filesystem::create_directories(root / "web" / "assets");
    std::ofstream(root / "web" / "index.html") << "<!doctype html><title>fuzz</title>";
    std::ofstream(root / "web" / "assets" / "app.js") << "console.log(1)";
    std::ofstream(root / "secret.txt") << "outside the web folder";
    server::ServerConfig config;
    config.port = 0;
    config.webDir = root / "web";
    config.dataDir = root / "data";
    config.maxSessions = 4;
    // Keep engine work per request small: hints, evaluations and reviews are capped.
    config.session.hashMiB = 1;
    config.session.hintDepth = 2;
    config.session.hintMoveTimeMs = 5;
    config.session.evalDepth = 2;
    config.session.evalMoveTimeMs = 5;
    gui = std::make_unique<server::GuiServer>(config);
    int port = gui->bind();
    thread = std::thread([this] { gui->run(); });
    client = std::make_unique<httplib::Client>("127.0.0.1", port);
    client->set_keep_alive(true);
    client->set_tcp_nodelay(true);
    client->set_read_timeout(20, 0);
  }
  ~Fixture() {
    gui->stop();
    thread.join();
    std::filesystem::remove_all(root);
  }
};

httplib::Result send(httplib::Client& c, const std::string& method, const std::string& path, const std::string& body,
                     bool withHeader) {
  httplib::Headers headers;
  if (withHeader) headers.emplace("X-Janus", "1");
  if (method == "GET") return c.Get(path, headers);
  if (method == "DELETE") return c.Delete(path, headers, body, "application/json");
  return c.Post(path, headers, body, "application/json");
}

void checkResponse(const httplib::Result& r, const std::string& line) {
  fuzz::check(bool(r), "the server answers every request", line + ": " + httplib::to_string(r.error()));
  fuzz::check(r->status != 500, "bad input is never an internal error (500)", line + " -> " + r->body);
  fuzz::check(r->body.find("outside the web folder") == std::string::npos, "no file outside the web folder",
              line);
  if (r->status >= 400 && r->get_header_value("Content-Type").find("json") != std::string::npos) {
    auto j = nlohmann::json::parse(r->body, nullptr, false);
    fuzz::check(j.is_object() && j.contains("error"), "errors are {\"error\": ...}", line + " -> " + r->body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture f;
  auto& c = *f.client;
  auto created = c.Post("/api/sessions", httplib::Headers{{"X-Janus", "1"}}, "{}", "application/json");
  fuzz::check(bool(created), "POST /api/sessions answers");
  std::string sid;
  if (created->status == 200) sid = nlohmann::json::parse(created->body).value("id", "");

  std::istringstream script(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  for (int n = 0; n < 32 && std::getline(script, line); ++n) {
    bool withHeader = true;
    std::string text = line;
    if (!text.empty() && text[0] == '!') {
      withHeader = false;
      text.erase(0, 1);
    }
    std::istringstream ls(text);
    std::string method, path;
    ls >> method >> path;
    if (method != "GET" && method != "POST" && method != "DELETE") continue;
    if (path.empty() || path[0] != '/' || path.find_first_of(std::string("\0 \r\n", 4)) != std::string::npos) continue;
    for (size_t p; (p = path.find("{sid}")) != std::string::npos;) path.replace(p, 5, sid);
    std::string body;
    std::getline(ls, body);
    if (path.find("/events") != std::string::npos) continue;  // a stream never ends
    checkResponse(send(c, method, path, body, withHeader), line);
  }
  if (!sid.empty()) (void)c.Delete("/api/sessions/" + sid, httplib::Headers{{"X-Janus", "1"}});
  // Saved games pile up in the data folder: clear it now and then.
  if (++f.inputs % 512 == 0) {
    std::error_code ec;
    for (const auto& d : {"games", "reports"})
      for (const auto& e : std::filesystem::directory_iterator(f.root / "data" / d, ec))
        std::filesystem::remove(e.path(), ec);
  }
  return 0;
}
