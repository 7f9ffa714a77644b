// Training data as numpy arrays: JANUSDAT (records/janusdat.h, `janus datagen`) and JANUSSP
// (selfplay/record.h, `janus selfplay`), plain or zstd, read by the engine's own readers, so a
// file the trainers reject is rejected here with the same message (as OSError). The NNUE batches
// apply the filters of `janus train-nnue`'s loader (training/nnue_data.h); the self-play batches
// replay each game (selfplay::replayGame) so the planes carry the game's history.
#include <deque>
#include <memory>

#include "common.h"
#include "core/movegen.h"
#include "encoding/planes.h"
#include "encoding/policy_map.h"
#include "records/janusdat.h"
#include "selfplay/record.h"
#include "training/nnue_data.h"

namespace janus::python {

namespace {

std::vector<std::string> pathList(const py::object& files) {
  if (py::isinstance<py::str>(files) || py::hasattr(files, "__fspath__")) return {py::str(files)};
  std::vector<std::string> out;
  for (const py::handle f : files) out.push_back(py::str(f));
  if (out.empty()) throw py::value_error("no data file given");
  return out;
}

py::dict readJanusdat(const std::string& path, u64 limit) {
  std::vector<records::PackedRecord> recs = fileCall([&] { return records::readRecords(path, limit); });
  const py::ssize_t n = py::ssize_t(recs.size());
  auto score = newArray<std::int16_t>({n}, false);
  auto result = newArray<std::uint8_t>({n}, false), stm = newArray<std::uint8_t>({n}, false);
  auto halfmove = newArray<std::uint8_t>({n}, false), flags = newArray<std::uint8_t>({n}, false);
  auto fullmove = newArray<std::uint16_t>({n}, false);
  auto gameEnd = newArray<std::int8_t>({n}, false);
  std::vector<std::string> fens, played, best;
  for (py::ssize_t i = 0; i < n; ++i) {
    const records::PackedRecord& r = recs[size_t(i)];
    score.mutable_data()[i] = r.score;
    result.mutable_data()[i] = r.wdl;
    stm.mutable_data()[i] = r.blackToMove() ? 1 : 0;
    halfmove.mutable_data()[i] = r.halfmove;
    fullmove.mutable_data()[i] = r.fullmove;
    flags.mutable_data()[i] = r.flags;
    gameEnd.mutable_data()[i] = r.gameEnd ? std::int8_t(r.gameEnd - 1) : std::int8_t(-1);
    const records::TrainingPosition t = fileCall([&] { return records::decodeRecord(r, path, u64(i)); });
    fens.push_back(t.pos.fen());
    played.push_back(t.played ? toUciText(t.pos, t.played) : "");
    best.push_back(t.best ? toUciText(t.pos, t.best) : "");
  }
  py::dict d;
  d["fen"] = fens;
  d["score"] = score;
  d["result"] = result;
  d["stm"] = stm;
  d["halfmove"] = halfmove;
  d["fullmove"] = fullmove;
  d["flags"] = flags;
  d["played"] = played;
  d["best"] = best;
  d["game_end"] = gameEnd;
  return d;
}

/// NNUE training batches over JANUSDAT files, filtered as `janus train-nnue` loads them.
class NnueBatches {
 public:
  NnueBatches(std::vector<std::string> files, int batchSize, int kingBuckets, int maxScore, bool keepNoisy, u64 limit)
      : m_files(std::move(files)), m_batch(batchSize), m_kingBuckets(kingBuckets), m_maxScore(maxScore),
        m_keepNoisy(keepNoisy), m_limit(limit) {
    if (batchSize < 1) throw py::value_error("batch_size must be positive");
    if (!nnue::validKingBuckets(kingBuckets))
      throw py::value_error("king_buckets " + std::to_string(kingBuckets) + " is not 1, 2, 4, 8 or 16");
    fileCall([&] { openNext(); });  // a missing or malformed first file fails here, not at the first batch
  }

  py::dict next() {
    std::vector<training::Sample> batch;
    fileCall([&] {  // the exception leaves the released scope first: OSError is set with the GIL
      py::gil_scoped_release release;
      fill(batch);
    });
    if (batch.empty()) throw py::stop_iteration();
    const py::ssize_t n = py::ssize_t(batch.size());
    auto features = newArray<std::int16_t>({n, 2, 32}, false);
    auto pieces = newArray<std::uint8_t>({n}, false);
    auto score = newArray<float>({n}, false), result = newArray<float>({n}, false);
    std::int16_t* f = features.mutable_data();
    std::fill(f, f + n * 64, std::int16_t(-1));
    for (py::ssize_t i = 0; i < n; ++i) {
      const training::Sample& s = batch[size_t(i)];
      u16 idx[32];
      for (int side = 0; side < 2; ++side) {
        const int count = training::sampleFeatures(s, side == 0 ? s.stm : 1 - s.stm, m_kingBuckets, idx);
        for (int k = 0; k < count; ++k) f[i * 64 + side * 32 + k] = std::int16_t(idx[k]);
      }
      pieces.mutable_data()[i] = s.pieceCount;
      score.mutable_data()[i] = float(s.score);
      result.mutable_data()[i] = float(s.wdl) / 2.0f;
    }
    py::dict d;
    d["features"] = features;
    d["piece_count"] = pieces;
    d["score"] = score;
    d["result"] = result;
    return d;
  }

  py::dict stats() const {
    py::dict d, dropped;
    d["records"] = m_records;
    d["kept"] = m_kept;
    for (int r = 0; r < int(training::DropReason::kCount); ++r)
      dropped[training::dropReasonName(training::DropReason(r))] = m_dropped[r];
    d["dropped"] = dropped;
    return d;
  }

 private:
  bool openNext() {
    m_reader.reset();
    if (m_next >= m_files.size()) return false;
    const std::string& path = m_files[m_next++];
    m_reader = std::make_unique<records::DataReader>(path);  // called without the GIL: no fileCall here
    m_read = 0;
    return true;
  }

  void fill(std::vector<training::Sample>& batch) {
    records::PackedRecord r{};
    while (int(batch.size()) < m_batch && m_reader) {
      if ((m_limit && m_read >= m_limit) || !m_reader->next(r)) {
        openNext();
        continue;
      }
      const u64 index = m_read++;
      ++m_records;
      training::Sample s;
      if (!training::sampleFromRecord(r, s)) {
        (void)m_reader->decode(r, index);  // throws the reader's precise error
        throw Error("'" + m_reader->path() + "': record " + std::to_string(index) + ": not a trainable position");
      }
      training::DropReason why = training::scoreFilter(s.score, m_maxScore);
      if (why == training::DropReason::kCount && training::sampleInCheck(s)) why = training::DropReason::kInCheck;
      if (why == training::DropReason::kCount && !m_keepNoisy && (r.flags & training::kRecordFlagNoisyMove))
        why = training::DropReason::kNoisyMove;
      if (why != training::DropReason::kCount) {
        ++m_dropped[int(why)];
        continue;
      }
      ++m_kept;
      batch.push_back(s);
    }
  }

  std::vector<std::string> m_files;
  int m_batch, m_kingBuckets, m_maxScore;
  bool m_keepNoisy;
  u64 m_limit;
  size_t m_next = 0;
  std::unique_ptr<records::DataReader> m_reader;
  u64 m_read = 0, m_records = 0, m_kept = 0;
  u64 m_dropped[int(training::DropReason::kCount)] = {};
};

/// Policy/value batches over JANUSSP files: every full-search position (or every position).
class SelfplayBatches {
 public:
  SelfplayBatches(std::vector<std::string> files, int batchSize, int history, bool allPositions)
      : m_files(std::move(files)), m_batch(batchSize), m_options{false, false, false, false, history},
        m_all(allPositions) {
    if (batchSize < 1) throw py::value_error("batch_size must be positive");
    if (history < 1 || history > encoding::kHistory)
      throw py::value_error("history " + std::to_string(history) + " is outside 1..8");
    fileCall([&] { openNext(); });
  }

  py::dict next() {
    std::vector<Sample> batch;
    fileCall([&] {
      py::gil_scoped_release release;
      while (int(m_pending.size()) < m_batch && readGame()) {}
    });
    {
      const size_t n = std::min<size_t>(m_pending.size(), size_t(m_batch));
      for (size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(m_pending.front()));
        m_pending.pop_front();
      }
    }
    if (batch.empty()) throw py::stop_iteration();
    const py::ssize_t n = py::ssize_t(batch.size()), c = encoding::planeCount(m_options);
    auto planes = newArray<float>({n, c, 8, 8}, false);
    auto policy = newArray<float>({n, encoding::kPolicySize});
    auto legal = newArray<bool>({n, encoding::kPolicySize});
    auto value = newArray<float>({n}, false), q = newArray<float>({n}, false);
    auto full = newArray<bool>({n}, false);
    for (py::ssize_t i = 0; i < n; ++i) {
      const Sample& s = batch[size_t(i)];
      std::copy(s.planes.begin(), s.planes.end(), planes.mutable_data() + i * c * 64);
      for (auto [index, share] : s.policy) policy.mutable_data()[i * encoding::kPolicySize + index] = share;
      for (u16 index : s.legal) legal.mutable_data()[i * encoding::kPolicySize + index] = true;
      value.mutable_data()[i] = s.value;
      q.mutable_data()[i] = s.q;
      full.mutable_data()[i] = s.full;
    }
    py::dict d;
    d["planes"] = planes;
    d["policy"] = policy;
    d["legal"] = legal;
    d["value"] = value;
    d["q"] = q;
    d["full_search"] = full;
    return d;
  }

 private:
  struct Sample {
    std::vector<float> planes;
    std::vector<std::pair<u16, float>> policy;
    std::vector<u16> legal;
    float value = 0, q = 0;
    bool full = false;
  };

  bool openNext() {
    m_reader.reset();
    if (m_next >= m_files.size()) return false;
    const std::string path = m_files[m_next++];
    m_reader = std::make_unique<selfplay::SelfplayReader>(path);  // called without the GIL: no fileCall here
    return true;
  }

  bool readGame() {
    selfplay::SelfplayGame game;
    while (m_reader && !m_reader->next(game)) openNext();
    if (!m_reader) return false;
    const std::string where = "'" + m_reader->path() + "' game " + std::to_string(m_reader->index() - 1);
    selfplay::replayGame(game, where, [&](const Position& pos, Move, const selfplay::SelfplayPly& ply) {
      if (!m_all && !ply.fullSearch()) return;
      Sample s;
      s.planes = encoding::encodePlanes(pos, m_options);
      for (const selfplay::VisitShare& v : ply.visits) s.policy.emplace_back(v.policyIndex, float(v.share) / 65535.0f);
      if (ply.visits.empty()) s.policy.emplace_back(ply.move, 1.0f);  // a fast search: the move played
      for (Move mv : legalMoves(pos)) s.legal.push_back(u16(encoding::policyIndex(pos, mv)));
      const int white = int(game.result) - 1;  // +1 White won, 0 draw, -1 Black won
      s.value = float(pos.sideToMove() == kWhite ? white : -white);
      s.q = float(ply.q) / 32767.0f;
      s.full = ply.fullSearch();
      m_pending.push_back(std::move(s));
    });
    return true;
  }

  std::vector<std::string> m_files;
  int m_batch;
  encoding::EncoderOptions m_options;
  bool m_all;
  size_t m_next = 0;
  std::unique_ptr<selfplay::SelfplayReader> m_reader;
  std::deque<Sample> m_pending;
};

py::list readSelfplay(const std::string& path) {
  const std::vector<selfplay::SelfplayGame> games = fileCall([&] { return selfplay::readSelfplayFile(path); });
  py::list out;
  for (size_t g = 0; g < games.size(); ++g) {
    const selfplay::SelfplayGame& game = games[g];
    std::vector<std::string> moves;
    std::vector<float> q;
    std::vector<bool> full;
    std::string startFen;
    fileCall([&] {
      startFen = records::recordFen(game.start);
      selfplay::replayGame(game, "'" + path + "' game " + std::to_string(g),
                           [&](const Position& pos, Move mv, const selfplay::SelfplayPly& ply) {
                             moves.push_back(toUciText(pos, mv));
                             q.push_back(float(ply.q) / 32767.0f);
                             full.push_back(ply.fullSearch());
                           });
    });
    py::dict d;
    d["start_fen"] = startFen;
    d["moves"] = moves;
    d["result"] = game.result == records::kWhiteWin ? "1-0" : game.result == records::kBlackWin ? "0-1" : "1/2-1/2";
    d["termination"] = gameEndName(game.end);
    d["q"] = q;
    d["full_search"] = full;
    out.append(d);
  }
  return out;
}

}  // namespace

void bindData(py::module_& m) {
  m.attr("SCORE_NONE") = records::kNoScore;

  m.def("read_janusdat", &readJanusdat, py::arg("path"), py::arg("limit") = 0,
        R"doc(Every record of a JANUSDAT file (`janus datagen`; versions 1-3, plain or .zst) as a
dict of equal-length columns: fen (list of str), score (int16, centipawns from White's view,
SCORE_NONE = -32768 when unknown, mate scores +-(32000 - plies)), result (uint8, White's view: 0
Black won, 1 draw, 2 White won), stm (uint8, 0 White to move, 1 Black), halfmove (uint8), fullmove
(uint16), flags (uint8: 1 Chess960, 2 noisy move played, 4 in check), played and best (list of UCI
str, '' when unknown), game_end (int8: -1 the game goes on, else the core/game_end.h code of the
game's last record). limit: at most that many records (0: all). OSError naming the file and the
record: cannot open, not a Janus data file, truncated record, bad piece code, illegal move, ...)doc");

  py::class_<NnueBatches>(m, "NnueBatches", R"doc(NNUE training batches from JANUSDAT files.

NnueBatches(files, batch_size=16384, king_buckets=1, max_score=3000, keep_noisy=False, limit=0)

An iterator over dicts of numpy arrays, in file order, with the filters of `janus train-nnue`
(records without a score, mate/tablebase scores, |score| > max_score, side to move in check, and
unless keep_noisy a capture or promotion played are dropped): features (int16 (n, 2, 32): input
indices 0..768*K-1 from the side to move's view, then the other side's, padded with -1), piece_count
(uint8 (n,)), score (float32 (n,), centipawns, side to move's view), result (float32 (n,): 1 win,
0.5 draw, 0 loss for the side to move). The last batch may be shorter. files: a path or a list of
paths. stats() counts records read, kept and dropped by reason. OSError for a missing or malformed
file (the first file is opened at once).)doc")
      .def(py::init([](const py::object& files, int batchSize, int kingBuckets, int maxScore, bool keepNoisy, u64 limit) {
             return new NnueBatches(pathList(files), batchSize, kingBuckets, maxScore, keepNoisy, limit);
           }),
           py::arg("files"), py::arg("batch_size") = 16384, py::arg("king_buckets") = 1, py::arg("max_score") = 3000,
           py::arg("keep_noisy") = false, py::arg("limit") = 0)
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &NnueBatches::next)
      .def("stats", &NnueBatches::stats, "{'records': read, 'kept': n, 'dropped': {reason: n}} so far.");

  py::class_<SelfplayBatches>(m, "SelfplayBatches", R"doc(Policy/value batches from JANUSSP self-play files.

SelfplayBatches(files, batch_size=1024, history=8, all_positions=False)

An iterator over dicts of numpy arrays, each game replayed from its start so the planes carry its
history: planes (float32 (n, 119, 8, 8), Board.planes of the position before the move), policy
(float32 (n, 1858): the root visit shares of the search, summing to 1; one-hot on the move played
for fast searches), legal (bool (n, 1858)), value (float32 (n,): the game result for the side to
move, 1 / 0 / -1), q (float32 (n,): the search's root Q, side to move's view), full_search (bool
(n,)). Only full-search positions (the training targets of playout cap randomisation) unless
all_positions. OSError naming the file and the game for a missing, truncated or malformed file.)doc")
      .def(py::init([](const py::object& files, int batchSize, int history, bool all) {
             return new SelfplayBatches(pathList(files), batchSize, history, all);
           }),
           py::arg("files"), py::arg("batch_size") = 1024, py::arg("history") = encoding::kHistory,
           py::arg("all_positions") = false)
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &SelfplayBatches::next);

  m.def("read_selfplay", &readSelfplay, py::arg("path"),
        "Every game of a JANUSSP file (`janus selfplay`, plain or .zst) as a list of dicts: start_fen (str), moves "
        "(list of UCI str), result ('1-0', '0-1', '1/2-1/2'), termination (str), q (list of float: root Q before "
        "each move, mover's view), full_search (list of bool). OSError naming the file and the game.");
}

}  // namespace janus::python
