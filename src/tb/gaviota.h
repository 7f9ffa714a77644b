#pragma once
// Gaviota endgame tablebases (distance to mate, up to 5 pieces) through Debian's libgaviotatb
// (Miguel A. Ballicora's probing code, header gtb-probe.h; https://github.com/michiguel/Gaviota-Tablebases).
// See docs/tablebases.md for installing a full set and for how the engine uses it.
//
// Results are always from the side to move's point of view. Gaviota tables know nothing of the
// fifty-move rule or repetitions: a "win" may need more than 50 moves without a capture or pawn
// move (rare within 5 pieces), and DTM counts moves to mate, not to a zeroing move.
//
// Global state. libgaviotatb keeps everything (paths, open files, caches, its own lock) in
// process-wide globals, so at most one GaviotaTablebases object can hold the library at a time;
// init() on a second live object throws janus::Error. Objects may be created and destroyed in
// sequence freely (the destructor releases the library: tbcache_done, tb_done, tbpaths_done).
//
// Thread-safety: every public method may be called from any thread at any time, including
// probes from several search threads at once. Each call into the C library holds one
// process-wide std::mutex. The library is only partly thread-safe on its own (read in the
// upstream gtb-probe.c that Debian's 0.4 package is built from): its Egtb_lock guards file reads
// and the DTM and WDL caches, but egtb_get_id() reads and writes a static "last table" index
// without it, egkey[].status is read and set (to "rejected" after a failed hard probe) outside
// it, and tb_restart() destroys and re-creates Egtb_lock, so a probe racing a re-init would use
// a dead mutex. The extra lock costs little: the library already serialises every cache lookup
// and disk read under Egtb_lock (a cached probe takes about 0.5 us in all, measured on the
// 3-piece set). init()/release() block until running probes have finished.

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "tb/tablebases.h"

namespace janus {

/// Value and distance to mate of a position, side to move's view.
struct TbDtm {
  TbWdl wdl = TbWdl::kDraw;
  /// Distance to mate in plies with best play by both sides (>= 0): odd when the side to move
  /// wins (1 = mate in one move), even when it loses (0 = checkmated now, 2 = mated after its
  /// only move). 0 for draws.
  int plies = 0;
  /// +plies for a win, -plies for a loss, 0 for a draw (note: a checkmated side also gives 0;
  /// use wdl to tell it from a draw).
  [[nodiscard]] int signedPlies() const { return wdl == TbWdl::kWin ? plies : wdl == TbWdl::kLoss ? -plies : 0; }
  bool operator==(const TbDtm&) const = default;
};

/// One root move with the value it leads to, from the root side to move's view; dtm.plies
/// counts the move itself (a mating move has plies 1).
struct TbRootMove {
  Move move;
  TbDtm dtm;
};

/// Result of probing every legal root move.
struct TbRootProbe {
  TbDtm dtm;                      ///< value of the root position (that of its best moves)
  std::vector<Move> bestMoves;    ///< DTM-optimal moves: the fastest mate when winning, any
                                  ///< drawing move when drawn, the longest resistance when
                                  ///< losing; several when tied, in movegen order
  std::vector<TbRootMove> moves;  ///< every legal move, best first
};

class GaviotaTablebases final : public Tablebases {
 public:
  /// Fraction (out of 128) of the cache given to WDL blocks; the rest holds DTM blocks. 96 is
  /// the value of the library's example program tbprobe.c.
  static constexpr int kWdlFraction = 96;

  GaviotaTablebases() = default;
  ~GaviotaTablebases() override;
  GaviotaTablebases(const GaviotaTablebases&) = delete;
  GaviotaTablebases& operator=(const GaviotaTablebases&) = delete;

  /// (Re)initialises the library. `paths`: one or more directories separated by ';' or ':'
  /// (the Gaviota convention is ';'; ':' is accepted as on Unix PATH lists; surrounding blanks
  /// are trimmed, empty items skipped). `cacheMiB`: probe cache in MiB (values below 1 are
  /// raised to 1: compressed tables cannot be read without a cache).
  ///
  /// The compression scheme (files *.gtb.cp1 .. *.gtb.cp4; the library reads one scheme at a
  /// time) is the one with the most files in the directories, cp4 on ties.
  /// Same paths and cache as now: nothing happens. Same paths, other cache size: only the cache
  /// is rebuilt. Otherwise the library is restarted with the new paths (every cached block and
  /// open file is dropped). An empty `paths` (or "<empty>", the UCI convention) releases the
  /// library. Returns true when at least one table file was found (maxPieces() >= 3); false
  /// leaves the object released. Throws janus::Error if another GaviotaTablebases object holds
  /// the library, or if the library cannot allocate its path list.
  bool init(const std::string& paths, std::size_t cacheMiB);

  /// Frees the library's files, caches and paths. No-op when not initialised.
  void release();

  [[nodiscard]] bool initialised() const { return m_maxPieces.load(std::memory_order_acquire) > 0; }
  /// Largest piece count (kings included) of any table found: 3, 4 or 5; 0 when not
  /// initialised. A count may be partly covered; probes of missing tables return nullopt.
  [[nodiscard]] int maxPieces() const { return m_maxPieces.load(std::memory_order_acquire); }
  /// Directories in use (as split from the init() argument).
  [[nodiscard]] std::vector<std::string> paths() const;
  /// Compression scheme in use (1..4), 0 when not initialised.
  [[nodiscard]] int compressionScheme() const;
  /// One line for "info string": pieces found (complete or partial), scheme, cache size, the
  /// library's block-index memory (tb_indexmemory), paths. E.g. "Gaviota tablebases: 3-piece
  /// complete, scheme cp4, cache 32 MiB, index 1 KiB, paths /usr/share/gaviotatb/gtb4".
  [[nodiscard]] std::string summary() const;

  /// Cheap filter without locking or I/O: initialised, at most maxPieces() pieces, no castling
  /// rights (Gaviota tables have none).
  [[nodiscard]] bool available(const Position& pos) const;

  /// Win/draw/loss of `pos` for the side to move; std::nullopt when not available() or the
  /// table is missing. `cacheOnly` (the library's "soft" probe) never reads the disk and fails
  /// when the block is not cached: meant for nodes near the leaves. Thread-safe.
  [[nodiscard]] std::optional<TbWdl> probeWdl(const Position& pos, bool cacheOnly = false) const;

  /// Value and distance to mate (plies) of `pos`; std::nullopt as for probeWdl. Thread-safe.
  [[nodiscard]] std::optional<TbDtm> probeDtm(const Position& pos, bool cacheOnly = false) const;

  /// Probes every legal move of `pos` (one DTM probe per move, reading the disk if needed) and
  /// ranks them by DTM. std::nullopt when `pos` is not available(), has no legal move, or any
  /// successor's table is missing. Thread-safe.
  [[nodiscard]] std::optional<TbRootProbe> probeRoot(const Position& pos) const;

  // ---- Tablebases (tb/tablebases.h) ----
  [[nodiscard]] int probeLimit() const override { return maxPieces(); }
  [[nodiscard]] bool covers(const Position& pos) const override { return available(pos); }
  /// probeWdl, from the cache only below depth 3 (near the leaves).
  [[nodiscard]] std::optional<TbWdl> searchWdl(const Position& pos, int depth) const override {
    return probeWdl(pos, depth < 3);
  }
  /// probeRoot: the DTM-optimal moves, with the distance to mate when won or lost.
  [[nodiscard]] std::optional<TbRootVerdict> rootVerdict(const Position& pos) const override;

  /// Splits a path list at ';' and ':' (see init()).
  [[nodiscard]] static std::vector<std::string> splitPaths(const std::string& paths);

 private:
  void releaseLocked();

  std::atomic<int> m_maxPieces{0};
  unsigned m_availability = 0;       ///< tb_availability() bits
  int m_scheme = 0;                  ///< tb_CP1..tb_CP4
  std::size_t m_cacheMiB = 0;
  std::vector<std::string> m_dirs;
  const char** m_libPaths = nullptr;  ///< owned; the library points into it until tb_done
};

}  // namespace janus
