#include "selfplay/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/movegen.h"
#include "encoding/policy_map.h"
#include "records/janusdat.h"
#include "search/wdl.h"
#include "selfplay/record.h"

namespace janus::selfplay {

SelfplayExportStats exportSelfplayPositions(const std::string& path, bool fullSearchesOnly,
                                            const std::function<void(const records::PackedRecord&)>& sink) {
  SelfplayExportStats stats;
  SelfplayReader reader(path);
  SelfplayGame game;
  while (reader.next(game)) {
    std::optional<records::PackedRecord> pending;  // the game's last taken record gets its end
    replayGame(game, fmt::format("'{}' game {}", path, reader.index() - 1), [&](const Position& pos, Move move,
                                                                          const SelfplayPly& ply) {
      if (fullSearchesOnly && !ply.fullSearch()) return;
      const int stmCp = qToCentipawns(double(ply.q) / 32767.0, wdlMaterial(pos));
      Move best = Move::none();
      if (!ply.visits.empty()) {
        const auto top = std::max_element(ply.visits.begin(), ply.visits.end(),
                                           [](const VisitShare& a, const VisitShare& b) { return a.share < b.share; });
        for (Move m : legalMoves(pos))
          if (encoding::policyIndex(pos, m) == top->policyIndex) best = m;
      }
      if (pending) sink(*pending);
      pending = records::packRecord(pos, pos.sideToMove() == kWhite ? stmCp : -stmCp, game.result, move, best);
      ++stats.positions;
    });
    if (pending) {
      records::setGameEnd(*pending, game.end);
      sink(*pending);
    }
    ++stats.games;
    ++stats.results[game.result];
  }
  return stats;
}

}  // namespace janus::selfplay
