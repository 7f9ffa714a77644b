#include "server/tablebase_info.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "engine/engine.h"
#include "util/error.h"

namespace janus::server {

namespace {

std::mutex gMutex;                        // guards gPath and gReport
std::string gPath;                        // the folder(s) in use ("" : none)
SyzygyTablebases::LoadReport gReport;     // what the last successful load found
std::atomic<unsigned> gGeneration{0};

/// White's view of a value of the side to move.
SyzygyWdl whiteView(SyzygyWdl wdl, Color stm) { return stm == kWhite ? wdl : SyzygyWdl(-int(wdl)); }

}  // namespace

nlohmann::json tablebaseVerdictJson(const SyzygyRootProbe& probe, Color rootSideToMove, Move first) {
  const SyzygyRootMove* entry = probe.moves.empty() ? nullptr : &probe.moves.front();
  if (first) {
    entry = nullptr;
    for (const SyzygyRootMove& m : probe.moves)
      if (m.move == first) entry = &m;
  }
  if (!entry) return nullptr;
  nlohmann::json j = {{"result", toString(whiteView(entry->wdl, rootSideToMove))}};
  if (probe.dtzKnown) j["dtz"] = std::abs(entry->dtz);
  return j;
}

nlohmann::json TablebaseInfo::load(const std::string& path) {
  {
    std::lock_guard lock(gMutex);
    SyzygyTablebases::LoadReport report;
    try {
      report = Engine::loadSyzygy(path);  // throws: nothing changes
    } catch (const Error& e) {
      // The engine names its UCI option; the GUI's setting is not one.
      const std::string what = e.what(), option = "option SyzygyPath: ";
      throw Error(what.rfind(option, 0) == 0 ? what.substr(option.size()) : what);
    }
    gReport = report;
    gPath = report.maxPieces > 0 ? path : "";
    gGeneration.fetch_add(1, std::memory_order_acq_rel);
  }
  return status();
}

nlohmann::json TablebaseInfo::status() {
  const std::optional<std::string> libraryError = SyzygyTablebases::libraryError();
  std::lock_guard lock(gMutex);
  const int maxPieces = Engine::syzygy().maxPieces();
  nlohmann::json syzygy = {{"path", gPath},
                           {"wdl", maxPieces ? gReport.wdlFiles : 0},
                           {"dtz", maxPieces ? gReport.dtzFiles : 0},
                           {"maxPieces", maxPieces},
                           {"problems", maxPieces ? gReport.problems : std::vector<std::string>{}},
                           {"summary", maxPieces ? gReport.summary : std::string()}};
  return {{"syzygy", syzygy},
          {"fathom", {{"available", !libraryError}, {"error", libraryError ? nlohmann::json(*libraryError) : nullptr}}}};
}

unsigned TablebaseInfo::generation() { return gGeneration.load(std::memory_order_acquire); }

std::optional<SyzygyRootProbe> TablebaseInfo::probeRoot(const Position& pos) {
  return Engine::syzygy().probeRoot(pos);
}

}  // namespace janus::server
