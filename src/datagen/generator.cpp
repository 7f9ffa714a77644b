// Self-play data generation; see generator.h for the rules of one game and for chunked runs.
//
// Threads: `threads` workers take job numbers from an atomic counter and hand finished games to
// the calling thread through a map keyed by job number; the calling thread consumes them
// strictly in job order (so the files do not depend on scheduling) and reports progress. A job
// is a global game index (single file: job = game; chunked run: the games of this shard's
// missing chunks, in chunk order).

#include "datagen/generator.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/movegen.h"
#include "engine/engine.h"
#include "match/openings.h"
#include "records/chunked_run.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/hash.h"

namespace janus::datagen {

namespace {

constexpr int kRandomPlyAttempts = 8;

namespace fs = std::filesystem;

}  // namespace

std::vector<Move> randomOpening(const Position& base, std::mt19937_64& rng, int randomPlies) {
  if (randomPlies <= 0) return {};
  const int plies = randomPlies + int(rng() & 1);
  std::vector<Move> line;
  for (int attempt = 0; attempt < kRandomPlyAttempts; ++attempt) {
    Position pos = base;
    line.clear();
    bool ok = true;
    for (int i = 0; i < plies && ok; ++i) {
      MoveList moves = legalMoves(pos);
      if (moves.empty()) {
        ok = false;
      } else {
        line.push_back(moves[int(rng() % u64(moves.size()))]);
        pos.makeMove(line.back());
      }
    }
    if (ok && hasLegalMove(pos) && !pos.isInsufficientMaterial() && !pos.isRepetition(2)) return line;
  }
  return {};
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
    if (!last.best || !p.isLegal(last.best))
      throw Error(fmt::format("datagen: the engine returned no legal move in {}", p.fen()));
  };
  auto played = [](const Position& from, const std::vector<Move>& line) {
    Position p = from;
    for (Move m : line) p.makeMove(m);
    return p;
  };

  // 1. The random line. When `searched`, `first` holds the game's first search: the accepted
  // check searched the line's end from a fresh hash, so it is not searched again.
  std::vector<Move> line;
  bool searched = false;
  SearchResult first;
  for (int attempt = 0; attempt < kRandomPlyAttempts && randomisation.plies > 0; ++attempt) {
    std::vector<Move> candidate = randomOpening(start, rng, randomisation.plies);
    if (randomisation.scoreLimit <= 0) { line = std::move(candidate); break; }
    engine.newGame();
    search(played(start, candidate));
    if (std::abs(last.score) <= randomisation.scoreLimit) {
      line = std::move(candidate);
      first = last;
      searched = true;
      break;
    }
  }
  if (!searched) engine.newGame();

  GameOutcome out;
  auto whiteScore = [&](const Position& p) { return p.sideToMove() == kWhite ? last.score : -last.score; };
  // 2. The opening plies: each position searched for its score and best move, the random move played.
  Position pos = start;
  for (Move m : line) {
    search(pos);
    records::PackedRecord r = records::packRecord(pos, whiteScore(pos), records::kDraw, m, last.best);
    r.flags2 |= records::kFlag2OpeningPly;
    out.records.push_back(r);
    ++out.openingPlies;
    pos.makeMove(m);
  }
  if (searched) last = first;
  out.start = pos;

  // 3. The engine moves.
  int winRun = 0, winSign = 0, drawRun = 0;
  auto finish = [&](records::Wdl result, GameEnd end) {
    out.result = result;
    out.end = end;
  };
  for (;;) {
    if (const std::optional<GameEnd> end = rulesGameEnd(pos)) {
      const records::Wdl mated = pos.sideToMove() == kWhite ? records::kBlackWin : records::kWhiteWin;
      finish(*end == GameEnd::kCheckmate ? mated : records::kDraw, *end);
      break;
    }
    if (pos.gamePly() >= adj.maxPlies) { finish(records::kDraw, GameEnd::kMaxPlies); break; }

    if (!searched) search(pos);
    searched = false;
    const Move best = last.best;
    const int score = whiteScore(pos);
    out.records.push_back(records::packRecord(pos, score, records::kDraw, best, best));
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
    if (winRun >= adj.winPlies) { finish(winSign > 0 ? records::kWhiteWin : records::kBlackWin, GameEnd::kAdjudicatedWin); break; }
    if (drawRun >= adj.drawPlies) { finish(records::kDraw, GameEnd::kAdjudicatedDraw); break; }

    pos.makeMove(best);
  }
  for (records::PackedRecord& r : out.records) r.wdl = u8(out.result);
  if (!out.records.empty()) records::setGameEnd(out.records.back(), out.end);
  return out;
}

void applyEvaluation(Engine& engine, const std::string& evaluation) {
  if (evaluation.empty()) return;
  if (evaluation == "hce")
    engine.setOption("Use NNUE", "false");
  else
    engine.setOption("EvalFile", evaluation);  // throws naming the file when it is not a valid network
}

std::string evaluationSetting(const std::string& evaluation) {
  Engine engine;
  engine.setOption("Hash", "1");
  applyEvaluation(engine, evaluation);
  // Engine::evaluationName(): "NNUE nn-<hash> (...)" or "hand-crafted evaluation".
  const std::string name = engine.evaluationName();
  if (name.rfind("NNUE ", 0) != 0) return "hce";
  return "nnue " + name.substr(5, name.find(' ', 5) - 5);
}

namespace {

void checkConfig(const DatagenConfig& config) {
  if (config.games < 1) throw Error("datagen: --games must be at least 1");
  if (config.nodes < 1) throw Error("datagen: --nodes must be at least 1");
  if (config.threads < 1) throw Error("datagen: --threads must be at least 1");
  if (config.hashMiB < 1) throw Error("datagen: --hash must be at least 1");
  if (config.randomisation.plies < 0) throw Error("datagen: --random-plies must not be negative");
  if (config.randomisation.scoreLimit < 0) throw Error("datagen: --random-score-limit must not be negative");
  (void)evaluationSetting(config.evaluation);  // a bad network file fails here, before any game
}

/// The book's start positions (each opening's moves played).
std::vector<Position> loadStarts(const DatagenConfig& config) {
  const std::string bookPath = config.openings.empty() ? match::defaultOpeningBook() : config.openings;
  const match::OpeningBook book = match::loadOpenings(bookPath, false);
  if (book.openings.empty()) throw Error(fmt::format("datagen: no usable opening in '{}'", bookPath));
  std::vector<Position> starts;
  starts.reserve(book.openings.size());
  for (const auto& o : book.openings) {
    Position p = o.startPosition();
    for (Move m : o.moves) p.makeMove(m);
    starts.push_back(std::move(p));
  }
  return starts;
}

/// Plays jobs 0..jobs-1 (job j is global game gameOf(j)) on config.threads workers and calls
/// sink(j, outcome) on the calling thread in job order; updates `progress` and calls onProgress
/// about once a second. Exceptions of the workers and of `sink` stop the workers and propagate.
void playInOrder(const DatagenConfig& config, const std::vector<Position>& starts, u64 jobs,
                 const std::function<u64(u64)>& gameOf, const std::function<void(u64, GameOutcome&)>& sink,
                 DatagenProgress& progress, const std::function<void(const DatagenProgress&)>& onProgress) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  std::mutex mutex;
  std::condition_variable cv;
  std::map<u64, GameOutcome> finished;  // guarded by mutex
  std::exception_ptr failure;           // guarded by mutex
  std::atomic<u64> nextJob{0};
  std::atomic<bool> abort{false};

  auto worker = [&] {
    try {
      Engine engine;
      engine.setOption("Threads", "1");
      engine.setOption("Hash", std::to_string(config.hashMiB));
      applyEvaluation(engine, config.evaluation);
      while (!abort) {
        const u64 j = nextJob.fetch_add(1);
        if (j >= jobs) break;
        const u64 seed = records::gameSeed(config.seed, gameOf(j));
        const Position& start = starts[size_t(seed % starts.size())];
        GameOutcome outcome = playGame(engine, start, splitmix64(seed), config.randomisation, config.nodes,
                                       config.adjudication);
        std::lock_guard lock(mutex);
        finished.emplace(j, std::move(outcome));
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
  for (u64 t = 0; t < std::min<u64>(u64(config.threads), jobs); ++t) threads.emplace_back(worker);

  u64 done = 0;
  auto lastReport = std::chrono::steady_clock::now();
  try {
    std::unique_lock lock(mutex);
    while (done < jobs && !abort) {
      cv.wait_for(lock, std::chrono::milliseconds(500));
      // Consume every game that is next in job order.
      for (auto it = finished.find(done); it != finished.end(); it = finished.find(done)) {
        GameOutcome outcome = std::move(it->second);
        finished.erase(it);
        lock.unlock();
        progress.seconds = elapsed();
        sink(done, outcome);
        lock.lock();
        ++done;
        ++progress.gamesDone;
        progress.positions += outcome.records.size();
        progress.plies += u64(outcome.plies);
        progress.openingPlies += u64(outcome.openingPlies);
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
  progress.seconds = elapsed();
}

}  // namespace

DatagenProgress generateData(const DatagenConfig& config, const std::function<void(const DatagenProgress&)>& onProgress) {
  checkConfig(config);
  if (config.output.empty()) throw Error("datagen: no output file given");
  const std::vector<Position> starts = loadStarts(config);

  records::DataWriter writer(config.output);
  DatagenProgress progress;
  progress.gamesTotal = config.games;
  playInOrder(
      config, starts, u64(config.games), [](u64 j) { return j; },
      [&](u64, GameOutcome& g) { writer.write(g.records.data(), g.records.size()); }, progress, onProgress);
  writer.commit();
  if (onProgress) onProgress(progress);
  return progress;
}

// ---- Chunked runs -----------------------------------------------------------------------------------

std::string chunkFileName(u64 chunk) { return fmt::format("chunk-{:06d}.janusdat.zst", chunk); }

namespace {

/// The settings that decide the content of a run's games, as "key value" lines.
std::vector<std::pair<std::string, std::string>> runSettings(const DatagenConfig& c, const records::ChunkedRun& run,
                                                             const std::vector<Position>& starts) {
  const auto& a = c.adjudication;
  return {{"format", std::to_string(records::kFormatVersion)},
          {"seed", std::to_string(c.seed)},
          {"chunk-games", std::to_string(run.chunkGames)},
          {"nodes", std::to_string(c.nodes)},
          {"hash", std::to_string(c.hashMiB)},
          {"openings-count", std::to_string(starts.size())},
          {"openings-hash", fmt::format("{:016x}", records::startPositionsHash(starts))},
          {"random-plies", std::to_string(c.randomisation.plies)},
          {"random-score-limit", std::to_string(c.randomisation.scoreLimit)},
          {"adjudicate-win", std::to_string(a.winScore)},
          {"adjudicate-win-plies", std::to_string(a.winPlies)},
          {"adjudicate-draw", std::to_string(a.drawScore)},
          {"adjudicate-draw-plies", std::to_string(a.drawPlies)},
          {"adjudicate-draw-after", std::to_string(a.drawMinPly)},
          {"max-plies", std::to_string(a.maxPlies)},
          {"eval", evaluationSetting(c.evaluation)}};
}

std::string manifestText(const DatagenConfig& c, const std::vector<std::pair<std::string, std::string>>& settings) {
  std::string text =
      "# janus datagen chunked run (docs/tuning.md): chunk-K.janusdat.zst holds games K*chunk-games to\n"
      "# (K+1)*chunk-games-1 of the run. Every shard and every --resume must use these settings.\n";
  text += fmt::format("# openings {}\n", c.openings.empty() ? "(the shipped book)" : c.openings);
  for (const auto& [key, value] : settings) text += key + " " + value + "\n";
  return text;
}

}  // namespace

DatagenProgress generateChunks(const DatagenConfig& config, const records::ChunkedRun& run,
                               const std::function<void(const DatagenProgress&)>& onProgress,
                               const std::function<void(const ChunkReport&)>& onChunk) {
  checkConfig(config);
  if (run.dir.empty()) throw Error("datagen: no run directory given");
  if (run.chunkGames < 1) throw Error("datagen: --chunk-games must be at least 1");
  if (config.games % run.chunkGames != 0)
    throw Error(fmt::format("datagen: --games {} is not a multiple of --chunk-games {} (every chunk holds "
                            "--chunk-games games; e.g. --games {})",
                            config.games, run.chunkGames, (config.games / run.chunkGames + 1) * run.chunkGames));
  const std::vector<Position> starts = loadStarts(config);

  const auto settings = runSettings(config, run, starts);
  const records::ChunkedRunShard shard(run, u64(config.games / run.chunkGames),
                              {kRunManifestName, "janus datagen", manifestText(config, settings), settings, {{"eval", "hce"}}},
                              chunkFileName);
  const std::vector<u64>& todo = shard.todo();
  DatagenProgress progress;
  progress.chunksSkipped = shard.skipped();
  progress.chunksTotal = todo.size();
  progress.gamesTotal = int(todo.size() * u64(run.chunkGames));
  if (todo.empty()) {
    if (onProgress) onProgress(progress);
    return progress;
  }

  const u64 perChunk = u64(run.chunkGames);
  std::vector<records::PackedRecord> records;
  double lastChunkAt = 0;
  playInOrder(
      config, starts, todo.size() * perChunk, [&](u64 j) { return todo[j / perChunk] * perChunk + j % perChunk; },
      [&](u64 j, GameOutcome& g) {
        records.insert(records.end(), g.records.begin(), g.records.end());
        if (j % perChunk != perChunk - 1) return;
        const u64 k = todo[j / perChunk];
        ChunkReport report;
        report.chunk = k;
        report.path = shard.chunkPath(k);
        report.positions = records.size();
        records::DataWriter out(report.path, records.size());
        out.write(records.data(), records.size());
        out.commit();
        records.clear();
        ++progress.chunksDone;
        report.seconds = progress.seconds - lastChunkAt;
        lastChunkAt = progress.seconds;
        if (onChunk) onChunk(report);
      },
      progress, onProgress);
  if (onProgress) onProgress(progress);
  return progress;
}

}  // namespace janus::datagen
