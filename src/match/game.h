#pragma once
// One game between two UCI engines, refereed by Janus's core: legality (parseUci), checkmate,
// stalemate, threefold repetition, the 50-move rule and insufficient material; plus clocks,
// time forfeits, illegal moves, crashes, stalls, pondering and score adjudication.
//
// Clock accounting (cutechess-cli / fastchess convention): the time of a move is the wall time
// from writing "go" (or "ponderhit") to reading "bestmove". It is taken off the mover's clock;
// a clock below -timeMargin is a time forfeit (the move is not played). Then the increment is
// added, and with "moves/time" controls the base time again after every `moves` moves. While an
// engine is silent the runner waits until its clock (plus the margin) runs out; it has then lost
// on time, is sent "stop" and, if it does not answer within stopGrace, killed (the caller
// restarts it before the next game). Searches without a clock (movetime / nodes / depth) lose as
// "stalled" when silent for stallTimeout past their move time.
//
// Pondering (UCI spec, "go ponder" / "ponderhit"): after an engine with pondering enabled sends
// "bestmove X ponder Y" and Y is legal, it gets "position ... X Y" and "go ponder <clocks>". If the
// opponent plays Y it gets "ponderhit" and its time runs from that moment; otherwise it gets
// "stop", its answer is discarded, and it searches the real position with a normal "go".

#include <array>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/game_end.h"
#include "core/position.h"
#include "match/openings.h"
#include "match/time_control.h"

namespace janus {
class Tablebases;  // tb/tablebases.h
}
#include "match/uci_engine.h"

namespace janus::match {

enum class GameResult : u8 { kNone, kWhiteWins, kBlackWins, kDraw };

/// "1-0", "0-1", "1/2-1/2", or "*" for kNone.
[[nodiscard]] const char* resultString(GameResult r);

/// PGN Termination tag value of a match game's end (core's pgnTerminationTag), "unterminated"
/// for a game without one.
[[nodiscard]] const char* terminationTag(std::optional<GameEnd> end);

/// Something that went wrong with an engine (listed in the match summary).
struct Incident {
  enum class Kind : u8 { kTimeForfeit, kIllegalMove, kCrash, kStall };
  Kind kind = Kind::kCrash;
  int engine = 0;           ///< engine slot 0 (first --engine) or 1
  Color color = kWhite;     ///< the colour it played
  int game = 0;             ///< 1-based game number
  int moveNumber = 0;       ///< PGN move number at which it happened
  std::string detail;       ///< e.g. "bestmove e2e5 in <FEN>", "used 1012 ms with 1000 ms left"
};
[[nodiscard]] const char* incidentKindName(Incident::Kind k);

/// Score adjudication and move cap. Counts are in moves of each side (2 plies per move).
/// The settings `janus match --resign` and `--draw` start from (cutechess-cli's common choice):
/// resign when both engines see at least 700 cp for 3 moves each; draw from move 40 when both
/// scores stay within 10 cp of 0 for 8 moves each.
inline constexpr int kDefaultResignMoveCount = 3;
inline constexpr int kDefaultResignScore = 700;
inline constexpr int kDefaultDrawMoveNumber = 40;
inline constexpr int kDefaultDrawMoveCount = 8;
inline constexpr int kDefaultDrawScore = 10;

struct AdjudicationConfig {
  int resignMoveCount = 0;  ///< 0 = off; both engines agree one side is ahead by >= resignScore
  int resignScore = 0;      ///< centipawns
  int drawMoveNumber = 0;   ///< draw adjudication starts at this PGN move number
  int drawMoveCount = 0;    ///< 0 = off; both |scores| <= drawScore for this many moves each
  int drawScore = 0;        ///< centipawns
  int maxMoves = 0;         ///< 0 = off; draw once the game (book moves included) has this many moves
  /// Tablebases (janus match --syzygy-path), or nullptr: a position they cover ends the game with
  /// their value (Syzygy: after the 50-move rule and the halfmove clock), termination kTablebase.
  /// Not owned; must outlive the match.
  const Tablebases* tablebases = nullptr;
};

/// Decides resign / draw / max-moves adjudication from the engines' scores, one move at a time.
class Adjudicator {
 public:
  struct Verdict {
    GameResult result;
    GameEnd termination;  ///< kAdjudicatedWin (both engines agree: resign), kAdjudicatedDraw, kMaxPlies; or a rules end
    std::string reason;
  };
  explicit Adjudicator(const AdjudicationConfig& config) : m_config(config) {}

  /// Feeds one engine move: `mover`, its score in centipawns from its own point of view
  /// (std::nullopt if it reported none), the PGN move number of the move and the number of
  /// plies in the game so far (book included). Returns a verdict when the game is adjudicated.
  [[nodiscard]] std::optional<Verdict> update(Color mover, std::optional<int> moverCp, int moveNumber, int plies);

 private:
  AdjudicationConfig m_config;
  int m_resignPlies = 0;
  int m_resignSign = 0;
  int m_drawPlies = 0;
};

struct GameSettings {
  std::array<TimeControl, 2> timeControl;  ///< by engine slot
  AdjudicationConfig adjudication;
  bool chess960 = false;                   ///< UCI_Chess960 (king-takes-rook castling in UCI)
  std::chrono::milliseconds timeMargin{0};       ///< allowed clock overrun before a forfeit
  std::chrono::milliseconds stopGrace{1000};     ///< wait for bestmove after "stop" before killing
  std::chrono::milliseconds stallTimeout{10000};  ///< silence allowed past movetime / without a clock
  std::chrono::milliseconds readyTimeout{10000};  ///< ucinewgame + isready at the start of a game
};

/// One move of a game with what the engine said about it.
struct MoveRecord {
  Move move;
  std::string san;
  std::string uci;
  bool book = false;                ///< from the opening, not played by an engine
  Color color = kWhite;             ///< side that made the move
  int moveNumber = 1;               ///< PGN move number of the move
  std::optional<UciScore> score;    ///< mover's point of view
  int depth = 0;
  int seldepth = 0;
  u64 nodes = 0;
  i64 timeUs = 0;                   ///< thinking time (wall clock)
  std::optional<i64> clockMs;       ///< mover's clock after the move (increment added)
  std::optional<i64> clockLeftMs;   ///< mover's clock when the move arrived (before the increment)
  bool ponderHit = false;           ///< the move came after a ponderhit
  /// What is wrong with the last PV the engine sent before this move (pvProblem()), or empty.
  std::string pvProblem;
};

struct GameRecord {
  int number = 0;                       ///< 1-based game number in the match
  int whiteEngine = 0;                  ///< slot of the engine playing White
  std::array<std::string, 2> players;   ///< [White, Black] names
  Opening opening;
  bool chess960 = false;
  std::string startFen;                 ///< FEN before the first (book) move
  std::vector<MoveRecord> moves;        ///< book moves first
  GameResult result = GameResult::kNone;
  std::optional<GameEnd> termination;   ///< std::nullopt while the game is not over
  std::string reason;                   ///< "White mates", "Black loses on time", ...
  std::optional<Incident> incident;
  std::string finalFen;
  std::string date;                     ///< "YYYY.MM.DD" (local time at the start)
  std::string time;                     ///< "HH:MM:SS"
  double durationSeconds = 0;

  /// Points (1, 0.5, 0) of engine slot `engine`; 0 if the game has no result.
  [[nodiscard]] double pointsOf(int engine) const;
};

/// Called after every move (book moves included) with the game so far and the new move.
using MoveObserver = std::function<void(const GameRecord&, const MoveRecord&)>;

/// Plays game `number` between engines[0] and engines[1] (both started; engine `whiteEngine`
/// plays White) from `opening`. Never throws for engine misbehaviour: it is recorded in the
/// result (an engine that must be restarted is left not running()).
[[nodiscard]] GameRecord playGame(const std::array<UciEngine*, 2>& engines, int whiteEngine, const Opening& opening,
                                  int number, const GameSettings& settings, const MoveObserver& onMove = {});

/// The PV checks fastchess makes of every engine move (its warnings "Bestmove does not match
/// beginning of last PV" and "PV continues after checkmate"): what is wrong with `pv`, the last
/// PV (UCI moves) an engine sent before playing the legal move `bestMove` in `pos`, or "" when
/// nothing is. In order: the PV does not begin with `bestMove`; a PV move is not legal in the
/// position the PV reached; the PV goes on after a checkmate or stalemate. An empty PV is no
/// problem (an engine need not send one).
[[nodiscard]] std::string pvProblem(const Position& pos, const std::string& bestMove,
                                    const std::vector<std::string>& pv, bool chess960);

/// The "go" command for the side to move: clocks (wtime btime winc binc [movestogo]) or
/// movetime, plus nodes / depth limits. `clockMs` and `movesToGo` are by colour.
[[nodiscard]] std::string goCommand(const std::array<TimeControl, 2>& tcByColor, const std::array<i64, 2>& clockMs,
                                    const std::array<int, 2>& movesToGo, Color stm, bool ponder);

}  // namespace janus::match
