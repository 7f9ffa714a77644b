// Training samples of the policy/value network (az_data.h).

#include "training/az_data.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/movegen.h"
#include "datagen/pgn_source.h"
#include "encoding/policy_map.h"
#include "mcts/pvnet.h"
#include "records/janusdat.h"
#include "selfplay/record.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::training::az {

namespace {

constexpr int kCertainScore = 20000;  // |score| at or above: mate or tablebase (search/score.h)
constexpr std::size_t kMaxFitPairs = 200000;

/// The `n` bytes at `data`, for fnv1a64 (util/hash.h).
std::span<const unsigned char> bytesAt(const void* data, std::size_t n) {
  return {static_cast<const unsigned char*>(data), n};
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

// ---- Value targets ------------------------------------------------------------------------------

std::array<float, 3> scoreToWdl(int scoreStm, double a, double b) {
  if (scoreStm >= kCertainScore) return {1.0f, 0.0f, 0.0f};
  if (scoreStm <= -kCertainScore) return {0.0f, 0.0f, 1.0f};
  const double win = sigmoid((double(scoreStm) - a) / b);
  const double loss = sigmoid((-double(scoreStm) - a) / b);
  const double draw = std::max(0.0, 1.0 - win - loss);
  const double sum = win + draw + loss;
  return {float(win / sum), float(draw / sum), float(loss / sum)};
}

std::array<float, 3> valueTarget(int resultStm, int scoreStm, const ValueTargetConfig& c) {
  std::array<float, 3> r{resultStm == 2 ? 1.0f : 0.0f, resultStm == 1 ? 1.0f : 0.0f, resultStm == 0 ? 1.0f : 0.0f};
  if (scoreStm == records::kNoScore || c.lambda >= 1.0) return r;
  const std::array<float, 3> s = scoreToWdl(scoreStm, c.wdlA, c.wdlB);
  const float l = float(c.lambda);
  for (int i = 0; i < 3; ++i) r[i] = l * r[i] + (1 - l) * s[i];
  return r;
}

std::array<double, 2> fitWdlModel(std::span<const std::pair<int, int>> scoreResult) {
  // Counts per (score, result): the likelihood of a grid point costs one pass over the distinct
  // scores instead of one over the pairs.
  constexpr int kMax = 2999;
  std::vector<std::array<u64, 3>> counts(2 * kMax + 1, std::array<u64, 3>{0, 0, 0});
  bool any = false;
  for (const auto& [score, result] : scoreResult)
    if (std::abs(score) <= kMax && result >= 0 && result <= 2) ++counts[std::size_t(score + kMax)][std::size_t(result)], any = true;
  if (!any) return {0.0, 0.0};
  auto nll = [&](double a, double b) {
    double sum = 0;
    for (int s = -kMax; s <= kMax; ++s) {
      const auto& c = counts[std::size_t(s + kMax)];
      if (c[0] + c[1] + c[2] == 0) continue;
      const std::array<float, 3> w = scoreToWdl(s, a, b);
      for (int r = 0; r < 3; ++r)
        if (c[r]) sum -= double(c[r]) * std::log(std::max(1e-9, double(w[2 - r])));
    }
    return sum;
  };
  double bestA = 0, bestB = 20, best = INFINITY;
  for (double a = 0; a <= 400; a += 5)
    for (double b = 20; b <= 400; b += 5)
      if (const double v = nll(a, b); v < best) best = v, bestA = a, bestB = b;
  return {bestA, bestB};
}

// ---- Dataset ------------------------------------------------------------------------------------

void Dataset::add(std::span<const int> features, std::span<const int> legal, int target,
                  const std::array<float, 3>& wdl, std::span<const u16> shares, u16 state) {
  if (features.empty() || features.size() > std::size_t(mcts::pvnet::kMaxActive))
    throw Error(fmt::format("policy/value sample: {} active inputs (1..{} allowed)", features.size(),
                            mcts::pvnet::kMaxActive));
  if (legal.empty() || legal.size() > 255)
    throw Error(fmt::format("policy/value sample: {} legal moves (1..255 allowed)", legal.size()));
  if (!shares.empty()) {
    if (shares.size() != legal.size())
      throw Error(fmt::format("policy/value sample: {} visit shares for {} legal moves", shares.size(), legal.size()));
    u64 sum = 0;
    for (u16 v : shares) sum += v;
    if (sum == 0) throw Error("policy/value sample: the visit shares sum to 0");
    if (target < 0) throw Error("policy/value sample: visit shares without a target move");
  }
  Entry e{};
  e.offset = m_arena.size();
  for (int f : features) {
    if (f < 0 || f >= mcts::pvnet::kInputs) throw Error(fmt::format("policy/value sample: input {} out of range", f));
    m_arena.push_back(u16(f));
  }
  bool found = target < 0;
  for (int l : legal) {
    if (l < 0 || l >= mcts::pvnet::kPolicySize)
      throw Error(fmt::format("policy/value sample: policy index {} out of range", l));
    m_arena.push_back(u16(l));
    found = found || l == target;
  }
  if (!found) throw Error(fmt::format("policy/value sample: target {} is not among the legal moves", target));
  m_arena.insert(m_arena.end(), shares.begin(), shares.end());
  e.features = u8(features.size() | (shares.empty() ? 0 : kSharesBit));
  e.legal = u8(legal.size());
  e.target = i16(target < 0 ? -1 : target);
  for (int i = 0; i < 3; ++i) e.wdl[i] = wdl[i];
  m_entries.push_back(e);
  m_states.push_back(state);
  if (target >= 0) ++m_withMove;
}

void Dataset::append(const Dataset& other) {
  const u64 base = m_arena.size();
  m_arena.insert(m_arena.end(), other.m_arena.begin(), other.m_arena.end());
  // No exact reserve here: appending many files would reallocate m_entries once per file
  // (quadratic); push_back grows it geometrically.
  for (Entry e : other.m_entries) {
    e.offset += base;
    m_entries.push_back(e);
  }
  m_states.insert(m_states.end(), other.m_states.begin(), other.m_states.end());
  m_withMove += other.m_withMove;
}

SampleView Dataset::operator[](std::size_t i) const {
  const Entry& e = m_entries[i];
  SampleView v;
  const std::size_t features = e.features & ~kSharesBit;
  v.features = std::span<const u16>(m_arena.data() + e.offset, features);
  v.legal = std::span<const u16>(m_arena.data() + e.offset + features, e.legal);
  if (e.features & kSharesBit) v.shares = std::span<const u16>(m_arena.data() + e.offset + features + e.legal, e.legal);
  v.target = e.target;
  v.wdl = {e.wdl[0], e.wdl[1], e.wdl[2]};
  v.blackToMove = (m_states[i] & kBlackToMove) != 0;
  v.halfmoveClock = m_states[i] & ~kBlackToMove;
  return v;
}

std::size_t Dataset::bytes() const {
  return m_arena.capacity() * sizeof(u16) + m_entries.capacity() * sizeof(Entry) + m_states.capacity() * sizeof(u16);
}

u16 Dataset::stateOf(bool blackToMove, int halfmoveClock) {
  return u16((blackToMove ? kBlackToMove : 0) | std::clamp(halfmoveClock, 0, int(u16(~kBlackToMove))));
}

u64 Dataset::hash() const {
  u64 h = fnv1a64(bytesAt(m_arena.data(), m_arena.size() * sizeof(u16)));
  for (const Entry& e : m_entries) {
    h = fnv1a64(bytesAt(e.wdl, sizeof e.wdl), h);
    h = fnv1a64(bytesAt(&e.target, sizeof e.target), h);
    h = fnv1a64(bytesAt(&e.features, 2), h);
  }
  return h;
}

// ---- Positions to samples -----------------------------------------------------------------------

Move moveBetween(const Position& from, const records::PackedPosition& to) {
  if (to.blackToMove() == (from.sideToMove() == kBlack)) return Move::none();
  Position p = from;
  constexpr std::size_t kBoardBytes = offsetof(records::PackedPosition, score);  // occupancy .. fullmove
  for (Move m : legalMoves(from)) {
    p.makeMove(m);
    bool same = p.pieces() == to.occupancy;
    if (same) {
      const records::PackedPosition r = records::packPosition(p, records::kNoScore, records::kDraw);
      same = std::memcmp(&r, &to, kBoardBytes) == 0;
    }
    p.unmakeMove(m);
    if (same) return m;
  }
  return Move::none();
}

void addSample(Dataset& out, const Position& pos, Move played, const std::array<float, 3>& wdl,
               std::span<const std::pair<u16, u16>> visits) {
  std::array<int, mcts::pvnet::kMaxActive> features{};
  const int n = mcts::pvnet::sideToMoveFeatures(pos, features);
  const MoveList moves = legalMoves(pos);
  if (moves.empty()) throw Error(fmt::format("policy/value sample: no legal move in {}", pos.fen()));
  int legal[kMaxMoves];
  int target = -1;
  for (int i = 0; i < moves.size(); ++i) {
    legal[i] = encoding::policyIndex(pos, moves[i]);
    if (moves[i] == played) target = legal[i];
  }
  if (played && target < 0)
    throw Error(fmt::format("policy/value sample: move {} is not legal in {}", played.raw(), pos.fen()));
  u16 shares[kMaxMoves] = {};
  if (!visits.empty()) {
    u16 most = 0;
    target = -1;
    for (const auto& [index, share] : visits) {
      const int* at = std::find(legal, legal + moves.size(), int(index));
      if (at == legal + moves.size())
        throw Error(fmt::format("policy/value sample: visited policy index {} is not a legal move in {}", index, pos.fen()));
      shares[at - legal] = share;
      if (target < 0 || share > most) {
        most = share;
        target = index;
      }
    }
  }
  out.add(std::span<const int>(features.data(), std::size_t(n)), std::span<const int>(legal, std::size_t(moves.size())),
          target, wdl, visits.empty() ? std::span<const u16>() : std::span<const u16>(shares, std::size_t(moves.size())),
          Dataset::stateOf(pos.sideToMove() == kBlack, pos.halfmoveClock()));
}

// ---- Loading ------------------------------------------------------------------------------------

bool isSelfplayFile(const std::string& path) {
  std::unique_ptr<std::istream> in = openInputFile(path);
  char magic[8] = {};
  in->read(magic, sizeof magic);
  return in->gcount() == sizeof magic && std::memcmp(magic, selfplay::kSelfplayMagic, sizeof magic) == 0;
}

bool isJanusdatFile(const std::string& path) {
  std::unique_ptr<std::istream> in = openInputFile(path);
  char magic[8] = {};
  in->read(magic, sizeof magic);
  return in->gcount() == sizeof magic && std::memcmp(magic, records::kMagic, sizeof magic) == 0;
}

namespace {

/// What one file contributes.
struct FileResult {
  Dataset train, validation;
  LoadStats stats;  // counts of this file (scoreResult: its training pairs)
};

/// Shared limits of a parallel load.
struct Budget {
  u64 maxBytes = 0;
  u64 limit = 0;  ///< per file (the merge cuts the total)
  std::atomic<u64> bytes{0};
};

class FileLoader {
 public:
  FileLoader(const LoadOptions& o, const std::string& path, bool validationFile, Budget& budget, FileResult& out)
      : m_o(o), m_path(path), m_validationFile(validationFile), m_budget(budget), m_out(out) {
    m_nameHash = fnv1a64(std::filesystem::path(path).filename().string());
  }

  void run() {
    ++m_out.stats.files;
    if (isJanusdatFile(m_path)) {
      ++m_out.stats.janusdatFiles;
      loadJanusdat();
    } else if (isSelfplayFile(m_path)) {
      ++m_out.stats.selfplayFiles;
      loadSelfplay();
    } else {
      ++m_out.stats.pgnFiles;
      loadPgn();
    }
  }

 private:
  [[nodiscard]] bool full() const {
    return m_budget.limit > 0 && m_out.train.size() + m_out.validation.size() >= m_budget.limit;
  }

  [[nodiscard]] bool gameIsValidation(u64 game) const {
    if (m_validationFile) return true;
    if (m_o.valFraction <= 0) return false;
    const u64 h = splitmix64(m_nameHash ^ splitmix64(m_o.seed + game));
    return double(h >> 11) * 0x1.0p-53 < m_o.valFraction;
  }

  void startGame() {
    m_inValidation = gameIsValidation(m_game);
    ++m_out.stats.games;
    ++(m_inValidation ? m_out.stats.validationGames : m_out.stats.trainGames);
  }

  /// Adds a sample of the current game. `resultWhite` records::Wdl, `scoreWhite` or kNoScore;
  /// `visits` the search's visit distribution (self-play) or empty.
  void emit(const Position& pos, Move played, int resultWhite, int scoreWhite,
            std::span<const std::pair<u16, u16>> visits = {}) {
    const bool white = pos.sideToMove() == kWhite;
    const int resultStm = white ? resultWhite : 2 - resultWhite;
    const int scoreStm = scoreWhite == records::kNoScore ? records::kNoScore : (white ? scoreWhite : -scoreWhite);
    Dataset& d = m_inValidation ? m_out.validation : m_out.train;
    const std::size_t before = d.bytes();
    addSample(d, pos, played, valueTarget(resultStm, scoreStm, m_o.value), visits);
    const u64 total = m_budget.bytes.fetch_add(d.bytes() - before) + (d.bytes() - before);
    if (total > m_budget.maxBytes)
      throw Error(fmt::format("the training samples need more than the memory budget of {} MiB (--memory-mib) "
                              "while reading '{}' (about {} bytes per position): use --limit or fewer files, or "
                              "raise --memory-mib",
                              m_budget.maxBytes >> 20, m_path, sampleBytes(30, 35)));
    if (scoreStm != records::kNoScore) {
      ++m_out.stats.withScore;
      if (!m_inValidation) m_out.stats.scoreResult.emplace_back(scoreStm, resultStm);
    }
  }

  void loadJanusdat() {
    records::DataReader reader(m_path);
    if (reader.version() >= 3) loadJanusdatMoves(reader);
    else loadJanusdatOld(reader);
  }

  /// Version 3: every record says its move and where its game ends; no move search.
  void loadJanusdatMoves(records::DataReader& reader) {
    records::PackedRecord rec{};
    bool inGame = false;
    while (!full() && reader.next(rec)) {
      const records::TrainingPosition t = reader.decode(rec, reader.index() - 1);
      ++m_out.stats.records;
      if (!inGame) startGame();
      inGame = !t.end;
      // The policy target is the search's choice: an opening ply's played move is random.
      const Move target = t.best ? t.best : t.openingPly ? Move::none() : t.played;
      ++(target ? m_out.stats.movesGiven : m_out.stats.noMoveGiven);
      emit(t.pos, target, rec.wdl, rec.score);
      if (t.end) ++m_game;
    }
  }

  /// Versions 1 and 2: the move played from a record is found from the next record (moveBetween).
  void loadJanusdatOld(records::DataReader& reader) {
    const bool everyPosition = reader.version() >= 2;
    records::PackedRecord rec{}, prevRec{};
    Position prev;
    bool havePrev = false;
    while (!full() && reader.next(rec)) {
      const u64 index = reader.index() - 1;
      records::TrainingPosition tp = reader.decode(rec, index);
      ++m_out.stats.records;
      if (!havePrev) {
        startGame();
      } else {
        const Move m = moveBetween(prev, rec);
        bool sameGame = bool(m);
        if (!m && !everyPosition) {
          // Version 1: only quiet positions were written; the game goes on while the ply grows,
          // no piece comes back and the result is the same.
          auto ply = [](const records::PackedRecord& r) { return 2 * int(r.fullmove) + (r.blackToMove() ? 1 : 0); };
          sameGame = ply(rec) > ply(prevRec) && std::popcount(rec.occupancy) <= std::popcount(prevRec.occupancy) &&
                     rec.wdl == prevRec.wdl && rec.chess960() == prevRec.chess960();
        }
        if (m) ++m_out.stats.recordsWithMove;
        else if (sameGame) ++m_out.stats.gapInGame;
        else ++m_out.stats.lastOfGame;
        if (m && everyPosition && records::recordNoisyMove(prevRec) != prev.isNoisy(m)) ++m_out.stats.noisyMismatch;
        emit(prev, m, prevRec.wdl, prevRec.score);
        if (!sameGame) {
          ++m_game;
          startGame();
        }
      }
      prev = std::move(tp.pos);
      prevRec = rec;
      havePrev = true;
    }
    if (havePrev && !full()) {
      ++m_out.stats.lastOfGame;
      emit(prev, Move::none(), prevRec.wdl, prevRec.score);
    }
  }

  void loadSelfplay() {
    selfplay::SelfplayReader reader(m_path);
    selfplay::SelfplayGame game;
    std::vector<std::pair<u16, u16>> visits;
    bool first = true;
    while (!full() && reader.next(game)) {
      if (!first) ++m_game;
      first = false;
      startGame();
      const std::string where = fmt::format("'{}' {}", m_path, reader.index() - 1);
      selfplay::replayGame(game, where, [&](const Position& pos, Move move, const selfplay::SelfplayPly& ply) {
        ++m_out.stats.selfplayPlies;
        if (!ply.fullSearch() || ply.visits.empty() || full()) return;
        visits.clear();
        for (const selfplay::VisitShare& v : ply.visits) visits.emplace_back(v.policyIndex, v.share);
        emit(pos, move, int(game.result), records::kNoScore, visits);
      });
    }
  }

  void loadPgn() {
    bool first = true;
    const datagen::PgnExtractStats s =
        datagen::forEachPgnGame(m_path, [&](const PgnGame& game, const Position& start, records::Wdl result) {
          if (full()) return;
          if (!first) ++m_game;
          first = false;
          startGame();
          Position pos = start;
          for (std::size_t i = 0; i < game.moves.size() && !full(); ++i) {
            if (int(i) >= m_o.pgnSkipPlies) {
              const int score = i > 0 ? datagen::pgnCommentScore(game.comments[i - 1]) : records::kNoScore;
              emit(pos, game.moves[i], int(result), score);
            }
            pos.makeMove(game.moves[i]);
          }
        });
    const u64 skipped = s.variantGames + s.unfinished + s.malformed;
    m_out.stats.pgnSkippedGames += skipped;
    if (skipped > 0) m_out.stats.pgnSkipped = fmt::format("{}: {}", m_path, s.skippedSummary());
  }

  const LoadOptions& m_o;
  std::string m_path;
  bool m_validationFile;
  Budget& m_budget;
  FileResult& m_out;
  u64 m_nameHash = 0;
  u64 m_game = 0;
  bool m_inValidation = false;
};

void addCounts(LoadStats& to, const LoadStats& from) {
  to.files += from.files;
  to.janusdatFiles += from.janusdatFiles;
  to.pgnFiles += from.pgnFiles;
  to.selfplayFiles += from.selfplayFiles;
  to.selfplayPlies += from.selfplayPlies;
  to.records += from.records;
  to.recordsWithMove += from.recordsWithMove;
  to.movesGiven += from.movesGiven;
  to.noMoveGiven += from.noMoveGiven;
  to.lastOfGame += from.lastOfGame;
  to.gapInGame += from.gapInGame;
  to.noisyMismatch += from.noisyMismatch;
  to.games += from.games;
  to.pgnSkippedGames += from.pgnSkippedGames;
  if (!from.pgnSkipped.empty()) to.pgnSkipped += (to.pgnSkipped.empty() ? "" : "; ") + from.pgnSkipped;
  to.withScore += from.withScore;
  to.trainGames += from.trainGames;
  to.validationGames += from.validationGames;
}

std::string percent(u64 part, u64 whole) { return whole ? fmt::format("{:.1f}%", 100.0 * double(part) / double(whole)) : "-"; }

}  // namespace

LoadedData loadData(const LoadOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  if (o.files.empty()) throw Error("train-az: no training files (--data)");
  if (!(o.valFraction >= 0 && o.valFraction <= 0.5))
    throw Error(fmt::format("train-az: --val-fraction {} is outside 0..0.5", o.valFraction));
  if (!(o.value.lambda >= 0 && o.value.lambda <= 1))
    throw Error(fmt::format("train-az: --lambda {} is outside 0..1", o.value.lambda));
  if (!(o.value.wdlB > 0) || !(o.value.wdlA >= 0))
    throw Error(fmt::format("train-az: --wdl-a {} / --wdl-b {}: need a >= 0 and b > 0", o.value.wdlA, o.value.wdlB));
  if (o.pgnSkipPlies < 0) throw Error("train-az: --pgn-skip-plies must not be negative");

  struct Job {
    std::string path;
    bool validation;
  };
  std::vector<Job> jobs;
  for (const auto& f : o.files) jobs.push_back({f, false});
  for (const auto& f : o.validationFiles) jobs.push_back({f, true});
  for (const Job& j : jobs)
    if (!std::filesystem::is_regular_file(j.path))
      throw Error(fmt::format("train-az: data file '{}' does not exist or is not a file", j.path));

  std::vector<FileResult> results(jobs.size());
  std::vector<std::exception_ptr> errors(jobs.size());
  Budget budget;
  budget.maxBytes = o.memoryBudgetBytes;
  budget.limit = o.limit;
  LoadOptions effective = o;
  if (!o.validationFiles.empty()) effective.valFraction = 0;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      try {
        FileLoader(effective, jobs[i].path, jobs[i].validation, budget, results[i]).run();
      } catch (...) {
        errors[i] = std::current_exception();
        next = jobs.size();  // stop the others early
      }
    }
  };
  std::vector<std::thread> threads;
  const int n = std::clamp(o.threads, 1, int(jobs.size()));
  for (int t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  LoadedData data;
  std::vector<std::pair<int, int>> pairs;
  for (FileResult& r : results) {
    addCounts(data.stats, r.stats);
    for (Dataset* part : {&r.train, &r.validation}) {
      Dataset& to = part == &r.train ? data.train : data.validation;
      if (o.limit > 0 && data.train.size() + data.validation.size() + part->size() > o.limit) {
        const std::size_t room = o.limit - std::min<u64>(o.limit, data.train.size() + data.validation.size());
        Dataset cut;
        for (std::size_t i = 0; i < room; ++i) {
          const SampleView v = (*part)[i];
          std::vector<int> f(v.features.begin(), v.features.end()), l(v.legal.begin(), v.legal.end());
          cut.add(f, l, v.target, v.wdl, v.shares);
        }
        to.append(cut);
      } else {
        to.append(*part);
      }
      *part = Dataset();
    }
    pairs.insert(pairs.end(), r.stats.scoreResult.begin(), r.stats.scoreResult.end());
  }
  const std::size_t stride = std::max<std::size_t>(1, (pairs.size() + kMaxFitPairs - 1) / kMaxFitPairs);
  for (std::size_t i = 0; i < pairs.size(); i += stride) data.stats.scoreResult.push_back(pairs[i]);
  data.stats.train = data.train.size();
  data.stats.validation = data.validation.size();
  data.stats.trainWithMove = data.train.withMove();
  data.stats.validationWithMove = data.validation.withMove();
  data.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return data;
}

std::string describeLoad(const LoadStats& s, std::size_t bytes) {
  std::string out = fmt::format("data: {} file(s) ({} JANUSDAT, {} JANUSSP, {} PGN) read in {:.1f} s\n", s.files,
                                s.janusdatFiles, s.selfplayFiles, s.pgnFiles, s.seconds);
  if (s.selfplayFiles > 0)
    out += fmt::format("JANUSSP: {} plies; the full searches' positions are samples with their visit distribution\n",
                       s.selfplayPlies);
  if (s.movesGiven + s.noMoveGiven > 0)
    out += fmt::format("JANUSDAT version 3: {} records with their move ({}); value only: {} without a searched or "
                       "played move\n",
                       s.movesGiven, percent(s.movesGiven, s.records), s.noMoveGiven);
  if (s.records > s.movesGiven + s.noMoveGiven)
    out += fmt::format(
        "JANUSDAT versions 1 and 2: {} records; move played found from the next record: {} ({}); value only: {} last "
        "of a game, {} with a gap to the next record of the game (version 1 files); noisy-move flag contradicting "
        "the move found: {}\n",
        s.records - s.movesGiven - s.noMoveGiven, s.recordsWithMove,
        percent(s.recordsWithMove, s.records - s.movesGiven - s.noMoveGiven),
        s.lastOfGame, s.gapInGame, s.noisyMismatch);
  if (s.pgnFiles > 0)
    out += fmt::format("PGN: skipped games: {}\n", s.pgnSkippedGames == 0 ? std::string("none") : s.pgnSkipped);
  const u64 total = s.train + s.validation;
  out += fmt::format(
      "{} games: {} training, {} validation; {} positions: {} training ({} with a move), {} validation ({} with a "
      "move); {} with a search score; {:.0f} MiB in memory\n",
      s.games, s.trainGames, s.validationGames, total, s.train, s.trainWithMove, s.validation, s.validationWithMove,
      s.withScore, double(bytes) / (1 << 20));
  return out;
}

}  // namespace janus::training::az
