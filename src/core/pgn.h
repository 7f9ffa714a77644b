#pragma once
// PGN (Portable Game Notation) reading and writing.
//
// Format: "Standard: Portable Game Notation Specification and Implementation Guide" (Steven J.
// Edwards, 1994), http://www.saremba.de/chessgml/standards/pgn/pgn-complete.htm, plus what real
// files contain: Lichess/ChessBase/cutechess exports, CRLF line ends, a UTF-8 BOM, move numbers
// glued to moves ("1.e4"), "0-0" castling, engine comments, Chess960 tags.
//
// Reading is streaming (one game at a time, constant memory apart from the game itself) and
// never aborts on a bad game: an illegal or unparsable move, a bad FEN tag, an unsupported
// variant, a null move, an unterminated comment/tag/variation or garbage is recorded as a
// PgnError and the reader resynchronises at the next game. Moves are parsed with parseSan
// against the current position, so the core checks their legality.
//
// Comment text is normalised on reading: leading/trailing white space is dropped and every run
// of white space (including line breaks) becomes one space; several comments after one move are
// joined by one space. This makes writePgn() -> PgnReader an exact round trip.

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/types.h"

namespace janus {

/// One game as read from or written to PGN. Variations are not kept.
struct PgnGame {
  /// Tag pairs in file order (names case-sensitive, values unescaped).
  std::vector<std::pair<std::string, std::string>> tags;
  /// Start position from the [FEN] tag (with [SetUp "1"] or alone); empty = standard start.
  std::string startFen;
  /// Chess960 castling rules ([Variant "Chess960"], "chess 960", "fischerandom", "Fischer Random").
  bool chess960 = false;
  /// The main line, legal moves from startPosition().
  std::vector<Move> moves;
  /// Same size as `moves`: comment text after move i ("" if none), several joined by " ".
  std::vector<std::string> comments;
  /// Comment before the first move.
  std::string preComment;
  /// "1-0", "0-1", "1/2-1/2" or "*": the movetext termination marker, else the Result tag.
  std::string result = "*";
  /// 1-based line number where the game starts in its source (0 for games built in code).
  int line = 0;

  /// Value of the first tag called `name` (case-sensitive); "" if absent.
  [[nodiscard]] std::string tag(std::string_view name) const;
  /// Replaces the value of the first tag called `name`, or appends the tag.
  void setTag(std::string name, std::string value);
  /// Position before the first move (startFen or the standard start, in Chess960 mode if
  /// chess960). Throws janus::Error("bad FEN tag '<fen>': <reason>") for an invalid FEN.
  [[nodiscard]] Position startPosition() const;
};

/// A game the reader skipped: where it was and why.
struct PgnError {
  std::string source;   ///< file name or the name given to the reader
  int line = 0;         ///< 1-based line of the offending token, tag or construct
  std::string message;  ///< names the token and the reason, e.g. "move 41... 'Z0': null moves are not supported"
};

/// Streaming PGN reader.
///
///   auto reader = PgnReader::open("games.pgn.zst");
///   PgnGame game;
///   while (reader->next(game)) use(game);
///   for (const PgnError& e : reader->errors()) report(e);
///
/// Game boundaries: a game ends at its termination marker (1-0, 0-1, 1/2-1/2, *), or without
/// one at the next line starting with '[' or at the end of input. After an error the reader
/// skips to the next line starting with '[' that follows a blank line or starts with "[Event ".
class PgnReader {
 public:
  /// At most this many errors are kept by errors() (gamesSkipped() counts all of them), so that
  /// memory stays bounded on huge broken files.
  static constexpr size_t kMaxStoredErrors = 10000;
  /// Lines (and multi-line comments) longer than this (1 MiB) are an error of the game they are
  /// in; such a line is not read in whole.
  static constexpr size_t kMaxLineLength = size_t(1) << 20;

  /// Reads from `in` (which must outlive the reader). `sourceName` labels errors.
  explicit PgnReader(std::istream& in, std::string sourceName = "<stream>");
  ~PgnReader();
  PgnReader(const PgnReader&) = delete;
  PgnReader& operator=(const PgnReader&) = delete;

  /// Opens a .pgn file, zstd-compressed or not (detected by the magic number, via
  /// openInputFile). Throws janus::Error("cannot open '<path>': ...").
  [[nodiscard]] static std::unique_ptr<PgnReader> open(const std::string& path);

  /// Reads the next well-formed game into `game` (overwriting it). Returns false at the end of
  /// input. Malformed games are skipped and recorded in errors(). Throws janus::Error only if
  /// the stream itself fails (read error, corrupt zstd data).
  bool next(PgnGame& game);

  /// Skipped games, in order (the first kMaxStoredErrors of them).
  [[nodiscard]] const std::vector<PgnError>& errors() const { return m_errors; }
  /// Games returned by next() so far.
  [[nodiscard]] u64 gamesRead() const { return m_gamesRead; }
  /// Games skipped because of an error so far.
  [[nodiscard]] u64 gamesSkipped() const { return m_gamesSkipped; }
  /// Bytes consumed from the (decompressed) input so far.
  [[nodiscard]] u64 bytesRead() const;

 private:
  struct Impl;
  std::unique_ptr<std::istream> m_owned;  // set by open(); declared first so it outlives m_impl
  std::unique_ptr<Impl> m_impl;
  std::vector<PgnError> m_errors;
  u64 m_gamesRead = 0;
  u64 m_gamesSkipped = 0;
};

/// PGN export format (spec section 8.2 / 3.2) of one game: the Seven Tag Roster first (Event,
/// Site, Date, Round, White, Black, Result; "?" or "????.??.??" when absent; Result is always
/// game.result), then [Variant "Chess960"] for Chess960 games, [SetUp "1"] and [FEN] (written
/// as startPosition().fen(), X-FEN) when the game has a start FEN or is Chess960, then the other
/// tags in their order. A blank line, then SAN movetext with move numbers ("12. Nf3", and
/// "12... Nf6" at the start or after a comment), comments in braces (or, if the text contains
/// '}', as ';' rest-of-line comments), the result, and a blank line. Movetext lines are at most
/// 79 characters (export format), unless a single word of a comment is longer or a comment word
/// starting with '[' and a letter or digit had to stay at the end of a line (a line starting with
/// it could read as the next game's tag pairs).
/// Throws janus::Error if the start FEN is invalid or a move is illegal (game built in code).
[[nodiscard]] std::string writePgn(const PgnGame& game);

/// An engine evaluation embedded in a comment, from White's point of view.
struct EvalComment {
  std::optional<int> centipawns;  ///< pawns * 100, rounded to nearest
  std::optional<int> mate;        ///< N > 0: White mates in N moves; N < 0: Black mates in -N
};

/// Reads a Lichess-style "[%eval 0.30]", "[%eval -1.5]", "[%eval #3]", "[%eval #-2]" or
/// "[%eval 0.30,22]" (depth after the comma) command anywhere in `comment`, e.g.
/// "[%eval 0.17] [%clk 0:01:00]". std::nullopt if there is none or it is malformed.
/// (Lichess PGN export, https://lichess.org/api#tag/Games)
[[nodiscard]] std::optional<EvalComment> parseEvalComment(std::string_view comment);

/// Reads "[%clk H:MM:SS]" or "[%clk H:MM:SS.f]" (fractions of a second) anywhere in `comment`
/// and returns the clock in milliseconds; std::nullopt if absent or malformed.
[[nodiscard]] std::optional<int> parseClockComment(std::string_view comment);

}  // namespace janus
