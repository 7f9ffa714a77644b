// The HTTP side of GuiServer: the checks before routing (Host, method, "X-Janus" header), the error
// answers, and the route table ({method, pattern, handler}) with its handlers. Server start, stop and
// the session reaper are in server.cpp; the endpoints are listed in server.h and docs/gui.md.

#include <httplib.h>
#include <malloc.h>

#include <fstream>
#include <random>
#include <sstream>

#include "server/json_util.h"
#include "server/request_limits.h"
#include "server/server.h"
#include "server/static_files.h"
#include "server/tablebase_info.h"
#include "util/error.h"

namespace janus::server {

namespace fs = std::filesystem;

/// One entry of the route table: requests with `method` ("GET", "POST" or "DELETE"; GET also
/// answers HEAD) whose path matches the regular expression `pattern` go to `handler`. Within one
/// method the first matching entry wins, so the catch-all patterns come last.
struct GuiServer::Route {
  std::string method;
  std::string pattern;
  HttpHandler handler;
};

namespace {

constexpr const char* kJson = "application/json";

void sendJson(httplib::Response& res, int status, const Json& j) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(dumpJson(j), kJson);
}

/// The request's JSON object (an empty body is {}). Throws HttpError 413 for a body over the
/// path's limit (request_limits.h), janus::Error for malformed JSON or a body that is no object.
Json parseBody(const httplib::Request& req) {
  if (req.body.size() > bodyLimit(req.path)) throw HttpError(413, bodyTooLargeMessage(req.path, req.body.size()));
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

bool isSessionId(std::string_view s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// Host name of a Host header ("localhost:8080" -> "localhost", "[::1]:80" -> "[::1]").
std::string hostName(const std::string& header) {
  if (!header.empty() && header[0] == '[') return header.substr(0, header.find(']') + 1);
  return header.substr(0, header.find(':'));
}

/// The session requests that take a JSON body and answer with JSON (POST /api/sessions/{id}/NAME;
/// Session's methods of the same names, session.h).
struct SessionAction {
  std::string_view name;
  Json (*run)(Session&, const Json&);
};
constexpr SessionAction kSessionActions[] = {
    {"new", [](Session& s, const Json& b) { return s.newGame(b); }},
    {"move", [](Session& s, const Json& b) { return s.move(b); }},
    {"undo", [](Session& s, const Json&) { return s.undo(); }},
    {"resign", [](Session& s, const Json&) { return s.resign(); }},
    {"load", [](Session& s, const Json& b) { return s.load(b); }},
    {"mode", [](Session& s, const Json& b) { return s.setMode(b); }},
    {"analysis", [](Session& s, const Json& b) { return s.analysis(b); }},
    {"hint", [](Session& s, const Json&) { return s.hint(); }},
    {"evaluate", [](Session& s, const Json& b) { return s.evaluate(b); }},
    {"review", [](Session& s, const Json& b) { return s.review(b); }},
};
/// The other POST paths of a session: the page leaving, and the simulated internal error of
/// --debug-endpoints (which answers 404 without that option, as an unknown path).
constexpr std::string_view kLeaveAction = "leave";
constexpr std::string_view kDebugFailAction = "debug/fail";

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

std::string allowedMethods(std::string_view path) {
  if (path.rfind("/api/", 0) != 0) return "GET, HEAD";  // static files
  if (path == "/api/info") return "GET, HEAD";
  if (path == "/api/tablebases") return "GET, HEAD, POST";
  if (path == "/api/pgn/games") return "POST";
  if (path == "/api/sessions") return "POST";
  if (path.rfind("/api/reports/", 0) == 0) return "GET, HEAD";
  constexpr std::string_view kSessions = "/api/sessions/";
  if (path.rfind(kSessions, 0) != 0) return "";
  std::string_view rest = path.substr(kSessions.size());
  if (!isSessionId(rest.substr(0, 32))) return "";
  rest.remove_prefix(32);
  if (rest.empty()) return "GET, HEAD, DELETE";
  if (rest == "/events" || rest == "/pgn") return "GET, HEAD";
  if (rest[0] != '/') return "";
  rest.remove_prefix(1);
  if (rest == kLeaveAction || rest == kDebugFailAction) return "POST";
  for (const SessionAction& a : kSessionActions)
    if (rest == a.name) return "POST";
  return "";
}

void GuiServer::releaseFreedMemory() { malloc_trim(0); }

std::shared_ptr<Session> GuiServer::findSession(const std::string& id) {
  std::lock_guard lock(m_sessionsMutex);
  auto it = m_sessions.find(id);
  if (it == m_sessions.end()) throw HttpError(404, "no such session '" + id + "' (it may have expired)");
  return it->second;
}

void GuiServer::routes() {
  httplib::Server& http = *m_http;
  http.new_task_queue = [] { return new httplib::ThreadPool(64); };
  http.set_payload_max_length(kMaxBodyBytes);
  http.set_keep_alive_timeout(2);
  // Small JSON answers on a kept-alive connection: without TCP_NODELAY, Nagle + delayed ACK add
  // about 40 ms to every request (measured: 41-44 ms per request before, ~1 ms after).
  http.set_tcp_nodelay(true);
  installHooks();
  for (Route& r : routeTable()) {
    if (r.method == "GET")
      http.Get(r.pattern, std::move(r.handler));
    else if (r.method == "POST")
      http.Post(r.pattern, std::move(r.handler));
    else if (r.method == "DELETE")
      http.Delete(r.pattern, std::move(r.handler));
    else
      throw std::logic_error("route table: unknown method " + r.method);
  }
}

std::vector<GuiServer::Route> GuiServer::routeTable() {
  using Request = httplib::Request;
  using Response = httplib::Response;
  const std::string sid = R"(/api/sessions/([0-9a-f]{32}))";
  auto unknownApiPath = [](const Request& req, Response& res) {
    sendJson(res, 404, {{"error", "unknown API path '" + req.path + "'"}});
  };
  std::vector<Route> table = {
      {"GET", "/api/info", [this](const Request&, Response& res) { sendJson(res, 200, infoJson()); }},
      {"GET", "/api/tablebases", [](const Request&, Response& res) { sendJson(res, 200, TablebaseInfo::status()); }},
      {"POST", "/api/pgn/games",
       [this](const Request& req, Response& res) {
         answer(req, res, [&] {
           const Json body = parseBody(req);
           if (const Json* p = field(body, "pgn"); p && p->is_string()) checkPgnSize(p->get_ref<const std::string&>());
           Json games = Json::array();
           for (const PgnGameSummary& g : listPgnGames(stringField(body, "pgn", kMaxPgnBytes, std::nullopt))) {
             Json tags = Json::object();
             for (const auto& [name, value] : g.tags) tags[name] = value;
             games.push_back({{"tags", tags}, {"plies", g.plies}, {"line", g.line}});
           }
           sendJson(res, 200, {{"games", games}});
         }, nullptr);
       }},
      {"POST", "/api/tablebases",
       [this](const Request& req, Response& res) {
         answer(req, res, [&] {
           const Json body = parseBody(req);
           sendJson(res, 200, TablebaseInfo::load(stringField(body, "syzygyPath", 4096, std::nullopt)));
         }, nullptr);
       }},
      {"POST", "/api/sessions", [this](const Request& req, Response& res) { createSession(req, res); }},
      {"GET", sid, sessionHandler([](const Request&, Response& res, Session& s) { sendJson(res, 200, s.stateJson()); })},
      {"DELETE", sid, [this](const Request& req, Response& res) { deleteSession(req, res); }},
  };
  for (const SessionAction& a : kSessionActions)
    table.push_back({"POST", sid + "/" + std::string(a.name),
                     sessionHandler([run = a.run](const Request& req, Response& res, Session& s) {
                       Json body = parseBody(req);
                       sendJson(res, 200, run(s, body));
                     })});
  table.push_back({"POST", sid + "/" + std::string(kLeaveAction),
                   sessionHandler([](const Request&, Response& res, Session& s) {
                     s.leave();
                     sendJson(res, 200, {{"left", true}});
                   })});
  if (m_config.debugEndpoints)
    table.push_back({"POST", sid + "/" + std::string(kDebugFailAction),
                     sessionHandler([](const Request& req, Response&, Session&) {
                       (void)parseBody(req);
                       throw std::runtime_error("debug: simulated internal error");
                     })});
  table.push_back({"GET", sid + "/pgn", sessionHandler([](const Request&, Response& res, Session& s) {
                     res.set_header("Content-Disposition", "attachment; filename=\"janus-game.pgn\"");
                     res.set_content(s.pgn(), "application/x-chess-pgn");
                   })});
  table.push_back({"GET", sid + "/events", [this](const Request& req, Response& res) { streamEvents(req, res); }});
  table.push_back({"GET", R"(/api/reports/([A-Za-z0-9._-]+))", [this](const Request& req, Response& res) {
                     auto text = m_storage.readReport(req.matches[1]);
                     if (!text) return sendJson(res, 404, {{"error", "no such report"}});
                     res.set_content(*text, "text/plain; charset=utf-8");
                   }});
  table.push_back({"GET", "/api/.*", unknownApiPath});
  table.push_back({"POST", ".*", unknownApiPath});
  table.push_back({"GET", ".*", [this](const Request& req, Response& res) { serveStaticFile(req, res); }});
  return table;
}

void GuiServer::installHooks() {
  httplib::Server& http = *m_http;
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
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 413 && res.body.empty()) {
      // Over the reading limit (kMaxBodyBytes): the message names the limit of this request.
      size_t size = 0;
      try {
        size = size_t(std::stoull(req.get_header_value("Content-Length")));
      } catch (const std::exception&) {
        size = 0;  // chunked or missing: the size is not known
      }
      sendJson(res, 413, {{"error", bodyTooLargeMessage(req.path, size)}});
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
}

void GuiServer::answer(const httplib::Request& req, httplib::Response& res, const std::function<void()>& f,
                       Session* session) {
  try {
    f();
  } catch (const HttpError& e) {
    sendJson(res, e.status(), {{"error", e.what()}});
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
}

GuiServer::HttpHandler GuiServer::sessionHandler(SessionHandler f) {
  return [this, f = std::move(f)](const httplib::Request& req, httplib::Response& res) {
    std::shared_ptr<Session> s;
    try {
      s = findSession(req.matches[1]);
    } catch (const HttpError& e) {
      sendJson(res, e.status(), {{"error", e.what()}});
      return;
    }
    s->touch();
    answer(req, res, [&] { f(req, res, *s); }, s.get());
  };
}

void GuiServer::createSession(const httplib::Request& req, httplib::Response& res) {
  answer(req, res, [&] {
    (void)parseBody(req);
    using Part = MemoryBudget::Part;
    const std::string id = randomId();
    const i64 cost = sessionCostMiB(m_config.session.hashMiB);
    // The session's memory first (idle sessions' MCTS trees are freed for it when short); when
    // sessions or memory run out, the least recently seen session without an open page makes room.
    bool reserved = m_budget->reserveOrReclaim(id, Part::kSession, cost);
    std::shared_ptr<Session> evicted;
    {
      std::lock_guard lock(m_sessionsMutex);
      if (int(m_sessions.size()) >= m_config.maxSessions || !reserved) {
        auto victim = m_sessions.end();
        for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it)
          if (it->second->streams() == 0 && Clock::now() - it->second->lastSeen() > std::chrono::seconds(60) &&
              (victim == m_sessions.end() || it->second->lastSeen() < victim->second->lastSeen()))
            victim = it;
        if (victim == m_sessions.end()) {
          m_budget->release(id, Part::kSession);
          if (!reserved) {
            const MemoryBudget::Usage u = m_budget->usage();
            throw HttpError(503, "the server's memory budget of " + std::to_string(u.totalMiB) + " MiB (--memory-mib) is in use: " +
                                     std::to_string(u.usedMiB) + " MiB by " + std::to_string(u.sessions) + " sessions (" +
                                     std::to_string(u.mctsTrees) + " MCTS trees); a new tab needs " + std::to_string(cost) +
                                     " MiB. Close a tab, or start janus gui with a larger --memory-mib");
          }
          throw HttpError(503, "too many sessions (" + std::to_string(m_config.maxSessions) +
                                   " open tabs); close a tab and try again");
        }
        evicted = victim->second;
        m_sessions.erase(victim);
      }
    }
    if (evicted) {
      evicted->close();  // releases its memory in the budget
      evicted.reset();
      releaseFreedMemory();
      if (!reserved && !(reserved = m_budget->tryReserve(id, Part::kSession, cost)))
        throw HttpError(503, "the server's memory budget of " + std::to_string(m_budget->totalMiB()) +
                                 " MiB (--memory-mib) is in use; close a tab, or start janus gui with a larger --memory-mib");
    }
    std::shared_ptr<Session> created;
    try {
      created = std::make_shared<Session>(id, m_config.session, m_storage, m_budget.get());
    } catch (...) {
      m_budget->release(id, Part::kSession);
      throw;
    }
    {
      std::lock_guard lock(m_sessionsMutex);
      m_sessions[id] = created;
    }
    sendJson(res, 200, {{"id", created->id()}, {"state", created->stateJson()}});
  }, nullptr);
}

void GuiServer::deleteSession(const httplib::Request& req, httplib::Response& res) {
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
}

void GuiServer::streamEvents(const httplib::Request& req, httplib::Response& res) {
  std::shared_ptr<Session> s;
  try {
    s = findSession(req.matches[1]);
  } catch (const HttpError& e) {
    return sendJson(res, e.status(), {{"error", e.what()}});
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
}

void GuiServer::serveStaticFile(const httplib::Request& req, httplib::Response& res) {
  // Only from the web folder, resolved from the raw request target (see static_files.h for the
  // checks).
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
}

}  // namespace janus::server
