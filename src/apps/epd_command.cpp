// janus epdtest FILE: runs a test suite of EPD positions (WAC, STS, ...) through the engine
// facade and reports how many it solves.
//
// EPD operations understood (EPD specification, PGN standard section 16.2): bm (best moves, SAN),
// am (avoid moves), dm (direct mate in N moves), id. A position is solved when the engine's
// final move is one of bm and none of am, and, with dm N, the final score is "mate N".
//
// A JANUSDAT file (records/janusdat.h, told apart by its magic) is a suite too: each record with
// a best move (version 3: the search's best move) is a position whose bm is that move, so the
// share solved is the agreement with the engine that made the data, e.g. the MCTS face's priors
// (`--nodes 1 --option Search=mcts`) or its search against alpha-beta's moves (docs/lab/mcts-log.md).

#include <charconv>
#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/commands.h"
#include "core/notation.h"
#include "engine/engine.h"
#include "records/janusdat.h"
#include "records/janusdat_format.h"
#include "search/score.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::apps {

namespace {

struct EpdArgs {
  std::string path;
  i64 moveTimeMs = 1000;
  int depth = 0;
  u64 nodes = 0;
  std::vector<std::string> options;  ///< NAME=VALUE, set in order after Threads and Hash
  u64 limit = 0;                     ///< JANUSDAT: at most this many positions (0: all)
  u64 every = 1;                     ///< JANUSDAT: every this many-th record with a best move
  int threads = 1;
  int hash = 64;
  bool verbose = false;
};

struct EpdCase {
  int line = 0;        ///< EPD line, or JANUSDAT record index
  std::string fen, id;  ///< fen: EPD's four fields, or a JANUSDAT record's full FEN
  std::vector<Move> best, avoid;
  int directMate = 0;
};

/// Splits the operations part of an EPD line on ';' and returns (opcode, operands) pairs.
std::vector<std::pair<std::string, std::string>> operations(const std::string& ops) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string cur;
  bool quoted = false;
  auto flush = [&] {
    std::istringstream ss(cur);
    std::string op;
    if (ss >> op) {
      std::string rest;
      std::getline(ss, rest);
      size_t b = rest.find_first_not_of(' ');
      out.emplace_back(op, b == std::string::npos ? "" : rest.substr(b));
    }
    cur.clear();
  };
  for (char c : ops) {
    if (c == '"') quoted = !quoted;
    if (c == ';' && !quoted)
      flush();
    else
      cur += c;
  }
  flush();
  return out;
}

EpdCase parseLine(const std::string& line, int lineNo) {
  std::istringstream ss(line);
  std::string f[4];
  for (auto& x : f)
    if (!(ss >> x)) throw Error("line " + std::to_string(lineNo) + ": fewer than 4 FEN fields");
  EpdCase c;
  c.line = lineNo;
  c.fen = f[0] + " " + f[1] + " " + f[2] + " " + f[3];
  std::string rest;
  std::getline(ss, rest);
  Position pos = Position::fromFen(c.fen);
  for (auto& [op, arg] : operations(rest)) {
    std::string a = arg;
    if (a.size() >= 2 && a.front() == '"' && a.back() == '"') a = a.substr(1, a.size() - 2);
    if (op == "id") c.id = a;
    if (op == "dm") {
      // from_chars, not std::stoi: a bad operand must give a message, not "stoi".
      auto [end, ec] = std::from_chars(a.data(), a.data() + a.size(), c.directMate);
      if (a.empty() || ec != std::errc() || end != a.data() + a.size() || c.directMate <= 0)
        throw Error("line " + std::to_string(lineNo) + ": dm '" + a + "' is not a positive integer");
    }
    if (op == "bm" || op == "am") {
      std::istringstream ms(a);
      for (std::string san; ms >> san;) (op == "bm" ? c.best : c.avoid).push_back(parseSan(pos, san));
    }
  }
  if (c.best.empty() && c.avoid.empty() && !c.directMate)
    throw Error("line " + std::to_string(lineNo) + ": no bm, am or dm operation");
  return c;
}

/// True if `path` (plain or zstd) starts with the JANUSDAT magic.
bool isJanusdat(const std::string& path) {
  auto in = openInputFile(path);
  char head[sizeof(records::kMagic)] = {};
  in->read(head, sizeof head);
  return in->gcount() == std::streamsize(sizeof head) && std::equal(head, head + sizeof head, records::kMagic);
}

/// The records of a JANUSDAT file that have a best move, every `every`-th of them, at most
/// `limit` (0: all), as positions whose bm is that move (id "record N").
std::vector<EpdCase> janusdatCases(const std::string& path, u64 every, u64 limit) {
  records::DataReader reader(path);
  std::vector<EpdCase> cases;
  records::PackedRecord r;
  u64 withBest = 0;
  while ((limit == 0 || cases.size() < limit) && reader.next(r)) {
    const u64 index = reader.index() - 1;
    const records::TrainingPosition t = reader.decode(r, index);
    if (t.best == Move::none() || withBest++ % every != 0) continue;
    EpdCase c;
    c.line = int(index);
    c.id = "record " + std::to_string(index);
    c.fen = t.pos.fen();
    c.best = {t.best};
    cases.push_back(std::move(c));
  }
  if (cases.empty()) throw Error("'" + path + "': no record with a best move (JANUSDAT version 3 records have one)");
  return cases;
}

int runEpd(const EpdArgs& a) {
  std::vector<EpdCase> cases;
  int bad = 0;
  const bool data = isJanusdat(a.path);
  if (data) cases = janusdatCases(a.path, a.every, a.limit);
  auto in = data ? nullptr : openInputFile(a.path);
  std::string line;
  int lineNo = 0;
  while (in && std::getline(*in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') continue;
    try {
      cases.push_back(parseLine(line, lineNo));
    } catch (const std::exception& e) {
      ++bad;
      std::cerr << a.path << ":" << lineNo << ": skipped: " << e.what() << "\n";
    }
  }

  Engine engine;
  engine.setOption("Threads", std::to_string(a.threads));
  engine.setOption("Hash", std::to_string(a.hash));
  engine.setOptions(a.options);
  SearchInfo lastInfo;
  SearchResult result;
  engine.onInfo([&](const SearchInfo& i) {
    if (i.multiPv == 1) lastInfo = i;
  });
  engine.onBestMove([&](const SearchResult& r) { result = r; });

  int solved = 0;
  std::vector<std::string> failures;
  auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    engine.newGame();
    engine.setPosition(data ? c.fen : c.fen + " 0 1", {});
    SearchLimits limits;
    if (a.depth > 0)
      limits.depth = a.depth;
    else if (a.nodes > 0)
      limits.nodes = a.nodes;
    else
      limits.moveTime = a.moveTimeMs;
    lastInfo = {};
    engine.go(limits);
    engine.wait();
    const Position& pos = engine.position();
    bool ok = result.best != Move::none();
    if (!c.best.empty()) ok = ok && std::find(c.best.begin(), c.best.end(), result.best) != c.best.end();
    if (std::find(c.avoid.begin(), c.avoid.end(), result.best) != c.avoid.end()) ok = false;
    std::string scoreText = isMateScore(result.score) ? "mate " + std::to_string(mateInMoves(result.score))
                                                       : "cp " + std::to_string(result.score);
    if (c.directMate) ok = ok && isMateScore(result.score) && mateInMoves(result.score) == c.directMate;
    solved += ok;
    std::string bm;
    for (Move m : c.best) {
      if (!bm.empty()) bm += ' ';
      bm += toSan(pos, m);
    }
    std::string lineText = (ok ? "ok   " : "FAIL ") + (c.id.empty() ? "line " + std::to_string(c.line) : c.id) +
                           ": played " + (result.best ? toSan(pos, result.best) : "(none)") + " (" + scoreText +
                           ", depth " + std::to_string(result.depth) + ")" + (bm.empty() ? "" : ", bm " + bm) +
                           (c.directMate ? ", dm " + std::to_string(c.directMate) : "");
    if (a.verbose || !ok) std::cout << lineText << "\n" << std::flush;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << a.path << ": solved " << solved << "/" << cases.size() << " (" << bad << " lines skipped) at "
            << (a.depth > 0   ? "depth " + std::to_string(a.depth)
                : a.nodes > 0 ? std::to_string(a.nodes) + " nodes"
                              : std::to_string(a.moveTimeMs) + " ms")
            << " per position, "
            << a.threads << " thread(s), " << int(secs) << " s\n";
  return 0;
}

}  // namespace

void addEpdCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<EpdArgs>();
  auto* cmd = app.add_subcommand("epdtest", "Run an EPD test suite (bm/am/dm) and count solved positions");
  cmd->add_option("file", args->path,
                  "EPD file, or a JANUSDAT file whose records' best moves are the bm (plain or .zst)")
      ->required();
  cmd->add_option("--movetime", args->moveTimeMs, "Milliseconds per position (default 1000)")->check(CLI::Range(1, 3600000));
  cmd->add_option("--depth", args->depth, "Fixed depth instead of time")->check(CLI::Range(1, 200));
  cmd->add_option("--nodes", args->nodes, "Fixed nodes (MCTS: playouts) instead of time")->check(CLI::Range(u64(1), u64(1) << 40));
  cmd->add_option("--option", args->options,
                  "Engine option NAME=VALUE (repeatable), e.g. --option Search=mcts --option \"MCTS Value=net\"");
  cmd->add_option("--limit", args->limit, "JANUSDAT: at most this many positions (0: all)");
  cmd->add_option("--every", args->every, "JANUSDAT: every this many-th record with a best move (spreads the positions)")
      ->check(CLI::Range(u64(1), u64(1) << 40));
  cmd->add_option("--threads", args->threads, "Search threads")->check(CLI::Range(1, 1024));
  cmd->add_option("--hash", args->hash, "Hash in MiB")->check(CLI::Range(1, 65536));
  cmd->add_flag("--verbose,-v", args->verbose, "Print every position, not only failures");
  out.push_back({cmd, [args] { return runEpd(*args); }});
}

}  // namespace janus::apps
