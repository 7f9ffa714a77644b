// GuiServer: where the page is served from, the facts of /api/info, binding, serving, stopping,
// and the reaper of idle sessions. The HTTP routes and their handlers are in server_routes.cpp.

#include "server/server.h"

#include <httplib.h>

#include <algorithm>
#include <cstdlib>

#include "nnue/network.h"
#include "server/json_util.h"
#include "server/tablebase_info.h"
#include "util/error.h"

#ifndef JANUS_WEB_DIR
#define JANUS_WEB_DIR "web/dist"
#endif
#ifndef JANUS_WEB_RELATIVE
#define JANUS_WEB_RELATIVE "../share/janus/web"
#endif

namespace janus::server {

namespace fs = std::filesystem;

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

/// The budget of `config` (its default when 0), checked against the smallest that serves a session.
i64 checkedBudget(const ServerConfig& config) {
  const int hash = config.session.hashMiB, cache = config.session.mctsCacheEntries;
  if (config.memoryMiB == 0) return defaultBudgetMiB(hash, cache);
  const i64 minimum = minimumBudgetMiB(hash, cache);
  if (config.memoryMiB < minimum)
    throw Error("--memory-mib " + std::to_string(config.memoryMiB) + " is too small: one session with an MCTS search needs " +
                std::to_string(minimum) + " MiB (the server " + std::to_string(MemoryCosts::kServerBaseMiB) + ", a session " +
                std::to_string(sessionCostMiB(hash)) + " with --hash " + std::to_string(hash) + ", the smallest MCTS search " +
                std::to_string(minimum - MemoryCosts::kServerBaseMiB - sessionCostMiB(hash)) + ")");
  return config.memoryMiB;
}

}  // namespace

GuiServer::GuiServer(ServerConfig config)
    : m_config(std::move(config)),
      m_budget(std::make_unique<MemoryBudget>(checkedBudget(m_config))),
      m_storage(m_config.dataDir),
      m_http(std::make_unique<httplib::Server>()) {
  m_config.memoryMiB = m_budget->totalMiB();
  m_budget->setReclaimer([this](const std::string& requester, i64 needed) { return reclaimMemory(requester, needed); });
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
    if (s->hidden) continue;  // tuning settings (the MCTS face's constants): not a player's
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
  if (!m_config.syzygyPath.empty()) TablebaseInfo::load(m_config.syzygyPath);  // a bad folder throws
  m_info = Json{{"name", "Janus"},
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
                    {"maxBodyBytes", kMaxBodyBytes},
                    {"maxPgnBytes", kMaxPgnBytes},
                    {"maxMultiPv", 5},
                    {"maxSessions", m_config.maxSessions},
                    {"review",
                     {{"inaccuracy", kInaccuracyCp},
                      {"mistake", kMistakeCp},
                      {"blunder", kBlunderCp},
                      {"clampCp", kReviewClampCp}}},
                    {"dataDir", m_storage.dataDir().string()},
                    {"options", options}};
  routes();
}

Json GuiServer::infoJson() {
  Json j = m_info;
  j["tablebases"] = TablebaseInfo::status();
  j["memory"] = memoryJson();
  return j;
}

Json GuiServer::memoryJson() const {
  const MemoryBudget::Usage u = m_budget->usage();
  return {{"budgetMiB", u.totalMiB},
          {"usedMiB", u.usedMiB},
          {"freeMiB", u.freeMiB},
          {"sessions", u.sessions},
          {"mctsTrees", u.mctsTrees},
          {"secondEngines", u.secondEngines},
          {"treeMiB", m_config.session.mctsTreeMiB},
          {"sessionMiB", sessionCostMiB(m_config.session.hashMiB)}};
}

i64 GuiServer::reclaimMemory(const std::string& requester, i64 neededMiB) {
  std::vector<std::shared_ptr<Session>> others;
  {
    std::lock_guard lock(m_sessionsMutex);
    for (auto& [id, s] : m_sessions)
      if (id != requester) others.push_back(s);
  }
  std::sort(others.begin(), others.end(), [](const auto& a, const auto& b) { return a->lastSeen() < b->lastSeen(); });
  i64 freed = 0;
  for (auto& s : others) {
    if (freed >= neededMiB) break;
    freed += s->releaseIdleMemory();
  }
  if (freed > 0) releaseFreedMemory();
  return freed;
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
}  // namespace janus::server
