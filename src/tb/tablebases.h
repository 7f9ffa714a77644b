#pragma once
// What the searches ask of endgame tablebases, whatever their kind: Gaviota (distance to mate,
// tb/gaviota.h) and Syzygy (win/draw/loss and distance to zeroing, tb/syzygy.h) implement the
// Tablebases interface, and TablebaseSet joins several of them (the engine: Syzygy first, then
// Gaviota). Alpha-beta (search/alphabeta_search.cpp, step 3b), MCTS (mcts.cpp classifyLeaf) and
// the root decision (search/tb_root.cpp) only see this interface.
//
// Values are always from the side to move's point of view.

#include <optional>
#include <string>
#include <vector>

#include "core/position.h"

namespace janus {

/// Game-theoretic value for the side to move (for Syzygy: after the 50-move rule as configured,
/// so a cursed win is a draw with Syzygy50MoveRule on).
enum class TbWdl : i8 { kLoss = -1, kDraw = 0, kWin = 1 };

/// What a root probe tells the searches.
struct TbRootVerdict {
  TbWdl wdl = TbWdl::kDraw;  ///< value of the root (that of its best moves)
  /// The moves that keep `wdl`, best first: Gaviota the DTM-optimal moves; Syzygy every move of
  /// the best DTZ rank (a win kept under the 50-move rule, a draw, or the longest loss).
  std::vector<Move> moves;
  /// Distance to mate in plies (> 0) when the tables know it (Gaviota DTM) and the root is won
  /// or lost: the searches then play moves.front() without searching.
  std::optional<int> matePlies;
  /// Distance to zeroing in plies (Syzygy DTZ: plies to the next capture or pawn move with best
  /// play, counting the root move) when the root is won or lost; 0 otherwise.
  int dtzPlies = 0;
  /// True when `wdl` already counts the 50-move rule and the root's halfmove clock (Syzygy): the
  /// searches then report the tables' value as the root score (draws included) unless they find
  /// a mate. Gaviota (false) ignores the rule.
  bool countsFiftyMoveRule = false;
  u64 probes = 0;  ///< table probes it took (counted as tbhits)
};

/// An endgame tablebase backend as the searches use it. Implementations are thread-safe: every
/// method may be called from several search threads at once.
class Tablebases {
 public:
  virtual ~Tablebases() = default;

  /// Largest number of pieces (kings included) probed; 0 when nothing is loaded.
  [[nodiscard]] virtual int probeLimit() const = 0;

  /// Cheap filter without I/O: loaded, at most probeLimit() pieces, no castling rights.
  [[nodiscard]] virtual bool covers(const Position& pos) const = 0;

  /// Win/draw/loss of `pos` for a search node with `depth` plies left (MCTS and other callers
  /// that have no depth pass kMaxPly). Meant for nodes right after a capture or pawn move
  /// (halfmove clock 0). std::nullopt when not covered, the table is missing, or the backend
  /// declines the node (Gaviota: reads no disk below depth 3; Syzygy: depth below
  /// SyzygyProbeDepth).
  [[nodiscard]] virtual std::optional<TbWdl> searchWdl(const Position& pos, int depth) const = 0;

  /// Ranks the legal moves of `pos` (its halfmove clock counts for Syzygy). std::nullopt when
  /// not covered, `pos` has no legal move, or a needed table is missing.
  [[nodiscard]] virtual std::optional<TbRootVerdict> rootVerdict(const Position& pos) const = 0;
};

/// Several backends asked in order: the first that covers a position (and answers) decides.
/// Holds non-owning pointers; the backends must outlive the set.
class TablebaseSet final : public Tablebases {
 public:
  TablebaseSet() = default;
  explicit TablebaseSet(std::vector<const Tablebases*> backends) : m_backends(std::move(backends)) {}

  [[nodiscard]] int probeLimit() const override;
  [[nodiscard]] bool covers(const Position& pos) const override;
  [[nodiscard]] std::optional<TbWdl> searchWdl(const Position& pos, int depth) const override;
  [[nodiscard]] std::optional<TbRootVerdict> rootVerdict(const Position& pos) const override;

 private:
  std::vector<const Tablebases*> m_backends;
};

}  // namespace janus
