// Loading JANUSDAT files into Samples for the NNUE trainer (nnue_data.h).

#include "training/nnue_data.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/bitboard.h"
#include "nnue/format.h"
#include "records/janusdat.h"
#include "util/error.h"
#include "util/hash.h"

namespace janus::training {

int samplePieces(const Sample& s, PieceSquare out[32]) {
  int n = 0;
  for (Bitboard occ = s.occupancy; occ && n < 32; ++n) {
    const int sq = popLsb(occ);
    const int nibble = s.piece(n);
    out[n] = {u8(nibble >> 3), u8(nibble & 7), u8(sq)};
  }
  return n;
}

int sampleFeatures(const Sample& s, int perspective, int kingBuckets, u16 out[32]) {
  int king = 0;
  if (kingBuckets > 1) {
    const int kingNibble = perspective << 3 | 5;
    int i = 0;
    for (Bitboard occ = s.occupancy; occ && i < 32; ++i) {
      const int sq = popLsb(occ);
      if (s.piece(i) == kingNibble) king = sq;
    }
  }
  int n = 0;
  for (Bitboard occ = s.occupancy; occ && n < 32; ++n) {
    const int sq = popLsb(occ);
    const int nibble = s.piece(n);
    out[n] = u16(nnue::featureIndex(perspective, nibble >> 3, nibble & 7, sq, king, kingBuckets));
  }
  return n;
}

Sample mirroredSample(const Sample& s) {
  int nibbleAt[64];  // piece nibble + 1 on each square of the mirror image, 0 = empty
  std::fill(std::begin(nibbleAt), std::end(nibbleAt), 0);
  int n = 0;
  for (Bitboard occ = s.occupancy; occ && n < 32; ++n) nibbleAt[popLsb(occ) ^ 7] = s.piece(n) + 1;
  Sample m = s;
  m.occupancy = 0;
  std::fill(std::begin(m.pieces), std::end(m.pieces), u8(0));
  int i = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (!nibbleAt[sq]) continue;
    m.occupancy |= Bitboard(1) << sq;
    m.setPiece(i++, nibbleAt[sq] - 1);
  }
  return m;
}

const char* dropReasonName(DropReason r) {
  switch (r) {
    case DropReason::kNoScore: return "no score";
    case DropReason::kMateScore: return "mate/tablebase score";
    case DropReason::kLargeScore: return "|score| > max";
    case DropReason::kInCheck: return "in check";
    case DropReason::kNoisyMove: return "noisy move";
    default: return "?";
  }
}

bool sampleFromRecord(const records::PackedPosition& r, Sample& out) {
  out = Sample{};
  const int count = std::popcount(r.occupancy);
  if (count > 32 || r.wdl > 2) return false;
  int kings[2] = {0, 0};
  for (int i = 0; i < count; ++i) {
    const int nibble = r.piece(i);
    int code = nibble & 7;
    if (code == 7) return false;
    if (code == records::kCodeCastlingRook) {
      code = records::kCodeRook;
      out.flags |= kSampleCastling;
    }
    if (code == records::kCodeKing) ++kings[nibble >> 3];
    out.setPiece(i, (nibble & records::kBlackBit) | code);
  }
  if (kings[0] != 1 || kings[1] != 1) return false;
  out.occupancy = r.occupancy;
  out.stm = r.blackToMove() ? 1 : 0;
  out.pieceCount = u8(count);
  out.score = r.score == records::kNoScore ? records::kNoScore : i16(out.stm ? -r.score : r.score);
  out.wdl = u8(out.stm ? 2 - r.wdl : r.wdl);
  return true;
}

Sample sampleFromPosition(const Position& pos, int scoreStm, int wdlStm) {
  Sample s;
  s.occupancy = pos.pieces();
  int n = 0;
  for (Bitboard occ = s.occupancy; occ; ++n) {
    const Piece p = pos.pieceOn(popLsb(occ));
    s.setPiece(n, int(colorOf(p)) << 3 | int(typeOf(p)));
  }
  s.pieceCount = u8(n);
  if (pos.castlingRights()) s.flags |= kSampleCastling;
  s.stm = u8(pos.sideToMove());
  s.score = i16(std::clamp(scoreStm, -32767, 32767));
  s.wdl = u8(std::clamp(wdlStm, 0, 2));
  return s;
}

bool sampleInCheck(const Sample& s) {
  Bitboard byColorType[2][6] = {};
  int n = 0;
  for (Bitboard occ = s.occupancy; occ && n < 32; ++n) {
    const Square sq = popLsb(occ);
    const int nibble = s.piece(n);
    byColorType[nibble >> 3][nibble & 7] |= squareBB(sq);
  }
  const int us = s.stm, them = us ^ 1;
  const Bitboard king = byColorType[us][kKing];
  if (!king) return false;
  const Square k = lsb(king);
  const Bitboard occ = s.occupancy;
  const Bitboard* t = byColorType[them];
  return (pawnAttacks(Color(us), k) & t[kPawn]) || (knightAttacks(k) & t[kKnight]) ||
         (kingAttacks(k) & t[kKing]) || (bishopAttacks(k, occ) & (t[kBishop] | t[kQueen])) ||
         (rookAttacks(k, occ) & (t[kRook] | t[kQueen]));
}

DropReason scoreFilter(int score, int maxScore) {
  if (score == records::kNoScore) return DropReason::kNoScore;
  if (std::abs(score) >= kMateScoreFloor) return DropReason::kMateScore;
  if (std::abs(score) > maxScore) return DropReason::kLargeScore;
  return DropReason::kCount;
}

namespace {

/// True if game `game` of file `file` goes to the validation set.
bool validationGame(u64 seed, u64 file, u64 game, double fraction) {
  if (fraction <= 0) return false;
  const u64 h = splitmix64(splitmix64(seed ^ 0x5eedf11e5ULL) ^ (file << 40) ^ game);
  return double(h >> 11) * 0x1p-53 < fraction;
}

/// Reads one file; `toValidation(game)` decides where each game goes (nullptr: all to `train`).
template <typename Choose>
void loadFile(const std::string& path, const LoadOptions& o, Choose&& toValidation, std::vector<Sample>& train,
              std::vector<Sample>& validation, LoadStats& stats) {
  records::DataReader reader(path);
  const u64 limit = o.limit;
  records::PackedRecord r{};
  u64 read = 0, keptTrain = 0, keptVal = 0, game = 0;
  int lastPly = -1, lastCount = 33;
  bool gameToValidation = toValidation(game);
  while ((limit == 0 || read < limit) && reader.next(r)) {
    const u64 index = read++;
    Sample s;
    if (!sampleFromRecord(r, s)) {
      (void)reader.decode(r, index);  // throws the precise error for a malformed record
      throw Error(fmt::format("'{}': record {}: not a trainable position (pieces or result out of range)", path, index));
    }
    // Game boundaries: the ply count only grows within a game and the piece count never does.
    const int ply = 2 * (int(r.fullmove) - 1) + s.stm;
    if (lastPly >= 0 && (ply <= lastPly || s.pieceCount > lastCount)) {
      ++game;
      gameToValidation = toValidation(game);
    }
    lastPly = ply;
    lastCount = s.pieceCount;

    DropReason why = scoreFilter(s.score, o.maxScore);
    if (why == DropReason::kCount && sampleInCheck(s)) why = DropReason::kInCheck;
    if (why == DropReason::kCount && !o.keepNoisy && (r.flags & kRecordFlagNoisyMove)) why = DropReason::kNoisyMove;
    if (why != DropReason::kCount) {
      ++stats.dropped[size_t(why)];
      continue;
    }
    ++stats.wdl[s.wdl];
    if (gameToValidation) {
      validation.push_back(s);
      ++keptVal;
    } else {
      train.push_back(s);
      ++keptTrain;
    }
  }
  stats.records += read;
  if (read > 0) stats.games += game + 1;
  stats.perFile.push_back(fmt::format("{}: {} records, {} kept ({} train, {} validation)", path, read,
                                      keptTrain + keptVal, keptTrain, keptVal));
}

/// Records the files declare in their headers (each capped at `limit` when it is not 0), or
/// std::nullopt when one of them is a streaming file (its count is known only at its end).
std::optional<u64> declaredRecords(const std::vector<std::string>& files, u64 limit) {
  u64 total = 0;
  for (const auto& path : files) {
    const std::optional<u64> n = records::DataReader(path).declaredCount();
    if (!n) return std::nullopt;
    total += limit ? std::min(*n, limit) : *n;
  }
  return total;
}

/// Reserves `n` samples in `v` when the allocation succeeds (else `v` grows geometrically as
/// before). The bound is loose (dropped records, the validation share) but costs no memory: a
/// reservation is address space, and only the pages the samples are written to become resident.
/// Without it, vector doubling kept the old and the new array alive while copying, so the
/// loader's peak was about twice its samples (4.0 GiB for 2,149 MiB at 50M records).
void reserveUpTo(std::vector<Sample>& v, u64 n) {
  try {
    v.reserve(std::size_t(n));
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
}

}  // namespace

LoadedSamples loadSamples(const LoadOptions& o) {
  if (o.files.empty()) throw Error("train-nnue: no training data files (give --data)");
  if (o.validationFraction < 0 || o.validationFraction >= 1)
    throw Error(fmt::format("train-nnue: validation fraction {} is not in [0, 1)", o.validationFraction));
  if (o.maxScore <= 0) throw Error(fmt::format("train-nnue: max score {} must be positive", o.maxScore));
  initBitboards();
  LoadedSamples out;
  const double fraction = o.validationFiles.empty() ? o.validationFraction : 0.0;
  // One pass over the headers first, so that the samples are never copied by a reallocation.
  if (const std::optional<u64> n = declaredRecords(o.files, o.limit)) {
    reserveUpTo(out.train, o.mirror ? 2 * *n : *n);
    if (fraction > 0) reserveUpTo(out.validation, *n);
  }
  if (!o.validationFiles.empty())
    if (const std::optional<u64> n = declaredRecords(o.validationFiles, o.limit)) reserveUpTo(out.validation, *n);
  for (size_t f = 0; f < o.files.size(); ++f) {
    loadFile(o.files[f], o, [&](u64 game) { return validationGame(o.seed, f, game, fraction); },
             out.train, out.validation, out.stats);
  }
  const u64 trainGames = out.stats.games;
  for (const auto& path : o.validationFiles)
    loadFile(path, o, [](u64) { return true; }, out.train, out.validation, out.stats);
  out.stats.games = trainGames;
  if (o.mirror) {
    const size_t original = out.train.size();
    for (size_t i = 0; i < original; ++i)
      if (!(out.train[i].flags & kSampleCastling)) out.train.push_back(mirroredSample(out.train[i]));
    out.stats.mirrored = out.train.size() - original;
  }
  out.stats.train = out.train.size();
  out.stats.validation = out.validation.size();
  return out;
}

std::string describeLoad(const LoadStats& s) {
  std::string text;
  for (const auto& line : s.perFile) text += "  " + line + "\n";
  auto pct = [&](u64 n) { return s.records ? 100.0 * double(n) / double(s.records) : 0.0; };
  u64 dropped = 0;
  std::string reasons;
  for (size_t i = 0; i < size_t(DropReason::kCount); ++i) {
    dropped += s.dropped[i];
    reasons += fmt::format("{}{} {} ({:.2f}%)", i ? ", " : "", dropReasonName(DropReason(i)), s.dropped[i],
                           pct(s.dropped[i]));
  }
  text += fmt::format("  {} records, {} dropped: {}\n", s.records, dropped, reasons);
  const u64 kept = s.train + s.validation - s.mirrored;
  auto keptPct = [&](u64 n) { return kept ? 100.0 * double(n) / double(kept) : 0.0; };
  text += fmt::format("  kept {}: {} train ({} games), {} validation; results (side to move) W {:.1f}% D {:.1f}% L {:.1f}%\n",
                      kept, s.train - s.mirrored, s.games, s.validation, keptPct(s.wdl[2]),
                      keptPct(s.wdl[1]), keptPct(s.wdl[0]));
  if (s.mirrored)
    text += fmt::format("  mirror: {} training positions without castling rights added mirrored: {} train\n",
                        s.mirrored, s.train);
  return text;
}

double fitSigmoidScale(std::span<const Sample> samples, std::size_t maxSamples) {
  if (samples.empty()) return 0.0;
  const std::size_t step = std::max<std::size_t>(1, samples.size() / std::max<std::size_t>(1, maxSamples));
  auto loss = [&](double scale) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < samples.size(); i += step, ++n) {
      const double d = 1.0 / (1.0 + std::exp(-samples[i].score / scale)) - 0.5 * samples[i].wdl;
      sum += d * d;
    }
    return sum / double(n);
  };
  // Golden-section search on log(S): the loss is unimodal in S for real data.
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double lo = std::log(50.0), hi = std::log(5000.0);
  double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
  double fa = loss(std::exp(a)), fb = loss(std::exp(b));
  while (hi - lo > 1e-4) {
    if (fa < fb) {
      hi = b, b = a, fb = fa;
      a = hi - phi * (hi - lo);
      fa = loss(std::exp(a));
    } else {
      lo = a, a = b, fa = fb;
      b = lo + phi * (hi - lo);
      fb = loss(std::exp(b));
    }
  }
  return std::exp((lo + hi) / 2);
}

u64 hashSamples(std::span<const Sample> samples) {
  u64 h = 0x6a09e667f3bcc909ULL ^ samples.size();
  for (const Sample& s : samples) {
    u64 words[4];
    std::memcpy(words, &s, sizeof words);
    for (u64 w : words) h = splitmix64(h ^ w);
  }
  return h;
}

}  // namespace janus::training
