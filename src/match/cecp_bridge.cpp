#include "match/cecp_bridge.h"

#include <signal.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

namespace janus::match {

namespace {

using namespace std::chrono_literals;

std::vector<std::string> splitWords(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::optional<i64> toInt(std::string_view s) {
  i64 v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

/// "M:SS" for a CECP level command (minutes, seconds), at least one second.
std::string levelBase(i64 ms) {
  i64 s = std::max<i64>(1, ms / 1000);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

CecpBridge::CecpBridge(const std::string& program, const std::vector<std::string>& args, Sink sink)
    : m_sink(std::move(sink)), m_program(std::filesystem::path(program).filename().string()) {
  m_process.start(program, args, "");
  m_reader = std::thread([this] { readerLoop(); });
  send("xboard");
  send("protover 2");
  std::unique_lock lock(m_mutex);
  // CECP: wait up to 2 s for "feature done=1"; "done=0" asks for more time (we allow 10 s).
  auto deadline = std::chrono::steady_clock::now() + 2s;
  while (!m_featuresDone && !m_engineGone) {
    if (m_featuresWaitLonger) deadline = std::max(deadline, std::chrono::steady_clock::now() + 10s),
                              m_featuresWaitLonger = false;
    if (m_changed.wait_until(lock, deadline) == std::cv_status::timeout) break;
  }
}

CecpBridge::~CecpBridge() {
  // The reader thread owns the engine's output until it sees EOF: let the engine quit (1 s), else
  // kill it, join the reader, and only then close the pipes and reap the process.
  m_quitting = true;
  if (!m_engineGone) send("quit");
  {
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, 1s, [&] { return m_engineGone.load(); });
  }
  if (!m_engineGone && m_process.pid() > 0) ::kill(m_process.pid(), SIGKILL);
  if (m_reader.joinable()) m_reader.join();
  m_process.stop(1000ms);
}

void CecpBridge::send(const std::string& line) {
  std::lock_guard lock(m_sendMutex);  // the reader thread answers features while the UCI thread sends
  if (!m_process.writeLine(line)) m_engineGone = true;
}

void CecpBridge::say(const std::string& line) {
  std::lock_guard lock(m_sayMutex);
  m_sink(line);
}

std::string CecpBridge::engineName() const {
  std::lock_guard lock(m_mutex);
  for (auto& [k, v] : m_features)
    if (k == "myname") return v;
  return m_program;
}

bool CecpBridge::feature(const std::string& name) const {
  std::lock_guard lock(m_mutex);
  for (auto it = m_features.rbegin(); it != m_features.rend(); ++it)
    if (it->first == name) return it->second != "0";
  return false;
}

void CecpBridge::readerLoop() {
  std::string line;
  for (;;) {
    auto st = m_process.readLine(line, std::chrono::steady_clock::now() + 1s);
    if (st == ChildProcess::ReadStatus::kEof) break;
    if (st == ChildProcess::ReadStatus::kLine) onEngineLine(line);
    if (m_quitting && st == ChildProcess::ReadStatus::kTimeout) break;
  }
  m_engineGone = true;
  {
    std::lock_guard lock(m_mutex);
    m_changed.notify_all();
  }
  if (!m_quitting) say("info string error: the CECP engine closed its output (exited or crashed)");
}

void CecpBridge::onFeatures(std::string_view text) {
  // feature NAME=VALUE NAME="quoted value" ...; each is answered with accepted/rejected.
  static const std::vector<std::string_view> kKnown = {"ping", "setboard", "playother", "san",   "usermove",
                                                       "time", "draw",     "sigint",    "sigterm", "reuse",
                                                       "analyze", "myname", "variants", "colors", "ics",
                                                       "name", "pause",    "nps",       "debug",   "memory",
                                                       "smp",  "done",     "exclude",   "setscore", "highlight"};
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t eq = text.find('=', i);
    if (eq == std::string_view::npos) break;
    std::string name(text.substr(i, eq - i));
    std::string value;
    i = eq + 1;
    if (i < text.size() && text[i] == '"') {
      size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) end = text.size();
      value = std::string(text.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      size_t end = text.find(' ', i);
      if (end == std::string_view::npos) end = text.size();
      value = std::string(text.substr(i, end - i));
      i = end;
    }
    bool known = std::find(kKnown.begin(), kKnown.end(), name) != kKnown.end();
    send(fmt::format("{} {}", known ? "accepted" : "rejected", name));
    std::lock_guard lock(m_mutex);
    m_features.emplace_back(name, value);
    if (name == "done") {
      if (value == "0") m_featuresWaitLonger = true;
      else m_featuresDone = true;
    }
    m_changed.notify_all();
  }
}

void CecpBridge::onEngineLine(const std::string& line) {
  auto words = splitWords(line);
  if (words.empty()) return;
  const std::string& w0 = words[0];
  if (w0 == "feature") return onFeatures(std::string_view(line).substr(line.find("feature") + 7));
  if (w0 == "pong" && words.size() >= 2) {
    std::lock_guard lock(m_mutex);
    if (auto n = toInt(words[1])) m_pong = int(*n);
    m_changed.notify_all();
    return;
  }
  if (w0 == "move" || (w0 == "My" && words.size() >= 4 && words[1] == "move" && words[2] == "is:")) {
    std::string text = w0 == "move" ? (words.size() >= 2 ? words[1] : "") : words[3];
    Position pos;
    {
      std::lock_guard lock(m_mutex);
      if (!m_searching) return;  // a move after "force" or an answer we no longer wait for
      pos = m_searchPos;
    }
    Move m = Move::none();
    try {
      m = parseUci(pos, text, false);
    } catch (const Error&) {
      try {
        m = parseSan(pos, text);
      } catch (const Error& e) {
        say(fmt::format("info string error: the CECP engine played '{}': {}", text, e.what()));
      }
    }
    {
      std::lock_guard lock(m_mutex);
      m_searching = false;
      if (m) m_engineMoves.push_back(m);
    }
    say("bestmove " + (m ? toUci(m, false) : text));
    return;
  }
  if (w0 == "resign" || (words.size() >= 2 && words[1] == "resign")) {
    bool wasSearching;
    {
      std::lock_guard lock(m_mutex);
      wasSearching = m_searching;
      m_searching = false;
    }
    say(fmt::format("info string {} resigns", engineName()));
    if (wasSearching) say("bestmove 0000");
    return;
  }
  if (w0.starts_with("Error") || w0 == "Illegal") {
    say("info string error: CECP engine says: " + line);
    return;
  }
  // Thinking output: ply score time(cs) nodes [selective-depth ...] pv...
  if (words.size() >= 4) {
    auto ply = toInt(words[0]), score = toInt(words[1]), cs = toInt(words[2]), nodes = toInt(words[3]);
    if (ply && score && cs && nodes && *ply > 0) {
      {
        std::lock_guard lock(m_mutex);
        if (!m_searching) return;
      }
      say(fmt::format("info depth {} score cp {} time {} nodes {}", *ply, *score, *cs * 10, *nodes));
    }
  }
}

bool CecpBridge::handle(std::string_view line) {
  auto words = splitWords(line);
  if (words.empty()) return true;
  const std::string& cmd = words[0];
  if (cmd == "uci") {
    say("id name " + engineName());
    say("id author CECP engine " + m_program + " through janus cecp");
    say("uciok");
  } else if (cmd == "isready") {
    if (feature("ping") && !m_engineGone) {
      int n = ++m_pingCounter;
      send(fmt::format("ping {}", n));
      std::unique_lock lock(m_mutex);
      m_changed.wait_for(lock, 30s, [&] { return m_pong >= n || m_engineGone; });
    }
    say("readyok");
  } else if (cmd == "ucinewgame") {
    m_needNew = true;
  } else if (cmd == "setoption") {
    // Only the options every UCI engine is sent; a CECP engine's own options are not mapped.
    auto pos = line.find("name");
    std::string name(pos == std::string_view::npos ? "" : line.substr(pos + 5));
    name = name.substr(0, name.find(" value"));
    if (name == "UCI_Chess960" && line.find("value true") != std::string_view::npos)
      say("info string error: UCI_Chess960 is not supported by janus cecp");
  } else if (cmd == "position") {
    try {
      UciPositionArgs args = splitUciPosition(line.substr(line.find("position") + 8));
      std::string fen = args.fen == "startpos" ? Position::kStartFen : args.fen;
      Position pos = Position::fromFen(fen);
      std::vector<Move> moves;
      for (const std::string& text : args.moves) {
        Move m = parseUci(pos, text, false);
        pos.makeMove(m);
        moves.push_back(m);
      }
      m_startFen = fen;
      m_moves = std::move(moves);
      m_pos = pos;
    } catch (const Error& e) {
      say(fmt::format("info string error: {}", e.what()));
    }
  } else if (cmd == "go") {
    handleGo(line.substr(2));
  } else if (cmd == "stop") {
    bool searching;
    {
      std::lock_guard lock(m_mutex);
      searching = m_searching;
    }
    if (searching) send("?");
  } else if (cmd == "ponderhit") {
    say("info string error: pondering is not supported by janus cecp");
  } else if (cmd == "quit") {
    return false;
  } else if (cmd != "debug" && cmd != "register") {
    say(fmt::format("info string error: unknown command '{}'", cmd));
  }
  return true;
}

std::string CecpBridge::moveText(const Position& pos, Move m) const {
  std::string text = feature("san") ? toSan(pos, m) : toUci(m, false);
  return feature("usermove") ? "usermove " + text : text;
}

void CecpBridge::syncBoard() {
  std::vector<Move> seen;
  {
    std::lock_guard lock(m_mutex);
    seen = m_engineMoves;
  }
  bool continues = !m_needNew && m_engineStartFen == m_startFen && seen.size() <= m_moves.size() &&
                   std::equal(seen.begin(), seen.end(), m_moves.begin());
  if (!continues) {
    send("new");
    send("easy");  // no pondering: UCI pondering is not mapped
    send("post");
    send("force");
    if (m_startFen != Position::kStartFen) {
      if (!feature("setboard")) throw Error("this CECP engine does not support setboard (position fen)");
      send("setboard " + m_startFen);
    }
    seen.clear();
    m_needNew = false;
    m_engineStartFen = m_startFen;
  } else {
    send("force");
  }
  Position pos = Position::fromFen(m_startFen);
  for (size_t i = 0; i < m_moves.size(); ++i) {
    if (i >= seen.size()) send(moveText(pos, m_moves[i]));
    pos.makeMove(m_moves[i]);
  }
  std::lock_guard lock(m_mutex);
  m_engineMoves = m_moves;
}

void CecpBridge::handleGo(std::string_view args) {
  auto words = splitWords(args);
  std::optional<i64> wtime, btime, winc, binc, movestogo, movetime, depth;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& k = words[i];
    auto value = [&]() -> i64 {
      if (i + 1 >= words.size()) throw Error(fmt::format("go: '{}' needs a value", k));
      auto v = toInt(words[++i]);
      if (!v || *v < 0) throw Error(fmt::format("go: bad value '{}' for '{}'", words[i], k));
      return *v;
    };
    try {
      if (k == "wtime") wtime = value();
      else if (k == "btime") btime = value();
      else if (k == "winc") winc = value();
      else if (k == "binc") binc = value();
      else if (k == "movestogo") movestogo = value();
      else if (k == "movetime") movetime = value();
      else if (k == "depth") depth = value();
      else
        throw Error(fmt::format("go: '{}' is not supported by janus cecp", k));
    } catch (const Error& e) {
      say(fmt::format("info string error: {}", e.what()));
      return;
    }
  }
  if (m_engineGone) {
    say("info string error: the CECP engine is not running");
    return;
  }
  if (!hasLegalMove(m_pos)) {
    say("bestmove 0000");
    return;
  }
  try {
    syncBoard();
  } catch (const Error& e) {
    say(fmt::format("info string error: {}", e.what()));
    return;
  }
  Color us = m_pos.sideToMove();
  std::optional<i64> own = us == kWhite ? wtime : btime, opp = us == kWhite ? btime : wtime;
  std::optional<i64> inc = us == kWhite ? winc : binc;
  if (own) {
    // CECP increments are seconds; engines that read only integers get the floor.
    send(fmt::format("level {} {} {}", movestogo.value_or(0), levelBase(*own),
                     fmt::format("{:g}", double(inc.value_or(0)) / 1000.0)));
    send(fmt::format("time {}", std::max<i64>(1, *own / 10)));
    send(fmt::format("otim {}", std::max<i64>(1, opp.value_or(*own) / 10)));
  } else if (movetime) {
    send(fmt::format("st {}", std::max<i64>(1, (*movetime + 500) / 1000)));
  }
  if (depth) send(fmt::format("sd {}", *depth));
  {
    std::lock_guard lock(m_mutex);
    m_searching = true;
    m_searchPos = m_pos;
  }
  send("go");
}

}  // namespace janus::match
