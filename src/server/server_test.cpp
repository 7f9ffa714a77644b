// API tests of the GUI server: a GuiServer on an ephemeral loopback port, driven with httplib's
// client (and a raw socket where the client would normalise the request path).

#include "server/server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <fstream>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "nnue/network.h"

namespace janus::server {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const httplib::Headers kApiHeaders = {{"X-Janus", "1"}};

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { start(16); }
  void TearDown() override { shutdown(); }

  void start(int maxSessions) {
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

TEST_F(ServerTest, InfoListsFacesLevelsAndOptions) {
  auto [status, j] = get("/api/info");
  ASSERT_EQ(status, 200);
  EXPECT_EQ(j["faces"].size(), 3u);
  const bool haveNet = nnue::defaultNetwork() != nullptr;
  EXPECT_EQ(j["faces"][0]["id"], "alphabeta-nnue");
  EXPECT_EQ(j["faces"][0]["available"].get<bool>(), haveNet);
  EXPECT_EQ(j["nnue"].is_null(), !haveNet);
  EXPECT_TRUE(j["faces"][1]["available"].get<bool>());
  EXPECT_EQ(j["faces"][2]["id"], "mcts");
  EXPECT_TRUE(j["faces"][2]["available"].get<bool>());
  EXPECT_NE(j["mcts"]["backend"].get<std::string>().find("MCTS backend"), std::string::npos) << j["mcts"].dump();
  EXPECT_EQ(j["mcts"]["playouts"]["default"], kDefaultMctsPlayouts);
  EXPECT_EQ(j["defaults"]["mctsPlayouts"], kDefaultMctsPlayouts);
  EXPECT_EQ(j["defaults"]["analysisFace"], "alphabeta");
  EXPECT_EQ(j["levels"].size(), size_t(kLevelCount));
  EXPECT_EQ(j["review"]["blunder"], kBlunderCp);
  EXPECT_FALSE(j["options"].empty());
  // One default strength, as numbers, and a new session plays at it.
  ASSERT_TRUE(j["elo"].is_object());
  EXPECT_EQ(j["elo"]["default"], kDefaultElo);
  EXPECT_EQ(j["defaults"]["strength"], "elo");
  EXPECT_EQ(j["defaults"]["elo"], kDefaultElo);
  EXPECT_EQ(j["defaults"]["level"], kDefaultLevel);
  EXPECT_EQ(j["defaults"]["multiPv"], kDefaultMultiPv);
  EXPECT_EQ(j["maxPlies"], kMaxGamePlies);
  std::string id = newSession();
  Json st = get("/api/sessions/" + id).second;
  EXPECT_EQ(st["elo"], kDefaultElo);
  // A new game that names no strength plays at the default too; one that names a level does not.
  EXPECT_EQ(post("/api/sessions/" + id + "/new", "{}").second["elo"], kDefaultElo);
  Json byLevel = post("/api/sessions/" + id + "/new", R"({"level": 2})").second;
  EXPECT_EQ(byLevel["level"], 2);
  EXPECT_TRUE(byLevel["elo"].is_null());
}

TEST_F(ServerTest, MethodsAPathDoesNotTakeGet405WithAllow) {
  std::string id = newSession();
  httplib::Headers headers = {{"X-Janus", "1"}};
  auto check = [&](const std::string& method, const std::string& path, const std::string& allow) {
    httplib::Request req;
    req.method = method;
    req.path = path;
    req.headers = headers;
    auto r = m_client->send(req);
    ASSERT_TRUE(r) << method << " " << path;
    EXPECT_EQ(r->status, 405) << method << " " << path;
    EXPECT_EQ(r->get_header_value("Allow"), allow) << method << " " << path;
    EXPECT_NE(r->body.find("method " + method + " is not allowed"), std::string::npos) << r->body;
  };
  check("PUT", "/api/sessions", "POST");
  check("PATCH", "/api/info", "GET, HEAD");
  check("OPTIONS", "/", "GET, HEAD");
  check("OPTIONS", "/api/sessions/" + id + "/move", "POST");
  check("DELETE", "/api/sessions/" + id + "/move", "POST");
  check("PUT", "/api/sessions/" + id, "GET, HEAD, DELETE");
  check("POST", "/api/sessions/" + id + "/events", "GET, HEAD");
  check("POST", "/index.html", "GET, HEAD");
  EXPECT_EQ(allowedMethods("/api/nothing"), "");
  EXPECT_EQ(allowedMethods("/api/sessions/" + id + "/nothing"), "");
  EXPECT_EQ(allowedMethods("/api/sessions/" + id + "/debug/fail"), "POST");
  // The methods a path takes still work.
  EXPECT_EQ(get("/api/info").first, 200);
  EXPECT_EQ(m_client->Head("/api/info")->status, 200);
}

TEST_F(ServerTest, WhatASessionHoldsIsBounded) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  // A PGN longer than kMaxGamePlies: refused, naming the length and the limit.
  std::string pgn;
  const int moves = kMaxGamePlies / 4 + 10;  // 4 plies per round of knight moves
  for (int i = 0; i < moves; ++i)
    pgn += std::to_string(2 * i + 1) + ". Nf3 Nf6 " + std::to_string(2 * i + 2) + ". Ng1 Ng8 ";
  pgn += "*";
  auto [status, j] = post(base + "/load", Json{{"pgn", pgn}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(j.value("error", ""), "PGN: the game has " + std::to_string(4 * moves) +
                                      " plies; the GUI holds games of at most " + std::to_string(kMaxGamePlies) + " plies");
  // A body over 2 MiB: 413 with a message.
  auto r = m_client->Post((base + "/load").c_str(), kApiHeaders, std::string(3 << 20, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("request body too large: the limit is 2 MiB"), std::string::npos) << r->body;
  // A game at the limit takes no further move.
  std::string atLimit;
  for (int i = 0; i < kMaxGamePlies / 4; ++i)
    atLimit += std::to_string(2 * i + 1) + ". Nf3 Nf6 " + std::to_string(2 * i + 2) + ". Ng1 Ng8 ";
  ASSERT_EQ(post(base + "/mode", R"({"mode": "analysis"})").first, 200);
  auto [loaded, st] = post(base + "/load", Json{{"pgn", atLimit + "*"}}.dump());
  ASSERT_EQ(loaded, 200) << st.dump();
  EXPECT_EQ(st["ply"], kMaxGamePlies);
  auto [moved, err] = post(base + "/move", R"({"uci": "g1f3"})");
  EXPECT_EQ(moved, 400);
  EXPECT_NE(err.value("error", "").find("the most a GUI game may hold"), std::string::npos) << err.dump();
}

TEST(EventQueue, KeepsAtMostItsCapacityInEventsAndBytes) {
  EventQueue q;
  const std::string big(600 << 10, 'x');  // a state event of a long game
  for (int i = 0; i < 20; ++i) q.push("state", big);
  auto [count, bytes] = q.kept();
  EXPECT_LE(bytes, EventQueue::kCapacityBytes);
  EXPECT_EQ(count, EventQueue::kCapacityBytes / big.size());
  for (int i = 0; i < 2000; ++i) q.push("info", "{}");
  EXPECT_EQ(q.kept().first, EventQueue::kCapacity);
  // The newest event is kept even when it alone is over the byte bound.
  q.push("state", std::string(EventQueue::kCapacityBytes + 1, 'y'));
  EXPECT_EQ(q.kept().first, 1u);
  EXPECT_EQ(q.waitAfter(0, 0ms).back().data.size(), EventQueue::kCapacityBytes + 1);
}

TEST_F(ServerTest, MalformedRequestsGet400WithAMessage) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  auto expect400 = [&](const std::string& path, const std::string& body, const std::string& needle) {
    auto [status, j] = post(base + path, body);
    EXPECT_EQ(status, 400) << path << " " << body << " -> " << j.dump();
    EXPECT_NE(j.value("error", "").find(needle), std::string::npos) << j.dump();
  };
  expect400("/move", "{\"uci\": ", "malformed JSON");
  expect400("/move", "[1, 2]", "JSON object");
  expect400("/move", "\"e2e4\"", "JSON object");
  expect400("/move", "{}", "missing field 'uci'");
  expect400("/move", "{\"uci\": 42}", "expected a string");
  expect400("/move", "{\"uci\": \"e2e5\"}", "illegal move 'e2e5'");
  expect400("/move", "{\"uci\": \"hello\"}", "not a UCI move");
  expect400("/new", "{\"level\": \"hard\"}", "field 'level'");
  expect400("/new", "{\"level\": 99}", "field 'level'");
  expect400("/new", "{\"color\": \"green\"}", "field 'color'");
  expect400("/new", "{\"fen\": \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\"}", "bad FEN");
  expect400("/new", "{\"face\": \"minimax\"}", "field 'face': 'minimax' is not an engine face");
  expect400("/new", "{\"face\": 7}", "field 'face'");
  expect400("/new", "{\"face\": \"mcts\", \"elo\": 1500}", "field 'elo': applies to the alpha-beta faces only");
  expect400("/new", "{\"face\": \"mcts\", \"level\": 3}", "field 'level': applies to the alpha-beta faces only");
  expect400("/new", "{\"face\": \"mcts\", \"playouts\": 0}", "field 'playouts'");
  expect400("/new", "{\"face\": \"mcts\", \"playouts\": 100, \"moveTimeMs\": 500}", "not both");
  expect400("/new", "{\"playouts\": 100}", "field 'playouts': applies to the MCTS face only");
  expect400("/analysis", "{\"on\": true, \"face\": \"alpha\"}", "field 'face': 'alpha' is not an analysis face");
  expect400("/new", "{\"elo\": 99}", "field 'elo'");
  expect400("/new", "{\"clock\": 5}", "field 'clock'");
  expect400("/load", "{\"fen\": \"8/8/8/8/8/8/8/8 w - - 0 1\"}", "bad FEN");
  expect400("/load", "{\"pgn\": \"1. e4 e5 2. Qxf7 *\"}", "PGN");
  expect400("/load", "{}", "expected a field 'fen' or 'pgn'");
  expect400("/analysis", "{\"on\": true}", "analysis mode");
  expect400("/mode", "{\"mode\": \"blitz\"}", "field 'mode'");
  expect400("/undo", "{}", "no move to take back");
  // The game is unchanged by all of this.
  EXPECT_EQ(get(base).second["ply"], 0);

  // Unknown sessions and paths are 404; requests without the API header are refused.
  EXPECT_EQ(post("/api/sessions/0123456789abcdef0123456789abcdef/move", "{\"uci\":\"e2e4\"}").first, 404);
  EXPECT_EQ(get("/api/sessions/0123456789abcdef0123456789abcdef").first, 404);
  EXPECT_EQ(get("/api/nothing").first, 404);
  auto noHeader = m_client->Post((base + "/move").c_str(), "{\"uci\":\"e2e4\"}", "application/json");
  ASSERT_TRUE(noHeader);
  EXPECT_EQ(noHeader->status, 403);
  EXPECT_EQ(rawGet("/api/info", "evil.example.com").first, 403);  // DNS rebinding
  EXPECT_EQ(rawGet("/api/info", "localhost:8080").first, 200);
}

TEST_F(ServerTest, StaticFilesOnlyFromTheWebFolder) {
  auto [status, body] = rawGet("/");
  EXPECT_EQ(status, 200);
  EXPECT_NE(body.find("<title>Janus</title>"), std::string::npos);
  EXPECT_EQ(rawGet("/assets/app.js").first, 200);
  for (const char* target :
       {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
        "/..%5csecret.txt", "/%252e%252e/secret.txt", "//etc/passwd", "/%2fetc%2fpasswd", "/index.html%00.png",
        "/assets/%2e%2e/%2e%2e/secret.txt", "/....//secret.txt", "/../../../../../../etc/passwd"}) {
    auto [s, resp] = rawGet(target);
    EXPECT_NE(s, 200) << target;
    EXPECT_EQ(resp.find("TOP-SECRET"), std::string::npos) << target;
    EXPECT_EQ(resp.find("root:"), std::string::npos) << target;
  }
}

TEST_F(ServerTest, AMissingPageSaysHowToBuildIt) {
  fs::remove(m_base / "web" / "index.html");
  for (const char* target : {"/", "/index.html"}) {
    auto [status, resp] = rawGet(target);
    EXPECT_EQ(status, 503) << target;
    EXPECT_NE(resp.find("text/html"), std::string::npos);
    EXPECT_NE(resp.find("The Janus web page is not built"), std::string::npos);
    EXPECT_NE(resp.find("cd web &amp;&amp; npm ci &amp;&amp; npm run build"), std::string::npos);
    EXPECT_NE(resp.find((m_base / "web").string()), std::string::npos) << "names the folder it looked in";
  }
  EXPECT_EQ(rawGet("/assets/app.js").first, 200);
  EXPECT_EQ(rawGet("/nothing.js").first, 404);
  EXPECT_EQ(get("/api/info").first, 200);
}

TEST(WebDir, ExplicitThenEnvironmentThenInstalledThenBuildTree) {
  const fs::path base = fs::temp_directory_path() / ("janus-webdir-test-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path exe = base / "prefix" / "bin" / "janus";
  const fs::path installed = base / "prefix" / "share" / "janus" / "web";
  fs::create_directories(installed);
  std::ofstream(installed / "index.html") << "<!doctype html>";
  ::unsetenv("JANUS_WEB_DIR");

  WebDirChoice c = locateWebDir({}, exe);
  EXPECT_EQ(c.dir, installed);
  EXPECT_EQ(c.source, "installed");
  c = locateWebDir(base / "mine", exe);
  EXPECT_EQ(c.dir, base / "mine");
  EXPECT_EQ(c.source, "--web-dir");
  ::setenv("JANUS_WEB_DIR", (base / "env").c_str(), 1);
  c = locateWebDir({}, exe);
  EXPECT_EQ(c.dir, base / "env");
  EXPECT_EQ(c.source, "JANUS_WEB_DIR");
  ::unsetenv("JANUS_WEB_DIR");

  // Without an installed page: the build tree's web/dist if it is built, else "none".
  fs::remove(installed / "index.html");
  c = locateWebDir({}, exe);
  ASSERT_EQ(c.tried.size(), 2u);
  EXPECT_EQ(c.tried[0], installed);
  EXPECT_EQ(c.tried[1], buildTreeWebDir());
  if (fs::exists(buildTreeWebDir() / "index.html")) {
    EXPECT_EQ(c.dir, buildTreeWebDir());
    EXPECT_EQ(c.source, "build tree");
  } else {
    EXPECT_EQ(c.dir, installed);
    EXPECT_EQ(c.source, "none");
  }
  fs::remove_all(base);
}

// Regression (server_fuzz): a request path with bytes that are not UTF-8 was echoed into the JSON
// error, whose serialisation threw, and the answer was 500 instead of 404.
TEST_F(ServerTest, NonUtf8PathsGet404NotAnInternalError) {
  for (const char* target : {"/api/\xff", "/api/reports/..\xff\xff./secret.txt", "/api/sessions/\xfe\xff/pgn"}) {
    auto [status, response] = rawGet(target);
    EXPECT_EQ(status, 404) << response;
    std::string body = response.substr(std::min(response.size(), response.find("\r\n\r\n") + 4));
    Json j = Json::parse(body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << body;
    EXPECT_NE(j.value("error", "").find("\xef\xbf\xbd"), std::string::npos) << body;  // U+FFFD
  }
}

TEST_F(ServerTest, PlaysAgainstTheEngineUndoesAndDetectsMate) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  auto [s1, st] = post(base + "/new", R"({"color": "white", "level": 1})");
  ASSERT_EQ(s1, 200) << st.dump();
  EXPECT_EQ(st["human"], "white");
  auto [s2, afterMove] = post(base + "/move", R"({"uci": "e2e4"})");
  ASSERT_EQ(s2, 200) << afterMove.dump();
  Json replied = waitState(id, [](const Json& s) { return s["ply"] == 2; });
  EXPECT_EQ(replied["turn"], "white");
  EXPECT_EQ(replied["moves"][0]["san"], "e4");
  // Not the player's turn while the engine... it already replied; a second move by the player is fine.
  auto [s3, undone] = post(base + "/undo");
  ASSERT_EQ(s3, 200);
  EXPECT_EQ(undone["ply"], 0);

  // Playing as Black: the engine moves first.
  auto [s4, black] = post(base + "/new", R"({"color": "black", "level": 1})");
  ASSERT_EQ(s4, 200);
  Json first = waitState(id, [](const Json& s) { return s["ply"] == 1; });
  EXPECT_EQ(first["turn"], "black");

  // Mate in one for the player: the game ends, the PGN has the result, the file is saved.
  auto [s5, mate] = post(base + "/new", R"({"color": "white", "level": 1, "fen": "6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1"})");
  ASSERT_EQ(s5, 200) << mate.dump();
  auto [s6, over] = post(base + "/move", R"({"uci": "d1d8"})");
  ASSERT_EQ(s6, 200);
  EXPECT_TRUE(over["over"].get<bool>());
  EXPECT_EQ(over["termination"], "checkmate");
  EXPECT_EQ(over["result"], "1-0");
  EXPECT_NE(over["pgn"].get<std::string>().find("1. Rd8# 1-0"), std::string::npos);
  auto [s7, err] = post(base + "/move", R"({"uci": "a1a2"})");
  EXPECT_EQ(s7, 400);
  std::ifstream saved(m_base / "data" / "games" / over["gameFile"].get<std::string>());
  std::stringstream text;
  text << saved.rdbuf();
  EXPECT_NE(text.str().find("[Result \"1-0\"]"), std::string::npos);
  auto pgn = m_client->Get((base + "/pgn").c_str());
  ASSERT_TRUE(pgn);
  EXPECT_NE(pgn->body.find("Rd8#"), std::string::npos);

  // Playing strength by Elo (the engine's UCI_Elo): the engine still answers, the PGN names it.
  auto [s9, elo] = post(base + "/new", R"({"color": "black", "elo": 1000})");
  ASSERT_EQ(s9, 200) << elo.dump();
  EXPECT_EQ(elo["elo"], 1000);
  Json eloMoved = waitState(id, [](const Json& s) { return s["ply"] == 1; });
  EXPECT_NE(eloMoved["pgn"].get<std::string>().find("[White \"Janus (Elo 1000)\"]"), std::string::npos);

  // Resignation.
  post(base + "/new", R"({"color": "white", "level": 1})");
  auto [s8, resigned] = post(base + "/resign");
  ASSERT_EQ(s8, 200);
  EXPECT_EQ(resigned["result"], "0-1");
  EXPECT_EQ(resigned["termination"], "resignation");
}

TEST_F(ServerTest, HintEvaluateAndHceBreakdown) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  post(base + "/new", R"({"color": "white", "level": 1, "fen": "6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1"})");
  auto [s1, hint] = post(base + "/hint");
  ASSERT_EQ(s1, 200) << hint.dump();
  EXPECT_EQ(hint["uci"], "d1d8");
  EXPECT_EQ(hint["san"], "Rd8#");
  EXPECT_EQ(hint["score"]["mate"], 1);
  auto [s2, ev] = post(base + "/evaluate");
  ASSERT_EQ(s2, 200) << ev.dump();
  ASSERT_EQ(ev["static"]["terms"].size(), 12u);
  EXPECT_EQ(ev["static"]["terms"][0]["term"], "Material");
  EXPECT_EQ(ev["static"]["terms"][0]["total"]["mg"].get<int>(), 477 - 3 * 82);  // rook vs 3 pawns (PeSTO)
  EXPECT_GT(ev["static"]["whiteCp"].get<int>(), 0);
  EXPECT_EQ(ev["score"]["mate"], 1);
  // The NNUE score of the built-in network beside the hand-crafted terms (null without one).
  ASSERT_TRUE(ev["static"].contains("nnue"));
  if (nnue::defaultNetwork()) {
    EXPECT_GT(ev["static"]["nnue"]["whiteCp"].get<int>(), 0) << "a rook against three pawns";
    EXPECT_EQ(ev["static"]["nnue"]["network"].get<std::string>().rfind("nn-", 0), 0u);
    EXPECT_FALSE(ev["static"]["nnue"]["loneKing"].get<bool>());
    // Black has only its king: the NNUE evaluator hands over to the hand-crafted one, and says so.
    post(base + "/new", R"({"color": "white", "level": 1, "fen": "8/8/8/4k3/8/8/8/K2R4 w - - 0 1"})");
    auto [s3, lone] = post(base + "/evaluate");
    ASSERT_EQ(s3, 200) << lone.dump();
    EXPECT_TRUE(lone["static"]["nnue"]["loneKing"].get<bool>()) << lone.dump();
    EXPECT_EQ(lone["static"]["nnue"]["whiteCp"], lone["static"]["whiteCp"]) << lone.dump();
  } else {
    EXPECT_TRUE(ev["static"]["nnue"].is_null());
  }
}

TEST_F(ServerTest, AnalysisStreamsInfoAndStopsWhenTheStreamCloses) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  ASSERT_EQ(post(base + "/mode", R"({"mode": "analysis"})").first, 200);
  std::mutex receivedMutex;
  std::string received;  // guarded by receivedMutex
  std::atomic<bool> connected{false}, sawInfo{false};
  httplib::Client stream("127.0.0.1", m_port);
  std::thread reader([&] {
    stream.Get((base + "/events").c_str(), [&](const char* data, size_t n) {
      std::lock_guard lock(receivedMutex);
      received.append(data, n);
      if (received.find("event: state") != std::string::npos) connected = true;
      if (received.find("event: info") != std::string::npos && received.find("\"multipv\":3") != std::string::npos) {
        sawInfo = true;
        return false;  // the page goes away
      }
      return received.size() < (1u << 22);
    });
  });
  // Wait until the stream is connected, then start a 3-line analysis.
  waitState(id, [&](const Json&) { return connected.load(); });
  auto [status, st] = post(base + "/analysis", R"({"on": true, "multiPv": 3})");
  ASSERT_EQ(status, 200) << st.dump();
  EXPECT_TRUE(st["analysis"]["on"].get<bool>());
  reader.join();
  EXPECT_TRUE(sawInfo.load());
  EXPECT_NE(received.find("\"kind\":\"analysis\""), std::string::npos);
  // The stream is gone: the search stops (the analysis stays switched on for when the page returns).
  Json after = waitState(id, [](const Json& s) { return !s["searching"].get<bool>(); });
  EXPECT_FALSE(after["analysis"]["running"].get<bool>());
}

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
          if (event.find("event: state\n") != std::string::npos) m_connected = true;
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
  std::atomic<bool> m_connected{false}, m_done{false};
  std::thread m_reader;
};

TEST_F(ServerTest, PlaysAgainstMctsAndAnalysesWithEitherFaceOrBoth) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  InfoStream stream(m_port, base);
  waitState(id, [&](const Json&) { return stream.connected(); });

  // A game against MCTS: Janus (White) moves first, by playouts; its info says "mcts".
  auto [status, st] = post(base + "/new", R"({"color": "black", "face": "mcts", "playouts": 60})");
  ASSERT_EQ(status, 200) << st.dump();
  EXPECT_EQ(st["face"], "mcts");
  EXPECT_EQ(st["playouts"], 60);
  EXPECT_TRUE(st["elo"].is_null());
  Json moved = waitState(id, [](const Json& s) { return s["ply"] == 1 && !s["thinking"].get<bool>(); });
  EXPECT_NE(moved["pgn"].get<std::string>().find("Janus MCTS (60 playouts)"), std::string::npos);
  Json engineInfo = stream.waitFor([](const Json& j) { return j["kind"] == "engine"; });
  ASSERT_FALSE(engineInfo.is_null());
  EXPECT_EQ(engineInfo["face"], "mcts");
  EXPECT_GT(engineInfo["nodes"].get<u64>(), 0u);
  // Its hint is alpha-beta's, at full strength.
  EXPECT_EQ(post(base + "/hint").first, 200);

  // MCTS analysis: the first line carries the root moves' table.
  ASSERT_EQ(post(base + "/mode", R"({"mode": "analysis"})").first, 200);
  stream.clear();
  auto [aStatus, aState] = post(base + "/analysis", R"({"on": true, "face": "mcts", "multiPv": 2})");
  ASSERT_EQ(aStatus, 200) << aState.dump();
  EXPECT_EQ(aState["analysis"]["face"], "mcts");
  Json table = stream.waitFor([](const Json& j) {
    return j["face"] == "mcts" && j.contains("moves") && j["moves"]["totalVisits"].get<u64>() >= 200;
  });
  ASSERT_FALSE(table.is_null());
  EXPECT_EQ(table["kind"], "analysis");
  EXPECT_EQ(table["multipv"], 1);
  const Json& rows = table["moves"]["rows"];
  ASSERT_GE(rows.size(), 2u);
  EXPECT_LE(rows.size(), size_t(kMctsTableRows));
  double shares = table["moves"]["others"]["share"].get<double>();
  u64 visits = table["moves"]["others"]["visits"].get<u64>();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& r = rows[i];
    EXPECT_GE(r["prior"].get<double>(), 0.0);
    EXPECT_LE(r["prior"].get<double>(), 1.0);
    if (i > 0) EXPECT_LE(r["visits"].get<u64>(), rows[i - 1]["visits"].get<u64>()) << rows.dump();
    EXPECT_FALSE(r["san"].get<std::string>().empty());
    shares += r["share"].get<double>();
    visits += r["visits"].get<u64>();
  }
  EXPECT_GT(rows[0]["visits"].get<u64>(), 0u);
  EXPECT_GE(rows[0]["q"].get<double>(), -1.0);
  EXPECT_LE(rows[0]["q"].get<double>(), 1.0);
  EXPECT_NEAR(shares, 1.0, 1e-6);
  EXPECT_EQ(visits, table["moves"]["totalVisits"].get<u64>());
  // Every table row gets its principal variation as a line of its own (MultiPV kMctsTableRows).
  EXPECT_FALSE(stream.waitFor([](const Json& j) { return j["face"] == "mcts" && j["multipv"] == 2; }).is_null());

  // Both faces at once on the same position: MCTS from the session's engine, alpha-beta (with its
  // MultiPV) from a second one.
  stream.clear();
  ASSERT_EQ(post(base + "/analysis", R"({"on": true, "face": "both"})").second["analysis"]["face"], "both");
  Json ab = stream.waitFor([](const Json& j) { return j["face"] == "alphabeta" && j["multipv"] == 2; });
  Json mc = stream.waitFor([](const Json& j) { return j["face"] == "mcts" && j.contains("moves"); });
  ASSERT_FALSE(ab.is_null());
  ASSERT_FALSE(mc.is_null());
  EXPECT_EQ(ab["fen"], mc["fen"]);
  EXPECT_FALSE(ab.contains("moves"));

  // Back to alpha-beta only: no MCTS info any more.
  ASSERT_EQ(post(base + "/analysis", R"({"on": true, "face": "alphabeta"})").first, 200);
  stream.clear();
  EXPECT_FALSE(stream.waitFor([](const Json& j) { return j["face"] == "alphabeta" && j["depth"] >= 4; }).is_null());
  const std::vector<Json> infos = stream.all();
  auto it = std::find_if(infos.begin(), infos.end(), [](const Json& j) { return j["face"] == "alphabeta" && j["depth"] >= 4; });
  EXPECT_TRUE(std::none_of(it, infos.end(), [](const Json& j) { return j["face"] == "mcts"; }));
}

TEST_F(ServerTest, ConcurrentGamesStayIndependent) {
  const char* fens[] = {"startpos", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2"};
  constexpr int kGames = 4, kMoves = 5;
  std::vector<std::string> ids;
  for (int i = 0; i < kGames; ++i) ids.push_back(newSession());
  std::vector<std::string> failures(kGames);
  std::vector<std::thread> threads;
  for (int g = 0; g < kGames; ++g) {
    threads.emplace_back([&, g] {
      httplib::Client c("127.0.0.1", m_port);
      c.set_read_timeout(30, 0);
      std::string base = "/api/sessions/" + ids[g];
      auto call = [&](const std::string& path, const std::string& body) {
        auto r = c.Post(path.c_str(), kApiHeaders, body, "application/json");
        return r ? Json::parse(r->body, nullptr, false) : Json();
      };
      Json st = call(base + "/new", Json{{"color", "white"}, {"level", 1}, {"fen", fens[g]}}.dump());
      for (int m = 0; m < kMoves && !st["over"].get<bool>(); ++m) {
        Position pos = Position::fromFen(st["fen"].get<std::string>());
        MoveList moves = legalMoves(pos);
        std::string uci = toUci(moves[m % moves.size()], false);
        st = call(base + "/move", Json{{"uci", uci}}.dump());
        if (!st.contains("ply")) {
          failures[g] = "move failed: " + st.dump();
          return;
        }
        for (int i = 0; i < 1000 && !st["over"].get<bool>() && st["turn"] != "white"; ++i) {
          std::this_thread::sleep_for(10ms);
          auto r = c.Get(base.c_str());
          st = r ? Json::parse(r->body, nullptr, false) : Json();
        }
        if (st["turn"] != "white" && !st["over"].get<bool>()) failures[g] = "engine did not reply";
      }
      // The game's own history is consistent: the start FEN is this thread's, the FEN list matches.
      std::string start = std::string(fens[g]) == "startpos" ? Position::kStartFen : fens[g];
      if (st["startFen"] != start) failures[g] = "start FEN changed: " + st["startFen"].dump();
      if (st["fens"].size() != st["moves"].size() + 1) failures[g] = "FEN history does not match the moves";
    });
  }
  for (auto& t : threads) t.join();
  for (int g = 0; g < kGames; ++g) EXPECT_EQ(failures[g], "") << "game " << g;
  EXPECT_EQ(m_server->sessionCount(), size_t(kGames));
}

TEST_F(ServerTest, ClocksRunAndTheFlagFalls) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  // Janus (White) moves at once; the player (Black) has 0.6 s and does not move.
  auto [status, st] = post(base + "/new", R"({"color": "black", "level": 1, "clock": {"minutes": 0.01, "increment": 0}})");
  ASSERT_EQ(status, 200) << st.dump();
  ASSERT_TRUE(st["clock"].is_object());
  EXPECT_EQ(st["clock"]["initialMs"], 600);
  Json over = waitState(id, [](const Json& s) { return s["over"].get<bool>(); });
  EXPECT_EQ(over["termination"], "time");
  EXPECT_EQ(over["result"], "1-0");
  EXPECT_EQ(over["clock"]["black"], 0);
  EXPECT_TRUE(over["clock"]["running"].is_null());
  EXPECT_NE(over["pgn"].get<std::string>().find("[TimeControl \"0+0\"]"), std::string::npos);
  EXPECT_NE(over["pgn"].get<std::string>().find("[Termination \"time forfeit\"]"), std::string::npos);
}

TEST_F(ServerTest, SessionCapAnswers503) {
  shutdown();
  start(2);
  newSession();
  newSession();
  auto [status, j] = post("/api/sessions");
  EXPECT_EQ(status, 503);
  EXPECT_NE(j.value("error", "").find("too many sessions"), std::string::npos);
}

TEST_F(ServerTest, InternalErrorsWriteABugReportWithThePgnAndFenHistory) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  post(base + "/new", R"({"color": "white", "level": 1})");
  post(base + "/move", R"({"uci": "d2d4"})");
  waitState(id, [](const Json& s) { return s["ply"] == 2; });
  auto [status, j] = post(base + "/debug/fail");
  ASSERT_EQ(status, 500);
  EXPECT_NE(j["error"].get<std::string>().find("simulated"), std::string::npos);
  ASSERT_TRUE(j.contains("report"));
  EXPECT_NE(j["pgn"].get<std::string>().find("1. d4"), std::string::npos);
  auto report = m_client->Get(j["report"].get<std::string>().c_str());
  ASSERT_TRUE(report);
  EXPECT_EQ(report->status, 200);
  EXPECT_NE(report->body.find("simulated internal error"), std::string::npos);
  EXPECT_NE(report->body.find("FEN history:"), std::string::npos);
  EXPECT_NE(report->body.find("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"), std::string::npos);
  EXPECT_NE(report->body.find("1. d4"), std::string::npos);
  // The session still works after the error.
  EXPECT_EQ(get(base).first, 200);
  EXPECT_EQ(get("/api/reports/..%2fgames").first, 404);
}

TEST_F(ServerTest, ReviewMarksTheBlunder) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  auto [s1, loaded] = post(base + "/load", R"({"pgn": "1. f3 e5 2. g4 Qh4# 0-1"})");
  ASSERT_EQ(s1, 200) << loaded.dump();
  EXPECT_EQ(loaded["termination"], "checkmate");
  auto [s2, st] = post(base + "/review", R"({"depth": 4, "moveTimeMs": 200})");
  ASSERT_EQ(s2, 200) << st.dump();
  Json done = waitState(id, [](const Json& s) { return s["review"].is_object() && s["review"]["finished"].get<bool>(); });
  const Json& moves = done["review"]["moves"];
  ASSERT_EQ(moves.size(), 4u);
  EXPECT_EQ(moves[2]["judgement"], "blunder");  // 2. g4?? allows mate
  EXPECT_EQ(moves[3]["judgement"], "");         // Qh4# is best
  EXPECT_EQ(done["review"]["summary"]["white"]["blunders"], 1);
  EXPECT_EQ(done["evals"].size(), 5u);
}

}  // namespace
}  // namespace janus::server
