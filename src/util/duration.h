#pragma once
// Durations for progress lines and reports.

#include <string>

namespace janus {

/// `seconds` as "1h02m03s", "4m05s" or "6s" (rounded to whole seconds); "?" for a negative or
/// non-finite value (an ETA that cannot be estimated yet).
[[nodiscard]] std::string formatDuration(double seconds);

}  // namespace janus
