#include "server/game.h"

#include <algorithm>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "util/error.h"

namespace janus::server {

std::string_view terminationName(std::optional<GameEnd> end) {
  if (!end) return "";
  switch (*end) {
    case GameEnd::kCheckmate: return "checkmate";
    case GameEnd::kStalemate: return "stalemate";
    case GameEnd::kRepetition: return "threefold";
    case GameEnd::kFiftyMoves: return "fifty-moves";
    case GameEnd::kInsufficientMaterial: return "insufficient-material";
    case GameEnd::kResignation: return "resignation";
    case GameEnd::kTimeForfeit: return "time";
    case GameEnd::kAdjudicatedWin:
    case GameEnd::kAdjudicatedDraw: return "adjudicated";
    default: return "";
  }
}

namespace {
// Results as std::string constants: assigning them avoids a false -Wrestrict warning of GCC 12
// (bug 105329) on assigning short literals to std::string.
const std::string kWhiteWins = "1-0", kBlackWins = "0-1", kDrawn = "1/2-1/2", kOngoing = "*";
}  // namespace

Game::Game() { reset("startpos"); }

void Game::reset(std::string_view fen) {
  Position start;
  if (!fen.empty() && fen != "startpos") {
    try {
      start = Position::fromFen(fen);
    } catch (const Error& e) {
      throw Error(std::string("bad FEN: ") + e.what());
    }
  }
  m_start = start;
  m_pos = start;
  m_moves.clear();
  m_sans.clear();
  m_fens = {start.fen()};
  m_result = kOngoing;
  m_termination.reset();
  detectEnd();
}

std::vector<PgnGameSummary> listPgnGames(const std::string& text, size_t maxGames) {
  std::istringstream in(text);
  PgnReader reader(in, "PGN");
  PgnGame g;
  std::vector<PgnGameSummary> out;
  while (out.size() < maxGames) {
    const bool more = reader.next(g);
    if (!reader.errors().empty()) {
      const PgnError& e = reader.errors().front();
      throw Error("PGN: line " + std::to_string(e.line) + ": " + e.message);
    }
    if (!more) break;
    out.push_back({g.tags, int(g.moves.size()), g.line});
  }
  if (out.empty()) throw Error("PGN: no game found");
  return out;
}

void Game::loadPgn(const std::string& text, int index) {
  if (index < 0) throw Error("PGN: game " + std::to_string(index + 1) + " does not exist (games are counted from 1)");
  std::istringstream in(text);
  PgnReader reader(in, "PGN");
  PgnGame g;
  // The reader skips a broken game and goes on with the next; a GUI load must not: the first
  // fault up to the chosen game is the answer.
  int found = 0;
  for (; found <= index; ++found) {
    const bool more = reader.next(g);
    if (!reader.errors().empty()) {
      const PgnError& e = reader.errors().front();
      throw Error("PGN: line " + std::to_string(e.line) + ": " + e.message);
    }
    if (!more) break;
  }
  if (found == 0) throw Error("PGN: no game found");
  if (found <= index)
    throw Error("PGN: the text has " + std::to_string(found) + (found == 1 ? " game" : " games") + "; game " +
                std::to_string(index + 1) + " was asked for");
  if (g.moves.size() > size_t(kMaxGamePlies))
    throw Error("PGN: the game has " + std::to_string(g.moves.size()) + " plies; the GUI holds games of at most " +
                std::to_string(kMaxGamePlies) + " plies");
  Game loaded;
  loaded.m_start = g.startPosition();
  loaded.m_pos = loaded.m_start;
  loaded.m_fens = {loaded.m_start.fen()};
  for (Move m : g.moves) {
    loaded.m_sans.push_back(toSan(loaded.m_pos, m));
    loaded.m_moves.push_back(m);
    loaded.m_pos.makeMove(m);
    loaded.m_fens.push_back(loaded.m_pos.fen());
  }
  loaded.detectEnd();
  if (!loaded.over() && g.result != "*") {
    loaded.m_result = g.result;
    loaded.m_termination = g.result == kDrawn ? GameEnd::kAdjudicatedDraw : GameEnd::kAdjudicatedWin;
  }
  for (const auto& [name, value] : g.tags)
    if (name != "Result" && name != "FEN" && name != "SetUp" && name != "Termination") loaded.tags.emplace_back(name, value);
  *this = std::move(loaded);
}

Move Game::play(std::string_view uci) {
  if (ply() >= kMaxGamePlies)
    throw Error("the game has " + std::to_string(ply()) + " plies, the most a GUI game may hold; start a new game");
  if (over()) throw Error("the game is over (" + m_result + ")");
  Move m = parseUci(m_pos, uci, m_pos.isChess960());
  play(m);
  return m;
}

void Game::play(Move m) {
  if (ply() >= kMaxGamePlies)
    throw Error("the game has " + std::to_string(ply()) + " plies, the most a GUI game may hold; start a new game");
  if (over()) throw Error("the game is over (" + m_result + ")");
  if (!m_pos.isLegal(m)) throw Error("illegal move '" + toUci(m, m_pos.isChess960()) + "' in position " + m_pos.fen());
  m_sans.push_back(toSan(m_pos, m));
  m_moves.push_back(m);
  m_pos.makeMove(m);
  afterMove();
}

void Game::afterMove() {
  m_fens.push_back(m_pos.fen());
  detectEnd();
}

void Game::detectEnd() {
  m_termination = rulesGameEnd(m_pos);
  if (!m_termination) m_result = kOngoing;
  else if (*m_termination != GameEnd::kCheckmate) m_result = kDrawn;
  else m_result = m_pos.sideToMove() == kWhite ? kBlackWins : kWhiteWins;
}

int Game::undo(int plies) {
  int n = std::clamp(plies, 0, ply());
  for (int i = 0; i < n; ++i) {
    m_pos.unmakeMove(m_moves.back());
    m_moves.pop_back();
    m_sans.pop_back();
    m_fens.pop_back();
  }
  if (n > 0 || (over() && !overByRules())) detectEnd();
  return n;
}

void Game::truncate(int keep) {
  if (keep < 0 || keep > ply()) throw Error("ply " + std::to_string(keep) + " is out of range 0.." + std::to_string(ply()));
  undo(ply() - keep);
}

void Game::resign(Color loser) {
  if (over()) return;
  m_termination = GameEnd::kResignation;
  m_result = loser == kWhite ? kBlackWins : kWhiteWins;
}

void Game::flagTime(Color loser) {
  if (over()) return;
  m_termination = GameEnd::kTimeForfeit;
  Color winner = ~loser;
  bool winnerBare = m_pos.pieces(winner) == m_pos.pieces(winner, kKing);
  m_result = winnerBare ? kDrawn : (loser == kWhite ? kBlackWins : kWhiteWins);
}

Position Game::positionAt(int at) const {
  if (at < 0 || at > ply()) throw Error("ply " + std::to_string(at) + " is out of range 0.." + std::to_string(ply()));
  Position p = m_start;
  for (int i = 0; i < at; ++i) p.makeMove(m_moves[i]);
  return p;
}

std::string Game::uci(int i) const { return toUci(m_moves.at(i), m_start.isChess960()); }

std::string Game::endMessage() const {
  const std::string winner = m_result == "1-0" ? "White wins." : m_result == "0-1" ? "Black wins." : "draw.";
  const std::string loser = m_result == "1-0" ? "Black" : "White";
  std::string s;
  if (!m_termination) return s;
  switch (*m_termination) {
    case GameEnd::kCheckmate: s.append("Checkmate: ").append(winner); break;
    case GameEnd::kStalemate: s = "Stalemate: draw."; break;
    case GameEnd::kRepetition: s = "Threefold repetition: draw."; break;
    case GameEnd::kFiftyMoves: s = "Fifty-move rule: draw."; break;
    case GameEnd::kInsufficientMaterial: s = "Insufficient material: draw."; break;
    case GameEnd::kResignation: s.append(loser).append(" resigns: ").append(winner); break;
    case GameEnd::kTimeForfeit:
      if (m_result == "1/2-1/2")
        s = "Time out, but the opponent cannot mate: draw.";
      else
        s.append(loser).append(" lost on time: ").append(winner);
      break;
    default: s.append("Game over: ").append(m_result).append("."); break;
  }
  return s;
}

std::string Game::pgn() const {
  PgnGame g;
  for (const auto& [name, value] : tags) g.setTag(name, value);
  if (m_start.fen() != Position().fen() || m_start.isChess960()) g.startFen = m_start.fen();
  g.chess960 = m_start.isChess960();
  g.moves = m_moves;
  g.comments.assign(m_moves.size(), "");
  g.result = m_result;
  if (over()) g.setTag("Termination", pgnTerminationTag(*m_termination));
  return writePgn(g);
}

}  // namespace janus::server
