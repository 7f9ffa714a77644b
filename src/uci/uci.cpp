#include "uci/uci.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "core/notation.h"
#include "core/perft.h"
#include "util/error.h"

namespace janus {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// Splits off the first word; returns it and leaves the rest (trimmed) in `rest`.
std::string firstWord(const std::string& s, std::string& rest) {
  std::string t = trim(s);
  size_t sp = t.find_first_of(" \t");
  if (sp == std::string::npos) {
    rest.clear();
    return t;
  }
  rest = trim(t.substr(sp));
  return t.substr(0, sp);
}

i64 parseNumber(const std::string& token, const std::string& param, i64 min, i64 max) {
  i64 v = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (token.empty() || ec != std::errc() || ptr != token.data() + token.size())
    throw Error("go " + param + ": '" + token + "' is not an integer");
  if (v < min || v > max)
    throw Error("go " + param + ": " + token + " is out of range " + std::to_string(min) + ".." + std::to_string(max));
  return v;
}

}  // namespace

UciProtocol::UciProtocol(Engine& engine, std::ostream& out, bool showHidden)
    : m_engine(engine), m_out(out), m_showHidden(showHidden) {
  m_engine.onInfo([this](const SearchInfo& info) {
    send(formatInfo(info, m_engine.chess960()));
    for (const std::string& line : formatMoveStats(info, m_engine.chess960())) send(line);
  });
  m_engine.onBestMove([this](const SearchResult& r) { send(formatBestMove(r, m_engine.chess960())); });
  m_engine.onMessage([this](const std::string& line) { send("info string " + line); });
}

void UciProtocol::send(const std::string& line) {
  std::lock_guard lock(m_outMutex);
  m_out << line << '\n' << std::flush;
}

std::string UciProtocol::formatInfo(const SearchInfo& info, bool chess960) {
  std::ostringstream os;
  os << "info depth " << info.depth << " seldepth " << info.selDepth << " multipv " << info.multiPv << " score ";
  if (isMateScore(info.score))
    os << "mate " << mateInMoves(info.score);
  else
    os << "cp " << info.score;
  if (info.bound == Bound::kLower) os << " lowerbound";
  if (info.bound == Bound::kUpper) os << " upperbound";
  if (info.wdl) os << " wdl " << info.wdl->win << ' ' << info.wdl->draw << ' ' << info.wdl->loss;
  os << " nodes " << info.nodes << " nps " << info.nps << " hashfull " << info.hashfull << " tbhits " << info.tbHits
     << " time " << info.timeMs;
  if (!info.pv.empty()) {
    os << " pv";
    for (Move m : info.pv) os << ' ' << toUci(m, chess960);
  }
  return os.str();
}

std::vector<std::string> UciProtocol::formatMoveStats(const SearchInfo& info, bool chess960) {
  std::vector<std::string> lines;
  if (info.playouts)
    lines.push_back("info string nodes " + std::to_string(info.nodes) + " = playouts " + std::to_string(*info.playouts) +
                    " + hint nodes " + std::to_string(info.nodes - std::min(info.nodes, *info.playouts)));
  for (const MoveStat& m : info.moveStats) {
    std::ostringstream os;
    os << std::fixed << "info string " << toUci(m.move, chess960) << " N " << m.visits << " P " << std::setprecision(2)
       << m.prior * 100 << "% ";
    // The prior the search used, where alpha-beta hints or root noise changed it (its own column).
    if (std::abs(m.searchPrior - m.prior) >= 0.00005f) os << "PS " << m.searchPrior * 100 << "% ";
    os << "Q ";
    if (m.visits)
      os << std::setprecision(4) << (m.q == 0 ? 0.0f : m.q);  // no "-0.0000"
    else
      os << '-';
    // The value the search chose with, where the hints' values moved it from Q (its own column).
    if (m.searchQ && (!m.visits || std::abs(*m.searchQ - m.q) >= 0.00005f))
      os << " QS " << std::setprecision(4) << (*m.searchQ == 0 ? 0.0f : *m.searchQ);
    lines.push_back(os.str());
  }
  return lines;
}

std::string UciProtocol::formatBestMove(const SearchResult& r, bool chess960) {
  if (!r.best) return "bestmove (none)";
  std::string s = "bestmove " + toUci(r.best, chess960);
  if (r.ponder) s += " ponder " + toUci(r.ponder, chess960);
  return s;
}

void UciProtocol::loop(std::istream& in) {
  std::string line;
  while (std::getline(in, line))
    if (!handle(line)) break;
  m_engine.stop();
  m_engine.wait();
}

bool UciProtocol::handle(const std::string& line) {
  std::string args;
  std::string cmd = firstWord(line, args);
  try {
    if (cmd.empty()) return true;
    if (cmd == "quit") {
      m_engine.stop();
      return false;
    }
    if (cmd == "uci")
      cmdUci();
    else if (cmd == "isready")
      send("readyok");
    else if (cmd == "ucinewgame")
      m_engine.newGame();
    else if (cmd == "setoption")
      cmdSetOption(args);
    else if (cmd == "position")
      cmdPosition(args);
    else if (cmd == "go")
      cmdGo(args);
    else if (cmd == "stop")
      m_engine.stop();
    else if (cmd == "ponderhit")
      m_engine.ponderhit();
    else if (cmd == "d")
      send(m_engine.position().pretty());
    else if (cmd == "eval")
      send("info string static eval " + std::to_string(m_engine.staticEval()) + " cp (side to move)");
    else if (cmd == "debug" || cmd == "register")
      ;  // accepted and ignored
    else if (cmd.size() > 64)  // junk: do not echo a huge word back (a GUI's log, a pipe that fills up)
      throw Error("unknown command '" + cmd.substr(0, 64) + "...' (" + std::to_string(cmd.size()) + " bytes)");
    else
      throw Error("unknown command '" + cmd + "'");
  } catch (const Error& e) {
    send(std::string("info string error: ") + e.what());
  } catch (const std::exception& e) {
    send(std::string("info string error: ") + e.what());
  }
  return true;
}

void UciProtocol::cmdUci() {
  send(std::string("id name Janus ") + JANUS_VERSION);
  send("id author the Janus developers");
  for (const OptionSpec* s : m_engine.options().specs()) {
    if (s->hidden && !m_showHidden) continue;
    std::string line = "option name " + s->name + " type ";
    switch (s->type) {
      case OptionSpec::Type::kCheck: line += "check default " + s->defaultValue; break;
      case OptionSpec::Type::kSpin:
        line += "spin default " + s->defaultValue + " min " + std::to_string(s->min) + " max " + std::to_string(s->max);
        break;
      case OptionSpec::Type::kCombo:
        line += "combo default " + s->defaultValue;
        for (const auto& c : s->choices) line += " var " + c;
        break;
      case OptionSpec::Type::kButton: line += "button"; break;
      case OptionSpec::Type::kString: line += "string default " + (s->defaultValue.empty() ? "<empty>" : s->defaultValue); break;
    }
    send(line);
  }
  send("uciok");
}

void UciProtocol::cmdSetOption(const std::string& args) {
  // setoption name <id (may contain spaces)> [value <x (may contain spaces)>]
  std::string rest;
  if (firstWord(args, rest) != "name") throw Error("setoption: expected 'name <id> [value <x>]'");
  std::string name = rest, value;
  size_t pos = (" " + rest + " ").find(" value ");
  if (pos != std::string::npos) {
    name = trim(rest.substr(0, pos));
    value = trim(rest.substr(std::min(rest.size(), pos + 6)));
  }
  if (name.empty()) throw Error("setoption: missing option name");
  if (value == "<empty>") value.clear();
  m_engine.setOption(name, value);
}

void UciProtocol::cmdPosition(const std::string& args) {
  UciPositionArgs p = splitUciPosition(args);
  m_engine.setPosition(p.fen, p.moves);
}

void UciProtocol::cmdGo(const std::string& args) {
  std::istringstream ss(args);
  std::vector<std::string> tokens;
  for (std::string t; ss >> t;) tokens.push_back(t);
  SearchLimits limits;
  limits.startTime = std::chrono::steady_clock::now();
  const i64 kMaxMs = i64(1) << 40;
  bool chess960 = m_engine.chess960();
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    auto next = [&](i64 min, i64 max) {
      if (i + 1 >= tokens.size()) throw Error("go " + t + ": missing value");
      return parseNumber(tokens[++i], t, min, max);
    };
    // A clock that is already negative still gets a move (as fast as possible). Clamped here,
    // not after the loop: -1 is SearchLimits' "not set", so "wtime -1" used to mean no clock at
    // all and an endless search.
    if (t == "wtime") limits.time[kWhite] = std::max<i64>(0, next(-kMaxMs, kMaxMs));
    else if (t == "btime") limits.time[kBlack] = std::max<i64>(0, next(-kMaxMs, kMaxMs));
    else if (t == "winc") limits.inc[kWhite] = next(-kMaxMs, kMaxMs);
    else if (t == "binc") limits.inc[kBlack] = next(-kMaxMs, kMaxMs);
    else if (t == "movestogo") limits.movesToGo = int(next(0, 10000));
    else if (t == "movetime") limits.moveTime = next(0, kMaxMs);
    else if (t == "depth") limits.depth = int(next(1, kMaxPly - 1));
    else if (t == "nodes") limits.nodes = u64(next(1, i64(1) << 62));
    else if (t == "playouts") limits.playouts = u64(next(1, i64(1) << 62));  // Janus's MCTS extension
    else if (t == "mate") limits.mate = int(next(1, kMaxPly / 2));
    else if (t == "infinite") limits.infinite = true;
    else if (t == "ponder") limits.ponder = true;
    else if (t == "perft") {
      int depth = int(next(0, 20));
      Position pos = m_engine.position();
      u64 total = 0;
      for (auto [m, n] : divide(pos, depth)) {
        send(toUci(m, chess960) + ": " + std::to_string(n));
        total += n;
      }
      send("\nNodes searched: " + std::to_string(total) + "\n");
      return;
    } else if (t == "searchmoves") {
      while (i + 1 < tokens.size() && parseSquare(tokens[i + 1].substr(0, 2)))
        limits.searchMoves.push_back(parseUci(m_engine.position(), tokens[++i], chess960));
    } else {
      throw Error("go: unknown parameter '" + t + "'");
    }
  }
  m_engine.go(limits);
}

}  // namespace janus
