#include "selfplay/record.h"

#include <cstring>

#include <fmt/format.h>

#include "core/movegen.h"
#include "encoding/policy_map.h"
#include "records/janusdat.h"
#include "util/error.h"

namespace janus::selfplay {

namespace {

using records::SelfplayFileHeader;
using records::SelfplayGameHeader;
using records::SelfplayPlyHeader;

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// ---- Writer ------------------------------------------------------------------------------------

SelfplayWriter::SelfplayWriter(const std::string& path, std::optional<u64> games)
    : m_out(path, endsWith(path, ".zst")), m_count(games) {
  SelfplayFileHeader h{};
  std::memcpy(h.magic, kSelfplayMagic, sizeof h.magic);
  h.version = kSelfplayVersion;
  h.gameCount = games.value_or(records::kStreamingCount);
  m_out.write(reinterpret_cast<const char*>(&h), sizeof h);
}

void SelfplayWriter::write(const SelfplayGame& game) {
  if (game.plies.size() > kMaxGamePlies)
    throw Error(fmt::format("'{}': a game of {} plies is longer than the format's {}", m_out.path(), game.plies.size(),
                            kMaxGamePlies));
  SelfplayGameHeader g{};
  g.plies = u32(game.plies.size());
  g.result = u8(game.result);
  g.end = u8(game.end);
  g.flags = game.flags;
  g.start = game.start;
  m_out.write(reinterpret_cast<const char*>(&g), sizeof g);
  for (const SelfplayPly& p : game.plies) {
    if (p.visits.size() > size_t(kMaxVisitEntries))
      throw Error(fmt::format("'{}': a ply with {} visit entries (at most {})", m_out.path(), p.visits.size(), kMaxVisitEntries));
    const SelfplayPlyHeader h{p.move, p.flags, 0, p.q, u16(p.visits.size())};
    m_out.write(reinterpret_cast<const char*>(&h), sizeof h);
    m_out.write(reinterpret_cast<const char*>(p.visits.data()), std::streamsize(p.visits.size() * sizeof(VisitShare)));
  }
  ++m_written;
}

void SelfplayWriter::commit() {
  if (m_count && *m_count != m_written)
    throw Error(fmt::format("'{}': the header declares {} games but {} were written", m_out.path(), *m_count, m_written));
  m_out.commit();
}

// ---- Reader ------------------------------------------------------------------------------------

SelfplayReader::SelfplayReader(const std::string& path) : m_path(path), m_in(openInputFile(path)) {
  SelfplayFileHeader h{};
  m_in->read(reinterpret_cast<char*>(&h), sizeof h);
  const auto got = size_t(m_in->gcount());
  if (got >= sizeof h.magic && std::memcmp(h.magic, kSelfplayMagic, sizeof h.magic) != 0)
    throw Error(fmt::format("'{}': bad magic (expected 'JANUSSP'): not a Janus self-play file", path));
  if (got < sizeof h)
    throw Error(fmt::format("'{}': truncated header ({} of {} bytes): not a Janus self-play file", path, got, sizeof h));
  if (h.version != kSelfplayVersion)
    throw Error(fmt::format("'{}': self-play format version {} is not supported (this build reads version {})", path,
                            h.version, kSelfplayVersion));
  if (h.reserved0 != 0 || h.flags != 0 || h.reserved1 != 0)
    throw Error(fmt::format("'{}': reserved header fields are not zero", path));
  if (h.gameCount != records::kStreamingCount) m_declared = h.gameCount;
}

bool SelfplayReader::next(SelfplayGame& game) {
  auto fail = [&](const std::string& what) { return Error(fmt::format("'{}': game {}: {}", m_path, m_index, what)); };
  if (m_declared && m_index == *m_declared) return false;
  SelfplayGameHeader g{};
  m_in->read(reinterpret_cast<char*>(&g), sizeof g);
  const auto got = size_t(m_in->gcount());
  if (got == 0) {
    if (m_declared) throw fail(fmt::format("missing: the header declares {} games", *m_declared));
    return false;
  }
  if (got < sizeof g) throw fail(fmt::format("truncated game header ({} of {} bytes)", got, sizeof g));
  if (g.plies > kMaxGamePlies) throw fail(fmt::format("{} plies, more than the format's {}", g.plies, kMaxGamePlies));
  if (g.result > 2) throw fail(fmt::format("result {} out of range 0..2", g.result));
  if (g.end >= kGameEndCount) throw fail(fmt::format("game end {} out of range 0..{}", g.end, kGameEndCount - 1));
  if ((g.flags & ~records::kKnownGameFlags) != 0 || g.reserved != 0) throw fail(fmt::format("unknown game flags {:#x}", g.flags));
  game.start = g.start;
  game.result = records::Wdl(g.result);
  game.end = GameEnd(g.end);
  game.flags = g.flags;
  game.plies.resize(g.plies);
  for (u32 i = 0; i < g.plies; ++i) {
    SelfplayPlyHeader h{};
    m_in->read(reinterpret_cast<char*>(&h), sizeof h);
    if (size_t(m_in->gcount()) < sizeof h) throw fail(fmt::format("ply {} is truncated", i));
    if (h.move >= encoding::kPolicySize) throw fail(fmt::format("ply {}: move index {} out of range", i, h.move));
    if ((h.flags & ~records::kKnownPlyFlags) != 0 || h.reserved != 0) throw fail(fmt::format("ply {}: unknown flags {:#x}", i, h.flags));
    if (h.entries > kMaxVisitEntries) throw fail(fmt::format("ply {}: {} visit entries (at most {})", i, h.entries, kMaxVisitEntries));
    SelfplayPly& p = game.plies[i];
    p.move = h.move;
    p.flags = h.flags;
    p.q = h.q;
    p.visits.resize(h.entries);
    m_in->read(reinterpret_cast<char*>(p.visits.data()), std::streamsize(h.entries * sizeof(VisitShare)));
    if (size_t(m_in->gcount()) < h.entries * sizeof(VisitShare)) throw fail(fmt::format("ply {}: visit entries truncated", i));
    for (const VisitShare& v : p.visits)
      if (v.policyIndex >= encoding::kPolicySize) throw fail(fmt::format("ply {}: visit index {} out of range", i, v.policyIndex));
  }
  ++m_index;
  return true;
}

std::vector<SelfplayGame> readSelfplayFile(const std::string& path) {
  SelfplayReader reader(path);
  std::vector<SelfplayGame> games;
  SelfplayGame g;
  while (reader.next(g)) games.push_back(g);
  return games;
}

void replayGame(const SelfplayGame& game, const std::string& where,
                const std::function<void(const Position& pos, Move move, const SelfplayPly& ply)>& onPly) {
  Position pos;
  try {
    pos = records::unpackPosition(game.start).pos;
  } catch (const Error& e) {
    throw Error(fmt::format("game {}: start position: {}", where, e.what()));
  }
  for (size_t i = 0; i < game.plies.size(); ++i) {
    const SelfplayPly& ply = game.plies[i];
    const MoveList legal = legalMoves(pos);
    Move played = Move::none();
    for (Move m : legal)
      if (encoding::policyIndex(pos, m) == ply.move) played = m;
    if (!played)
      throw Error(fmt::format("game {}: ply {}: move index {} ({}) is not a legal move in {}", where, i, ply.move,
                              encoding::policyMoveName(ply.move), pos.fen()));
    for (const VisitShare& v : ply.visits) {
      bool found = false;
      for (Move m : legal) found = found || encoding::policyIndex(pos, m) == v.policyIndex;
      if (!found)
        throw Error(fmt::format("game {}: ply {}: visit index {} ({}) is not a legal move in {}", where, i, v.policyIndex,
                                encoding::policyMoveName(v.policyIndex), pos.fen()));
    }
    onPly(pos, played, ply);
    pos.makeMove(played);
  }
}

}  // namespace janus::selfplay
