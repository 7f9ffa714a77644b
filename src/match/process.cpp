#include "match/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "util/error.h"

extern char** environ;

namespace janus::match {

namespace {
constexpr size_t kMaxLine = 1 << 20;  // a longer "line" is cut (an engine that never sends '\n')

void ignoreSigpipeOnce() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

// Moves a descriptor to >= 3 so that dup2 onto 0/1/2 in the child always clears FD_CLOEXEC
// (if the runner was started with a closed stdin, pipe2 may hand out fd 0).
int aboveStdio(int fd) {
  if (fd > 2) return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

void makePipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(fmt::format("pipe: {}", std::strerror(errno)));
  fds[0] = aboveStdio(fds[0]);
  fds[1] = aboveStdio(fds[1]);
  if (fds[0] < 0 || fds[1] < 0) throw Error(fmt::format("pipe: {}", std::strerror(errno)));
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

int msUntil(ChildProcess::Clock::time_point deadline) {
  auto left = deadline - ChildProcess::Clock::now();
  if (left <= ChildProcess::Clock::duration::zero()) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > 1'000'000'000 ? 1'000'000'000 : int(ms);
}

// Appends what can be read now; returns false at EOF or on a read error.
bool drain(int fd, std::string& buf) {
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
      buf.append(chunk, size_t(n));
      if (size_t(n) < sizeof chunk) return true;
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

bool takeLine(std::string& buf, std::string& line, bool force) {
  size_t nl = buf.find('\n');
  if (nl == std::string::npos) {
    if (!force && buf.size() < kMaxLine) return false;
    if (buf.empty()) return false;
    nl = buf.size();
  }
  line.assign(buf, 0, nl);
  buf.erase(0, std::min(nl + 1, buf.size()));
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  return true;
}
}  // namespace

ChildProcess::~ChildProcess() { stop(std::chrono::milliseconds(0)); }

void ChildProcess::start(const std::string& program, const std::vector<std::string>& args,
                         const std::string& workDir) {
  ignoreSigpipeOnce();
  stop(std::chrono::milliseconds(0));
  int in[2], out[2], err[2];
  makePipe(in);
  try {
    makePipe(out);
  } catch (...) {
    ::close(in[0]), ::close(in[1]);
    throw;
  }
  try {
    makePipe(err);
  } catch (...) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    throw;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  if (!workDir.empty()) posix_spawn_file_actions_addchdir_np(&actions, workDir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = program.find('/') == std::string::npos
               ? posix_spawnp(&pid, program.c_str(), &actions, &attr, argv.data(), environ)
               : posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    std::string where = workDir.empty() ? "" : fmt::format(" in directory '{}'", workDir);
    throw Error(fmt::format("cannot start '{}'{}: {}", program, where, std::strerror(rc)));
  }
  m_pid = pid;
  m_stdin = in[1];
  m_stdout = out[0];
  m_stderr = err[0];
  m_exited = false;
  m_waitStatus = 0;
  m_outBuf.clear();
  m_errBuf.clear();
  setNonBlocking(m_stdin);
  setNonBlocking(m_stdout);
  setNonBlocking(m_stderr);
}

bool ChildProcess::tryReap() {
  if (m_pid <= 0 || m_exited) return m_exited;
  int status = 0;
  pid_t r = ::waitpid(m_pid, &status, WNOHANG);
  if (r == m_pid) {
    m_exited = true;
    m_waitStatus = status;
  }
  return m_exited;
}

bool ChildProcess::running() { return m_pid > 0 && !tryReap() && m_stdout >= 0; }

bool ChildProcess::writeLine(std::string_view line, std::chrono::milliseconds timeout) {
  if (m_stdin < 0) return false;
  std::string data(line);
  data += '\n';
  size_t done = 0;
  auto deadline = Clock::now() + timeout;
  while (done < data.size()) {
    ssize_t n = ::write(m_stdin, data.data() + done, data.size() - done);
    if (n > 0) {
      done += size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{m_stdin, POLLOUT, 0};
      int left = msUntil(deadline);
      if (left <= 0) return false;
      int r = ::poll(&p, 1, left);
      if (r < 0 && errno != EINTR) return false;
      if (r > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL))) return false;
      continue;
    }
    return false;  // EPIPE: the child closed its stdin
  }
  return true;
}

void ChildProcess::readStderr() {
  if (m_stderr < 0) return;
  bool open = drain(m_stderr, m_errBuf);
  std::string line;
  while (takeLine(m_errBuf, line, !open))
    if (m_stderrSink) m_stderrSink(line);
  if (!open) {
    ::close(m_stderr);
    m_stderr = -1;
  }
}

ChildProcess::ReadStatus ChildProcess::readLine(std::string& line, Clock::time_point deadline) {
  for (;;) {
    if (takeLine(m_outBuf, line, false)) return ReadStatus::kLine;
    if (m_stdout < 0) {
      if (takeLine(m_outBuf, line, true)) return ReadStatus::kLine;
      return ReadStatus::kEof;
    }
    pollfd fds[2] = {{m_stdout, POLLIN, 0}, {m_stderr, POLLIN, 0}};
    int nfds = m_stderr >= 0 ? 2 : 1;
    int r = ::poll(fds, nfds, msUntil(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("poll: {}", std::strerror(errno)));
    }
    if (nfds == 2 && fds[1].revents) readStderr();
    if (fds[0].revents) {
      if (!drain(m_stdout, m_outBuf)) {
        ::close(m_stdout);
        m_stdout = -1;
      }
      continue;
    }
    if (r == 0 || Clock::now() >= deadline) {
      if (takeLine(m_outBuf, line, false)) return ReadStatus::kLine;
      return ReadStatus::kTimeout;
    }
  }
}

void ChildProcess::closeFds() {
  for (int* fd : {&m_stdin, &m_stdout, &m_stderr})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
  if (m_pid <= 0) {
    closeFds();
    return;
  }
  // Closing stdin is an EOF that makes most engines quit even if they missed "quit".
  if (m_stdin >= 0) {
    ::close(m_stdin);
    m_stdin = -1;
  }
  auto deadline = Clock::now() + grace;
  while (!tryReap() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (!tryReap()) {
    ::kill(m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_exited = true;
    m_waitStatus = status;
  }
  closeFds();
}

std::string ChildProcess::exitDescription() {
  if (m_pid <= 0) return "not started";
  if (!tryReap()) return "running";
  if (WIFEXITED(m_waitStatus)) return fmt::format("exited with code {}", WEXITSTATUS(m_waitStatus));
  if (WIFSIGNALED(m_waitStatus)) {
    int sig = WTERMSIG(m_waitStatus);
    const char* name = ::strsignal(sig);
    return fmt::format("killed by signal {} ({})", sig, name ? name : "?");
  }
  return "exited";
}

}  // namespace janus::match
