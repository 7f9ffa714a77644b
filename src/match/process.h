#pragma once
// A child process with pipes on its stdin, stdout and stderr, for talking to UCI engines.
//
// POSIX only: posix_spawn(p) with CLOEXEC pipes (so one engine never inherits another's pipe
// ends and EOF is seen when an engine dies), line reads with poll() and a deadline (no busy
// waiting), non-blocking writes with a timeout, SIGPIPE ignored in the parent (a write to a dead
// engine returns false instead of killing the runner) and reset to the default in the child.
//
// Threading: one ChildProcess is used by one thread at a time. Different objects may be used
// from different threads.

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace janus::match {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;
  enum class ReadStatus { kLine, kTimeout, kEof };

  ChildProcess() = default;
  /// Kills (SIGKILL) and reaps the child if it is still running.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Starts `program` with `args` (argv[1..]) in `workDir` (empty: the current directory).
  /// A program without '/' is looked up in PATH. Throws janus::Error naming the program and the
  /// system error when it cannot be started (missing file, not executable, bad directory).
  void start(const std::string& program, const std::vector<std::string>& args, const std::string& workDir);

  /// Lines the child writes to stderr are passed here (without the newline) while reading stdout.
  void setStderrSink(std::function<void(const std::string&)> sink) { m_stderrSink = std::move(sink); }

  /// True between start() and the moment the child is known to have exited.
  [[nodiscard]] bool running();
  [[nodiscard]] int pid() const { return m_pid; }

  /// Writes `line` plus '\n'. Returns false if the child closed its stdin (exited) or did not
  /// accept the data within `timeout`.
  bool writeLine(std::string_view line, std::chrono::milliseconds timeout = std::chrono::milliseconds(2000));

  /// Reads one line of stdout (without '\n' / '\r'), waiting until `deadline`. kEof once the
  /// child closed stdout (exited or crashed).
  ReadStatus readLine(std::string& line, Clock::time_point deadline);

  /// Closes the pipes, waits up to `grace` for the child to exit by itself (send "quit" before),
  /// then kills it with SIGKILL and reaps it. Idempotent.
  void stop(std::chrono::milliseconds grace);

  /// "exited with code 3", "killed by signal 11 (Segmentation fault)", "running" or "not started".
  [[nodiscard]] std::string exitDescription();

 private:
  bool tryReap();
  void closeFds();
  void readStderr();

  int m_pid = -1;
  int m_stdin = -1;   // our write end
  int m_stdout = -1;  // our read end
  int m_stderr = -1;  // our read end
  bool m_exited = false;
  int m_waitStatus = 0;
  std::string m_outBuf;
  std::string m_errBuf;
  std::function<void(const std::string&)> m_stderrSink;
};

}  // namespace janus::match
