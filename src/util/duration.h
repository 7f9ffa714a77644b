#pragma once
// Durations for progress lines and reports, and the process's CPU time.

#include <string>

namespace janus {

/// `seconds` as "1h02m03s", "4m05s" or "6s" (rounded to whole seconds); "?" for a negative or
/// non-finite value (an ETA that cannot be estimated yet).
[[nodiscard]] std::string formatDuration(double seconds);

/// CPU seconds (user + system, all threads) this process has used so far (getrusage(2),
/// RUSAGE_SELF); 0 if the call fails.
[[nodiscard]] double processCpuSeconds();

}  // namespace janus
