#include "search/tunables.h"

namespace janus::tunables {

const std::vector<TunableInfo>& all() {
#ifdef JANUS_TUNE
#define JANUS_TUNABLE_INFO(name, def, min, max, step) {#name, def, min, max, step, &name},
#else
#define JANUS_TUNABLE_INFO(name, def, min, max, step) {#name, def, min, max, step, nullptr},
#endif
  static const std::vector<TunableInfo> list = {JANUS_TUNABLES(JANUS_TUNABLE_INFO)};
#undef JANUS_TUNABLE_INFO
  return list;
}

int seeValue(int pieceType) {
  switch (pieceType) {
    case 0: return SeeValuePawn;
    case 1: return SeeValueKnight;
    case 2: return SeeValueBishop;
    case 3: return SeeValueRook;
    case 4: return SeeValueQueen;
    default: return 0;
  }
}

}  // namespace janus::tunables
