// janus cecp PROGRAM [ARGS...]: speaks UCI on stdin/stdout and drives a CECP (xboard protocol 2)
// engine, so that xboard-only engines such as Debian's phalanx play in `janus match` and in any UCI
// GUI (see src/match/cecp_bridge.h for the mapping).

#include <iostream>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "match/cecp_bridge.h"

namespace janus::apps {

void addCecpCommand(CLI::App& app, Commands& out) {
  auto* sub = app.add_subcommand(
      "cecp", "Run a CECP (xboard/WinBoard protocol 2) engine behind a UCI front: janus cecp PROGRAM [ARGS...]");
  sub->prefix_command();
  auto program = std::make_shared<std::string>();
  sub->add_option("program", *program, "The CECP engine program (looked up in PATH when it has no '/')")->required();
  out.push_back({sub, [sub, program] {
                   std::vector<std::string> args = sub->remaining();
                   match::CecpBridge bridge(*program, args, [](const std::string& line) {
                     std::cout << line << '\n' << std::flush;
                   });
                   for (std::string line; std::getline(std::cin, line);)
                     if (!bridge.handle(line)) break;
                   return 0;
                 }});
}

}  // namespace janus::apps
