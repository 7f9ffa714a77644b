#include "core/game_end.h"

#include "core/movegen.h"
#include "core/position.h"

namespace janus {

std::optional<GameEnd> rulesGameEnd(const Position& pos) {
  if (!hasLegalMove(pos)) return pos.inCheck() ? GameEnd::kCheckmate : GameEnd::kStalemate;
  if (pos.isRepetition(2)) return GameEnd::kRepetition;
  if (pos.isFiftyMoveDraw()) return GameEnd::kFiftyMoves;
  if (pos.isInsufficientMaterial()) return GameEnd::kInsufficientMaterial;
  return std::nullopt;
}

}  // namespace janus
