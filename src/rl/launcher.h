#pragma once
// How the loop (rl_loop.h) starts other programs: a child process with its output in a log file
// (the trainers, the held-out evaluation) and the Slurm launcher of the MCTS face's self-play
// (docs/slurm.md): a job array of `janus selfplay` shards submitted with sbatch and waited for.

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "rl/rl_loop.h"

namespace janus::rl {

/// Runs `argv` (argv[0] a path) with stdout and stderr appended to `logPath`; returns its exit
/// status (128 + the signal when it was killed). Throws janus::Error if it cannot be started.
int runLogged(const std::vector<std::string>& argv, const std::string& logPath);

/// A finished child process: its exit status and the CPU time it used.
struct ChildRun {
  int status = 0;          ///< exit status (128 + the signal when it was killed)
  double cpuSeconds = 0;   ///< user + system seconds of the child (wait4's rusage)
};

/// runLogged, also returning the child's CPU time.
ChildRun runMeasured(const std::vector<std::string>& argv, const std::string& logPath);

/// The absolute path of program `name` found in PATH, "" if it is not there.
[[nodiscard]] std::string findProgram(const std::string& name);

/// The slurm launcher: the shards of generation `gen`'s self-play run `dir` with missing chunks
/// as a job array of `janus selfplay` tasks (sbatch), waited for by polling squeue every
/// c.slurmPollSeconds; again while chunks are missing, at most c.slurmSubmissions times. The
/// array's job id is kept in DIR/slurm-job.txt, so that a loop that was killed while it waited
/// waits for that job when it resumes instead of doubling it. Prints a line per submission to
/// `out`; returns how it went, for the step's line. Throws janus::Error when sbatch or squeue
/// fail or chunks are still missing after the last submission.
std::string selfplaySlurm(const RlConfig& c, std::ostream& out, int gen, const selfplay::SelfplayConfig& sc,
                          const std::filesystem::path& dir);

}  // namespace janus::rl
