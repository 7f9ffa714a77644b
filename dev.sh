#!/usr/bin/env bash
# Janus developer entry point (see README.md).
#   ./dev.sh main   install what is missing, build the janus program (Release) and the web page, start
#                   the GUI (prints its URL); builds only what it runs, no tests
#   ./dev.sh test   install what is missing, build every target (Release) + sanitizer builds, run every test
#   ./dev.sh game   as main, then play one game against Stockfish (UCI_Elo 1800) at 10+0.1
# Works on a fresh Debian 12 machine as root or with sudo.
set -euo pipefail
cd "$(dirname "$0")"

# libopenblas0-openmp: libtorch only recommends an optimised BLAS, and --no-install-recommends left
# it on Debian's reference libblas3 (sgemm_ was 86% of a ResNet training test's profile; the test
# took 28 s with it and 10 s with OpenBLAS). The OpenMP build of OpenBLAS takes its thread count
# from libtorch's OpenMP setting (at::set_num_threads) instead of starting threads of its own
# (OpenBLAS FAQ, "multi-threaded application"); update-alternatives makes it libblas.so.3.
APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3 clang
  libgtest-dev libgmock-dev libbenchmark-dev libfmt-dev libcli11-dev libzstd-dev zstd
  libcpp-httplib-dev nlohmann-json3-dev libgaviotatb-dev gaviotatb libfathom-dev gnuchess-book libtorch-dev
  libopenblas0-openmp
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-torch python3-pytest jupyter-nbconvert python3-ipykernel
  stockfish ethereal-chess toga2 glaurung phalanx gnuchess
  chromium
  slurm-wlm munge
)
JOBS=$(nproc)

# log <message>: a section header with the seconds since the script started (where CI time goes).
log() { printf '\n== [%4ds] %s ==\n' "$SECONDS" "$*"; }

install_deps() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Node.js and npm build the web page; use the machine's if it has them, else Debian's.
  command -v npm >/dev/null || missing+=(nodejs npm)
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# build <dir> "<targets>" <cmake args...>: configures <dir> and builds the space-separated targets
# ("all": every target, the tests included).
build() {
  local dir=$1 targets=$2
  shift 2
  log "building $dir ($targets)"
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  # shellcheck disable=SC2086 # targets is a space-separated list
  cmake --build "$dir" -j "$JOBS" --target $targets
}

# build_release <target>
build_release() { build build "$1" -DCMAKE_BUILD_TYPE=Release; }

# The web page (web/dist): npm packages from the lock file, then TypeScript check + esbuild bundle.
build_web() {
  log "building the web page (web/dist)"
  if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
  fi
  (cd web && npm run --silent build)
}

# setup <target>: what main and game run is the janus program; test builds every target.
setup() { install_deps; build_release "$1"; build_web; }

run_gui() {
  log "Janus web GUI (Ctrl-C stops it)"
  exec build/janus gui
}

run_game() {
  log "Janus vs Stockfish (UCI_Elo 1800), 10+0.1"
  build/janus match \
    --engine "name=Janus cmd=build/janus" \
    --engine "name=Stockfish-1800 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1800" \
    --tc 10+0.1 --games 1 --random-opening --show-moves --pgnout main-game.pgn
}

# Test suites that run several threads (the search's TaskThread, Lazy SMP search, engine, UCI,
# match runner, MCTS threads and tree recycling): also under TSan. Only the binaries that hold
# them are built in build-tsan, so the pattern is anchored to suite names (a test named e.g.
# "...MatchesMakeMove" elsewhere is not one of them).
THREADED_TESTS='^(TaskThread|WorkerPool|AlphaBeta|Engine|Uci|TranspositionTable|JanusBinary|Match|CecpBridge|MctsThreads|MctsRecycle|MctsRefinement|LeafDepth/NnueValueBackendThreads)'
THREADED_TEST_TARGETS=(util_tests core_tests search_tests engine_tests uci_tests match_tests mcts_tests integration_tests)

run_tests() {
  # CTest also runs the Python module's pytest suite (python_tests) and executes the example
  # notebook at toy size (python_notebook): src/python/CMakeLists.txt, docs/python.md.
  log "unit and integration tests (Release)"
  ctest --test-dir build --output-on-failure -j "$JOBS"
  log "browser tests (Chromium headless, playwright-core)"
  (cd web && JANUS_BIN=../build/janus npm test)
  log "Slurm test (one-node cluster on this machine, a datagen job array with a task cancelled midway)"
  # The cluster's daemons run as root (tools/slurm/cluster.sh).
  if [ "$(id -u)" -eq 0 ]; then tests/slurm/slurm_test.sh; else sudo tests/slurm/slurm_test.sh; fi
  log "install test (cmake --install to a temporary prefix, cpack -G DEB, browser test against the installed janus)"
  tools/install-test.sh --deb build
  tools/perft-suite.sh --quick
  tools/bench-signature.sh build/janus

  build build-asan all -DCMAKE_BUILD_TYPE=Debug -DJANUS_SANITIZE=address,undefined -DJANUS_GLIBCXX_ASSERTIONS=ON
  log "unit and integration tests (ASan + UBSan, _GLIBCXX_ASSERTIONS, assertions on)"
  ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j "$JOBS"
  tools/bench-signature.sh build-asan/janus

  build build-tsan "${THREADED_TEST_TARGETS[*]}" -DCMAKE_BUILD_TYPE=Debug -DJANUS_SANITIZE=thread
  log "multi-threaded tests (TSan)"
  TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j "$JOBS" -R "$THREADED_TESTS"
}

case "${1:-}" in
  main) setup janus; run_gui ;;
  test) setup all; run_tests ;;
  game) setup janus; run_game ;;
  *) echo "usage: $0 main|test|game" >&2; exit 2 ;;
esac
