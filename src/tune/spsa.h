#pragma once
// SPSA (simultaneous perturbation stochastic approximation) of engine parameters from game
// pairs, as OpenBench and fishtest run it, on one machine (`janus spsa run`).
//
// Method (J. C. Spall, "Implementation of the Simultaneous Perturbation Algorithm for Stochastic
// Optimization", IEEE Trans. Aerospace and Electronic Systems 34(3), 1998; the gains as
// fishtest's and OpenBench's SPSA define them): at iteration k = 1..N every parameter i gets a
// random sign flip_i = ±1; a game pair (one opening, colours swapped) is played between
// theta + c_k flip and theta - c_k flip, and with result = wins - losses of the "+" side,
//   theta_i += r_k c_k result flip_i,
//   c_k = c_i / k^gamma,             c_i = cEnd_i N^gamma              (so c_N = cEnd_i)
//   a_k = a_i / (A + k)^alpha,       a_i = rEnd_i cEnd_i^2 (A + N)^alpha,  A = aRatio N
//   r_k = a_k / c_k^2                                                   (so r_N = rEnd_i)
// with alpha 0.602 and gamma 0.101 (Spall's recommended values) and A = 0.1 N. Values are
// clamped to [min, max] after every update; an integer parameter is rounded when it is sent to
// the engine, its theta stays real.
//
// Parameters are read from OpenBench's SPSA input format, one per line:
//   NAME, int|float, VALUE, MIN, MAX, C_END, R_END
// NAME is the UCI option's name (blanks allowed, no comma); '#' starts a comment line.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace janus::tune {

/// One tuned parameter (a line of OpenBench's SPSA input).
struct SpsaParam {
  std::string name;    ///< UCI option name
  bool integer = true;  ///< "int": rounded to the nearest integer when sent; "float": sent as is
  double value = 0;     ///< theta: the current value (the start value before iteration 1)
  double min = 0;       ///< lower bound, inclusive
  double max = 0;       ///< upper bound, inclusive
  double cEnd = 0;      ///< perturbation c_k at the last iteration, in the parameter's units, > 0
  double rEnd = 0;      ///< learning rate r_k at the last iteration, > 0 (OpenBench suggests 0.002)
};

/// Parses OpenBench SPSA input (format above). Blank lines and lines starting with '#' are
/// skipped. Throws janus::Error naming `source`, the line and what is wrong: a field count other
/// than 7, a type other than int/float, a number that does not parse, min > max, a value outside
/// [min, max], cEnd or rEnd <= 0, a name given twice, or no parameter at all.
[[nodiscard]] std::vector<SpsaParam> parseSpsaParams(std::string_view text, std::string_view source);

/// The schedule of a whole run (the same for every parameter).
struct SpsaSchedule {
  int iterations = 1000;  ///< N: iterations (game pairs per probe times this = pairs played)
  double alpha = 0.602;   ///< decay exponent of a_k (Spall 1998)
  double gamma = 0.101;   ///< decay exponent of c_k (Spall 1998)
  double aRatio = 0.1;    ///< A = aRatio * N, the stability constant (Spall 1998: about 10% of N)
};

/// The gains of parameter `p` at iteration k (1-based, 1..N): perturbation c_k (parameter units)
/// and learning rate r_k (parameter units per game squared... per unit of c_k * result).
struct SpsaGains {
  double c = 0;
  double r = 0;
};
[[nodiscard]] SpsaGains spsaGains(const SpsaParam& p, const SpsaSchedule& schedule, int k);

/// One probe: the values both sides of iteration k play with.
struct SpsaProbe {
  int iteration = 0;              ///< k, 1-based
  std::vector<int> flip;          ///< ±1 per parameter
  std::vector<double> plus;       ///< theta + c_k flip, clamped to [min, max]
  std::vector<double> minus;      ///< theta - c_k flip, clamped to [min, max]
};

/// The outcome of one probe's games from the "+" side's point of view.
struct SpsaResult {
  int wins = 0;
  int draws = 0;
  int losses = 0;
};

/// One finished iteration, kept in the state file.
struct SpsaIteration {
  int iteration = 0;
  SpsaResult result;
  std::vector<double> theta;  ///< the values after the update
};

/// The tuner: its parameters (theta), the schedule, the seed and the history. Deterministic:
/// iteration k's flips come from (seed, k) only, so a resumed run continues exactly as an
/// uninterrupted one.
class SpsaTuner {
 public:
  /// Throws janus::Error if `params` is empty or the schedule has iterations < 1, alpha or gamma
  /// <= 0 or aRatio < 0.
  SpsaTuner(std::vector<SpsaParam> params, SpsaSchedule schedule, u64 seed);

  /// True when all N iterations are done.
  [[nodiscard]] bool finished() const { return int(m_history.size()) >= m_schedule.iterations; }
  /// The next iteration's number (1-based).
  [[nodiscard]] int nextIteration() const { return int(m_history.size()) + 1; }
  /// The probe of the next iteration (does not change the tuner).
  [[nodiscard]] SpsaProbe probe() const;
  /// Applies the probe's result (the probe must be probe(): throws janus::Error otherwise).
  void update(const SpsaProbe& probe, const SpsaResult& result);

  [[nodiscard]] const std::vector<SpsaParam>& params() const { return m_params; }
  [[nodiscard]] const SpsaSchedule& schedule() const { return m_schedule; }
  [[nodiscard]] u64 seed() const { return m_seed; }
  [[nodiscard]] const std::vector<SpsaIteration>& history() const { return m_history; }
  /// Wins, draws and losses of the "+" sides over all iterations.
  [[nodiscard]] SpsaResult total() const;

  /// Writes the state (parameters with their current values, schedule, seed, history) as JSON,
  /// atomically (temporary file, fsync, rename). Throws janus::Error if it cannot be written.
  void save(const std::filesystem::path& path) const;
  /// Reads a state written by save(). `params` and `schedule` are the run's configuration: the
  /// names, types, bounds, cEnd, rEnd and N must be the saved ones (throws janus::Error naming
  /// the first difference, or a malformed file); the values come from the file.
  [[nodiscard]] static SpsaTuner load(const std::filesystem::path& path, const std::vector<SpsaParam>& params,
                                      const SpsaSchedule& schedule, u64 seed);

  /// "NAME = VALUE" per parameter, integers rounded (UCI-ready text).
  [[nodiscard]] std::string valuesText() const;
  /// The parameters in OpenBench's input format with the current values (a new run's start).
  [[nodiscard]] std::string paramsText() const;

 private:
  std::vector<SpsaParam> m_params;
  SpsaSchedule m_schedule;
  u64 m_seed;
  std::vector<SpsaIteration> m_history;
};

/// The text an engine receives for parameter `p` at value `v`: rounded for an integer parameter,
/// the shortest decimal that reads back as `v` for a float.
[[nodiscard]] std::string spsaOptionValue(const SpsaParam& p, double v);

/// Runs the tuner to the end: for each iteration, `play(probe)` plays its games and returns the
/// "+" side's result; the state is saved to `statePath` after every iteration (so a killed run
/// loses at most the iteration in progress) and `progress(tuner)` is called. Stops early, with
/// the state saved, when `stop()` returns true before an iteration.
void runSpsa(SpsaTuner& tuner, const std::filesystem::path& statePath,
             const std::function<SpsaResult(const SpsaProbe&)>& play,
             const std::function<void(const SpsaTuner&)>& progress, const std::function<bool()>& stop);

}  // namespace janus::tune
