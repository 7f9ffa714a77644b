#pragma once
// UCI protocol adapter (http://wbec-ridderkerk.nl/html/UCIProtocol.html, the April 2006 spec,
// plus the common extensions UCI_Chess960 and "go perft"). It parses text commands into
// Engine calls and formats Engine callbacks as "info" / "bestmove" lines. It holds no engine
// logic. Malformed input never stops it: the reply is "info string error: ..." and the engine
// keeps its previous state.

#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace janus {

class UciProtocol {
 public:
  /// Output goes to `out` (one line per write, flushed). The engine's callbacks are set here.
  /// `showHidden`: "uci" lists the hidden (tuning) options too (OptionSpec::hidden).
  UciProtocol(Engine& engine, std::ostream& out, bool showHidden = false);

  /// Reads commands from `in` until "quit" or end of input, then stops any search and
  /// returns (end of input behaves like quit).
  void loop(std::istream& in);

  /// Handles one command line. Returns false for "quit".
  bool handle(const std::string& line);

  /// Formats one info line (without newline), e.g.
  /// "info depth 12 seldepth 18 multipv 1 score cp 31 nodes ... nps ... hashfull 3 tbhits 0 time 120 pv e2e4 e7e5".
  [[nodiscard]] static std::string formatInfo(const SearchInfo& info, bool chess960);
  /// The node count split of a tree search, "info string nodes 12000 = playouts 2000 + hint nodes
  /// 10000" (SearchInfo::playouts and the rest of SearchInfo::nodes, the alpha-beta hints'), when
  /// the line has it; then its root move statistics (SearchInfo::moveStats; none for alpha-beta),
  /// one "info string" line each, all sent after the info line, e.g.
  /// "info string e2e4 N 1234 P 5.00% Q 0.0312" (playouts, the backend's prior, mean value for the
  /// side to move), with "PS 50.00%" after the prior where the search's prior differs from it
  /// (MoveStat::searchPrior: raised by an alpha-beta hint, or root noise).
  [[nodiscard]] static std::vector<std::string> formatMoveStats(const SearchInfo& info, bool chess960);
  /// "bestmove e2e4 ponder e7e5", or "bestmove (none)" when there is no legal move.
  [[nodiscard]] static std::string formatBestMove(const SearchResult& result, bool chess960);

 private:
  void send(const std::string& line);
  void cmdUci();
  void cmdSetOption(const std::string& args);
  void cmdPosition(const std::string& args);
  void cmdGo(const std::string& args);

  Engine& m_engine;
  std::ostream& m_out;
  bool m_showHidden = false;
  std::mutex m_outMutex;
};

}  // namespace janus
