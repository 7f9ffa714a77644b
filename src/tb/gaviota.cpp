#include "tb/gaviota.h"

#include <gtb-probe.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "core/movegen.h"
#include "util/error.h"

namespace janus {

namespace {

/// Serialises every call into libgaviotatb (see the thread-safety note in gaviota.h) and guards
/// gOwner and the members that init() changes.
std::mutex gLibraryMutex;
/// The object that currently holds the library's global state, or nullptr.
const GaviotaTablebases* gOwner = nullptr;

constexpr int kMaxListSize = 17;  // gtb-probe.c: MAX_LISTSIZE (16 pieces + terminator)

/// A position in the library's input format. Janus and Gaviota share the square numbering
/// (a1 = 0 .. h8 = 63) and White = 0 / Black = 1; Gaviota piece codes are Janus's type + 1.
struct GtbInput {
  unsigned stm = tb_WHITE_TO_MOVE;
  unsigned ep = tb_NOSQUARE;
  unsigned castles = tb_NOCASTLE;
  unsigned squares[2][kMaxListSize];
  unsigned char pieces[2][kMaxListSize];
};

/// Fills `in` from `pos`. The king goes first in each list: the library's KvK shortcut looks
/// only at the second list entry.
void toGtb(const Position& pos, GtbInput& in) {
  in.stm = pos.sideToMove() == kWhite ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE;
  in.ep = pos.epSquare() == kNoSquare ? unsigned(tb_NOSQUARE) : unsigned(pos.epSquare());
  in.castles = tb_NOCASTLE;  // available() guarantees no rights
  for (Color c : {kWhite, kBlack}) {
    int n = 0;
    in.squares[c][n] = pos.kingSquare(c);
    in.pieces[c][n++] = tb_KING;
    Bitboard others = pos.pieces(c) & ~pos.pieces(kKing);
    while (others && n < kMaxListSize - 1) {
      const Square s = popLsb(others);
      in.squares[c][n] = s;
      in.pieces[c][n++] = static_cast<unsigned char>(int(typeOf(pos.pieceOn(s))) + int(tb_PAWN));
    }
    in.squares[c][n] = tb_NOSQUARE;
    in.pieces[c][n] = tb_NOPIECE;
  }
}

/// Converts the library's info (tb_DRAW / tb_WMATE / tb_BMATE) to the side to move's view.
std::optional<TbWdl> toWdl(unsigned info, unsigned stm) {
  switch (info) {
    case tb_DRAW: return TbWdl::kDraw;
    case tb_WMATE: return stm == tb_WHITE_TO_MOVE ? TbWdl::kWin : TbWdl::kLoss;
    case tb_BMATE: return stm == tb_BLACK_TO_MOVE ? TbWdl::kWin : TbWdl::kLoss;
    default: return std::nullopt;  // tb_FORBID (illegal position) or tb_UNKNOWN
  }
}

std::string_view trim(std::string_view s) {
  const auto blank = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

/// Compression scheme with the most table files in `dirs` (cp4 wins ties); 0 when none.
int detectScheme(const std::vector<std::string>& dirs) {
  int count[5] = {};
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const std::size_t dot = name.rfind(".gtb.cp");
      if (dot == std::string::npos || dot + 8 != name.size()) continue;
      const char digit = name.back();
      if (digit >= '1' && digit <= '4') ++count[digit - '0'];
    }
  }
  int best = 0;
  for (int s = 4; s >= 1; --s)
    if (count[s] > count[best]) best = s;
  return best;
}

/// Largest piece count present according to tb_availability() (bit 0/1: 3 pieces, some/all;
/// bit 2/3: 4 pieces; bit 4/5: 5 pieces).
int piecesFromAvailability(unsigned bits) {
  if (bits & (16u | 32u)) return 5;
  if (bits & (4u | 8u)) return 4;
  if (bits & (1u | 2u)) return 3;
  return 0;
}

}  // namespace

GaviotaTablebases::~GaviotaTablebases() { release(); }

std::vector<std::string> GaviotaTablebases::splitPaths(const std::string& paths) {
  std::vector<std::string> out;
  std::string_view rest = paths;
  while (true) {
    const std::size_t cut = rest.find_first_of(";:");
    const std::string_view item = trim(rest.substr(0, cut));
    if (!item.empty()) out.emplace_back(item);
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + 1);
  }
  return out;
}

bool GaviotaTablebases::init(const std::string& paths, std::size_t cacheMiB) {
  std::lock_guard lock(gLibraryMutex);
  if (gOwner != nullptr && gOwner != this)
    throw Error("Gaviota tablebases: the probing library is already in use by another GaviotaTablebases object "
                "(libgaviotatb has one global state per process)");
  const std::string_view spec = trim(paths);
  std::vector<std::string> dirs = spec == "<empty>" ? std::vector<std::string>{} : splitPaths(paths);
  cacheMiB = std::max<std::size_t>(cacheMiB, 1);
  if (dirs.empty()) {
    releaseLocked();
    return false;
  }
  if (gOwner == this && dirs == m_dirs) {
    if (cacheMiB != m_cacheMiB) {
      tbcache_restart(cacheMiB << 20, kWdlFraction);
      m_cacheMiB = cacheMiB;
    }
    return true;
  }

  const int scheme = detectScheme(dirs);
  if (scheme == 0) {
    releaseLocked();
    return false;
  }
  const char** libPaths = tbpaths_init();
  for (const std::string& dir : dirs)
    if (libPaths != nullptr) libPaths = tbpaths_add(libPaths, dir.c_str());
  if (libPaths == nullptr) {
    releaseLocked();
    throw Error("Gaviota tablebases: out of memory while building the path list");
  }

  // The cache holds blocks of the old files; drop it before the restart and build it anew.
  if (tbcache_is_on()) tbcache_done();
  if (tb_is_initialized())
    tb_restart(0, scheme, libPaths);
  else
    tb_init(0, scheme, libPaths);
  tbpaths_done(m_libPaths);  // the library pointed into the old list until tb_restart's tb_done
  m_libPaths = libPaths;
  gOwner = this;

  m_availability = tb_availability();
  const int pieces = piecesFromAvailability(m_availability);
  if (pieces == 0) {
    releaseLocked();
    return false;
  }
  tbcache_init(cacheMiB << 20, kWdlFraction);
  m_scheme = scheme;
  m_cacheMiB = cacheMiB;
  m_dirs = std::move(dirs);
  m_maxPieces.store(pieces, std::memory_order_release);
  return true;
}

void GaviotaTablebases::release() {
  std::lock_guard lock(gLibraryMutex);
  releaseLocked();
}

void GaviotaTablebases::releaseLocked() {
  m_maxPieces.store(0, std::memory_order_release);
  if (gOwner == this) {
    if (tbcache_is_on()) tbcache_done();
    if (tb_is_initialized()) tb_done();
    gOwner = nullptr;
  }
  tbpaths_done(m_libPaths);  // accepts nullptr
  m_libPaths = nullptr;
  m_availability = 0;
  m_scheme = 0;
  m_cacheMiB = 0;
  m_dirs.clear();
}

std::vector<std::string> GaviotaTablebases::paths() const {
  std::lock_guard lock(gLibraryMutex);
  return m_dirs;
}

int GaviotaTablebases::compressionScheme() const {
  std::lock_guard lock(gLibraryMutex);
  return m_scheme;
}

std::string GaviotaTablebases::summary() const {
  std::lock_guard lock(gLibraryMutex);
  if (m_maxPieces.load() == 0) return "Gaviota tablebases: not loaded";
  // Appends only (GCC 12 warns falsely about "literal" + std::string, -Wrestrict).
  std::string s = "Gaviota tablebases:";
  for (int n = 3, bit = 0; n <= 5; ++n, bit += 2) {
    const bool complete = m_availability & (1u << (bit + 1));
    if (!complete && !(m_availability & (1u << bit))) continue;
    s += ' ';
    s += std::to_string(n);
    s += complete ? "-piece complete," : "-piece partial,";
  }
  s += " scheme cp";
  s += std::to_string(m_scheme);
  s += ", cache ";
  s += std::to_string(m_cacheMiB);
  s += " MiB, index ";
  s += std::to_string((tb_indexmemory() + 1023) / 1024);
  s += " KiB, paths ";
  for (std::size_t i = 0; i < m_dirs.size(); ++i) {
    if (i) s += ';';
    s += m_dirs[i];
  }
  return s;
}

bool GaviotaTablebases::available(const Position& pos) const {
  const int maxPieces = m_maxPieces.load(std::memory_order_acquire);
  return maxPieces > 0 && popCount(pos.pieces()) <= maxPieces && pos.castlingRights() == kNoCastling;
}

std::optional<TbWdl> GaviotaTablebases::probeWdl(const Position& pos, bool cacheOnly) const {
  if (!available(pos)) return std::nullopt;
  GtbInput in;
  toGtb(pos, in);
  unsigned info = tb_UNKNOWN;
  int ok;
  {
    std::lock_guard lock(gLibraryMutex);
    if (gOwner != this) return std::nullopt;  // released meanwhile
    const auto probe = cacheOnly ? tb_probe_WDL_soft : tb_probe_WDL_hard;
    ok = probe(in.stm, in.ep, in.castles, in.squares[kWhite], in.squares[kBlack], in.pieces[kWhite],
               in.pieces[kBlack], &info);
  }
  if (!ok) return std::nullopt;
  return toWdl(info, in.stm);
}

std::optional<TbDtm> GaviotaTablebases::probeDtm(const Position& pos, bool cacheOnly) const {
  if (!available(pos)) return std::nullopt;
  GtbInput in;
  toGtb(pos, in);
  unsigned info = tb_UNKNOWN;
  unsigned plies = 0;
  int ok;
  {
    std::lock_guard lock(gLibraryMutex);
    if (gOwner != this) return std::nullopt;
    const auto probe = cacheOnly ? tb_probe_soft : tb_probe_hard;
    ok = probe(in.stm, in.ep, in.castles, in.squares[kWhite], in.squares[kBlack], in.pieces[kWhite],
               in.pieces[kBlack], &info, &plies);
  }
  if (!ok) return std::nullopt;
  const std::optional<TbWdl> wdl = toWdl(info, in.stm);
  if (!wdl) return std::nullopt;
  return TbDtm{*wdl, *wdl == TbWdl::kDraw ? 0 : int(plies)};
}

std::optional<TbRootProbe> GaviotaTablebases::probeRoot(const Position& pos) const {
  if (!available(pos)) return std::nullopt;
  const MoveList legal = legalMoves(pos);
  if (legal.empty()) return std::nullopt;
  TbRootProbe root;
  Position child = pos;
  for (Move m : legal) {
    child.makeMove(m);
    const std::optional<TbDtm> reply = probeDtm(child);
    child.unmakeMove(m);
    if (!reply) return std::nullopt;
    // The opponent's value negated; one more ply (this move) to the mate.
    const TbWdl wdl = TbWdl(-int(reply->wdl));
    root.moves.push_back(TbRootMove{m, TbDtm{wdl, wdl == TbWdl::kDraw ? 0 : reply->plies + 1}});
  }
  // Better first: wins by fewest plies, then draws, then losses by most plies.
  const auto key = [](const TbDtm& d) {
    return d.wdl == TbWdl::kWin ? 1000 - d.plies : d.wdl == TbWdl::kDraw ? 0 : -1000 + d.plies;
  };
  std::stable_sort(root.moves.begin(), root.moves.end(),
                   [&](const TbRootMove& a, const TbRootMove& b) { return key(a.dtm) > key(b.dtm); });
  root.dtm = root.moves.front().dtm;
  for (const TbRootMove& rm : root.moves)
    if (rm.dtm == root.dtm) root.bestMoves.push_back(rm.move);
  return root;
}

std::optional<TbRootVerdict> GaviotaTablebases::rootVerdict(const Position& pos) const {
  auto probe = probeRoot(pos);
  if (!probe || probe->bestMoves.empty()) return std::nullopt;
  TbRootVerdict v;
  v.wdl = probe->dtm.wdl;
  v.moves = probe->bestMoves;
  if (v.wdl != TbWdl::kDraw) v.matePlies = probe->dtm.plies;
  v.probes = probe->moves.size();
  return v;
}

}  // namespace janus
