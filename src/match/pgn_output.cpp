#include "match/pgn_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "util/error.h"

namespace janus::match {

std::string moveComment(const MoveRecord& m) {
  if (m.book) return "book";
  std::string time = fmt::format("{:.3f}s", m.timeUs / 1e6);
  if (!m.score) return time;
  return fmt::format("{}/{} {}", m.score->toString(), m.depth, time);
}

PgnGame toPgnGame(const GameRecord& g, const PgnContext& ctx) {
  PgnGame p;
  p.setTag("Event", ctx.event);
  p.setTag("Site", ctx.site);
  p.setTag("Date", g.date);
  p.setTag("Round", std::to_string(g.number));
  p.setTag("White", g.players[0]);
  p.setTag("Black", g.players[1]);
  p.result = resultString(g.result);
  p.setTag("Result", p.result);
  const TimeControl& wtc = ctx.timeControl[size_t(g.whiteEngine)];
  const TimeControl& btc = ctx.timeControl[size_t(1 - g.whiteEngine)];
  if (wtc.pgnTag() == btc.pgnTag()) {
    p.setTag("TimeControl", wtc.pgnTag());
  } else {
    p.setTag("WhiteTimeControl", wtc.pgnTag());
    p.setTag("BlackTimeControl", btc.pgnTag());
  }
  p.setTag("Time", g.time);
  p.setTag("Termination", terminationTag(g.termination));
  p.setTag("PlyCount", std::to_string(g.moves.size()));
  int secs = int(std::lround(g.durationSeconds));
  p.setTag("GameDuration", fmt::format("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60));
  const std::string& name = g.opening.name;
  bool isEco = name.size() == 3 && name[0] >= 'A' && name[0] <= 'E' && std::isdigit(name[1]) && std::isdigit(name[2]);
  if (!name.empty()) p.setTag(isEco ? "ECO" : "Opening", name);
  p.chess960 = g.chess960;
  if (g.chess960 || g.startFen != Position::kStartFen) p.startFen = g.startFen;
  for (const auto& m : g.moves) {
    p.moves.push_back(m.move);
    p.comments.push_back(moveComment(m));
  }
  if (!g.reason.empty()) {
    if (p.comments.empty())
      p.preComment = g.reason;
    else
      p.comments.back() += ", " + g.reason;
  }
  return p;
}

PgnFile::PgnFile(const std::string& path) : m_path(path) {
  m_fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (m_fd < 0) throw Error(fmt::format("cannot open PGN output '{}': {}", path, std::strerror(errno)));
}

PgnFile::~PgnFile() {
  if (m_fd >= 0) ::close(m_fd);
}

void PgnFile::append(const std::string& text) {
  std::lock_guard lock(m_mutex);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(fmt::format("writing PGN output '{}': {}", m_path, std::strerror(errno)));
    done += size_t(n);
  }
}

}  // namespace janus::match
