#include "server/server.h"

#include <httplib.h>
#include <malloc.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "nnue/network.h"
#include "server/json_util.h"
#include "server/static_files.h"
#include "util/error.h"

#ifndef JANUS_WEB_DIR
#define JANUS_WEB_DIR "web/dist"
#endif
#ifndef JANUS_WEB_RELATIVE
#define JANUS_WEB_RELATIVE "../share/janus/web"
#endif

namespace janus::server {

namespace fs = std::filesystem;

namespace {

/// An HTTP error other than 400 (which is janus::Error) and 500.
struct HttpError {
  int status;
  std::string message;
};

constexpr const char* kJson = "application/json";
constexpr size_t kMaxBody = size_t(2) << 20;  // 2 MiB: a long PGN fits easily

void sendJson(httplib::Response& res, int status, const Json& j) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(dumpJson(j), kJson);
}

Json parseBody(const httplib::Request& req) {
  if (req.body.find_first_not_of(" \t\r\n") == std::string::npos) return Json::object();
  Json j;
  try {
    j = Json::parse(req.body);
  } catch (const Json::parse_error& e) {
    throw Error(std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) throw Error("request body must be a JSON object");
  return j;
}

std::string randomId() {
  std::random_device rd;
  std::string id;
  static const char* kHex = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) id += kHex[rd() & 15];
  return id;
}

bool isLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

/// Gives memory that closed sessions freed (hash tables, game states) back to the system: glibc
/// keeps freed heap memory in its arenas (one per thread, and the HTTP pool has 64 threads), so
/// without this the process's RSS only grows as sessions come and go.
void releaseFreedMemory() { malloc_trim(0); }

bool isSessionId(std::string_view s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

std::string allowedMethods(std::string_view path) {
  if (path.rfind("/api/", 0) != 0) return "GET, HEAD";  // static files
  if (path == "/api/info") return "GET, HEAD";
  if (path == "/api/sessions") return "POST";
  if (path.rfind("/api/reports/", 0) == 0) return "GET, HEAD";
  constexpr std::string_view kSessions = "/api/sessions/";
  if (path.rfind(kSessions, 0) != 0) return "";
  std::string_view rest = path.substr(kSessions.size());
  if (!isSessionId(rest.substr(0, 32))) return "";
  rest.remove_prefix(32);
  if (rest.empty()) return "GET, HEAD, DELETE";
  if (rest == "/events" || rest == "/pgn") return "GET, HEAD";
  static constexpr std::string_view kActions[] = {"new", "move", "undo", "resign", "load", "mode", "analysis",
                                                  "hint", "evaluate", "review", "leave", "debug/fail"};
  for (std::string_view a : kActions)
    if (rest.size() == a.size() + 1 && rest[0] == '/' && rest.substr(1) == a) return "POST";
  return "";
}

namespace {

/// Host name of a Host header ("localhost:8080" -> "localhost", "[::1]:80" -> "[::1]").
std::string hostName(const std::string& header) {
  if (!header.empty() && header[0] == '[') return header.substr(0, header.find(']') + 1);
  return header.substr(0, header.find(':'));
}

}  // namespace

fs::path buildTreeWebDir() { return fs::path(JANUS_WEB_DIR); }

fs::path executablePath() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

WebDirChoice locateWebDir(const fs::path& explicitDir, const fs::path& exe) {
  if (!explicitDir.empty()) return {explicitDir, "--web-dir", {explicitDir}};
  if (const char* env = std::getenv("JANUS_WEB_DIR"); env && *env) return {env, "JANUS_WEB_DIR", {env}};
  WebDirChoice c;
  fs::path installed = exe.empty() ? fs::path() : (exe.parent_path() / JANUS_WEB_RELATIVE).lexically_normal();
  std::error_code ec;
  for (const auto& [dir, source] : {std::pair{installed, "installed"}, std::pair{buildTreeWebDir(), "build tree"}}) {
    if (dir.empty()) continue;
    c.tried.push_back(dir);
    if (fs::is_regular_file(dir / "index.html", ec)) {
      c.dir = dir;
      c.source = source;
      return c;
    }
  }
  c.dir = installed.empty() ? buildTreeWebDir() : installed;
  c.source = "none";
  return c;
}

namespace {

/// The answer to "/" when the web folder has no page: what is missing and how to build it.
std::string missingPageHtml(const fs::path& webDir, const std::vector<fs::path>& tried) {
  auto esc = [](const std::string& s) {
    std::string out;
    for (char ch : s) {
      switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += ch;
      }
    }
    return out;
  };
  std::string list;
  for (const fs::path& p : tried) list += "<li><code>" + esc(p.string()) + "</code></li>";
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Janus: web page not built</title>"
         "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46em;margin:3em auto;padding:0 1em}"
         "pre,code{background:#eee;padding:2px 4px}</style></head><body>"
         "<h1>The Janus web page is not built</h1>"
         "<p><code>janus gui</code> is running (the JSON API under <code>/api/</code> works), but the folder it serves, "
         "<code>" + esc(webDir.string()) + "</code>, has no <code>index.html</code>.</p>"
         "<p>Folders looked at:</p><ul>" + list + "</ul>"
         "<p>Build the page in the source tree (Node.js 20 and npm), then reload this page:</p>"
         "<pre>cd web &amp;&amp; npm ci &amp;&amp; npm run build</pre>"
         "<p>or install Janus with its page (<code>cmake --install build</code> puts it in "
         "<code>&lt;prefix&gt;/share/janus/web</code>), or point the server at a built page with "
         "<code>janus gui --web-dir DIR</code> or the environment variable <code>JANUS_WEB_DIR</code>.</p>"
         "</body></html>\n";
}

}  // namespace

GuiServer::GuiServer(ServerConfig config)
    : m_config(std::move(config)), m_storage(m_config.dataDir), m_http(std::make_unique<httplib::Server>()) {
  if (m_config.webDir.empty()) {
    WebDirChoice web = locateWebDir({});
    m_config.webDir = web.dir;
    m_webTried = web.tried;
  } else {
    m_webTried = {m_config.webDir};
  }
  // Facts about the engine for the page: faces, levels, review thresholds, the option registry.
  Engine probe;
  probe.setOption("Hash", "1");
  const Options& opts = probe.options();
  Json options = Json::array();
  for (const OptionSpec* s : opts.specs()) {
    static const char* kTypes[] = {"check", "spin", "combo", "button", "string"};
    Json o = {{"name", s->name}, {"type", kTypes[int(s->type)]}, {"default", s->defaultValue}, {"help", s->help}};
    if (s->type == OptionSpec::Type::kSpin) o["min"] = s->min, o["max"] = s->max;
    if (s->type == OptionSpec::Type::kCombo) o["choices"] = s->choices;
    options.push_back(o);
  }
  Json levels = Json::array();
  for (const Level& l : kLevels) levels.push_back({{"level", l.level}, {"depth", l.depth}, {"moveTimeMs", l.moveTimeMs}});
  Json elo = nullptr;
  if (opts.contains("UCI_Elo")) {
    const OptionSpec& s = opts.spec("UCI_Elo");
    elo = {{"min", s.min}, {"max", s.max}, {"default", kDefaultElo}};
  }
  // The default strength and analysis lines (session.h), the one source the page's dialogs use.
  Json defaults = {{"strength", elo.is_null() ? "level" : "elo"},
                   {"elo", elo.is_null() ? Json(nullptr) : Json(kDefaultElo)},
                   {"level", kDefaultLevel},
                   {"moveTimeMs", 500},
                   {"multiPv", kDefaultMultiPv},
                   {"mctsPlayouts", kDefaultMctsPlayouts},
                   {"analysisFace", analysisFaceName(AnalysisFace::kAlphaBeta)}};
  // Engine faces: alpha-beta with the built-in NNUE network (first, the default, when the binary
  // embeds one) or with the hand-crafted evaluation, and MCTS with the engine's default backend
  // (the built-in policy/value network when there is one). The probe loads the backend once, so
  // a broken network shows at start-up.
  const auto net = nnue::defaultNetwork();
  probe.setOption("MCTS Cache", "0");
  probe.setOption("Search", "mcts");
  const std::string mctsBackend = probe.evaluationName();
  const bool mctsNet = opts.value("MCTS Backend") != "uniform";
  Json faces = Json::array({
      {{"id", "alphabeta-nnue"}, {"name", "Alpha-beta, NNUE"}, {"available", net != nullptr}},
      {{"id", "alphabeta-hce"}, {"name", "Alpha-beta, hand-crafted eval"}, {"available", true}},
      {{"id", "mcts"}, {"name", mctsNet ? "MCTS, policy/value net" : "MCTS, uniform priors (no network built in)"}, {"available", true}},
  });
  m_infoJson = dumpJson(Json{{"name", "Janus"},
                    {"version", JANUS_VERSION},
                    {"faces", faces},
                    {"nnue", net ? Json(net->describe()) : Json(nullptr)},
                    {"mcts", {{"backend", mctsBackend},
                              {"playouts", {{"min", kMinMctsPlayouts}, {"max", kMaxMctsPlayouts}, {"default", kDefaultMctsPlayouts}}},
                              {"tableRows", kMctsTableRows},
                              {"treeMiB", m_config.session.mctsTreeMiB}}},
                    {"levels", levels},
                    {"elo", elo},
                    {"defaults", defaults},
                    {"maxPlies", kMaxGamePlies},
                    {"maxBodyBytes", kMaxBody},
                    {"maxMultiPv", 5},
                    {"maxSessions", m_config.maxSessions},
                    {"review",
                     {{"inaccuracy", kInaccuracyCp},
                      {"mistake", kMistakeCp},
                      {"blunder", kBlunderCp},
                      {"clampCp", kReviewClampCp}}},
                    {"dataDir", m_storage.dataDir().string()},
                    {"options", options}});
  routes();
}

GuiServer::~GuiServer() {
  stop();
  if (m_reaper.joinable()) m_reaper.join();
  closeAll();
}

std::string GuiServer::url() const {
  std::string h = m_config.host == "0.0.0.0" ? "127.0.0.1" : m_config.host;
  if (h.find(':') != std::string::npos && h[0] != '[') h = "[" + h + "]";
  return "http://" + h + ":" + std::to_string(m_port) + "/";
}

size_t GuiServer::sessionCount() {
  std::lock_guard lock(m_sessionsMutex);
  return m_sessions.size();
}

int GuiServer::bind() {
  if (m_config.port == 0) {
    m_port = m_http->bind_to_any_port(m_config.host);
    if (m_port <= 0) throw Error("cannot bind to " + m_config.host + " (any port)");
  } else {
    if (!m_http->bind_to_port(m_config.host, m_config.port))
      throw Error("cannot bind to " + m_config.host + ":" + std::to_string(m_config.port) +
                  " (port in use? try --port 0 for any free port)");
    m_port = m_config.port;
  }
  return m_port;
}

void GuiServer::run() {
  m_runCalled = true;  // seq_cst with m_stopping: either stop() sees this or we see m_stopping
  if (m_stopping) {
    m_runExited = true;
    closeAll();
    return;
  }
  m_reaper = std::thread([this] { reaperLoop(); });
  m_http->listen_after_bind();
  m_runExited = true;
  stop();
  if (m_reaper.joinable()) m_reaper.join();
  closeAll();
}

void GuiServer::stop() {
  if (m_stopping.exchange(true)) return;
  {
    std::lock_guard lock(m_sessionsMutex);
    for (auto& [id, s] : m_sessions) s->events().close();  // ends the event streams at once
  }
  m_reaperCv.notify_all();
  // httplib's stop() does nothing before the listening loop runs: wait for it if run() started.
  if (m_runCalled)
    while (!m_http->is_running() && !m_runExited) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  m_http->stop();
}

void GuiServer::closeAll() {
  std::map<std::string, std::shared_ptr<Session>> sessions;
  {
    std::lock_guard lock(m_sessionsMutex);
    sessions.swap(m_sessions);
  }
  for (auto& [id, s] : sessions) s->close();
}

void GuiServer::reaperLoop() {
  while (!m_stopping) {
    {
      std::unique_lock lock(m_reaperMutex);
      m_reaperCv.wait_for(lock, std::chrono::milliseconds(200), [&] { return m_stopping.load(); });
    }
    if (m_stopping) break;
    std::vector<std::shared_ptr<Session>> all, expired;
    {
      std::lock_guard lock(m_sessionsMutex);
      auto now = Clock::now();
      for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (it->second->streams() == 0 && now - it->second->lastSeen() > m_config.sessionIdle) {
          expired.push_back(it->second);
          it = m_sessions.erase(it);
        } else {
          all.push_back(it->second);
          ++it;
        }
      }
    }
    for (auto& s : expired) s->close();
    if (!expired.empty()) releaseFreedMemory();
    for (auto& s : all) s->tick();
  }
}

std::shared_ptr<Session> GuiServer::findSession(const std::string& id) {
  std::lock_guard lock(m_sessionsMutex);
  auto it = m_sessions.find(id);
  if (it == m_sessions.end()) throw HttpError{404, "no such session '" + id + "' (it may have expired)"};
  return it->second;
}

void GuiServer::routes() {
  httplib::Server& http = *m_http;
  http.new_task_queue = [] { return new httplib::ThreadPool(64); };
  http.set_payload_max_length(kMaxBody);
  http.set_keep_alive_timeout(2);
  // Small JSON answers on a kept-alive connection: without TCP_NODELAY, Nagle + delayed ACK add
  // about 40 ms to every request (measured: 41-44 ms per request before, ~1 ms after).
  http.set_tcp_nodelay(true);

  // Runs `f` and turns its outcome into a response: JSON on success, 400 for janus::Error and JSON
  // type errors, 403/404/503 for HttpError, 500 plus a bug report for anything else.
  auto api = [this](const httplib::Request& req, httplib::Response& res, auto&& f,
                    std::shared_ptr<Session> session = nullptr) {
    try {
      f(session);
    } catch (const HttpError& e) {
      sendJson(res, e.status, {{"error", e.message}});
    } catch (const Error& e) {
      sendJson(res, 400, {{"error", e.what()}});
    } catch (const Json::exception& e) {
      sendJson(res, 400, {{"error", std::string("malformed request: ") + e.what()}});
    } catch (const std::exception& e) {
      std::ostringstream report;
      report << "Janus GUI bug report\nTime: " << localTimeStamp() << "\nVersion: " << JANUS_VERSION
             << "\nError: " << e.what() << "\nRequest: " << req.method << " " << req.target << "\nBody: "
             << req.body.substr(0, 65536) << "\n\n";
      if (session) report << session->reportText();
      std::string name = m_storage.writeReport(report.str());
      Json j = {{"error", std::string("internal error: ") + e.what()}};
      if (!name.empty()) {
        j["report"] = "/api/reports/" + name;
        j["reportFile"] = (m_storage.dataDir() / "reports" / name).string();
      }
      if (session) j["pgn"] = session->pgn();
      sendJson(res, 500, j);
    }
  };
  // A handler for /api/sessions/{id}/...: finds the session first (404 if unknown).
  auto sessionApi = [this, api](auto f) {
    return [this, api, f](const httplib::Request& req, httplib::Response& res) {
      std::shared_ptr<Session> s;
      try {
        s = findSession(req.matches[1]);
      } catch (const HttpError& e) {
        sendJson(res, e.status, {{"error", e.message}});
        return;
      }
      s->touch();
      api(req, res, [&](const std::shared_ptr<Session>& session) { f(req, res, *session); }, s);
    };
  };

  http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (isLoopback(m_config.host) && req.has_header("Host")) {
      std::string host = hostName(req.get_header_value("Host"));
      if (!isLoopback(host) && host != m_config.host) {
        sendJson(res, 403, {{"error", "forbidden Host '" + host + "' (the GUI answers only on loopback)"}});
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    // A method the path does not take: 405 with the methods it takes (before the header check, so
    // that OPTIONS, PUT and PATCH are told what to use instead). Unknown API paths stay 404.
    std::string allow = allowedMethods(req.path);
    std::string method = req.method == "HEAD" ? "GET" : req.method;
    if (!allow.empty() && (", " + allow + ",").find(", " + method + ",") == std::string::npos) {
      res.set_header("Allow", allow);
      sendJson(res, 405, {{"error", "method " + req.method + " is not allowed on '" + req.path + "' (allowed: " + allow + ")"}});
      return httplib::Server::HandlerResponse::Handled;
    }
    bool changes = req.method == "POST" || req.method == "DELETE" || req.method == "PUT" || req.method == "PATCH";
    bool isLeave = req.path.size() >= 6 && req.path.compare(req.path.size() - 6, 6, "/leave") == 0;
    if (changes && !isLeave && req.get_header_value("X-Janus") != "1") {
      sendJson(res, 403, {{"error", "missing header 'X-Janus: 1' (required on POST and DELETE)"}});
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  // Errors httplib answers itself (no route ran): a body over the limit gets a message instead of
  // an empty 413.
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413 && res.body.empty()) {
      sendJson(res, 413, {{"error", "request body too large: the limit is " + std::to_string(kMaxBody >> 20) +
                                        " MiB (a PGN may have at most " + std::to_string(kMaxGamePlies) + " plies)"}});
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  }));

  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    sendJson(res, 500, {{"error", "internal error: " + what}});
  });

  http.Get("/api/info", [this](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(m_infoJson, kJson);
  });

  http.Post("/api/sessions", [this, api](const httplib::Request& req, httplib::Response& res) {
    api(req, res, [&](const std::shared_ptr<Session>&) {
      (void)parseBody(req);
      std::shared_ptr<Session> evicted, created;
      {
        std::lock_guard lock(m_sessionsMutex);
        if (int(m_sessions.size()) >= m_config.maxSessions) {
          // Make room by closing the least recently seen session that has no open page.
          auto victim = m_sessions.end();
          for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it)
            if (it->second->streams() == 0 && Clock::now() - it->second->lastSeen() > std::chrono::seconds(60) &&
                (victim == m_sessions.end() || it->second->lastSeen() < victim->second->lastSeen()))
              victim = it;
          if (victim == m_sessions.end())
            throw HttpError{503, "too many sessions (" + std::to_string(m_config.maxSessions) +
                                     " open tabs); close a tab and try again"};
          evicted = victim->second;
          m_sessions.erase(victim);
        }
        std::string id = randomId();
        created = std::make_shared<Session>(id, m_config.session, m_storage);
        m_sessions[id] = created;
      }
      if (evicted) {
        evicted->close();
        releaseFreedMemory();
      }
      sendJson(res, 200, {{"id", created->id()}, {"state", created->stateJson()}});
    });
  });

  const std::string sid = R"(/api/sessions/([0-9a-f]{32}))";
  http.Get(sid, sessionApi([](const httplib::Request&, httplib::Response& res, Session& s) {
    sendJson(res, 200, s.stateJson());
  }));
  http.Delete(sid, [this](const httplib::Request& req, httplib::Response& res) {
    std::shared_ptr<Session> s;
    {
      std::lock_guard lock(m_sessionsMutex);
      auto it = m_sessions.find(req.matches[1]);
      if (it != m_sessions.end()) {
        s = it->second;
        m_sessions.erase(it);
      }
    }
    if (!s) return sendJson(res, 404, {{"error", "no such session"}});
    s->close();
    Json gameFile = s->stateJson()["gameFile"];
    s.reset();
    releaseFreedMemory();
    sendJson(res, 200, {{"closed", true}, {"gameFile", gameFile}});
  });

  auto post = [&](const std::string& action, std::function<Json(Session&, const Json&)> f) {
    http.Post(sid + "/" + action, sessionApi([f](const httplib::Request& req, httplib::Response& res, Session& s) {
      Json body = parseBody(req);
      sendJson(res, 200, f(s, body));
    }));
  };
  post("new", [](Session& s, const Json& b) { return s.newGame(b); });
  post("move", [](Session& s, const Json& b) { return s.move(b); });
  post("undo", [](Session& s, const Json&) { return s.undo(); });
  post("resign", [](Session& s, const Json&) { return s.resign(); });
  post("load", [](Session& s, const Json& b) { return s.load(b); });
  post("mode", [](Session& s, const Json& b) { return s.setMode(b); });
  post("analysis", [](Session& s, const Json& b) { return s.analysis(b); });
  post("hint", [](Session& s, const Json&) { return s.hint(); });
  post("evaluate", [](Session& s, const Json& b) { return s.evaluate(b); });
  post("review", [](Session& s, const Json& b) { return s.review(b); });
  http.Post(sid + "/leave", sessionApi([](const httplib::Request&, httplib::Response& res, Session& s) {
    s.leave();
    sendJson(res, 200, {{"left", true}});
  }));
  if (m_config.debugEndpoints)
    post("debug/fail", [](Session&, const Json&) -> Json { throw std::runtime_error("debug: simulated internal error"); });

  http.Get(sid + "/pgn", sessionApi([](const httplib::Request&, httplib::Response& res, Session& s) {
    res.set_header("Content-Disposition", "attachment; filename=\"janus-game.pgn\"");
    res.set_content(s.pgn(), "application/x-chess-pgn");
  }));

  http.Get(sid + "/events", [this](const httplib::Request& req, httplib::Response& res) {
    std::shared_ptr<Session> s;
    try {
      s = findSession(req.matches[1]);
    } catch (const HttpError& e) {
      return sendJson(res, e.status, {{"error", e.message}});
    }
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");
    auto cursor = std::make_shared<u64>(s->events().lastSeq());
    auto first = std::make_shared<bool>(true);
    s->streamOpened();
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, s, cursor, first](size_t, httplib::DataSink& sink) {
          auto write = [&](const std::string& text) { return sink.write(text.data(), text.size()); };
          if (*first) {
            *first = false;
            // The current state first, so that a (re)connecting page is up to date at once.
            if (!write("retry: 1000\nevent: state\ndata: " + dumpJson(s->stateJson()) + "\n\n")) return false;
          }
          if (m_stopping || s->events().closed()) {
            sink.done();
            return true;
          }
          auto events = s->events().waitAfter(*cursor, std::chrono::milliseconds(1000));
          if (events.empty()) {
            // Heartbeat: a closed page makes this write fail, which ends the stream and, through
            // the releaser, stops the session's search.
            if (!write(": ping\n\n")) return false;
          }
          for (const ServerEvent& e : events) {
            if (!write("id: " + std::to_string(e.seq) + "\nevent: " + e.type + "\ndata: " + e.data + "\n\n")) return false;
            *cursor = e.seq;
          }
          s->touch();
          return true;
        },
        [s](bool) { s->streamClosed(); });
  });

  http.Get(R"(/api/reports/([A-Za-z0-9._-]+))", [this](const httplib::Request& req, httplib::Response& res) {
    auto text = m_storage.readReport(req.matches[1]);
    if (!text) return sendJson(res, 404, {{"error", "no such report"}});
    res.set_content(*text, "text/plain; charset=utf-8");
  });

  http.Get("/api/.*", [](const httplib::Request& req, httplib::Response& res) {
    sendJson(res, 404, {{"error", "unknown API path '" + req.path + "'"}});
  });
  http.Post(".*", [](const httplib::Request& req, httplib::Response& res) {
    sendJson(res, 404, {{"error", "unknown API path '" + req.path + "'"}});
  });

  // Static files: only from the web folder, resolved from the raw request target (see
  // static_files.h for the checks).
  http.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    auto file = resolveStaticPath(m_config.webDir, req.target);
    if (!file && (req.path == "/" || req.path == "/index.html") && !fs::is_regular_file(m_config.webDir / "index.html")) {
      res.status = 503;
      res.set_header("Cache-Control", "no-store");
      res.set_content(missingPageHtml(m_config.webDir, m_webTried), "text/html; charset=utf-8");
      return;
    }
    if (!file) {
      res.status = 404;
      res.set_content("not found\n", "text/plain; charset=utf-8");
      return;
    }
    std::ifstream in(*file, std::ios::binary);
    std::ostringstream data;
    if (in.is_open()) data << in.rdbuf();
    if (!in.is_open()) {
      res.status = 404;
      res.set_content("not found\n", "text/plain; charset=utf-8");
      return;
    }
    res.set_header("Cache-Control", file->filename() == "index.html" ? "no-cache" : "max-age=60");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_content(data.str(), mimeType(*file));
  });
}

}  // namespace janus::server
