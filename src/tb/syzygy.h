#pragma once
// Syzygy endgame tablebases through Debian's libfathom (Fathom: Ronald de Man's probing code for
// his Syzygy format, packaged by Basil Falcinelli and Jon Dart; header tbprobe.h, library
// libfathom.so; https://github.com/jdart1/Fathom, README "Programming API" and "Chess engines").
// See docs/tablebases.md for getting tables and for how the engine uses them.
//
// The format (Ronald de Man, https://github.com/syzygy1/tb, and the chessprogramming wiki
// "Syzygy Bases"): for every material signature a WDL file (*.rtbw: win/draw/loss, with the
// 50-move rule: a "cursed win" wins only if the 50-move rule is ignored, a "blessed loss" loses
// only then) and a DTZ file (*.rtbz: distance to zeroing, the plies to the next capture or pawn
// move with best play, which decides whether a win still comes in time for the 50-move rule).
// A file is 16 bytes (its checksum) more than a multiple of 64 long and starts with a magic
// number (WDL 0x5d23e871, DTZ 0xa50c66d7, little-endian; Fathom's tbprobe.c). Positions with
// castling rights are never in the tables and are never probed.
//
// Loading. libfathom and libgaviotatb both export a function named tb_init (Fathom's takes a path
// string, Gaviota's a verbosity, a scheme and a path list); with both linked into one program the
// dynamic linker binds every reference to tb_init to one definition (the first library in load
// order), so one library would be called with the other's arguments. So Janus does not link
// libfathom: the first init() loads libfathom.so.1 with
// dlopen(RTLD_LOCAL), which keeps its symbols out of the global scope, and looks up Fathom's
// entry points with dlsym. A missing library is a janus::Error from init() (apt: libfathom1);
// libraryError() says beforehand. The environment variable JANUS_FATHOM names another library
// file to load instead (then only that one is tried).
//
// Global state. Fathom keeps the paths, the table index and the mapped files in process-wide
// globals, so at most one SyzygyTablebases object can hold the library at a time; init() on a
// second live object throws janus::Error. Objects may be created and destroyed in sequence
// (the destructor releases the library: tb_init("") unmaps every table). Debian's build reports
// each successful munmap with perror() ("munmap: Invalid argument", a stale errno): every call to
// tb_init runs with stdio's stderr on /dev/null, so no such line appears (syzygy.cpp QuietStderr).
//
// Thread-safety: every public method may be called from any thread, including probes from several
// search threads at once; each call into the library holds one process-wide std::mutex. Fathom's
// README says tb_probe_wdl is thread-safe "unless TB_NO_THREADS is set" and the root probes
// (tb_probe_root, tb_probe_root_dtz) are not. Debian's build (1.0+git.20190811) has no lock at all:
// the shared object imports no pthread_mutex function and contains no locked instruction, so two
// threads probing a table for the first time (Fathom maps it lazily then) would race. Hence the
// mutex; a WDL probe of a mapped table takes about a microsecond, and the search probes only right
// after captures and pawn moves.
//
// A table file that is truncated or not a Syzygy table is reported by init() (LoadReport::problems)
// and is not used: Fathom skips files of the wrong size itself (printing "info string Incomplete
// tablebase file ..." on stdout), and probes of a file with a bad magic number fail (Fathom prints
// "Corrupted table." on stderr, and drops the material signature, WDL table included, at the first
// probe that needs the bad file), so the search goes on without it. A file cut at a multiple of 64
// bytes keeps the right size modulo 64 and is not detected.

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "tb/tablebases.h"

namespace janus {

/// The five values of a Syzygy WDL table, side to move's view (Fathom TB_LOSS .. TB_WIN minus 2).
enum class SyzygyWdl : i8 {
  kLoss = -2,
  kBlessedLoss = -1,  ///< lost, but the opponent needs more than 50 moves: a draw under the 50-move rule
  kDraw = 0,
  kCursedWin = 1,     ///< won, but it takes more than 50 moves: a draw under the 50-move rule
  kWin = 2,
};

/// "loss", "blessed loss", "draw", "cursed win", "win".
[[nodiscard]] const char* toString(SyzygyWdl wdl);

/// One legal root move with what the DTZ tables say about it, from the root side to move's view.
struct SyzygyRootMove {
  Move move;
  /// Value after the move, counting the root's halfmove clock: a win whose zeroing move comes
  /// later than the 50-move rule allows is a cursed win here (Fathom's dtz_to_wdl).
  SyzygyWdl wdl = SyzygyWdl::kDraw;
  /// Distance to zeroing in plies from the root, this move included (1: the move itself captures,
  /// moves a pawn or mates; > 0 win, < 0 loss, 0 draw). Fathom: tb_probe_root's per-move results.
  int dtz = 0;
  /// Fathom's root rank (tb_probe_root_dtz, Ronald de Man's scheme as in his Cfish tbprobe.c):
  /// 1000 a win that is safe under the 50-move rule; 1000 - (dtz + clock) a win needing more plies
  /// (>= 900: still in time; below: cursed); 0 a draw; -1000 a loss; above -900 a loss that the
  /// 50-move rule saves. With only WDL tables: 1000 / 899 / 0 / -899 / -1000.
  int rank = 0;
};

/// Result of probing the root.
struct SyzygyRootProbe {
  SyzygyWdl wdl = SyzygyWdl::kDraw;  ///< value of the root with its halfmove clock (that of moves.front())
  int dtz = 0;                       ///< moves.front().dtz: the root's distance to zeroing (plies)
  bool dtzKnown = false;             ///< false: DTZ tables missing, ranks from WDL only and dtz 0
  /// Every legal move, best rank first; on equal ranks the smallest DTZ of a win, the largest of a
  /// loss first (movegen order on further ties).
  std::vector<SyzygyRootMove> moves;
};

class SyzygyTablebases final : public Tablebases {
 public:
  /// What init() found.
  struct LoadReport {
    int wdlFiles = 0;     ///< usable *.rtbw files in the directories (first path wins on duplicates)
    int dtzFiles = 0;     ///< usable *.rtbz files
    int maxPieces = 0;    ///< Fathom's TB_LARGEST: pieces of the largest table found
    std::vector<std::string> problems;  ///< one line per unusable file: path and what is wrong
    /// "Syzygy tablebases: 35 WDL and 35 DTZ files, up to 4 pieces, paths /a:/b".
    std::string summary;
  };

  /// SyzygyProbeDepth default (plies; Stockfish's convention).
  static constexpr int kDefaultProbeDepth = 1;
  /// SyzygyProbeLimit default and maximum (pieces; Syzygy tables exist up to 7 pieces).
  static constexpr int kMaxProbeLimit = 7;

  SyzygyTablebases() = default;
  ~SyzygyTablebases() override;
  SyzygyTablebases(const SyzygyTablebases&) = delete;
  SyzygyTablebases& operator=(const SyzygyTablebases&) = delete;

  /// (Re)initialises Fathom with `paths`: directories separated by ':' (the Unix convention of
  /// Stockfish's SyzygyPath; blanks around items trimmed, empty items skipped). Empty or
  /// "<empty>" releases the tables and returns an empty report. Every directory must exist and
  /// hold at least one *.rtbw file among them, else janus::Error names the problem and nothing
  /// changes (the tables loaded before stay). Corrupt or truncated files do not throw: they are
  /// listed in the report's problems and left out (see the header comment). Throws janus::Error
  /// if another SyzygyTablebases object holds the library.
  LoadReport init(const std::string& paths);

  /// Unmaps every table. No-op when not initialised.
  void release();

  /// Loads Fathom if it is not loaded yet and says why it cannot be: std::nullopt when it is
  /// usable, else the message init() would throw ("Syzygy tablebases: cannot load Fathom (apt-get
  /// install libfathom1): ..."). Thread-safe.
  [[nodiscard]] static std::optional<std::string> libraryError();

  [[nodiscard]] bool initialised() const { return m_maxPieces.load(std::memory_order_acquire) > 0; }
  /// Pieces (kings included) of the largest table loaded; 0 when not initialised.
  [[nodiscard]] int maxPieces() const { return m_maxPieces.load(std::memory_order_acquire); }
  /// Directories in use.
  [[nodiscard]] std::vector<std::string> paths() const;

  /// SyzygyProbeDepth: the search probes only at nodes with at least this many plies left (1..100).
  void setProbeDepth(int plies) { m_probeDepth.store(plies, std::memory_order_relaxed); }
  [[nodiscard]] int probeDepth() const { return m_probeDepth.load(std::memory_order_relaxed); }
  /// SyzygyProbeLimit: largest piece count probed (0..7; 0 switches probing off).
  void setProbeLimit(int pieces) { m_probeLimit.store(pieces, std::memory_order_relaxed); }
  /// Syzygy50MoveRule: true scores cursed wins and blessed losses as draws (the FIDE rules);
  /// false as wins and losses.
  void setRule50(bool on) { m_rule50.store(on, std::memory_order_relaxed); }
  [[nodiscard]] bool rule50() const { return m_rule50.load(std::memory_order_relaxed); }

  /// WDL table value of `pos` (as if its halfmove clock were 0, the tables' own meaning: callers
  /// probe right after a capture or pawn move). std::nullopt when not covers() or the table is
  /// missing or corrupt. Thread-safe.
  [[nodiscard]] std::optional<SyzygyWdl> probeWdl(const Position& pos) const;

  /// Ranks every legal move of `pos` with the DTZ tables (WDL tables when DTZ is missing),
  /// counting `pos`'s halfmove clock. std::nullopt when not covers(), no legal move, or a table is
  /// missing. Thread-safe (serialised).
  [[nodiscard]] std::optional<SyzygyRootProbe> probeRoot(const Position& pos) const;

  /// The side to move's value under the Syzygy50MoveRule setting.
  [[nodiscard]] TbWdl toTbWdl(SyzygyWdl wdl) const;

  // ---- Tablebases (tb/tablebases.h) ----
  /// min(maxPieces(), SyzygyProbeLimit).
  [[nodiscard]] int probeLimit() const override;
  /// Initialised, at most probeLimit() pieces, no castling rights.
  [[nodiscard]] bool covers(const Position& pos) const override;
  /// probeWdl through toTbWdl; std::nullopt when depth < SyzygyProbeDepth.
  [[nodiscard]] std::optional<TbWdl> searchWdl(const Position& pos, int depth) const override;
  /// probeRoot: the moves of the best rank; the DTZ of a won or lost root.
  [[nodiscard]] std::optional<TbRootVerdict> rootVerdict(const Position& pos) const override;

  /// Splits a path list at ':' (see init()).
  [[nodiscard]] static std::vector<std::string> splitPaths(const std::string& paths);
  /// Checks one file named *.rtbw or *.rtbz: its size (16 more than a multiple of 64) and magic
  /// number. Returns what is wrong ("truncated or corrupt: 1000 bytes, ..."), or std::nullopt.
  [[nodiscard]] static std::optional<std::string> checkTableFile(const std::string& path);

 private:
  void releaseLocked();

  std::atomic<int> m_maxPieces{0};
  std::atomic<int> m_probeDepth{kDefaultProbeDepth};
  std::atomic<int> m_probeLimit{kMaxProbeLimit};
  std::atomic<bool> m_rule50{true};
  std::vector<std::string> m_dirs;
};

}  // namespace janus
