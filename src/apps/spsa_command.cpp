// janus spsa: prints the search tunables in OpenBench's SPSA input format, one per line:
//   NAME, int, DEFAULT, MIN, MAX, C_END, R_END
// (OpenBench "SPSA Tuning" documentation). C_END is the tunable's step; R_END is the learning
// rate at the end, 0.002 as OpenBench suggests. The engine to tune must be built with
// -DJANUS_TUNE=ON so that these names are UCI options.

#include <iostream>

#include "apps/commands.h"
#include "search/tunables.h"

namespace janus::apps {

void addSpsaCommand(CLI::App& app, Commands& out) {
  auto* cmd = app.add_subcommand("spsa", "Print the search tunables as OpenBench SPSA input");
  out.push_back({cmd, [] {
                   for (const auto& t : tunables::all())
                     std::cout << t.name << ", int, " << t.defaultValue << ", " << t.min << ", " << t.max << ", "
                               << t.step << ", 0.002\n";
                   return 0;
                 }});
}

}  // namespace janus::apps
