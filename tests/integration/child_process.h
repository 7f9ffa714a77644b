#pragma once
// Running a program from the integration tests: fork + execv with stdout and stderr into a log
// file (POSIX), as the janus binary's command-line tests need.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace janus::test {

/// Starts `args` (args[0] a path) with stdout and stderr written to `log` (truncated), in the
/// working directory `dir` ("" = this process's). Returns the child's pid; a child that cannot
/// change to `dir` exits 126, one that cannot exec exits 127.
inline pid_t startProgram(const std::vector<std::string>& args, const std::filesystem::path& log,
                          const std::filesystem::path& dir = {}) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!dir.empty() && ::chdir(dir.c_str()) != 0) ::_exit(126);
    if (FILE* f = std::fopen(log.c_str(), "w")) {
      ::dup2(::fileno(f), 1);
      ::dup2(::fileno(f), 2);
    }
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Waits for child `pid`; its exit status, or -1 when a signal ended it.
inline int waitProgram(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The repository's default NNUE network (nets/default.txt names it), as an absolute path.
inline std::filesystem::path defaultNetwork() {
  const std::filesystem::path nets = std::filesystem::path(JANUS_TEST_DATA) / ".." / ".." / "nets";
  std::string name;
  std::ifstream(nets / "default.txt") >> name;
  return std::filesystem::canonical(nets / name);
}

}  // namespace janus::test
