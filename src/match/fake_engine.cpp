// match_fake_engine: a tiny UCI engine for the match runner's tests. It plays legal moves chosen
// at random (or scripted) with Janus's core, and can misbehave on purpose:
//
//   --seed N          random seed (default: from the pid)
//   --score CP        report "info depth 1 score cp CP ..." with every move (default: no info)
//   --script "m1 m2"  UCI moves by ply of the game (the n-th move after the position's start);
//                     used when legal, else a random move is played
//   --prefer-mate     play a mating move when there is one
//   --first           always play the first legal move (deterministic)
//   --crash-at N      exit(3) when asked for its N-th move of a game (counts restart at ucinewgame)
//   --abort-at N      abort() (SIGABRT) when asked for its N-th move
//   --illegal-at N    answer the N-th move with an illegal move
//   --wrong-pv-at N   before the N-th move send a PV that begins with another legal move
//   --hang-at N       on the N-th move stop reading and answering (sleeps until killed, 60 s max)
//   --slow-at N       answer the N-th move only after --delay ms
//   --delay MS        delay for --slow-at (default 2000); with --slow-at 0, every move is delayed
//   --no-uciok        never answer "uci" (startup timeout)
//   --noise           write a line to stderr for every go
//   --chaos P         on each go, with probability P/1000, do one of: exit, abort, illegal move,
//                     hang, answer after 3 s (for stress runs of the runner)
//
// "go ponder" waits for "ponderhit" or "stop"; bestmove always carries a ponder move (the first
// legal reply), so that pondering is exercised.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

using namespace janus;

namespace {
struct Options {
  u64 seed = u64(::getpid()) * 7919u + 17;
  std::optional<int> score;
  std::vector<std::string> script;
  bool preferMate = false;
  bool first = false;
  int crashAt = 0, abortAt = 0, illegalAt = 0, wrongPvAt = 0, hangAt = 0, slowAt = -1;
  int delayMs = 2000;
  bool noUciok = false;
  bool noise = false;
  int chaos = 0;
};

void say(const std::string& s) { std::cout << s << std::endl; }

[[noreturn]] void hangForever() {
  for (int i = 0; i < 600; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::_Exit(0);
}

class FakeEngine {
 public:
  explicit FakeEngine(Options o) : m_opt(std::move(o)), m_rng(m_opt.seed) {}

  void run() {
    std::string line;
    while (std::getline(std::cin, line)) {
      std::istringstream in(line);
      std::string cmd;
      in >> cmd;
      if (cmd == "uci") {
        if (m_opt.noUciok) hangForever();
        say("id name FakeEngine");
        say("id author Janus tests");
        say("option name UCI_Chess960 type check default false");
        say("option name Ponder type check default false");
        say("option name Hash type spin default 1 min 1 max 1024");
        say("uciok");
      } else if (cmd == "ucinewgame") {
        m_goCount = 0;  // misbehaviour counts restart with every game
      } else if (cmd == "isready") {
        say("readyok");
      } else if (cmd == "setoption") {
        if (line.find("UCI_Chess960 value true") != std::string::npos) m_chess960 = true;
      } else if (cmd == "position") {
        setPosition(in);
      } else if (cmd == "go") {
        go(line);
      } else if (cmd == "ponderhit" || cmd == "stop") {
        if (m_waiting) {
          m_waiting = false;
          answer();
        }
      } else if (cmd == "quit") {
        return;
      }
    }
  }

 private:
  // "position ..." usually extends the previous one by a move or two: only those are applied.
  void setPosition(std::istringstream& in) {
    std::string word;
    in >> word;
    std::string fen = Position::kStartFen;
    if (word == "fen") {
      fen.clear();
      while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    } else {
      in >> word;  // "moves" or nothing
    }
    std::vector<std::string> moves;
    while (in >> word) moves.push_back(word);
    bool extends = fen == m_fen && moves.size() >= m_moves.size() &&
                   std::equal(m_moves.begin(), m_moves.end(), moves.begin());
    if (!extends) {
      m_pos = Position::fromFen(fen, m_chess960);
      m_fen = fen;
      m_moves.clear();
    }
    for (size_t i = m_moves.size(); i < moves.size(); ++i) {
      m_pos.makeMove(parseUci(m_pos, moves[i], m_chess960));
      m_moves.push_back(moves[i]);
    }
    m_ply = int(m_moves.size());
  }

  void go(const std::string& line) {
    ++m_goCount;
    if (m_opt.noise) std::cerr << "fake engine: go #" << m_goCount << std::endl;
    if (m_goCount == m_opt.crashAt) std::_Exit(3);
    if (m_goCount == m_opt.abortAt) std::abort();
    if (m_goCount == m_opt.hangAt) hangForever();
    if (m_opt.chaos > 0 && int(m_rng() % 1000) < m_opt.chaos) {
      switch (m_rng() % 5) {
        case 0: std::_Exit(3);
        case 1: std::abort();
        case 2: say("bestmove " + illegalMove()); return;
        case 3: hangForever();
        default: std::this_thread::sleep_for(std::chrono::milliseconds(3000));
      }
    }
    bool ponder = line.find(" ponder") != std::string::npos;
    bool infinite = line.find(" infinite") != std::string::npos;
    if (ponder || infinite) {
      m_waiting = true;
      return;
    }
    if (m_goCount == m_opt.slowAt || m_opt.slowAt == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(m_opt.delayMs));
    answer();
  }

  Move choose() {
    MoveList moves = legalMoves(m_pos);
    if (moves.empty()) return Move::none();
    if (size_t(m_ply) < m_opt.script.size()) {
      try {
        return parseUci(m_pos, m_opt.script[size_t(m_ply)], m_chess960);
      } catch (const Error&) {
      }
    }
    if (m_opt.first) return moves[0];
    if (m_opt.preferMate)
      for (Move m : moves) {
        Position p = m_pos;
        p.makeMove(m);
        if (isCheckmate(p)) return m;
      }
    return moves[int(m_rng() % u64(moves.size()))];
  }

  std::string illegalMove() const {
    static const char* candidates[] = {"a1a8", "e2e5", "h1h8", "a8a1", "b1b5", "g8g1", "d1h8", "a2a5"};
    for (const char* c : candidates) {
      try {
        (void)parseUci(m_pos, c, m_chess960);
      } catch (const Error&) {
        return c;
      }
    }
    return "a1a1";
  }

  void answer() {
    if (m_goCount == m_opt.illegalAt) {
      say("bestmove " + illegalMove());
      return;
    }
    Move m = choose();
    if (!m) {
      say("bestmove (none)");
      return;
    }
    std::string uci = toUci(m, m_chess960);
    if (m_opt.score)
      say("info depth 1 seldepth 1 score cp " + std::to_string(*m_opt.score) + " nodes 1 time 0 pv " + uci);
    if (m_goCount == m_opt.wrongPvAt) {
      MoveList all = legalMoves(m_pos);
      for (Move other : all)
        if (other != m) {
          say("info depth 2 score cp 0 nodes 2 time 0 pv " + toUci(other, m_chess960));
          break;
        }
    }
    Position after = m_pos;
    after.makeMove(m);
    MoveList replies = legalMoves(after);
    std::string ponder = replies.empty() ? "" : " ponder " + toUci(replies[0], m_chess960);
    say("bestmove " + uci + ponder);
  }

  Options m_opt;
  std::mt19937_64 m_rng;
  Position m_pos;
  std::string m_fen;
  std::vector<std::string> m_moves;
  int m_ply = 0;
  int m_goCount = 0;
  bool m_chess960 = false;
  bool m_waiting = false;
};
}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "missing value after " << a << "\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed") o.seed = std::stoull(next());
    else if (a == "--score") o.score = std::stoi(next());
    else if (a == "--script") {
      std::istringstream in(next());
      std::string m;
      while (in >> m) o.script.push_back(m);
    }
    else if (a == "--prefer-mate") o.preferMate = true;
    else if (a == "--first") o.first = true;
    else if (a == "--crash-at") o.crashAt = std::stoi(next());
    else if (a == "--abort-at") o.abortAt = std::stoi(next());
    else if (a == "--illegal-at") o.illegalAt = std::stoi(next());
    else if (a == "--wrong-pv-at") o.wrongPvAt = std::stoi(next());
    else if (a == "--hang-at") o.hangAt = std::stoi(next());
    else if (a == "--slow-at") o.slowAt = std::stoi(next());
    else if (a == "--delay") o.delayMs = std::stoi(next());
    else if (a == "--no-uciok") o.noUciok = true;
    else if (a == "--noise") o.noise = true;
    else if (a == "--chaos") o.chaos = std::stoi(next());
    else {
      std::cerr << "unknown argument " << a << "\n";
      return 2;
    }
  }
  try {
    FakeEngine(o).run();
  } catch (const std::exception& e) {
    std::cerr << "fake engine: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
