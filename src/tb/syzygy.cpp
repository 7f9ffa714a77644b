#include "tb/syzygy.h"

#include <dlfcn.h>
#include <tbprobe.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>

#include "core/movegen.h"
#include "util/error.h"

namespace janus {

namespace {

/// Fathom's entry points, looked up with dlsym in a copy of libfathom loaded RTLD_LOCAL (see
/// syzygy.h, "Loading"). The signatures are those of tbprobe.h; the header's static inline
/// tb_probe_wdl / tb_probe_root only check castling and the clock and then call the _impl functions.
struct FathomLibrary {
  void* handle = nullptr;
  bool (*init)(const char* path) = nullptr;
  unsigned (*probeWdl)(u64 white, u64 black, u64 kings, u64 queens, u64 rooks, u64 bishops, u64 knights, u64 pawns,
                       unsigned ep, bool turn) = nullptr;
  unsigned (*probeRoot)(u64 white, u64 black, u64 kings, u64 queens, u64 rooks, u64 bishops, u64 knights, u64 pawns,
                        unsigned rule50, unsigned ep, bool turn, unsigned* results) = nullptr;
  int (*probeRootDtz)(u64 white, u64 black, u64 kings, u64 queens, u64 rooks, u64 bishops, u64 knights, u64 pawns,
                      unsigned rule50, unsigned castling, unsigned ep, bool turn, bool hasRepeated, bool useRule50,
                      TbRootMoves* results) = nullptr;
  int (*probeRootWdl)(u64 white, u64 black, u64 kings, u64 queens, u64 rooks, u64 bishops, u64 knights, u64 pawns,
                      unsigned rule50, unsigned castling, unsigned ep, bool turn, bool useRule50,
                      TbRootMoves* results) = nullptr;
  const unsigned* largest = nullptr;  ///< TB_LARGEST
};

template <typename T>
void lookUp(void* handle, const char* name, T& out, std::string& missing) {
  out = reinterpret_cast<T>(dlsym(handle, name));
  if (!out) missing += std::string(missing.empty() ? "" : ", ") + name;
}

/// The library files tried, in order: $JANUS_FATHOM alone when set (another Fathom build, or a
/// test of a missing library), else libfathom.so.1 from the loader's path and the one CMake found.
std::vector<std::string> fathomCandidates() {
  if (const char* env = std::getenv("JANUS_FATHOM"); env && *env) return {env};
  return {"libfathom.so.1", JANUS_FATHOM_LIBRARY};
}

/// Loads libfathom once (under gFathomMutex). Throws janus::Error naming the library and what
/// failed (the same error again on every later call: a failed dlopen is not retried).
const FathomLibrary& fathom() {
  static FathomLibrary lib;
  static std::string failure;
  if (lib.handle) return lib;
  if (!failure.empty()) throw Error(failure);
  std::string tried;
  void* handle = nullptr;
  for (const std::string& name : fathomCandidates()) {
    handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    const char* why = dlerror();
    tried += std::string(tried.empty() ? "" : "; ") + (why ? why : name);
  }
  if (!handle) {
    failure = "Syzygy tablebases: cannot load Fathom (apt-get install libfathom1): " + tried;
    throw Error(failure);
  }
  FathomLibrary l;
  l.handle = handle;
  std::string missing;
  lookUp(handle, "tb_init", l.init, missing);
  lookUp(handle, "tb_probe_wdl_impl", l.probeWdl, missing);
  lookUp(handle, "tb_probe_root_impl", l.probeRoot, missing);
  lookUp(handle, "tb_probe_root_dtz", l.probeRootDtz, missing);
  lookUp(handle, "tb_probe_root_wdl", l.probeRootWdl, missing);
  lookUp(handle, "TB_LARGEST", l.largest, missing);
  if (!missing.empty()) {
    dlclose(handle);
    failure = "Syzygy tablebases: the Fathom library lacks " + missing + " (an old or foreign libfathom)";
    throw Error(failure);
  }
  lib = l;
  return lib;
}

/// Stdio's stderr on /dev/null while it lives. Fathom's tb_init (Debian's 1.0+git.20190811) unmaps
/// the tables it had mapped and reports munmap's *success* as an error: its unmap_file reads
/// `if (!munmap(data, size)) perror("munmap");` (disassembly: the call to perror follows a test of
/// munmap's result for zero), so every table mapped since the last init printed
/// "munmap: <a stale errno's text>", e.g. "munmap: Invalid argument", when the tables were released
/// (at exit, or when SyzygyPath changes). Nothing else in tb_init writes to stderr. glibc lets a
/// program assign `stderr` (the glibc manual, "Standard Streams"); perror writes to it, while
/// std::cerr keeps the FILE it was made with, so only C stdio output of another thread during the
/// call would be lost.
class QuietStderr {
 public:
  QuietStderr() : m_saved(stderr), m_null(std::fopen("/dev/null", "w")) {
    if (m_null) stderr = m_null;
  }
  ~QuietStderr() {
    if (!m_null) return;
    stderr = m_saved;
    std::fclose(m_null);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  FILE* m_saved;
  FILE* m_null;
};

/// Fathom's tb_init(path) without the spurious "munmap: ..." lines (QuietStderr).
bool fathomInit(const FathomLibrary& lib, const char* path) {
  QuietStderr quiet;
  return lib.init(path);
}

/// Serialises every call into Fathom (see the thread-safety note in syzygy.h) and guards gOwner
/// and the members init() changes.
std::mutex gFathomMutex;
/// The object that currently holds Fathom's global state, or nullptr.
const SyzygyTablebases* gOwner = nullptr;

/// First four bytes of a table file (little-endian u32 0x5d23e871 / 0xa50c66d7; Fathom tbMagic).
constexpr std::array<unsigned char, 4> kWdlMagic = {0x71, 0xe8, 0x23, 0x5d};
constexpr std::array<unsigned char, 4> kDtzMagic = {0xd7, 0x66, 0x0c, 0xa5};

/// A position in Fathom's input format: one bitboard per colour and per piece type (a1 = bit 0,
/// as in Janus), the en passant square or 0, and the side to move (true = White).
struct FathomPosition {
  u64 white = 0, black = 0, kings = 0, queens = 0, rooks = 0, bishops = 0, knights = 0, pawns = 0;
  unsigned rule50 = 0;
  unsigned ep = 0;
  bool whiteToMove = true;
};

FathomPosition toFathom(const Position& pos) {
  FathomPosition f;
  f.white = pos.pieces(kWhite);
  f.black = pos.pieces(kBlack);
  f.kings = pos.pieces(kKing);
  f.queens = pos.pieces(kQueen);
  f.rooks = pos.pieces(kRook);
  f.bishops = pos.pieces(kBishop);
  f.knights = pos.pieces(kKnight);
  f.pawns = pos.pieces(kPawn);
  f.rule50 = unsigned(std::min(pos.halfmoveClock(), 255));  // Fathom keeps it in a uint8_t
  f.ep = pos.epSquare() == kNoSquare ? 0u : unsigned(pos.epSquare());  // Janus sets it only when legal
  f.whiteToMove = pos.sideToMove() == kWhite;
  return f;
}

/// The legal move of `legal` going from `from` to `to` with Fathom promotion code `promotes`
/// (TB_PROMOTES_NONE/QUEEN/ROOK/BISHOP/KNIGHT), or Move::none().
Move findMove(const MoveList& legal, unsigned from, unsigned to, unsigned promotes) {
  static constexpr PieceType kPromo[] = {kNoPieceType, kQueen, kRook, kBishop, kKnight};
  const PieceType promo = promotes < 5 ? kPromo[promotes] : kNoPieceType;
  for (Move m : legal)
    if (unsigned(m.from()) == from && unsigned(m.to()) == to &&
        (m.isPromotion() ? m.promotion() == promo : promo == kNoPieceType))
      return m;
  return Move::none();
}

/// Rank (tb_probe_root_dtz) to value; the rank already counts the root's halfmove clock.
SyzygyWdl wdlFromRank(int rank) {
  return rank >= 900 ? SyzygyWdl::kWin
         : rank > 0  ? SyzygyWdl::kCursedWin
         : rank == 0 ? SyzygyWdl::kDraw
         : rank > -900 ? SyzygyWdl::kBlessedLoss
                       : SyzygyWdl::kLoss;
}

std::string_view trim(std::string_view s) {
  const auto blank = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* toString(SyzygyWdl wdl) {
  switch (wdl) {
    case SyzygyWdl::kLoss: return "loss";
    case SyzygyWdl::kBlessedLoss: return "blessed loss";
    case SyzygyWdl::kDraw: return "draw";
    case SyzygyWdl::kCursedWin: return "cursed win";
    case SyzygyWdl::kWin: return "win";
  }
  return "?";
}

SyzygyTablebases::~SyzygyTablebases() { release(); }

std::optional<std::string> SyzygyTablebases::libraryError() {
  std::lock_guard lock(gFathomMutex);
  try {
    (void)fathom();
  } catch (const Error& e) {
    return e.what();
  }
  return std::nullopt;
}

std::vector<std::string> SyzygyTablebases::splitPaths(const std::string& paths) {
  std::vector<std::string> out;
  std::string_view rest = paths;
  while (true) {
    const std::size_t cut = rest.find(':');
    const std::string_view item = trim(rest.substr(0, cut));
    if (!item.empty()) out.emplace_back(item);
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + 1);
  }
  return out;
}

std::optional<std::string> SyzygyTablebases::checkTableFile(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return "cannot read it: " + ec.message();
  if (size % 64 != 16)
    return "truncated or corrupt: " + std::to_string(size) +
           " bytes (a Syzygy table is 16 bytes more than a multiple of 64)";
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 4> magic{};
  if (!in.read(reinterpret_cast<char*>(magic.data()), magic.size())) return "cannot read its first 4 bytes";
  const bool wdl = path.size() >= 5 && path.compare(path.size() - 5, 5, ".rtbw") == 0;
  if (magic != (wdl ? kWdlMagic : kDtzMagic))
    return std::string("corrupt: not a Syzygy ") + (wdl ? "WDL" : "DTZ") + " table (wrong magic number)";
  return std::nullopt;
}

SyzygyTablebases::LoadReport SyzygyTablebases::init(const std::string& paths) {
  const std::string_view spec = trim(paths);
  std::vector<std::string> dirs = spec == "<empty>" ? std::vector<std::string>{} : splitPaths(paths);
  LoadReport report;
  if (dirs.empty()) {
    std::lock_guard lock(gFathomMutex);
    if (gOwner != nullptr && gOwner != this)
      throw Error("Syzygy tablebases: Fathom is already in use by another SyzygyTablebases object");
    releaseLocked();
    return report;
  }

  // Look at the files before touching the library, so that a bad path changes nothing.
  std::set<std::string> seen;  // file names: Fathom opens the first directory that has one
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw Error("Syzygy tablebases: '" + dir + "' is not a directory" + (std::filesystem::exists(dir, ec) ? "" : " (it does not exist)"));
    std::vector<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string ext = it->path().extension().string();
      if (ext == ".rtbw" || ext == ".rtbz") files.push_back(it->path());
    }
    if (ec) throw Error("Syzygy tablebases: cannot list '" + dir + "': " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (!seen.insert(file.filename().string()).second) continue;
      if (auto problem = checkTableFile(file.string())) {
        report.problems.push_back(file.string() + ": " + *problem);
        continue;
      }
      (file.extension() == ".rtbw" ? report.wdlFiles : report.dtzFiles)++;
    }
  }
  if (report.wdlFiles == 0)
    throw Error("Syzygy tablebases: no usable WDL table (*.rtbw) in '" + std::string(spec) + "'" +
                (report.problems.empty() ? "" : ": " + report.problems.front()));

  std::string joined;
  for (const std::string& dir : dirs) {
    if (!joined.empty()) joined += ':';
    joined += dir;
  }
  std::lock_guard lock(gFathomMutex);
  if (gOwner != nullptr && gOwner != this)
    throw Error("Syzygy tablebases: Fathom is already in use by another SyzygyTablebases object "
                "(libfathom has one global state per process)");
  const FathomLibrary& lib = fathom();
  if (!fathomInit(lib, joined.c_str())) {
    releaseLocked();
    throw Error("Syzygy tablebases: Fathom could not initialise the paths '" + joined + "'");
  }
  gOwner = this;
  m_dirs = std::move(dirs);
  report.maxPieces = int(*lib.largest);
  m_maxPieces.store(report.maxPieces, std::memory_order_release);
  if (report.maxPieces == 0) releaseLocked();  // every WDL file was left out by Fathom too
  report.summary = "Syzygy tablebases: " + std::to_string(report.wdlFiles) + " WDL and " + std::to_string(report.dtzFiles) +
                   " DTZ files, up to " + std::to_string(report.maxPieces) + " pieces, paths " + joined;
  return report;
}

void SyzygyTablebases::release() {
  std::lock_guard lock(gFathomMutex);
  releaseLocked();
}

void SyzygyTablebases::releaseLocked() {
  m_maxPieces.store(0, std::memory_order_release);
  if (gOwner == this) {
    fathomInit(fathom(), "");  // unmaps the tables and frees the path list (what Fathom's tb_free does first)
    gOwner = nullptr;
  }
  m_dirs.clear();
}

std::vector<std::string> SyzygyTablebases::paths() const {
  std::lock_guard lock(gFathomMutex);
  return m_dirs;
}

int SyzygyTablebases::probeLimit() const {
  return std::min(maxPieces(), m_probeLimit.load(std::memory_order_relaxed));
}

bool SyzygyTablebases::covers(const Position& pos) const {
  const int limit = probeLimit();
  return limit > 0 && popCount(pos.pieces()) <= limit && pos.castlingRights() == kNoCastling;
}

TbWdl SyzygyTablebases::toTbWdl(SyzygyWdl wdl) const {
  const bool rule50 = this->rule50();
  switch (wdl) {
    case SyzygyWdl::kWin: return TbWdl::kWin;
    case SyzygyWdl::kCursedWin: return rule50 ? TbWdl::kDraw : TbWdl::kWin;
    case SyzygyWdl::kDraw: return TbWdl::kDraw;
    case SyzygyWdl::kBlessedLoss: return rule50 ? TbWdl::kDraw : TbWdl::kLoss;
    case SyzygyWdl::kLoss: return TbWdl::kLoss;
  }
  return TbWdl::kDraw;
}

std::optional<SyzygyWdl> SyzygyTablebases::probeWdl(const Position& pos) const {
  if (!covers(pos)) return std::nullopt;
  const FathomPosition f = toFathom(pos);
  unsigned result;
  {
    std::lock_guard lock(gFathomMutex);
    if (gOwner != this) return std::nullopt;  // released meanwhile
    // tb_probe_wdl without its wrapper: no castling (covers()) and a clock of 0 (the tables
    // assume a fresh counter; the wrapper refuses any other).
    result = fathom().probeWdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns, f.ep,
                               f.whiteToMove);
  }
  if (result == TB_RESULT_FAILED || result > TB_WIN) return std::nullopt;
  return SyzygyWdl(int(result) - 2);
}

std::optional<SyzygyRootProbe> SyzygyTablebases::probeRoot(const Position& pos) const {
  if (!covers(pos)) return std::nullopt;
  const MoveList legal = legalMoves(pos);
  if (legal.empty()) return std::nullopt;
  const FathomPosition f = toFathom(pos);
  auto ranked = std::make_unique<TbRootMoves>();  // ~100 KB: not on the stack
  std::array<unsigned, TB_MAX_MOVES> results{};
  bool dtzKnown;
  unsigned rootResult;
  {
    std::lock_guard lock(gFathomMutex);
    if (gOwner != this) return std::nullopt;
    const bool rule50 = this->rule50();
    // Ranks by DTZ; without DTZ tables Fathom's WDL fallback ranks by value only.
    const FathomLibrary& lib = fathom();
    dtzKnown = lib.probeRootDtz(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns, f.rule50,
                                0, f.ep, f.whiteToMove, false, rule50, ranked.get()) != 0;
    if (!dtzKnown &&
        lib.probeRootWdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns, f.rule50, 0,
                         f.ep, f.whiteToMove, rule50, ranked.get()) == 0)
      return std::nullopt;
    // tb_probe_root without its wrapper (which only refuses castling rights).
    rootResult = dtzKnown ? lib.probeRoot(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns,
                                          f.rule50, f.ep, f.whiteToMove, results.data())
                          : TB_RESULT_FAILED;
  }
  if (rootResult == TB_RESULT_FAILED) dtzKnown = false;

  SyzygyRootProbe probe;
  probe.dtzKnown = dtzKnown;
  for (unsigned i = 0; i < ranked->size && i < TB_MAX_MOVES; ++i) {
    const TbRootMove& r = ranked->moves[i];
    const Move m = findMove(legal, TB_MOVE_FROM(r.move), TB_MOVE_TO(r.move), TB_MOVE_PROMOTES(r.move));
    if (!m) return std::nullopt;  // Fathom and Janus disagree about the legal moves: do not trust it
    probe.moves.push_back(SyzygyRootMove{m, wdlFromRank(r.tbRank), 0, r.tbRank});
  }
  if (probe.moves.size() != std::size_t(legal.size())) return std::nullopt;
  if (dtzKnown) {
    for (unsigned i = 0; i < TB_MAX_MOVES && results[i] != TB_RESULT_FAILED; ++i) {
      const unsigned res = results[i];
      const Move m = findMove(legal, TB_GET_FROM(res), TB_GET_TO(res), TB_GET_PROMOTES(res));
      const int wdl = int(TB_GET_WDL(res)) - 2;
      const int dtz = int(TB_GET_DTZ(res));
      for (SyzygyRootMove& rm : probe.moves)
        if (rm.move == m) rm.dtz = wdl > 0 ? dtz : wdl < 0 ? -dtz : 0;
    }
  }
  // Best rank first; among equal ranks the fastest win (smallest DTZ) or the slowest loss, so
  // that moves.front().dtz is the root's own DTZ.
  const auto key = [](const SyzygyRootMove& m) { return m.dtz > 0 ? -m.dtz : m.dtz < 0 ? -1000 - m.dtz : 0; };
  std::stable_sort(probe.moves.begin(), probe.moves.end(), [&](const SyzygyRootMove& a, const SyzygyRootMove& b) {
    return a.rank != b.rank ? a.rank > b.rank : key(a) > key(b);
  });
  probe.wdl = probe.moves.front().wdl;
  probe.dtz = probe.moves.front().dtz;
  return probe;
}

std::optional<TbWdl> SyzygyTablebases::searchWdl(const Position& pos, int depth) const {
  if (depth < probeDepth()) return std::nullopt;
  const auto wdl = probeWdl(pos);
  if (!wdl) return std::nullopt;
  return toTbWdl(*wdl);
}

std::optional<TbRootVerdict> SyzygyTablebases::rootVerdict(const Position& pos) const {
  const auto probe = probeRoot(pos);
  if (!probe) return std::nullopt;
  TbRootVerdict v;
  v.wdl = toTbWdl(probe->wdl);
  const int bestRank = probe->moves.front().rank;
  for (const SyzygyRootMove& m : probe->moves)
    if (m.rank == bestRank) v.moves.push_back(m.move);
  if (v.wdl != TbWdl::kDraw) v.dtzPlies = std::abs(probe->dtz);
  v.countsFiftyMoveRule = true;
  v.probes = probe->moves.size();
  return v;
}

}  // namespace janus
