// janus gui [--host 127.0.0.1] [--port 8080] [--web-dir DIR] [--data-dir DIR] [--no-browser]
// [--syzygy-path DIRS] [--memory-mib N]:
// serves the web GUI (play against Janus, analyse games) on a local port and prints its URL and
// the page's folder (server::locateWebDir: --web-dir, $JANUS_WEB_DIR, installed, build tree).
// With a graphical display (DISPLAY or WAYLAND_DISPLAY set) it also opens the page with xdg-open,
// unless --no-browser. Ctrl+C (SIGINT) or SIGTERM stops the server; open games are saved first.

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

#include "apps/commands.h"
#include "server/server.h"
#include "server/tablebase_info.h"
#include "util/error.h"

extern char** environ;

namespace janus::apps {

namespace {

struct GuiArgs {
  server::ServerConfig config;
  std::string webDir;
  std::string dataDir;
  bool noBrowser = false;
  std::string syzygyPath;
};

/// Starts xdg-open on the URL without waiting for it; output goes to /dev/null.
void openBrowser(const std::string& url) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1 /* O_WRONLY */, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", 1, 0);
  pid_t pid;
  std::string prog = "xdg-open";
  char* argv[] = {prog.data(), const_cast<char*>(url.c_str()), nullptr};
  if (posix_spawnp(&pid, "xdg-open", &actions, nullptr, argv, environ) == 0) {
    std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();  // reap it whenever it ends
  }
  posix_spawn_file_actions_destroy(&actions);
}

int runGui(GuiArgs& a) {
  const server::WebDirChoice web = server::locateWebDir(a.webDir);
  a.config.webDir = web.dir;
  if (!a.dataDir.empty()) a.config.dataDir = a.dataDir;

  // Signals: a closed browser socket must not kill the process (SIGPIPE), and SIGINT/SIGTERM are
  // taken by a dedicated thread (sigwait) that stops the server cleanly. Blocked before any thread
  // starts, so every thread inherits the mask.
  signal(SIGPIPE, SIG_IGN);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  // Syzygy tables are process-wide (one Fathom state): the server loads them for every session's
  // engine (a bad path throws: the command fails); the page can change them later.
  a.config.syzygyPath = a.syzygyPath;
  server::GuiServer gui(a.config);
  if (!a.syzygyPath.empty()) {
    const server::Json tb = server::TablebaseInfo::status()["syzygy"];
    for (const auto& problem : tb["problems"])
      std::cout << "error: Syzygy: " << problem.get<std::string>() << "; probing goes on without this table\n";
    std::cout << tb["summary"].get<std::string>() << std::endl;
  }
  gui.bind();
  if (!std::filesystem::exists(a.config.webDir / "index.html")) {
    std::cerr << "warning: no web page (index.html) in";
    for (const auto& dir : web.tried) std::cerr << " " << dir.string();
    std::cerr << "; the page at " << gui.url() << " says how to build it (cd web && npm ci && npm run build)\n";
  }
  std::cout << "Web page: " << a.config.webDir.string() << " (" << web.source << ")" << std::endl;
  std::cout << "Memory budget: " << gui.config().memoryMiB << " MiB (--memory-mib) for up to " << a.config.maxSessions
            << " tabs of " << server::sessionCostMiB(a.config.session.hashMiB) << " MiB and their MCTS trees (up to "
            << a.config.session.mctsTreeMiB << " MiB each, less when the budget is short)" << std::endl;
  std::cout << "Janus GUI: " << gui.url() << std::endl;
  std::cout << "Games and bug reports: " << a.config.dataDir.string() << "\nPress Ctrl+C to stop." << std::endl;
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if (!a.noBrowser && ((display && *display) || (wayland && *wayland))) openBrowser(gui.url());

  std::thread signals([&gui, set] {
    int sig = 0;
    sigwait(&set, &sig);
    gui.stop();
  });
  gui.run();
  // run() returned: by a signal (the thread has finished) or otherwise; wake the thread if needed.
  pthread_kill(signals.native_handle(), SIGTERM);
  signals.join();
  std::cout << "Janus GUI stopped." << std::endl;
  return 0;
}

}  // namespace

void addGuiCommand(CLI::App& app, Commands& out) {
  auto args = std::make_shared<GuiArgs>();
  auto* cmd = app.add_subcommand("gui", "Serve the web GUI (play and analyse against Janus) and print its URL");
  cmd->add_option("--host", args->config.host, "Interface to listen on (default 127.0.0.1: this machine only)");
  cmd->add_option("--port", args->config.port, "TCP port (0: any free port)")->check(CLI::Range(0, 65535));
  cmd->add_option("--web-dir", args->webDir,
                  "Folder of the built page (default: $JANUS_WEB_DIR, else <exe>/../share/janus/web when "
                  "installed, else the build tree's " + server::buildTreeWebDir().string() + ")");
  cmd->add_option("--data-dir", args->dataDir,
                  "Folder for saved games and bug reports (default " + server::Storage::defaultDataDir().string() + ")");
  cmd->add_option("--max-sessions", args->config.maxSessions, "Browser tabs served at once")->check(CLI::Range(1, 256));
  cmd->add_option("--hash", args->config.session.hashMiB, "Hash table per tab in MiB")->check(CLI::Range(1, 1024));
  cmd->add_option("--mcts-tree", args->config.session.mctsTreeMiB,
                  "MCTS tree memory per engine in MiB (games and analysis against the MCTS face; a full tree "
                  "recycles its least-visited subtrees, so an analysis goes on)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--memory-mib", args->config.memoryMiB,
                  "One memory budget in MiB for all tabs' engines: hash tables, MCTS trees and caches, second "
                  "engines (default: 2048, or half the machine's memory when less); a tab or an MCTS analysis "
                  "beyond it gets its memory from idle tabs or is refused (503)")
      ->check(CLI::Range(i64(1), i64(1) << 30));
  cmd->add_flag("--no-browser", args->noBrowser, "Do not open a browser, only print the URL");
  cmd->add_option("--syzygy-path", args->syzygyPath,
                  "Syzygy tablebase folders (':'-separated) for every engine, loaded at start (the page's settings "
                  "can change them): scores of positions in the tables show their win/draw/loss and DTZ");
  cmd->add_flag("--debug-endpoints", args->config.debugEndpoints,
                "Enable POST /api/sessions/{id}/debug/fail (simulated server error, for tests)");
  out.push_back({cmd, [args] { return runGui(*args); }});
}

}  // namespace janus::apps
