// API tests of the GUI server, the HTTP side: /api/info, methods and headers (405, 403), bounds,
// malformed requests, static files and the missing page, the web folder's lookup, the session cap
// and internal errors. Fixture: server_test_util.h.

#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>

#include "nnue/network.h"
#include "server/server_test_util.h"

namespace janus::server {
namespace {

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
  // A body over 2 MiB: 413 with a message naming the limit of a load, the PGN's 1 MiB.
  auto r = m_client->Post((base + "/load").c_str(), kApiHeaders, std::string(3 << 20, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("request body too large (3 MiB): a PGN to load may have at most 1 MiB"), std::string::npos) << r->body;
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

TEST(RequestLimits, MessagesNameTheLimitOfTheRequest) {
  const std::string load = "/api/sessions/0123456789abcdef0123456789abcdef/load";
  const std::string move = "/api/sessions/0123456789abcdef0123456789abcdef/move";
  EXPECT_TRUE(isLoadPath(load));
  EXPECT_FALSE(isLoadPath(move));
  EXPECT_FALSE(isLoadPath("/api/sessions/x/load"));
  EXPECT_TRUE(isLoadPath("/api/pgn/games"));
  EXPECT_EQ(bodyLimit(load), kMaxBodyBytes);
  EXPECT_EQ(bodyLimit(move), kMaxSmallBodyBytes);
  EXPECT_EQ(bodyLimit("/api/tablebases"), kMaxSmallBodyBytes);
  EXPECT_EQ(formatBytes(kMaxPgnBytes), "1 MiB");
  EXPECT_EQ(formatBytes(kMaxSmallBodyBytes), "64 KiB");
  EXPECT_EQ(formatBytes(1258291), "1.2 MiB");
  EXPECT_EQ(formatBytes(300), "300 bytes");
  EXPECT_EQ(bodyTooLargeMessage(load, 1258291), "request body too large (1.2 MiB): a PGN to load may have at most 1 MiB");
  EXPECT_EQ(bodyTooLargeMessage(move, 100 << 10), "request body too large (100 KiB): a request to 'move' may have at most 64 KiB");
  EXPECT_EQ(bodyTooLargeMessage("/api/tablebases", 0), "request body too large: a request to '/api/tablebases' may have at most 64 KiB");
  EXPECT_NO_THROW(checkPgnSize(std::string(kMaxPgnBytes, 'x')));
  try {
    checkPgnSize(std::string(kMaxPgnBytes + 1, 'x'));
    FAIL() << "a PGN over the limit was accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.status(), 413);
    EXPECT_EQ(std::string(e.what()), "PGN too large (1.0 MiB): a PGN to load may have at most 1 MiB");
  }
}

TEST_F(ServerTest, ABodyOverItsRequestsLimitGets413NamingIt) {
  std::string id = newSession();
  std::string base = "/api/sessions/" + id;
  // 1.2 MB of PGN: within the 2 MiB read, over the 1 MiB of a PGN.
  auto [status, j] = post(base + "/load", Json{{"pgn", "1. e4 e5 {" + std::string(1200000, 'x') + "} *"}}.dump());
  EXPECT_EQ(status, 413);
  EXPECT_EQ(j.value("error", ""), "PGN too large (1.1 MiB): a PGN to load may have at most 1 MiB");
  // A move of 100 kB.
  std::tie(status, j) = post(base + "/move", Json{{"uci", "e2e4"}, {"pad", std::string(100000, 'x')}}.dump());
  EXPECT_EQ(status, 413);
  EXPECT_EQ(j.value("error", ""), "request body too large (97.7 KiB): a request to 'move' may have at most 64 KiB");
  // Over the reading limit, a move names its own limit too.
  auto r = m_client->Post((base + "/move").c_str(), kApiHeaders, std::string(3 << 20, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("a request to 'move' may have at most 64 KiB"), std::string::npos) << r->body;
  // The game is as it was.
  EXPECT_EQ(get(base).second["ply"], 0);
}

TEST_F(ServerTest, ThePgnGamesOfATextAreListedStrictly) {
  auto [status, j] = post("/api/pgn/games", Json{{"pgn", "[White \"Ann\"]\n\n1. e4 *\n\n[White \"Bob\"]\n\n1. d4 d5 1-0\n"}}.dump());
  ASSERT_EQ(status, 200) << j.dump();
  ASSERT_EQ(j["games"].size(), 2u);
  EXPECT_EQ(j["games"][1]["tags"]["White"], "Bob");
  EXPECT_EQ(j["games"][1]["plies"], 2);
  std::tie(status, j) = post("/api/pgn/games", Json{{"pgn", "[Event \"Casual\n[White \"Ann\"]\n\n1. e4 {open\n2. Nf3 *"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(j.value("error", "").rfind("PGN: line 1: unterminated tag value", 0), 0u) << j.dump();
  EXPECT_EQ(post("/api/pgn/games", "{}").first, 400);
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

}  // namespace
}  // namespace janus::server
