#pragma once
// The parameter table of the hand-crafted evaluation (HCE).
//
// Every weight is declared exactly once, in JANUS_HCE_WEIGHTS below, as a named block of
// `size` TaperedScores (mg, eg): single terms have size 1, tables (piece-square tables,
// mobility by square count, bonuses by rank) are named arrays. The blocks are laid out one
// after another in one flat vector of weight::kCount TaperedScores, which is what a tuner
// reads and writes (EvalWeights::values()). The initial values live in one readable file,
// default_weights.cpp, with the source of every number.
//
// The evaluation is linear in the weights of kind kLinear: eval = sum_i w_i * (c_i[White] -
// c_i[Black]), where c_i are integer feature counts extracted by HceEvaluator::trace(). Weights
// of kind kKingAttack are summed the same way, per attacking side, into "attack units" that go
// through a non-linear (quadratic) function; see trace.h. This is the design of Ethereal's tuner
// and of A. Grant, "Evaluation & Tuning in Chess Engines" (2020).

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "eval/score.h"

namespace janus {

/// How the entries of a weight block are named in text form: "pst_knight[e4]", "material[rook]".
enum class IndexLabel : u8 {
  kNone,      ///< size 1: just the name
  kPiece,     ///< pawn, knight, bishop, rook, queen
  kAttacker,  ///< knight, bishop, rook, queen
  kSquare,    ///< a1..h8, from White's point of view (Black's squares are mirrored vertically)
  kRank,      ///< rank1..rank8, relative to the pawn's owner
  kShelter,   ///< none, rank2..rank8: relative rank of the pawn in question (0 = no such pawn)
  kCount,     ///< 0, 1, 2, ...: a number of squares
};

/// kLinear weights enter the evaluation linearly. kKingAttack weights are summed into king
/// attack units, which the non-linear kingAttackScore() (trace.h) turns into a score.
enum class WeightKind : u8 { kLinear, kKingAttack };

/// Terms of the evaluation as printed by `janus eval`; every weight belongs to one.
enum class TermGroup : u8 {
  kMaterial,
  kPieceSquare,
  kBishopPair,
  kPawnStructure,
  kPassedPawns,
  kRooks,
  kMobility,
  kKingShelter,
  kKingAttack,
  kThreats,
  kMopUp,
  kTempo,
};
constexpr int kTermGroupCount = 12;
/// Display name of a term group, e.g. "Pawn structure".
[[nodiscard]] std::string_view termGroupName(TermGroup g);

// X(id, name, size, label, kind, group, description)
// clang-format off
#define JANUS_HCE_WEIGHTS(X)                                                                                           \
  X(kMaterial,          "material",             5, kPiece,   kLinear,    kMaterial,      "piece value")                \
  X(kPstPawn,           "pst_pawn",            64, kSquare,  kLinear,    kPieceSquare,   "pawn square bonus")          \
  X(kPstKnight,         "pst_knight",          64, kSquare,  kLinear,    kPieceSquare,   "knight square bonus")        \
  X(kPstBishop,         "pst_bishop",          64, kSquare,  kLinear,    kPieceSquare,   "bishop square bonus")        \
  X(kPstRook,           "pst_rook",            64, kSquare,  kLinear,    kPieceSquare,   "rook square bonus")          \
  X(kPstQueen,          "pst_queen",           64, kSquare,  kLinear,    kPieceSquare,   "queen square bonus")         \
  X(kPstKing,           "pst_king",            64, kSquare,  kLinear,    kPieceSquare,   "king square bonus")          \
  X(kBishopPair,        "bishop_pair",          1, kNone,    kLinear,    kBishopPair,                                  \
    "bishops on both square colours")                                                                                  \
  X(kPawnDoubled,       "pawn_doubled",         1, kNone,    kLinear,    kPawnStructure,                               \
    "pawn with an own pawn ahead on its file")                                                                         \
  X(kPawnIsolated,      "pawn_isolated",        1, kNone,    kLinear,    kPawnStructure,                               \
    "no own pawn on the adjacent files")                                                                               \
  X(kPawnBackward,      "pawn_backward",        1, kNone,    kLinear,    kPawnStructure,                               \
    "no own pawn beside or behind on adjacent files, stop square controlled by an enemy pawn")                         \
  X(kPawnConnected,     "pawn_connected",       8, kRank,    kLinear,    kPawnStructure,                               \
    "pawn supported by or side by side with an own pawn, by rank")                                                     \
  X(kPassedRank,        "passed_rank",          8, kRank,    kLinear,    kPassedPawns,   "passed pawn, by rank")       \
  X(kPassedBlocked,     "passed_blocked",       8, kRank,    kLinear,    kPassedPawns,                                 \
    "passed pawn whose stop square is occupied")                                                                       \
  X(kPassedFreePath,    "passed_free_path",     8, kRank,    kLinear,    kPassedPawns,                                 \
    "passed pawn with no piece on its path to promotion")                                                              \
  X(kPassedSafePath,    "passed_safe_path",     8, kRank,    kLinear,    kPassedPawns,                                 \
    "free path that no enemy piece or pawn attacks either")                                                            \
  X(kPassedOwnKing,     "passed_own_king",      8, kRank,    kLinear,    kPassedPawns,                                 \
    "times the own king's distance to the stop square")                                                                \
  X(kPassedEnemyKing,   "passed_enemy_king",    8, kRank,    kLinear,    kPassedPawns,                                 \
    "times the enemy king's distance to the stop square")                                                              \
  X(kPassedUnstoppable, "passed_unstoppable",   1, kNone,    kLinear,    kPassedPawns,                                 \
    "enemy has only king and pawns and its king is outside the pawn's square")                                         \
  X(kRookOpenFile,      "rook_open_file",       1, kNone,    kLinear,    kRooks,                                       \
    "rook on a file without pawns")                                                                                    \
  X(kRookSemiOpenFile,  "rook_semi_open_file",  1, kNone,    kLinear,    kRooks,                                       \
    "rook on a file with enemy pawns only")                                                                            \
  X(kRookSeventh,       "rook_seventh",         1, kNone,    kLinear,    kRooks,                                       \
    "rook on the 7th rank with enemy pawns there or the enemy king on the 8th")                                        \
  X(kMobilityKnight,    "mobility_knight",      9, kCount,   kLinear,    kMobility,                                    \
    "by number of safe squares attacked")                                                                              \
  X(kMobilityBishop,    "mobility_bishop",     14, kCount,   kLinear,    kMobility,                                    \
    "by number of safe squares attacked")                                                                              \
  X(kMobilityRook,      "mobility_rook",       15, kCount,   kLinear,    kMobility,                                    \
    "by number of safe squares attacked")                                                                              \
  X(kMobilityQueen,     "mobility_queen",      28, kCount,   kLinear,    kMobility,                                    \
    "by number of safe squares attacked")                                                                              \
  X(kKingShield,        "king_shield",          8, kShelter, kLinear,    kKingShelter,                                 \
    "per file around the king: rank of the nearest own pawn in front")                                                 \
  X(kKingStorm,         "king_storm",           8, kShelter, kLinear,    kKingShelter,                                 \
    "per file around the king: rank of the nearest enemy pawn in front, unblocked")                                    \
  X(kKingStormBlocked,  "king_storm_blocked",   8, kShelter, kLinear,    kKingShelter,                                 \
    "as king_storm, the enemy pawn blocked by an own pawn")                                                            \
  X(kThreatByPawn,      "threat_by_pawn",       1, kNone,    kLinear,    kThreats,                                     \
    "enemy piece (not pawn or king) attacked by an own pawn")                                                          \
  X(kThreatByMinor,     "threat_by_minor",      1, kNone,    kLinear,    kThreats,                                     \
    "enemy rook or queen attacked by an own knight or bishop")                                                         \
  X(kMopUpCorner,       "mopup_corner",         1, kNone,    kLinear,    kMopUp,                                       \
    "lone enemy king: times its Manhattan distance from the centre")                                                   \
  X(kMopUpKings,        "mopup_kings",          1, kNone,    kLinear,    kMopUp,                                       \
    "lone enemy king: times (7 - king distance)")                                                                      \
  X(kTempo,             "tempo",                1, kNone,    kLinear,    kTempo,         "side to move")               \
  X(kKsAttacker,        "ks_attacker",          4, kAttacker, kKingAttack, kKingAttack,                                \
    "units per piece attacking the enemy king zone")                                                                   \
  X(kKsZoneAttacks,     "ks_zone_attacks",      1, kNone,    kKingAttack, kKingAttack,                                 \
    "units per attacked king-zone square (summed over attackers)")                                                     \
  X(kKsWeakSquares,     "ks_weak_squares",      1, kNone,    kKingAttack, kKingAttack,                                 \
    "units per attacked king-zone square defended at most once, by king or queen")                                     \
  X(kKsSafeCheck,       "ks_safe_check",        4, kAttacker, kKingAttack, kKingAttack,                                \
    "units per safe checking square")                                                                                  \
  X(kKsNoQueen,         "ks_no_queen",          1, kNone,    kKingAttack, kKingAttack,                                 \
    "units when the attacker has no queen")                                                                            \
  X(kKsBias,            "ks_bias",              1, kNone,    kKingAttack, kKingAttack,                                 \
    "units added whenever the attack counts")
// clang-format on

/// Flat indices of the weights (plain ints): weight::kPstKnight + square, weight::kMaterial + pieceType.
namespace weight {
namespace detail {
enum Id : int {
#define JANUS_HCE_ID(id, name, size, label, kind, group, doc) id, id##Last_ = id + (size) - 1,
  JANUS_HCE_WEIGHTS(JANUS_HCE_ID)
#undef JANUS_HCE_ID
  kCount_
};
}  // namespace detail
#define JANUS_HCE_CONST(id, name, size, label, kind, group, doc) inline constexpr int id = detail::id;
JANUS_HCE_WEIGHTS(JANUS_HCE_CONST)
#undef JANUS_HCE_CONST
/// Number of TaperedScores in the parameter vector.
inline constexpr int kCount = detail::kCount_;
}  // namespace weight

/// One named block of the parameter vector.
struct WeightInfo {
  std::string_view name;
  int offset;  ///< flat index of the first entry
  int size;    ///< number of entries
  IndexLabel label;
  WeightKind kind;
  TermGroup group;
  std::string_view description;
};

// clang-format off
inline constexpr WeightInfo kWeightTable[] = {
#define JANUS_HCE_INFO(id, name, size, label, kind, group, doc) \
  {name, weight::id, size, IndexLabel::label, WeightKind::kind, TermGroup::group, doc},
  JANUS_HCE_WEIGHTS(JANUS_HCE_INFO)
#undef JANUS_HCE_INFO
};
// clang-format on
constexpr int kWeightBlockCount = int(std::size(kWeightTable));

/// The block containing flat index `index` (0 <= index < weight::kCount).
[[nodiscard]] const WeightInfo& weightBlockOf(int index);
/// Text name of one entry: "tempo", "pst_knight[e4]", "mobility_rook[7]", "king_shield[none]".
[[nodiscard]] std::string weightEntryName(int index);
/// Flat index of a named entry (the inverse of weightEntryName; a plain number is also accepted
/// as the index inside the block, "pst_knight[28]"). Throws janus::Error if the name is unknown
/// or the index is out of range.
[[nodiscard]] int findWeightEntry(std::string_view entryName);

/// The full parameter vector: weight::kCount TaperedScores.
class EvalWeights {
 public:
  /// All weights zero.
  constexpr EvalWeights() = default;

  /// The initial values (default_weights.cpp).
  [[nodiscard]] static const EvalWeights& defaults();

  [[nodiscard]] constexpr TaperedScore operator[](int index) const { return m_values[index]; }
  [[nodiscard]] constexpr TaperedScore& operator[](int index) { return m_values[index]; }
  /// Flat view for tuners: weight::kCount entries, ordered as kWeightTable.
  [[nodiscard]] std::span<const TaperedScore, weight::kCount> values() const { return m_values; }
  [[nodiscard]] std::span<TaperedScore, weight::kCount> values() { return m_values; }

  /// Value of a named entry ("bishop_pair", "pst_knight[e4]"). Throws janus::Error on a bad name.
  [[nodiscard]] TaperedScore get(std::string_view entryName) const { return m_values[findWeightEntry(entryName)]; }
  /// Sets a named entry. Throws janus::Error on a bad name.
  void set(std::string_view entryName, TaperedScore value) { m_values[findWeightEntry(entryName)] = value; }

  /// Text form, one entry per line: "<entry name> <mg> <eg>", in table order, with a '#' comment
  /// line before each block giving its description.
  [[nodiscard]] std::string toText() const;
  /// Reads the text form (any subset of entries, any order; '#' starts a comment; blank lines
  /// ignored) and overwrites the entries it names. Throws janus::Error naming the line number and
  /// the problem (unknown entry, missing or non-integer value, value outside [-30000, 30000]);
  /// on error no weight is changed.
  void loadText(std::string_view text);

  constexpr bool operator==(const EvalWeights&) const = default;

 private:
  std::array<TaperedScore, weight::kCount> m_values{};
};

}  // namespace janus
