#include "match/uci_engine.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::match {

namespace {
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename T>
bool toNumber(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}
}  // namespace

int UciScore::centipawns() const {
  if (kind == Kind::kCentipawns) return value;
  return value > 0 ? kMateCp - value : -kMateCp - value;
}

std::string UciScore::toString() const {
  if (kind == Kind::kMate) return fmt::format("{}M{}", value > 0 ? '+' : '-', std::abs(value));
  return fmt::format("{:+.2f}", value / 100.0);
}

void parseInfoLine(std::string_view line, SearchInfo& info) {
  auto t = tokens(line);
  if (t.empty() || t[0] != "info") return;
  // Skip lines about secondary PVs.
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    if (t[i] == "string" || t[i] == "pv") break;
    if (t[i] == "multipv" && t[i + 1] != "1") return;
  }
  SearchInfo next = info;
  std::optional<UciScore> score;
  for (size_t i = 1; i < t.size(); ++i) {
    std::string_view key = t[i];
    bool hasValue = i + 1 < t.size();
    if (key == "string" || key == "refutation" || key == "currline") break;
    if (key == "pv") {
      next.pv.assign(t.begin() + long(i) + 1, t.end());
      break;
    }
    if (!hasValue) break;
    if (key == "depth") {
      toNumber(t[++i], next.depth);
    } else if (key == "seldepth") {
      toNumber(t[++i], next.seldepth);
    } else if (key == "nodes") {
      toNumber(t[++i], next.nodes);
    } else if (key == "time") {
      toNumber(t[++i], next.timeMs);
    } else if (key == "score") {
      UciScore s;
      std::string_view kind = t[++i];
      if (i + 1 >= t.size()) break;
      if (kind != "cp" && kind != "mate") continue;
      s.kind = kind == "cp" ? UciScore::Kind::kCentipawns : UciScore::Kind::kMate;
      if (!toNumber(t[++i], s.value)) continue;
      if (i + 1 < t.size() && (t[i + 1] == "lowerbound" || t[i + 1] == "upperbound"))
        s.bound = t[++i] == "lowerbound" ? UciScore::Bound::kLower : UciScore::Bound::kUpper;
      score = s;
    } else if (key == "wdl") {
      i += 3;
    } else if (key == "currmove" || key == "currmovenumber" || key == "multipv" || key == "nps" ||
               key == "hashfull" || key == "tbhits" || key == "sbhits" || key == "cpuload") {
      ++i;
    }
  }
  if (score) {
    bool keepOld = info.score && info.score->bound == UciScore::Bound::kExact &&
                   score->bound != UciScore::Bound::kExact && next.depth <= info.depth;
    if (!keepOld) next.score = score;
  }
  info = std::move(next);
}

TrafficLog::TrafficLog(const std::string& path)
    : m_out(path, std::ios::trunc), m_start(std::chrono::steady_clock::now()) {
  if (!m_out) throw Error(fmt::format("cannot write debug log '{}'", path));
}

void TrafficLog::write(std::string_view who, char direction, std::string_view line) {
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  std::lock_guard lock(m_mutex);
  m_out << fmt::format("[{:10.4f}] {} {} {}\n", t, who, direction, line);
  m_out.flush();
}

UciEngine::UciEngine(EngineConfig config, std::string tag, TrafficLog* log)
    : m_config(std::move(config)), m_tag(std::move(tag)), m_log(log) {
  m_process.setStderrSink([this](const std::string& line) {
    if (m_log) m_log->write(m_tag, '!', line);
  });
}

UciEngine::~UciEngine() {
  if (m_process.running()) quit(std::chrono::milliseconds(300));
}

bool UciEngine::running() { return m_process.running(); }

bool UciEngine::send(std::string_view line) {
  if (m_log) m_log->write(m_tag, '>', line);
  return m_process.writeLine(line);
}

bool UciEngine::readLine(std::string& line, Clock::time_point deadline, ChildProcess::ReadStatus& status) {
  status = m_process.readLine(line, deadline);
  if (status == ChildProcess::ReadStatus::kLine && m_log) m_log->write(m_tag, '<', line);
  return status == ChildProcess::ReadStatus::kLine;
}

UciEngine::Wait UciEngine::waitFor(std::string_view token, Clock::time_point deadline) {
  std::string line;
  ChildProcess::ReadStatus status;
  while (readLine(line, deadline, status)) {
    auto t = tokens(line);
    if (!t.empty() && t[0] == token) return Wait::kFound;
  }
  return status == ChildProcess::ReadStatus::kEof ? Wait::kEof : Wait::kTimeout;
}

bool UciEngine::hasOption(std::string_view name) const {
  return std::any_of(m_optionNames.begin(), m_optionNames.end(), [&](const auto& o) { return iequals(o, name); });
}

void UciEngine::start(bool chess960, std::chrono::milliseconds timeout) {
  m_process.stop(std::chrono::milliseconds(0));
  ponderingOn.clear();
  m_idName.clear();
  m_optionNames.clear();
  m_warnings.clear();
  if (m_log) m_log->write(m_tag, '*', fmt::format("starting {}", m_config.command));
  try {
    m_process.start(m_config.command, m_config.args, m_config.workDir);
  } catch (const Error& e) {
    throw Error(fmt::format("engine {}: {}", m_config.name, e.what()));
  }
  auto fail = [&](std::string_view what) {
    bool alive = m_process.running();
    m_process.stop(std::chrono::milliseconds(alive ? 0 : 200));
    std::string how = alive ? "" : " (" + m_process.exitDescription() + ")";
    throw Error(fmt::format("engine {} ({}): {}{}", m_config.name, m_config.command, what, how));
  };
  if (!send("uci")) fail("does not read its input");
  auto deadline = Clock::now() + timeout;
  std::string line;
  ChildProcess::ReadStatus status;
  bool uciok = false;
  while (!uciok && readLine(line, deadline, status)) {
    auto t = tokens(line);
    if (t.empty()) continue;
    if (t[0] == "uciok") {
      uciok = true;
    } else if (t[0] == "id" && t.size() > 2 && t[1] == "name") {
      m_idName = std::string(line.substr(line.find("name") + 5));
    } else if (t[0] == "option" && t.size() > 2 && t[1] == "name") {
      // "option name <words...> type ...": the name runs up to " type ".
      size_t begin = line.find("name") + 5;
      size_t end = line.find(" type ", begin);
      std::string name(line.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
      while (!name.empty() && name.back() == ' ') name.pop_back();
      m_optionNames.push_back(name);
    }
  }
  if (!uciok)
    fail(status == ChildProcess::ReadStatus::kEof ? "exited before uciok"
                                                  : fmt::format("no uciok within {} ms", timeout.count()));
  for (const auto& [name, value] : m_config.options) {
    if (!hasOption(name))
      m_warnings.push_back(fmt::format("{} does not declare the UCI option '{}' (sent anyway)", m_config.name, name));
    send(value.empty() ? fmt::format("setoption name {}", name)
                       : fmt::format("setoption name {} value {}", name, value));
  }
  if (chess960) {
    if (!hasOption("UCI_Chess960"))
      m_warnings.push_back(fmt::format("{} does not declare UCI_Chess960 (sent anyway)", m_config.name));
    send("setoption name UCI_Chess960 value true");
  }
  if (m_config.ponder) {
    if (!hasOption("Ponder"))
      m_warnings.push_back(fmt::format("{} does not declare the Ponder option (sent anyway)", m_config.name));
    send("setoption name Ponder value true");
  }
  if (!send("isready")) fail("exited during setup");
  Wait w = waitFor("readyok", Clock::now() + timeout);
  if (w != Wait::kFound) fail(w == Wait::kEof ? "exited before readyok" : "no readyok after the options");
}

bool UciEngine::isReady(std::chrono::milliseconds timeout) {
  if (!send("isready")) return false;
  return waitFor("readyok", Clock::now() + timeout) == Wait::kFound;
}

bool UciEngine::newGame(std::chrono::milliseconds timeout) {
  if (!send("ucinewgame")) return false;
  return isReady(timeout);
}

UciEngine::SearchResult UciEngine::waitBestMove(Clock::time_point deadline) {
  SearchResult r;
  std::string line;
  ChildProcess::ReadStatus status;
  while (readLine(line, deadline, status)) {
    if (line.starts_with("info")) {
      parseInfoLine(line, r.info);
      continue;
    }
    auto t = tokens(line);
    if (t.empty() || t[0] != "bestmove") continue;
    r.receivedAt = Clock::now();
    r.status = SearchResult::Status::kBestMove;
    if (t.size() > 1) r.bestMove = std::string(t[1]);
    if (t.size() > 3 && t[2] == "ponder") r.ponderMove = std::string(t[3]);
    return r;
  }
  r.receivedAt = Clock::now();
  r.status = status == ChildProcess::ReadStatus::kEof ? SearchResult::Status::kEof : SearchResult::Status::kTimeout;
  return r;
}

void UciEngine::quit(std::chrono::milliseconds grace) {
  ponderingOn.clear();
  if (m_process.running()) send("quit");
  m_process.stop(grace);
}

void UciEngine::kill() {
  ponderingOn.clear();
  if (m_log) m_log->write(m_tag, '*', "killed");
  m_process.stop(std::chrono::milliseconds(0));
}

}  // namespace janus::match
