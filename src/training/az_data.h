#pragma once
// Training samples of the MCTS face's policy/value network (`janus train-az`, mcts/pvnet.h):
// what each position contributes and where it comes from. No libtorch here: the trainer
// (training/az/) turns batches of these samples into tensors.
//
// A sample is one position seen from its side to move:
//   * features: the active inputs of pvnet::sideToMoveFeatures() (0..771, at most 36);
//   * legal:    encoding::policyIndex() of every legal move (0..1857; the policy head's softmax
//               runs over these only);
//   * target:   the index of the move played (the policy target), or -1 when the source does
//               not say which move was played (then the sample trains the value head only);
//   * shares:   for self-play records, the search's visit distribution over the legal moves
//               (the AlphaZero policy target, one u16 per legal move, summing to about 65535);
//               target is then its most visited move. Empty for the other sources (one-hot);
//   * wdl:      the value target, win/draw/loss probabilities for the side to move, summing to 1:
//                 wdl = lambda * R + (1 - lambda) * S(score)   when the position has a score,
//                 wdl = R                                       otherwise,
//               R the game result one-hot from the side to move's view (win, draw, loss), and
//               S the WDL of the search score (scoreToWdl below).
//
// Sources (each file is recognised by its content, not its name; plain or zstd-compressed):
//   * JANUSDAT (records/janusdat_format.h). Version 3 records hold their moves and game ends, so no
//     move search is needed: the policy target is the record's best move (the search's choice;
//     for an opening ply, whose played move was random, that is the search's move, not the
//     random one), or its played move when it has no best move and is not an opening ply (PGN
//     sources: best 0); a record with neither is value-only. A game ends at the record with a
//     game end. Versions 1 and 2 (`janus datagen` before version 3) hold every position an
//     engine moved from (version 2), game after game in order, without moves: the move played
//     from record i is the legal move that turns it into record i + 1 (moveBetween()), and a
//     game ends where no legal move does. The last record of such a game has no successor: it
//     becomes a value-only sample. Version 1 files hold only quiet positions (positions in
//     check or before a capture or promotion were dropped), so there a record's successor is
//     often several plies away: such a record is value-only as well, and the game continues
//     while the full-move counter grows, the piece count does not and the result stays the
//     same.
//   * PGN (core/pgn.h via datagen::forEachPgnGame: finished standard and Chess960 games of
//     the main line; variant, unfinished and malformed games are skipped and counted). Every
//     position from ply `pgnSkipPlies` on with a move played is a sample with that move; the
//     score is the [%eval] of the move that led to the position (datagen::pgnCommentScore),
//     none on the first position. The final position has no move and is not taken.
//   * JANUSSP (selfplay/record.h, `janus selfplay`): the positions of the full searches (the
//     training targets of playout cap randomisation), policy target the visit distribution,
//     value target the game result R (self-play records have no search score: AlphaZero's z).
//     Fast-search positions are not taken (KataGo).
//
// Train/validation split: by game, deterministically. Game g (0-based, counted per file) of a
// file whose name (without directories) is B goes to validation when
//   splitmix64(fnv1a64(B) ^ splitmix64(seed + g)) / 2^64 < valFraction,
// so moving the files elsewhere or loading them in another order keeps the split, and a game's
// near-identical positions never sit on both sides. With explicit validation files, those are
// the validation set and valFraction is not used.
//
// Memory: every sample is held in memory, 26 bytes plus 2 bytes per feature and legal move
// (about 160 bytes for a middle-game position). The loader stops with an error naming the
// budget (memoryBudgetBytes) when the samples would exceed it: then use `limit` or fewer files.
// Files are decoded in parallel (one thread per file, `threads` at once) and merged in file
// order, so the result does not depend on the thread count.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"
#include "records/janusdat_format.h"

namespace janus::training::az {

/// How the value target is made from a result and a search score (header comment).
struct ValueTargetConfig {
  /// Weight of the game result; the score's WDL gets 1 - lambda. 0..1.
  double lambda = 0.5;
  /// scoreToWdl: centipawn offset `a` and scale `b` (b > 0, a >= 0) of the logistic WDL model.
  /// Defaults: the maximum-likelihood fit (fitWdlModel) on 995k positions of Janus's self-play at
  /// 5000 nodes per move (data/nnue/selfplay-5k-v2 chunks 0-39): a = 250, b = 175.
  double wdlA = 250.0;
  double wdlB = 175.0;
};

/// The WDL (win, draw, loss; sums to 1) of a search score `scoreStm` in centipawns from the side
/// to move's view, by the logistic model of Stockfish's win-rate model (Stockfish src/uci.cpp
/// win_rate_model, with constants fitted to Janus's data instead of Stockfish's):
///   win  = 1 / (1 + exp((a - score) / b)),
///   loss = 1 / (1 + exp((a + score) / b)),
///   draw = 1 - win - loss,
/// so a score of 0 is mostly a draw, score = a is a 50% win, and the draw share falls as |score|
/// grows. A mate or tablebase score (|score| >= 20000) is a certain win or loss.
[[nodiscard]] std::array<float, 3> scoreToWdl(int scoreStm, double a, double b);

/// The value target of a position (header comment): `resultStm` the game result for the side to
/// move (0 loss, 1 draw, 2 win), `scoreStm` centipawns for the side to move or records::kNoScore.
[[nodiscard]] std::array<float, 3> valueTarget(int resultStm, int scoreStm, const ValueTargetConfig& config);

/// The maximum-likelihood (a, b) of scoreToWdl for pairs of (score for the side to move,
/// result for the side to move: 0 loss, 1 draw, 2 win); a grid search over a in 0..400 and b in
/// 20..400 centipawns (steps of 5), scores with |score| >= 3000 left out. Returns {0, 0} without
/// usable pairs.
[[nodiscard]] std::array<double, 2> fitWdlModel(std::span<const std::pair<int, int>> scoreResult);

/// One sample, as views into its dataset (valid while the dataset lives and is not added to).
struct SampleView {
  std::span<const u16> features;  ///< active inputs (pvnet_format.h), 1..36 of them
  std::span<const u16> legal;     ///< policy indices of the legal moves, >= 1
  int target = -1;                ///< policy index of the move played, or -1 (value only)
  std::array<float, 3> wdl{};     ///< value target for the side to move
  std::span<const u16> shares;    ///< empty, or one visit share per legal move (soft policy target)
  bool blackToMove = false;       ///< the side to move (the planes' "black" input; features are oriented already)
  int halfmoveClock = 0;          ///< the 50-move counter (the planes' rule50 input), 0..32767
};

/// An append-only, compact list of samples: one arena of u16 values (features, then legal
/// moves, per sample) and one fixed-size entry per sample.
class Dataset {
 public:
  /// Appends a sample. `features` 1..kMaxActive values < kInputs, `legal` 1..255 values <
  /// kPolicySize, `target` -1 or a member of `legal`; `shares` empty or one per legal move with
  /// a positive sum (then `target` must be a member of `legal`); `state` = stateOf(side to move,
  /// halfmove clock) (what the residual network's planes need beyond the features).
  /// Throws janus::Error otherwise.
  void add(std::span<const int> features, std::span<const int> legal, int target, const std::array<float, 3>& wdl,
           std::span<const u16> shares = {}, u16 state = 0);
  /// The packed side to move and halfmove clock of add() (the clock capped at 32767).
  [[nodiscard]] static u16 stateOf(bool blackToMove, int halfmoveClock);
  /// Appends every sample of `other`.
  void append(const Dataset& other);

  [[nodiscard]] std::size_t size() const { return m_entries.size(); }
  [[nodiscard]] bool empty() const { return m_entries.empty(); }
  [[nodiscard]] SampleView operator[](std::size_t i) const;
  /// Samples with a policy target (target >= 0).
  [[nodiscard]] std::size_t withMove() const { return m_withMove; }
  /// Heap bytes the samples take (arena plus entries).
  [[nodiscard]] std::size_t bytes() const;
  /// FNV-1a 64 of every sample's content (identifies the data a checkpoint was trained on). The
  /// side to move and halfmove clock are left out, so that checkpoints written before they were
  /// kept still resume (they follow from the same files).
  [[nodiscard]] u64 hash() const;

 private:
  struct Entry {
    u64 offset;        ///< first value in m_arena
    float wdl[3];
    i16 target;
    u8 features;       ///< bit 7: the legal moves are followed by their visit shares
    u8 legal;
  };
  static_assert(sizeof(Entry) == 24);
  static constexpr u8 kSharesBit = 0x80;  ///< in Entry::features (at most 36 features)
  std::vector<u16> m_arena;
  std::vector<Entry> m_entries;
  std::vector<u16> m_states;  ///< per sample: bit 15 Black to move, bits 0..14 the halfmove clock
  static constexpr u16 kBlackToMove = 0x8000;
  std::size_t m_withMove = 0;
};

/// Bytes a sample with `features` inputs and `legal` moves takes in a Dataset.
[[nodiscard]] constexpr std::size_t sampleBytes(int features, int legal) {
  return 26 + 2 * std::size_t(features + legal);
}

/// For JANUSDAT version 1 and 2 files (no move in the record; version 3 records hold it).
/// The legal move of `from` that leads to the position of record `to`: same pieces, side to
/// move, castling rights, en passant square, halfmove clock and full-move number as
/// records::packRecord writes them. Move::none() if no legal move does (for example at a game
/// boundary, or when `to` is several plies later).
[[nodiscard]] Move moveBetween(const Position& from, const records::PackedPosition& to);

/// Appends the sample of `pos` (with `played` = Move::none() for a value-only sample) to `out`.
/// `pos` must have a legal move; `played` must be legal. With `visits` (policy index and share
/// of each visited root move, selfplay::VisitShare's fields) the policy target is that
/// distribution (unvisited legal moves get 0) and `played` is ignored for it: the target index
/// is the most visited move. Throws janus::Error otherwise (a visit index that is not legal).
void addSample(Dataset& out, const Position& pos, Move played, const std::array<float, 3>& wdl,
               std::span<const std::pair<u16, u16>> visits = {});

struct LoadOptions {
  std::vector<std::string> files;            ///< training files: JANUSDAT or PGN, plain or .zst
  std::vector<std::string> validationFiles;  ///< held-out files; when given, valFraction is not used
  double valFraction = 0.05;                 ///< share of the training files' games held out, 0..0.5
  u64 seed = 1;                              ///< chooses the validation games
  ValueTargetConfig value;
  int pgnSkipPlies = 0;                      ///< PGN: plies from the game's start that are not taken
  u64 limit = 0;                             ///< stop after this many samples in all (0: no limit)
  u64 memoryBudgetBytes = u64(4) << 30;      ///< the samples may take at most this much memory
  int threads = 1;                           ///< files decoded at once
};

/// Counts of one load (every figure for training and validation files together).
struct LoadStats {
  u64 files = 0, janusdatFiles = 0, pgnFiles = 0, selfplayFiles = 0;
  u64 selfplayPlies = 0;  ///< JANUSSP plies read (the full-search ones become samples)
  u64 records = 0;        ///< JANUSDAT records read
  u64 movesGiven = 0;     ///< ... of version 3 files: the policy target read from the record (its best move)
  u64 noMoveGiven = 0;    ///< ... of version 3 files, value only: no best move and no engine move played
  u64 recordsWithMove = 0;  ///< ... of version 1 and 2 files: the move played was found from the next record
  u64 lastOfGame = 0;     ///< ... value only: last record of a game (no successor)
  u64 gapInGame = 0;      ///< ... value only: the next record of the same game is several plies later (version 1)
  u64 noisyMismatch = 0;  ///< version 2: records whose noisy-move flag disagrees with the move found (0 when the
                          ///< reconstruction is right)
  u64 games = 0;          ///< games (JANUSDAT: detected boundaries; PGN: games used)
  u64 pgnSkippedGames = 0;  ///< PGN games skipped (variant, unfinished, malformed)
  std::string pgnSkipped;   ///< their reasons (datagen::PgnExtractStats::skippedSummary), per file
  u64 withScore = 0;      ///< samples whose value target includes a score
  u64 trainGames = 0, validationGames = 0;
  u64 train = 0, validation = 0;  ///< samples
  u64 trainWithMove = 0, validationWithMove = 0;
  double seconds = 0;
  /// (score, result) pairs of the training samples for fitWdlModel (at most 200,000, evenly spread).
  std::vector<std::pair<int, int>> scoreResult;
};

struct LoadedData {
  Dataset train, validation;
  LoadStats stats;
};

/// True if the file starts with the JANUSDAT magic (after zstd decompression); false for
/// anything else (then it is read as PGN). Throws janus::Error if it cannot be opened.
[[nodiscard]] bool isJanusdatFile(const std::string& path);
/// True if the file (plain or zstd) starts with the JANUSSP magic (selfplay/record.h).
[[nodiscard]] bool isSelfplayFile(const std::string& path);

/// Loads every file (header comment). Throws janus::Error naming the file for an unreadable or
/// malformed file (JANUSDAT errors as records::DataReader reports them), for bad options
/// (valFraction outside 0..0.5, lambda outside 0..1, wdlB <= 0, wdlA < 0, no files), and when the
/// samples would exceed memoryBudgetBytes.
[[nodiscard]] LoadedData loadData(const LoadOptions& options);

/// A few lines describing a load: files, records with a move (share), value-only samples by
/// reason, games, split, memory.
[[nodiscard]] std::string describeLoad(const LoadStats& stats, std::size_t bytes);

}  // namespace janus::training::az
