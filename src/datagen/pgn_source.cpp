#include "datagen/pgn_source.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "core/pgn.h"
#include "datagen/record.h"
#include "util/error.h"

namespace janus::datagen {

namespace {

constexpr size_t kMaxReportedErrors = 100;
constexpr int kMateScore = 32000;  // search/score.h kMate; the format fixes this convention

int commentScore(const std::string& comment) {
  auto e = parseEvalComment(comment);
  if (!e) return kNoScore;
  if (e->mate) {
    int n = *e->mate;
    return n > 0 ? kMateScore - (2 * n - 1) : -(kMateScore - (2 * -n - 1));
  }
  return e->centipawns ? std::clamp(*e->centipawns, -30000, 30000) : kNoScore;
}

}  // namespace

PgnExtractStats extractPgnPositions(const std::string& path, const PgnExtractOptions& options,
                                    const std::function<void(const PackedRecord&)>& sink) {
  PgnExtractStats stats;
  auto reader = PgnReader::open(path);
  PgnGame game;
  while (reader->next(game)) {
    Wdl result;
    if (game.result == "1-0") result = kWhiteWin;
    else if (game.result == "0-1") result = kBlackWin;
    else if (game.result == "1/2-1/2") result = kDraw;
    else {
      ++stats.unfinished;
      continue;
    }
    Position pos;
    try {
      pos = game.startPosition();
    } catch (const Error& e) {
      ++stats.malformed;
      if (stats.errors.size() < kMaxReportedErrors) stats.errors.push_back(fmt::format("{}:{}: {}", path, game.line, e.what()));
      continue;
    }
    ++stats.games;
    ++stats.results[result];
    for (size_t i = 0; i < game.moves.size(); ++i) {
      const Move m = game.moves[i];
      if (int(i) >= options.skipPlies && !pos.inCheck() && !pos.isNoisy(m)) {
        int score = i > 0 ? commentScore(game.comments[i - 1]) : kNoScore;
        sink(packRecord(pos, score, result));
        ++stats.positions;
      }
      pos.makeMove(m);
    }
  }
  stats.malformed += reader->gamesSkipped();
  for (const PgnError& e : reader->errors()) {
    if (stats.errors.size() >= kMaxReportedErrors) break;
    stats.errors.push_back(fmt::format("{}:{}: {}", e.source, e.line, e.message));
  }
  return stats;
}

}  // namespace janus::datagen
