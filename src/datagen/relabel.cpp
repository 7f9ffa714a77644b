// Relabelling with external UCI engines; see relabel.h.
//
// Threads: the calling thread reads the input in batches of kBatchPerJob * jobs records; `jobs`
// worker threads (one per engine process) take record indices of the batch from an atomic
// counter and store the new scores next to the records; the calling thread waits for the batch,
// reports progress, writes it in order and reads the next one.

#include "datagen/relabel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/notation.h"
#include "match/uci_engine.h"
#include "records/janusdat.h"
#include "util/error.h"

namespace janus::datagen {

namespace {

constexpr size_t kBatchPerJob = 256;
constexpr int kMate = 32000;  // records/janusdat_format.h / search/score.h: mate scores are ±(32000 − plies)

/// One engine process and the mode it was started in.
struct Worker {
  std::unique_ptr<match::UciEngine> engine;
  bool chess960 = false;
  bool started = false;
};

}  // namespace

int relabelScore(bool mate, int value, bool blackToMove) {
  int stm;
  if (!mate) stm = std::clamp(value, -(kMate - 1), kMate - 1);
  else if (value > 0) stm = kMate - (2 * value - 1);
  else stm = -(kMate - 2 * -value);
  return blackToMove ? -stm : stm;
}

RelabelProgress relabelFile(const RelabelConfig& config, const std::function<void(const RelabelProgress&)>& onProgress) {
  // The search limit: the command's, else the engine spec's depth=/nodes=.
  const bool fromCommand = config.depth.has_value() || config.nodes.has_value();
  const std::optional<int> depth = fromCommand ? config.depth : config.engine.depth;
  const std::optional<u64> nodes = fromCommand ? config.nodes : config.engine.nodes;
  if (depth.has_value() == nodes.has_value())
    throw Error("relabel: give exactly one search limit, --depth D or --nodes N");
  std::string go;
  if (depth) {
    if (*depth < 1) throw Error("relabel: --depth must be at least 1");
    go = fmt::format("go depth {}", *depth);
  } else {
    if (*nodes < 1) throw Error("relabel: --nodes must be at least 1");
    go = fmt::format("go nodes {}", *nodes);
  }
  if (config.jobs < 1) throw Error("relabel: --jobs must be at least 1");
  if (config.output.empty()) throw Error("relabel: no output file given");
  {
    std::error_code ec;
    if (config.output == config.input || std::filesystem::equivalent(config.input, config.output, ec))
      throw Error(fmt::format("relabel: the output '{}' is the input file", config.output));
  }

  records::DataReader reader(config.input);
  records::DataWriter writer(config.output, reader.declaredCount());
  const std::string name = config.engine.name.empty() ? config.engine.command : config.engine.name;

  std::vector<Worker> workers(size_t(config.jobs));
  for (size_t i = 0; i < workers.size(); ++i)
    workers[i].engine = std::make_unique<match::UciEngine>(config.engine, fmt::format("{}#{}", name, i + 1), nullptr);

  RelabelProgress progress;
  progress.total = reader.declaredCount();
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  std::vector<records::PackedRecord> batch;
  std::vector<u8> mateFlags;
  const size_t batchSize = kBatchPerJob * size_t(config.jobs);
  std::atomic<u64> noScore{0}, mates{0};

  // Relabels batch[i] (file index base + i) on worker w.
  auto relabelOne = [&](Worker& w, records::PackedRecord& r, u64 index) {
    const records::TrainingPosition t = records::decodeRecord(r, config.input, index);
    const std::string fen = t.pos.fen();
    match::UciEngine& e = *w.engine;
    if (!w.started) {
      e.start(r.chess960(), config.timeout);
      w.started = true;
      w.chess960 = r.chess960();
    } else if (w.chess960 != r.chess960()) {
      // What start() sends for Chess960; the isready of newGame() below waits for it.
      e.send(fmt::format("setoption name UCI_Chess960 value {}", r.chess960() ? "true" : "false"));
      w.chess960 = r.chess960();
    }
    auto fail = [&](const std::string& what) {
      const std::string how = e.running() ? "" : " (" + e.exitDescription() + ")";
      throw Error(fmt::format("relabel: engine {} ({}) {} at record {} of '{}' ({}){}", name, config.engine.command, what,
                              index, config.input, fen, how));
    };
    if (!e.newGame(config.timeout)) fail("did not answer ucinewgame/isready");
    if (!e.send("position fen " + fen) || !e.send(go)) fail("does not read its input");
    const auto result = e.waitBestMove(match::UciEngine::Clock::now() + config.timeout);
    if (result.status != match::UciEngine::SearchResult::Status::kBestMove)
      fail(fmt::format("sent no bestmove within {} ms", config.timeout.count()));
    if (!result.info.score) {
      r.score = records::kNoScore;
      ++noScore;
    } else {
      const bool mate = result.info.score->kind == match::UciScore::Kind::kMate;
      r.score = i16(relabelScore(mate, result.info.score->value, t.pos.sideToMove() == kBlack));
      if (mate) ++mates;
    }
    r.flags = u8((r.flags & ~records::kFlagInCheck) | (t.pos.inCheck() ? records::kFlagInCheck : 0));
    // The teacher's best move replaces the record's (records/janusdat_format.h: best is the
    // search's move).
    std::string bestMove = result.bestMove.substr(0, result.bestMove.find(' '));
    try {
      r.best = records::encodeMove(parseUci(t.pos, bestMove, r.chess960()));
    } catch (const Error& err) {
      fail(fmt::format("sent bestmove '{}' ({})", bestMove, err.what()));
    }
  };

  u64 base = 0;
  for (;;) {
    batch.clear();
    records::PackedRecord r;
    while (batch.size() < batchSize && reader.next(r)) batch.push_back(r);
    if (batch.empty()) break;

    std::atomic<size_t> next{0};
    std::atomic<size_t> finished{0};
    std::atomic<bool> abort{false};
    std::mutex mutex;
    std::condition_variable cv;
    std::exception_ptr failure;
    std::vector<std::thread> threads;
    const size_t active = std::min(workers.size(), batch.size());
    for (size_t w = 0; w < active; ++w) {
      threads.emplace_back([&, w] {
        try {
          for (size_t i; !abort && (i = next.fetch_add(1)) < batch.size();) {
            relabelOne(workers[w], batch[i], base + i);
            ++finished;
          }
        } catch (...) {
          std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
          abort = true;
        }
        std::lock_guard lock(mutex);
        cv.notify_all();
      });
    }
    {
      std::unique_lock lock(mutex);
      while (finished < batch.size() && !abort) {
        cv.wait_for(lock, std::chrono::seconds(1));
        if (onProgress) {
          progress.done = base + finished;
          progress.noScore = noScore;
          progress.mates = mates;
          progress.seconds = elapsed();
          lock.unlock();
          onProgress(progress);
          lock.lock();
        }
      }
    }
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
    writer.write(batch.data(), batch.size());
    base += batch.size();
  }
  for (auto& w : workers)
    if (w.started) w.engine->quit(std::chrono::milliseconds(1000));
  writer.commit();
  progress.done = base;
  progress.noScore = noScore;
  progress.mates = mates;
  progress.seconds = elapsed();
  if (onProgress) onProgress(progress);
  return progress;
}

}  // namespace janus::datagen
