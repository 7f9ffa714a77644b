#pragma once
// The web GUI server (`janus gui`): a local HTTP server (cpp-httplib) with a JSON API, a
// server-sent-events stream per session, and the built web assets (web/dist). It holds the games
// (server/session.h) and talks to the engine through the Engine facade only.
//
// Endpoints (all JSON unless noted; docs/gui.md has the request and response shapes):
//   GET    /api/info                            engine faces, levels, review thresholds, options,
//                                                the tablebases and the memory budget
//   GET    /api/tablebases                      the Syzygy tables in use, whether Fathom loads
//   POST   /api/tablebases                      {"syzygyPath": "DIR[:DIR...]"}: load other tables
//   POST   /api/pgn/games                       {"pgn": "..."}: the games of a PGN text, read strictly
//   POST   /api/sessions                        new session (one per browser tab) -> {id, state}
//   GET    /api/sessions/{id}                   state
//   DELETE /api/sessions/{id}                   end the session (game saved)
//   POST   /api/sessions/{id}/{new|move|undo|resign|load|mode|analysis|hint|evaluate|review}
//   POST   /api/sessions/{id}/leave             the page goes away: stop searching (sendBeacon)
//   GET    /api/sessions/{id}/events            text/event-stream: "state", "info", "review"
//   GET    /api/sessions/{id}/pgn               application/x-chess-pgn
//   GET    /api/reports/{name}                  a bug report (text/plain)
//   GET    /*                                   static files from the web folder only
// Engine faces: a game is played against "alphabeta-nnue", "alphabeta-hce" or "mcts" (POST .../new
// "face"; MCTS plays by "playouts" per move or "moveTimeMs", alpha-beta by "elo", "level" or
// "moveTimeMs"; a strength field of the other face is a 400 naming the field); analysis runs
// "alphabeta", "mcts" or "both" (POST .../analysis "face"; "both" runs a second engine, alpha-beta,
// next to the session's MCTS one, only while it is needed). Info events name their "face"; MCTS's
// first line carries "moves": the root moves' visits, shares, priors and Q (docs/gui.md "Info").
// Errors: 400 {"error": "..."} for malformed JSON, bad fields, illegal moves, bad FEN/PGN; 404 for
// unknown sessions, reports and files; 403 for POST/DELETE without the "X-Janus: 1" header (so
// that other web sites cannot drive the server: a custom header needs a CORS preflight, which is
// never granted) and for a foreign Host header while bound to loopback (DNS rebinding); 503 when
// all sessions are taken; 405 with an Allow header for a method the path does not take (PUT,
// PATCH, OPTIONS, ...); 413 for a body over its request's limit (request_limits.h: a PGN 1 MiB,
// other requests 64 KiB); 500 {"error", "report": "/api/reports/<name>"} for an internal error,
// after saving the game and writing a bug report.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "server/memory_budget.h"
#include "server/request_limits.h"
#include "server/session.h"
#include "server/storage.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}

namespace janus::server {

/// The build tree's web page folder compiled in: <source>/web/dist.
[[nodiscard]] std::filesystem::path buildTreeWebDir();
/// The running program's file (/proc/self/exe); empty if it cannot be read.
[[nodiscard]] std::filesystem::path executablePath();

/// Where `janus gui` serves its page from, and how it was found.
struct WebDirChoice {
  std::filesystem::path dir;   ///< the folder served (it may lack index.html: the server then
                               ///< answers "/" with a page that says how to build it)
  std::string source;          ///< "--web-dir", "JANUS_WEB_DIR", "installed", "build tree", "none"
  std::vector<std::filesystem::path> tried;  ///< the folders looked at, in order
};

/// Finds the web page: `explicitDir` (from --web-dir) when not empty, else $JANUS_WEB_DIR when
/// set (both taken as given), else the first of <exe dir>/../share/janus/web (an installed janus,
/// `exe` defaults to executablePath()) and the build tree's web/dist that has an index.html. When
/// none has, the installed folder is chosen (source "none") and `tried` lists what was looked at.
[[nodiscard]] WebDirChoice locateWebDir(const std::filesystem::path& explicitDir,
                                        const std::filesystem::path& exe = executablePath());

/// The methods a request path takes, as for an Allow header ("GET, HEAD", "POST", "GET, HEAD,
/// DELETE"); "" for an unknown API path (answered 404). Other methods get 405 with this list.
[[nodiscard]] std::string allowedMethods(std::string_view path);

struct ServerConfig {
  std::string host = "127.0.0.1";  ///< interface to bind (loopback by default)
  int port = 8080;                 ///< 0: any free port (see GuiServer::port())
  std::filesystem::path webDir;    ///< empty: locateWebDir({}) at start
  std::filesystem::path dataDir = Storage::defaultDataDir();
  int maxSessions = 16;            ///< sessions (tabs) at once
  std::chrono::seconds sessionIdle{1800};  ///< a session without stream and requests this long is closed
  bool debugEndpoints = false;     ///< enables POST /api/sessions/{id}/debug/fail (tests of the
                                   ///< error path: it throws std::runtime_error)
  i64 memoryMiB = 0;               ///< the memory budget of all sessions (memory_budget.h); 0:
                                   ///< defaultBudgetMiB()
  std::string syzygyPath;          ///< Syzygy folders (':'-separated) loaded at start; "": none
                                   ///< (the page may set them: POST /api/tablebases)
  SessionConfig session;
};

class GuiServer {
 public:
  /// Prepares the server (creates the data folder; finds the web folder with locateWebDir when
  /// config.webDir is empty; loads config.syzygyPath). Throws janus::Error if the data folder
  /// cannot be created, the Syzygy folder is bad (tablebase_info.h) or config.memoryMiB is below
  /// minimumBudgetMiB (the message names the minimum). The web
  /// folder may lack the page: the API works, "/" answers with how to build the page, other files 404.
  explicit GuiServer(ServerConfig config);
  ~GuiServer();
  GuiServer(const GuiServer&) = delete;
  GuiServer& operator=(const GuiServer&) = delete;

  /// Binds the listening socket; returns the port. Throws janus::Error if it cannot bind.
  int bind();
  /// Serves until stop() (blocks the calling thread). Call bind() first.
  void run();
  /// Stops serving (thread-safe, may be called from any thread); run() returns, sessions close and
  /// their games are saved.
  void stop();

  [[nodiscard]] int port() const { return m_port; }
  /// "http://<host>:<port>/".
  [[nodiscard]] std::string url() const;
  [[nodiscard]] const ServerConfig& config() const { return m_config; }
  [[nodiscard]] size_t sessionCount();
  /// The memory budget of every session's engines.
  [[nodiscard]] MemoryBudget& memoryBudget() { return *m_budget; }
  /// The budget's use as /api/info "memory" gives it: {"budgetMiB", "usedMiB", "freeMiB",
  /// "sessions", "mctsTrees", "secondEngines", "treeMiB" (--mcts-tree), "sessionMiB"}.
  [[nodiscard]] Json memoryJson() const;

 private:
  using HttpHandler = std::function<void(const httplib::Request&, httplib::Response&)>;
  using SessionHandler = std::function<void(const httplib::Request&, httplib::Response&, Session&)>;
  struct Route;  ///< {method, pattern, handler} (server_routes.cpp)

  // The HTTP side (server_routes.cpp).
  /// Sets up the HTTP server: thread pool, limits, hooks (installHooks) and the routes of routeTable().
  void routes();
  /// Every route in the order it is matched (first match wins within a method).
  [[nodiscard]] std::vector<Route> routeTable();
  /// The checks before routing (Host header, 405 with Allow, the X-Janus header) and httplib's own
  /// error answers (413 with a message, 500 for an escaped exception).
  void installHooks();
  /// Runs `f` and turns its outcome into the response: what `f` sent on success, 400 for
  /// janus::Error and JSON type errors, the status of an HttpError, 500 plus a bug report (with the
  /// game of `session`, when given) for anything else.
  void answer(const httplib::Request& req, httplib::Response& res, const std::function<void()>& f,
              Session* session);
  /// A handler for /api/sessions/{id}/...: finds the session (404 if unknown), marks it active and
  /// runs `f` through answer().
  [[nodiscard]] HttpHandler sessionHandler(SessionHandler f);
  void createSession(const httplib::Request& req, httplib::Response& res);
  void deleteSession(const httplib::Request& req, httplib::Response& res);
  /// GET .../events: the session's server-sent-events stream (the state first, then its events).
  void streamEvents(const httplib::Request& req, httplib::Response& res);
  /// GET of any other path: a file of the web folder (static_files.h), or the missing-page answer.
  void serveStaticFile(const httplib::Request& req, httplib::Response& res);
  /// Frees idle sessions' MCTS trees and second engines for `requester`, oldest first, until
  /// `neededMiB` are released (the budget's reclaimer); returns the MiB released.
  i64 reclaimMemory(const std::string& requester, i64 neededMiB);
  /// Throws HttpError 404 for an unknown session.
  std::shared_ptr<Session> findSession(const std::string& id);
  /// Gives memory that closed sessions freed (hash tables, game states) back to the system: glibc
  /// keeps freed heap memory in its arenas (one per thread, and the HTTP pool has 64 threads), so
  /// without this the process's RSS only grows as sessions come and go.
  static void releaseFreedMemory();

  void reaperLoop();
  void closeAll();

  ServerConfig m_config;
  std::unique_ptr<MemoryBudget> m_budget;  ///< before the sessions, which release into it
  Storage m_storage;
  std::unique_ptr<httplib::Server> m_http;
  int m_port = 0;
  Json m_info;  ///< the fixed part of /api/info (infoJson() adds what changes)
  /// /api/info: m_info with the tablebases' state and the memory budget's use.
  [[nodiscard]] Json infoJson();
  std::vector<std::filesystem::path> m_webTried;  ///< folders looked at for the page (for the missing-page answer)

  std::mutex m_sessionsMutex;
  std::map<std::string, std::shared_ptr<Session>> m_sessions;

  std::atomic<bool> m_stopping{false};
  std::atomic<bool> m_runCalled{false};
  std::atomic<bool> m_runExited{false};
  std::mutex m_reaperMutex;
  std::condition_variable m_reaperCv;
  std::thread m_reaper;
};

}  // namespace janus::server
