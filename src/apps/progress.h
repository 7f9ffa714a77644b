#pragma once
// The progress output of janus's long commands (datagen, selfplay, relabel): on a terminal one
// line on stderr, redrawn in place every time; into a file (a long run's log) the line is
// appended at most every `intervalSeconds`, so that logs stay short. Permanent lines (one per
// chunk file, on stdout) first clear a redrawn line.

#include <unistd.h>

#include <iostream>
#include <string>

namespace janus::apps {

class ProgressPrinter {
 public:
  /// `quiet`: print nothing. `intervalSeconds`: seconds between lines into a file.
  explicit ProgressPrinter(bool quiet, double intervalSeconds = 30)
      : m_quiet(quiet), m_tty(::isatty(2) != 0), m_interval(intervalSeconds) {}

  /// The progress at `seconds` since the start (wall time).
  void update(double seconds, const std::string& line) {
    if (m_quiet) return;
    if (m_tty) {
      std::cerr << "\r" << line << "   " << std::flush;
    } else if (seconds - m_last >= m_interval) {
      m_last = seconds;
      std::cerr << line << std::endl;
    }
  }
  /// Before a permanent line: erases the redrawn one on a terminal.
  void clearLine() const {
    if (!m_quiet && m_tty) std::cerr << "\r\033[K";
  }
  /// After the last update: ends the redrawn line on a terminal.
  void finish() const {
    if (!m_quiet && m_tty) std::cerr << "\n";
  }

 private:
  bool m_quiet;
  bool m_tty;
  double m_interval;
  double m_last = 0;
};

}  // namespace janus::apps
