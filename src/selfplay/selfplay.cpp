#include "selfplay/selfplay.h"

#include <cctype>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "core/movegen.h"
#include "encoding/policy_map.h"
#include "match/openings.h"
#include "records/chunked_run.h"
#include "records/janusdat.h"
#include "tb/gaviota.h"
#include "util/error.h"
#include "util/hash.h"

namespace janus::selfplay {

using records::Wdl;

void checkConfig(const SelfplayConfig& c) {
  auto fail = [](const std::string& what) { return Error("selfplay: " + what); };
  if (c.games < 1) throw fail("--games must be at least 1");
  if (c.threads < 1) throw fail("--threads must be at least 1");
  if (c.visits < 1 || c.fastVisits < 1) throw fail("--visits and --fast-visits must be at least 1");
  if (!(c.fullFraction > 0.0 && c.fullFraction <= 1.0)) throw fail("--full-fraction must be in (0, 1]");
  if (c.temperaturePlies < 0) throw fail("--temperature-plies must not be negative");
  if (!(c.temperature > 0.0)) throw fail("--temperature must be > 0");
  if (c.resignQ < 0.0 || c.resignQ >= 1.0) throw fail("--resign-q must be in [0, 1) (0: never resign)");
  if (c.resignPlies < 1) throw fail("--resign-plies must be at least 1");
  if (c.noResignFraction < 0.0 || c.noResignFraction > 1.0) throw fail("--no-resign-fraction must be in [0, 1]");
  if (c.maxPlies < 1 || u32(c.maxPlies) > kMaxGamePlies) throw fail(fmt::format("--max-plies must be 1..{}", kMaxGamePlies));
  if (c.batch < 1) throw fail("--batch must be at least 1");
  if (c.value != "net" && c.value != "nnue") throw fail("--value must be net or nnue, not '" + c.value + "'");
  if (!c.valueFile.empty() && c.value != "nnue") throw fail("--value-file values the leaves of --value nnue only");
}

namespace {

/// The result (White's view) in which `winner` wins.
Wdl winFor(Color winner) { return winner == kWhite ? records::kWhiteWin : records::kBlackWin; }

/// Index of a move sampled with probability proportional to visits^(1 / temperature).
size_t sampleByVisits(const std::vector<MoveStat>& stats, double temperature, std::mt19937_64& rng) {
  std::vector<double> w(stats.size());
  for (size_t i = 0; i < stats.size(); ++i) w[i] = std::pow(double(stats[i].visits), 1.0 / temperature);
  double sum = 0;
  for (double x : w) sum += x;
  if (!(sum > 0)) return 0;
  double r = std::uniform_real_distribution<double>(0.0, sum)(rng);
  for (size_t i = 0; i < w.size(); ++i) {
    if (r < w[i]) return i;
    r -= w[i];
  }
  return w.size() - 1;
}

}  // namespace

SelfplayGame playGame(mcts::MctsSearch& search, const Position& start, u64 seed, const SelfplayConfig& c) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  SelfplayGame g;
  g.start = records::packPosition(start, records::kNoScore, records::kDraw);
  const bool resignAllowed = c.resignQ > 0.0 && !(u01(rng) < c.noResignFraction);
  if (c.resignQ > 0.0 && !resignAllowed) g.flags |= kGameNoResign;
  search.newGame();
  search.setTablebases(c.tablebases);
  SearchSignals signals;
  SearchConfig searchConfig;
  searchConfig.threads = 1;

  Position pos = start;
  int lowRun[2] = {0, 0};
  auto finish = [&](Wdl result, GameEnd end) {
    g.result = result;
    g.end = end;
  };
  for (;;) {
    // The rules first (checkmate before the 50-move rule, FIDE 9.3), then the length limit.
    if (const std::optional<GameEnd> end = rulesGameEnd(pos)) {
      finish(*end == GameEnd::kCheckmate ? winFor(~pos.sideToMove()) : records::kDraw, *end);
      break;
    }
    if (g.plies.size() >= size_t(c.maxPlies)) { finish(records::kDraw, GameEnd::kMaxPlies); break; }
    if (c.tablebases) {
      if (auto wdl = c.tablebases->probeWdl(pos)) {
        finish(*wdl == TbWdl::kDraw ? records::kDraw : winFor(*wdl == TbWdl::kWin ? pos.sideToMove() : ~pos.sideToMove()),
               GameEnd::kTablebase);
        break;
      }
    }

    const bool full = c.fullFraction >= 1.0 || u01(rng) < c.fullFraction;
    mcts::MctsParams p = search.params();
    p.noise = full;
    p.seed = rng() | 1;  // never 0 (0 = from std::random_device)
    p.moveStats = 0;  // no info lines: the targets come from the result's root statistics
    p.smartPruning = false;
    p.batchSize = c.batch;
    search.setParams(p);
    SearchLimits limits;
    // Playouts, not nodes: the alpha-beta hints' nodes do not eat into the tree's visits.
    limits.playouts = u64(full ? c.visits : c.fastVisits);
    const SearchResult r = search.run(pos, limits, searchConfig, InfoCallback(), signals);
    if (!r.best || !pos.isLegal(r.best)) throw Error(fmt::format("selfplay: the search returned no legal move in {}", pos.fen()));
    // The policy target and the sampled move: the root's playouts per move as the search returns
    // them (SearchResult::rootStats; alpha-beta hints' virtual visits are not playouts and are
    // not in them), the kMaxVisitEntries most visited moves.
    std::vector<MoveStat> stats = r.rootStats;
    if (stats.size() > size_t(kMaxVisitEntries)) stats.resize(size_t(kMaxVisitEntries));

    u64 total = 0;
    double qSum = 0;
    for (const MoveStat& s : stats) {
      total += s.visits;
      qSum += double(s.visits) * s.q;
    }
    const double q = total ? qSum / double(total) : 0.0;
    Move chosen = r.best;
    SelfplayPly ply;
    if (int(g.plies.size()) < c.temperaturePlies && total > 0) {
      chosen = stats[sampleByVisits(stats, c.temperature, rng)].move;
      ply.flags |= kPlySampled;
    }
    ply.move = u16(encoding::policyIndex(pos, chosen));
    ply.q = i16(std::lround(std::clamp(q, -1.0, 1.0) * 32767.0));
    if (full) {
      ply.flags |= kPlyFullSearch;
      for (const MoveStat& s : stats)
        if (s.visits > 0)
          ply.visits.push_back({u16(encoding::policyIndex(pos, s.move)),
                                u16(std::lround(double(s.visits) / double(total) * 65535.0))});
    }
    g.plies.push_back(std::move(ply));

    // Resignation (AlphaZero): the side to move's Q below -resignQ for resignPlies own moves.
    const Color us = pos.sideToMove();
    lowRun[us] = c.resignQ > 0.0 && q < -c.resignQ ? lowRun[us] + 1 : 0;
    if (lowRun[us] >= c.resignPlies) {
      if (resignAllowed) {
        g.plies.pop_back();  // a resignation replaces the move
        finish(winFor(~us), GameEnd::kResignation);
        break;
      }
      g.flags |= us == kWhite ? kGameWhiteWouldResign : kGameBlackWouldResign;
    }
    pos.makeMove(chosen);
  }
  g.start.wdl = u8(g.result);
  return g;
}

std::string chunkFileName(u64 chunk) { return fmt::format("chunk-{:06d}.janussp.zst", chunk); }

namespace {

std::vector<Position> loadStarts(const SelfplayConfig& c) {
  if (c.openings.empty()) return {Position()};
  const match::OpeningBook book = match::loadOpenings(c.openings, false);
  if (book.openings.empty()) throw Error(fmt::format("selfplay: no usable opening in '{}'", c.openings));
  std::vector<Position> starts;
  for (const auto& o : book.openings) {
    Position p = o.startPosition();
    for (Move m : o.moves) p.makeMove(m);
    starts.push_back(std::move(p));
  }
  return starts;
}

void countGame(const SelfplayGame& g, SelfplayProgress& p) {
  ++p.gamesDone;
  p.plies += g.plies.size();
  for (const SelfplayPly& ply : g.plies) p.fullSearches += ply.fullSearch();
  ++p.results[g.result];
  ++p.ends[int(g.end)];
  if (g.flags & kGameNoResign) {
    ++p.noResignGames;
    const bool white = g.flags & kGameWhiteWouldResign, black = g.flags & kGameBlackWouldResign;
    if (white || black) ++p.wouldResign;
    if ((white && g.result != records::kBlackWin) || (black && g.result != records::kWhiteWin)) ++p.falseResign;
  }
}

}  // namespace

SelfplayProgress generateSelfplay(const SelfplayConfig& config, const records::ChunkedRun& run,
                                  const std::function<void(const SelfplayProgress&)>& onProgress,
                                  const std::function<void(const SelfplayChunk&)>& onChunk) {
  checkConfig(config);
  if (run.dir.empty()) throw Error("selfplay: no run directory given");
  if (run.chunkGames < 1) throw Error("selfplay: --chunk-games must be at least 1");
  if (config.games % run.chunkGames != 0)
    throw Error(fmt::format("selfplay: --games {} is not a multiple of --chunk-games {}", config.games, run.chunkGames));
  const std::vector<Position> starts = loadStarts(config);

  // One backend and one search per worker (loaded before the run directory is touched, so a bad
  // network file leaves no trace).
  const int workers = std::max(1, std::min(config.threads, run.chunkGames));
  std::vector<std::unique_ptr<mcts::MctsSearch>> searches;
  std::string network;
  std::shared_ptr<const nnue::Network> nnueNet, valueNet;
  if (config.value == "nnue") {
    nnueNet = config.evalFile.empty() ? nnue::defaultNetwork() : nnue::Network::fromFile(config.evalFile);
    if (!nnueNet) throw Error("selfplay: --value nnue: this build embeds no NNUE network; give one with --eval-file");
    valueNet = config.valueFile.empty() ? nnueNet : nnue::Network::fromFile(config.valueFile);
  }
  for (int t = 0; t < workers; ++t) {
    std::shared_ptr<mcts::Backend> backend =
        mcts::BackendRegistry::instance().create(config.backend, {config.weights, config.backendParams});
    if (nnueNet) backend = std::make_shared<mcts::NnueValueBackend>(std::move(backend), valueNet, config.face.leaf);
    searches.push_back(std::make_unique<mcts::MctsSearch>(std::move(backend), config.face.params));
    searches.back()->setHintNetwork(nnueNet);  // hints with --value nnue only, as the engine's MCTS Value
    network = searches.back()->backend().attributes().description + searches.back()->hints().describe();
  }

  std::vector<std::pair<std::string, std::string>> settings = {
      {"format", std::to_string(kSelfplayVersion)},
      {"seed", std::to_string(config.seed)},
      {"chunk-games", std::to_string(run.chunkGames)},
      {"backend", config.backend},
      {"value", config.value},
      {"network", network},
      {"visits", std::to_string(config.visits)},
      {"fast-visits", std::to_string(config.fastVisits)},
      {"full-fraction", fmt::format("{}", config.fullFraction)},
      {"temperature-plies", std::to_string(config.temperaturePlies)},
      {"temperature", fmt::format("{}", config.temperature)},
      {"resign-q", fmt::format("{}", config.resignQ)},
      {"resign-plies", std::to_string(config.resignPlies)},
      {"no-resign-fraction", fmt::format("{}", config.noResignFraction)},
      {"max-plies", std::to_string(config.maxPlies)},
      {"batch", std::to_string(config.batch)},
      {"openings-count", std::to_string(starts.size())},
      {"openings-hash", fmt::format("{:016x}", records::startPositionsHash(starts))},
      {"tablebases", config.tablebases ? "yes" : "no"}};
  // The face's settings that differ from the default face's: "MCTS CPuct" as "mcts-cpuct".
  for (auto [name, value] : mcts::changedFaceOptions(config.face)) {
    for (char& ch : name) ch = ch == ' ' ? '-' : char(std::tolower(ch));
    settings.emplace_back(name, value);
  }
  std::string text =
      "# janus selfplay chunked run (docs/rl.md): chunk-K.janussp.zst holds games K*chunk-games to\n"
      "# (K+1)*chunk-games-1 of the run. Every shard and every --resume must use these settings.\n";
  text += fmt::format("# openings {}\n", config.openings.empty() ? "(the standard start position)" : config.openings);
  for (const auto& [k, v] : settings) text += k + " " + v + "\n";
  const records::ChunkedRunShard shard(run, u64(config.games / run.chunkGames),
                                       {kRunManifestName, "janus selfplay", text, settings, {}}, chunkFileName);

  SelfplayProgress progress;
  progress.chunksSkipped = shard.skipped();
  progress.chunksTotal = shard.todo().size();
  progress.gamesTotal = shard.todo().size() * u64(run.chunkGames);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  for (u64 k : shard.todo()) {
    const double chunkStart = elapsed();
    std::vector<SelfplayGame> games(size_t(run.chunkGames));
    std::mutex mutex;
    std::condition_variable cv;
    std::exception_ptr failure;
    std::atomic<int> next{0};
    int finished = 0;
    auto worker = [&](mcts::MctsSearch& search) {
      try {
        for (int i = next++; i < run.chunkGames; i = next++) {
          const u64 seed = records::gameSeed(config.seed, k * u64(run.chunkGames) + u64(i));
          SelfplayGame g = playGame(search, starts[size_t(seed % starts.size())], splitmix64(seed), config);
          std::lock_guard lock(mutex);
          countGame(g, progress);
          games[size_t(i)] = std::move(g);
          ++finished;
          cv.notify_all();
        }
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = run.chunkGames;  // the others stop after their current game
        cv.notify_all();
      }
    };
    std::vector<std::thread> threads;
    for (auto& s : searches) threads.emplace_back(worker, std::ref(*s));
    {
      std::unique_lock lock(mutex);
      while (finished < run.chunkGames && !failure) {
        cv.wait_for(lock, std::chrono::seconds(1));
        progress.seconds = elapsed();
        if (onProgress) {
          const SelfplayProgress copy = progress;
          lock.unlock();
          onProgress(copy);
          lock.lock();
        }
      }
    }
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);

    SelfplayChunk report;
    report.chunk = k;
    report.path = shard.chunkPath(k);
    SelfplayWriter out(report.path, games.size());
    for (const SelfplayGame& g : games) {
      out.write(g);
      report.plies += g.plies.size();
      for (const SelfplayPly& ply : g.plies) report.fullSearches += ply.fullSearch();
    }
    out.commit();
    report.games = games.size();
    ++progress.chunksDone;
    progress.seconds = elapsed();
    report.seconds = progress.seconds - chunkStart;
    if (onChunk) onChunk(report);
  }
  progress.seconds = elapsed();
  if (onProgress) onProgress(progress);
  return progress;
}

}  // namespace janus::selfplay
