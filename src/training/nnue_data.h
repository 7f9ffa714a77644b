#pragma once
// Training positions for the NNUE trainer (`janus train-nnue`): JANUSDAT files (records/janusdat_format.h)
// read into a compact in-memory array of 32-byte Samples, seen from the side to move, with the
// filters and the train/validation split of the loader.
//
// Filters (each dropped position is counted under the first reason that applies, in this order):
//   no score        score == records::kNoScore (e.g. positions taken from PGN games without evals)
//   mate/tablebase  |score| >= kMateScoreFloor (20000 cp): mate scores +-(32000 - plies) and
//                   tablebase wins are not evaluations the net should learn
//   large score     |score| > LoadOptions::maxScore (default 3000 cp)
//   in check        the side to move is in check (computed from the board: janus datagen
//                   skipped these before data format version 2, other sources may not)
//   noisy move      the move played from the position was a capture or promotion (record flag
//                   bit 1 of data format version 2; never set in version 1 files): the search
//                   score then reflects a tactic the static net cannot see (LoadOptions::keepNoisy
//                   keeps them)
//
// Mirror augmentation (LoadOptions::mirror): chess without castling rights is symmetric under
// the reflection a-file <-> h-file (square s -> s ^ 7), so such a position and its mirror image
// have the same evaluation. With `mirror`, every training position without castling rights is
// added a second time, mirrored (validation positions are not), which doubles the distinct
// positions the net sees where the data are thin (the middle game and endgame).
//
// Validation split: either whole files (LoadOptions::validationFiles) or a deterministic
// fraction of the games of the training files (LoadOptions::validationFraction, chosen by a hash
// of the seed, the file index and the game index). Records are stored game by game but the format
// marks no game boundary, so a new game is assumed where the ply count does not increase or the
// piece count grows. Splitting by game keeps near-identical neighbouring positions of one game on
// the same side of the split, so the validation loss measures generalisation.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"
#include "records/janusdat_format.h"
#include "training/quantised_reference.h"  // PieceSquare

namespace janus::training {

/// |score| from this value on is a mate or tablebase score (search/score.h: mate = 32000 - plies).
inline constexpr int kMateScoreFloor = 20000;

/// One training position, 32 bytes, from the side to move's point of view.
/// The board is stored as in the record (not flipped): `occupancy` has bit s set when square s
/// (a1 = 0 .. h8 = 63) is occupied and nibble i of `pieces` is the piece on the i-th lowest set
/// bit: colour << 3 | type, colour 0 White / 1 Black, type 0 pawn .. 5 king (castling rights
/// are dropped: the net does not see them).
struct Sample {
  u64 occupancy = 0;
  u8 pieces[16] = {};
  i16 score = 0;       ///< search score in centipawns, side to move's view (filtered: |score| <= maxScore)
  u8 wdl = 1;          ///< game result for the side to move: 0 loss, 1 draw, 2 win
  u8 stm = 0;          ///< side to move: 0 White, 1 Black
  u8 pieceCount = 0;   ///< popcount(occupancy), 2..32
  u8 flags = 0;        ///< kSampleCastling
  u8 reserved[2] = {};

  [[nodiscard]] int piece(int i) const { return (pieces[i / 2] >> (4 * (i & 1))) & 0xF; }
  void setPiece(int i, int nibble) {
    pieces[i / 2] = u8((pieces[i / 2] & (0xF0 >> (4 * (i & 1)))) | ((nibble & 0xF) << (4 * (i & 1))));
  }
};
static_assert(sizeof(Sample) == 32);

/// Sample::flags bit: the position has a castling right (either side); such a position is not
/// symmetric under a file mirror.
inline constexpr u8 kSampleCastling = 0x01;

/// The sample reflected a-file <-> h-file (square s -> s ^ 7); score, result and side to move
/// unchanged. Only exact for positions without castling rights (kSampleCastling clear).
[[nodiscard]] Sample mirroredSample(const Sample& s);

/// The pieces of a sample, in occupancy order; returns how many (<= 32) were written to `out`.
int samplePieces(const Sample& s, PieceSquare out[32]);

/// Input indices (nnue::featureIndex, 0..768 K - 1 for K = `kingBuckets`) of the sample's pieces
/// seen from `perspective` (0 White, 1 Black); returns the count (= pieceCount) written to `out`.
int sampleFeatures(const Sample& s, int perspective, int kingBuckets, u16 out[32]);

/// Why the loader dropped a record.
enum class DropReason { kNoScore = 0, kMateScore, kLargeScore, kInCheck, kNoisyMove, kCount };
/// Short name of a reason: "no score", "mate/tablebase score", "|score| > max", "in check",
/// "noisy move".
[[nodiscard]] const char* dropReasonName(DropReason r);

/// Converts a record to a Sample without filtering (score and wdl turned to the side to move's
/// view; kNoScore stays kNoScore). Returns false when the record is malformed for this purpose
/// (an unknown piece code, more than 32 pieces, not exactly one king per side, wdl above 2);
/// the loader then decodes it with datagen to obtain a precise error message.
[[nodiscard]] bool sampleFromRecord(const records::PackedPosition& record, Sample& out);
/// A Sample of a position with a score (centipawns, side to move's view) and a result for the
/// side to move (0 loss, 1 draw, 2 win).
[[nodiscard]] Sample sampleFromPosition(const Position& pos, int scoreStm = 0, int wdlStm = 1);
/// True if the side to move of `s` is in check (attack tables of core/bitboard.h).
[[nodiscard]] bool sampleInCheck(const Sample& s);
/// The filter a record of score `scoreStm` (centipawns, any view) fails, if any, apart from
/// the in-check test: kNoScore, kMateScore or kLargeScore; kCount when it passes.
[[nodiscard]] DropReason scoreFilter(int score, int maxScore);

struct LoadOptions {
  std::vector<std::string> files;            ///< training files (JANUSDAT, plain or .zst)
  std::vector<std::string> validationFiles;  ///< held-out files; when given, no fraction is split off
  double validationFraction = 0.02;          ///< games of `files` held out (ignored with validationFiles)
  int maxScore = 3000;                       ///< centipawns; larger |score| is dropped
  u64 seed = 1;                              ///< chooses the validation games
  u64 limit = 0;                             ///< at most this many records per file (0: all)
  bool keepNoisy = false;                    ///< keep positions whose played move was noisy
  bool mirror = false;                       ///< add the file mirror of each training position without castling rights
};

/// PackedRecord::flags bit 1 of JANUSDAT version 2 (records/janusdat_format.h): the move played from the
/// position was a capture, en passant capture or promotion. Always 0 in version 1 files.
inline constexpr u8 kRecordFlagNoisyMove = 0x02;

/// Counts of one load, for printing.
struct LoadStats {
  u64 records = 0;                                ///< records read (all files)
  u64 dropped[size_t(DropReason::kCount)] = {};   ///< by reason
  u64 train = 0, validation = 0;                  ///< kept positions (train includes the mirrored copies)
  u64 mirrored = 0;                               ///< mirrored copies added to train
  u64 games = 0;                                  ///< games detected in the training files
  u64 wdl[3] = {};                                ///< kept positions by result, side to move's view
  std::vector<std::string> perFile;               ///< one line per file: name, records, kept
};

struct LoadedSamples {
  std::vector<Sample> train;       ///< in file order (the trainer shuffles)
  std::vector<Sample> validation;
  LoadStats stats;
};

/// Reads and filters the files of `options`. Throws janus::Error naming the file (and the record)
/// for a missing, unreadable or malformed file, and for an empty file list.
[[nodiscard]] LoadedSamples loadSamples(const LoadOptions& options);

/// Multi-line summary of a load: records, drops by reason, train/validation split, results.
[[nodiscard]] std::string describeLoad(const LoadStats& stats);

/// The scale S (centipawns) for which sigmoid(score / S) best predicts the game result of
/// `samples` (least squares against result 1 / 0.5 / 0, golden-section search over 50..5000 cp,
/// on at most `maxSamples` evenly spaced samples). A data-driven value for --sigmoid-scale: with
/// it the two parts of the training target (result and score) speak the same scale.
[[nodiscard]] double fitSigmoidScale(std::span<const Sample> samples, std::size_t maxSamples = 1'000'000);

/// 64-bit hash of a sample array (identifies the data a checkpoint was trained on).
[[nodiscard]] u64 hashSamples(std::span<const Sample> samples);

}  // namespace janus::training
