// Self-play data generation; see generator.h for the rules of one game.
//
// Threads: `threads` workers take game indices from an atomic counter and hand finished games to
// the calling thread through a map keyed by game index; the calling thread writes them strictly
// in index order (so the file does not depend on scheduling) and reports progress.

#include "datagen/generator.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "core/movegen.h"
#include "datagen/record.h"
#include "engine/engine.h"
#include "match/openings.h"
#include "util/error.h"

namespace janus::datagen {

namespace {

constexpr int kRandomPlyAttempts = 8;

}  // namespace

Position randomStart(const Position& base, std::mt19937_64& rng, int randomPlies) {
  if (randomPlies <= 0) return base;
  const int plies = randomPlies + int(rng() & 1);
  for (int attempt = 0; attempt < kRandomPlyAttempts; ++attempt) {
    Position pos = base;
    bool ok = true;
    for (int i = 0; i < plies && ok; ++i) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) ok = false;
      else pos.makeMove(moves[int(rng() % u64(moves.size()))]);
    }
    if (ok && hasLegalMove(pos) && !pos.isInsufficientMaterial() && !pos.isRepetition(2)) return pos;
  }
  return base;
}

const char* gameEndName(GameEnd e) {
  switch (e) {
    case GameEnd::kCheckmate: return "checkmate";
    case GameEnd::kStalemate: return "stalemate";
    case GameEnd::kRepetition: return "threefold repetition";
    case GameEnd::kFiftyMoves: return "50-move rule";
    case GameEnd::kInsufficientMaterial: return "insufficient material";
    case GameEnd::kAdjudicatedWin: return "adjudicated win";
    case GameEnd::kAdjudicatedDraw: return "adjudicated draw";
    case GameEnd::kMaxPlies: return "length limit";
  }
  return "?";
}

GameOutcome playGame(Engine& engine, const Position& start, u64 seed, const StartRandomisation& randomisation,
                     u64 nodes, const Adjudication& adj) {
  std::mt19937_64 rng(seed);
  SearchResult last;
  engine.onBestMove([&last](const SearchResult& r) { last = r; });
  SearchLimits limits;
  limits.nodes = nodes;
  auto search = [&](const Position& p) {
    engine.setPosition(p);
    engine.go(limits);
    engine.wait();
  };

  Position pos = start;
  // True when `last` already holds the game's first search: the accepted check searched `pos`
  // from a fresh hash, exactly as the game would, so it is not searched again.
  bool searched = false;
  for (int attempt = 0; attempt < kRandomPlyAttempts && randomisation.plies > 0; ++attempt) {
    Position candidate = randomStart(start, rng, randomisation.plies);
    if (randomisation.scoreLimit <= 0) { pos = candidate; break; }
    engine.newGame();
    search(candidate);
    if (std::abs(last.score) <= randomisation.scoreLimit) { pos = candidate; searched = true; break; }
  }
  if (!searched) engine.newGame();

  GameOutcome out;
  out.start = pos;
  int winRun = 0, winSign = 0, drawRun = 0;
  auto finish = [&](Wdl result, GameEnd end) {
    out.result = result;
    out.end = end;
  };
  for (;;) {
    // Game end by the rules (checkmate before the 50-move rule, as FIDE 9.3 says).
    if (!hasLegalMove(pos)) {
      if (pos.inCheck()) finish(pos.sideToMove() == kWhite ? kBlackWin : kWhiteWin, GameEnd::kCheckmate);
      else finish(kDraw, GameEnd::kStalemate);
      break;
    }
    if (pos.isRepetition(2)) { finish(kDraw, GameEnd::kRepetition); break; }
    if (pos.isFiftyMoveDraw()) { finish(kDraw, GameEnd::kFiftyMoves); break; }
    if (pos.isInsufficientMaterial()) { finish(kDraw, GameEnd::kInsufficientMaterial); break; }
    if (pos.gamePly() >= adj.maxPlies) { finish(kDraw, GameEnd::kMaxPlies); break; }

    if (!searched) search(pos);
    searched = false;
    const Move best = last.best;
    if (!best || !pos.isLegal(best))
      throw Error(fmt::format("datagen: the engine returned no legal move in {}", pos.fen()));
    const int score = pos.sideToMove() == kWhite ? last.score : -last.score;
    if (!pos.inCheck() && !pos.isNoisy(best)) out.records.push_back(packRecord(pos, score, kDraw));
    ++out.plies;

    // Adjudication (generator.h).
    const int sign = score > 0 ? 1 : -1;
    if (std::abs(score) >= adj.winScore) {
      winRun = sign == winSign ? winRun + 1 : 1;
      winSign = sign;
    } else {
      winRun = 0;
    }
    drawRun = (pos.gamePly() >= adj.drawMinPly && std::abs(score) <= adj.drawScore) ? drawRun + 1 : 0;
    if (winRun >= adj.winPlies) { finish(winSign > 0 ? kWhiteWin : kBlackWin, GameEnd::kAdjudicatedWin); break; }
    if (drawRun >= adj.drawPlies) { finish(kDraw, GameEnd::kAdjudicatedDraw); break; }

    pos.makeMove(best);
  }
  for (PackedRecord& r : out.records) r.wdl = u8(out.result);
  return out;
}

DatagenProgress generateData(const DatagenConfig& config, const std::function<void(const DatagenProgress&)>& onProgress) {
  if (config.games < 1) throw Error("datagen: --games must be at least 1");
  if (config.nodes < 1) throw Error("datagen: --nodes must be at least 1");
  if (config.threads < 1) throw Error("datagen: --threads must be at least 1");
  if (config.randomisation.plies < 0) throw Error("datagen: --random-plies must not be negative");
  if (config.randomisation.scoreLimit < 0) throw Error("datagen: --random-score-limit must not be negative");
  if (config.output.empty()) throw Error("datagen: no output file given");

  const std::string bookPath = config.openings.empty() ? match::defaultOpeningBook() : config.openings;
  const match::OpeningBook book = match::loadOpenings(bookPath, false);
  std::vector<Position> starts;
  starts.reserve(book.openings.size());
  for (const auto& o : book.openings) {
    Position p = o.startPosition();
    for (Move m : o.moves) p.makeMove(m);
    starts.push_back(std::move(p));
  }

  DataWriter writer(config.output);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  std::mutex mutex;
  std::condition_variable cv;
  std::map<int, GameOutcome> finished;  // guarded by mutex
  std::exception_ptr failure;           // guarded by mutex
  std::atomic<int> nextGame{0};
  std::atomic<bool> abort{false};

  auto worker = [&] {
    try {
      Engine engine;
      engine.setOption("Threads", "1");
      engine.setOption("Hash", std::to_string(config.hashMiB));
      while (!abort) {
        const int g = nextGame.fetch_add(1);
        if (g >= config.games) break;
        const u64 seed = gameSeed(config.seed, g);
        const Position& start = starts[size_t(seed % starts.size())];
        GameOutcome outcome = playGame(engine, start, splitmix64(seed), config.randomisation, config.nodes,
                                       config.adjudication);
        std::lock_guard lock(mutex);
        finished.emplace(g, std::move(outcome));
        cv.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      abort = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(config.threads, config.games); ++t) threads.emplace_back(worker);

  DatagenProgress progress;
  progress.gamesTotal = config.games;
  auto lastReport = std::chrono::steady_clock::now();
  try {
    std::unique_lock lock(mutex);
    while (progress.gamesDone < config.games && !abort) {
      cv.wait_for(lock, std::chrono::milliseconds(500));
      // Write every game that is next in index order.
      for (auto it = finished.find(progress.gamesDone); it != finished.end(); it = finished.find(progress.gamesDone)) {
        GameOutcome outcome = std::move(it->second);
        finished.erase(it);
        lock.unlock();
        writer.write(outcome.records.data(), outcome.records.size());
        lock.lock();
        ++progress.gamesDone;
        progress.positions += outcome.records.size();
        progress.plies += u64(outcome.plies);
        ++progress.results[outcome.result];
        ++progress.ends[int(outcome.end)];
      }
      if (onProgress && std::chrono::steady_clock::now() - lastReport >= std::chrono::seconds(1)) {
        lastReport = std::chrono::steady_clock::now();
        progress.seconds = elapsed();
        lock.unlock();
        onProgress(progress);
        lock.lock();
      }
    }
  } catch (...) {
    abort = true;
    for (auto& t : threads) t.join();
    throw;
  }
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  writer.commit();
  progress.seconds = elapsed();
  if (onProgress) onProgress(progress);
  return progress;
}

}  // namespace janus::datagen
