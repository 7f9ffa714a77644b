#!/usr/bin/env bash
# Install test: `cmake --install` into a temporary prefix, then the prefix is moved elsewhere (so
# that nothing can lean on the path it was installed to), and the installed janus is checked
# without the build tree: it finds its page next to itself (<prefix>/share/janus/web), the man page
# is there and renders, a missing page answers with how to build it, and the browser tests (the
# feature walkthrough's first test and the phone test) pass against `<prefix>/bin/janus gui` started
# with no --web-dir. When the build has the Python module (src/python), it is imported from the
# installed package folder (<prefix>/lib/python3/dist-packages/janus) by Debian's python3 and runs a
# search, encodes a batch and reads a data file written by the installed janus.
# With --deb, also builds the Debian package with CPack and checks its contents (the module from the
# unpacked package as well).
#
#   tools/install-test.sh [--deb] [BUILD_DIR]      (default build; web/dist must be built)
#
# Run by ./dev.sh test (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."

deb=0
if [ "${1:-}" = "--deb" ]; then
  deb=1
  shift
fi
build=$(realpath "${1:-build}")
[ -x "$build/janus" ] || { echo "install-test: $build/janus is missing (build the janus target first)" >&2; exit 2; }
[ -f web/dist/index.html ] || { echo "install-test: web/dist is not built (cd web && npm ci && npm run build)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/janus-install-test.XXXXXX)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }

echo "== cmake --install $build --prefix $tmp/prefix"
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install failed"; }
mv "$tmp/prefix" "$tmp/moved"
prefix="$tmp/moved"
for f in bin/janus share/janus/web/index.html share/janus/web/assets/app.js share/janus/web/assets/app.css \
         share/man/man6/janus.6 share/doc/janus/README.md; do
  [ -f "$prefix/$f" ] || fail "$f is not installed"
done
[ -z "$(find "$prefix" -name '*.map')" ] || fail "source maps were installed"
for net in nets/*.jnn nets/*.jpv; do
  [ -e "$net" ] || continue
  [ -f "$prefix/share/janus/$net" ] || fail "network $net is not installed"
done
grep -q '^\.SS gui$' "$prefix/share/man/man6/janus.6" || fail "the man page has no 'gui' subcommand"
if command -v man > /dev/null; then
  grep -q 'Serve the web GUI' <<< "$(man -l "$prefix/share/man/man6/janus.6" 2> /dev/null)" || fail "the man page does not render"
fi
echo "installed: $(cd "$prefix" && find . -type f | sort | tr '\n' ' ')"

# The libtorch programs (built when CMake found libtorch) install next to janus, which finds its
# trainer there: `janus train-az` runs janus-train-az from the janus binary's folder.
if [ -x "$build/janus-torch" ]; then
  for f in bin/janus-torch bin/janus-train-az bin/janus-train-torch; do
    [ -x "$prefix/$f" ] || fail "$f is not installed although $build has it"
  done
  help=$("$prefix/bin/janus" train-az --help 2>&1) || fail "the installed janus does not run its janus-train-az: $help"
  grep -q -- '--data' <<< "$help" || fail "janus train-az --help does not list --data: $help"
  bench=$("$prefix/bin/janus-torch" bench 2>&1) || fail "the installed janus-torch does not run: $bench"
  grep -q ' nodes ' <<< "$(tail -1 <<< "$bench")" || fail "janus-torch bench printed no node count: $bench"
  echo "ok: janus-torch, janus-train-az and janus-train-torch installed; janus train-az runs the installed trainer"
fi

# check_python_module <dist-packages> <janus>: Debian's python3 imports janus from <dist-packages>
# (not from the build tree) and uses it on a data file that <janus> writes.
python=${JANUS_PYTHON:-/usr/bin/python3}
check_python_module() {
  local site=$1 bin=$2
  [ -f "$site/janus/__init__.py" ] && ls "$site"/janus/_janus*.so > /dev/null 2>&1 || fail "the Python module is not installed in $site"
  "$bin" datagen --games 1 --nodes 200 --max-plies 30 --seed 1 --output "$tmp/py.janusdat" --quiet > /dev/null
  env -u PYTHONPATH PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python" - "$site" "$tmp/py.janusdat" <<'EOF' || fail "the installed Python module does not work"
import sys, janus
site, data = sys.argv[1:]
assert janus.__file__.startswith(site), janus.__file__
r = janus.Engine().search(janus.Board(), depth=4)
assert r["best"] in janus.Board().legal_moves, r
planes = janus.encode_planes([janus.STARTING_FEN] * 3)
assert planes.shape == (3, 119, 8, 8), planes.shape
rows = janus.read_janusdat(data)
assert len(rows["fen"]) > 0
print(f"ok: import janus from {site}: search {r['best']} ({r['nodes']} nodes), planes {planes.shape}, "
      f"{len(rows['fen'])} records read")
EOF
  rm -f "$tmp/py.janusdat"
}
if ls "$build"/python/janus/_janus*.so > /dev/null 2>&1; then
  check_python_module "$prefix/lib/python3/dist-packages" "$prefix/bin/janus"
fi

# The installed binary, run from the moved prefix, finds its page next to itself.
env -u JANUS_WEB_DIR "$prefix/bin/janus" gui --port 0 --no-browser --data-dir "$tmp/data" > "$tmp/gui.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q 'Janus GUI:' "$tmp/gui.out" && break; sleep 0.1; done
grep -qx "Web page: $prefix/share/janus/web (installed)" "$tmp/gui.out" || { cat "$tmp/gui.out"; fail "the installed janus does not serve $prefix/share/janus/web"; }
url=$(sed -n 's/^Janus GUI: //p' "$tmp/gui.out")
python3 - "$url" <<'EOF' || fail "the installed page is not served"
import sys, urllib.request
html = urllib.request.urlopen(sys.argv[1]).read().decode()
assert '/assets/app.js' in html, html[:200]
EOF
kill "$server_pid"
wait "$server_pid" 2> /dev/null || true
server_pid=""
echo "ok: the installed janus serves $prefix/share/janus/web"

# A missing page is a page that says how to build it.
mkdir -p "$tmp/empty"
"$prefix/bin/janus" gui --port 0 --no-browser --web-dir "$tmp/empty" --data-dir "$tmp/data" > "$tmp/gui2.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q 'Janus GUI:' "$tmp/gui2.out" && break; sleep 0.1; done
url=$(sed -n 's/^Janus GUI: //p' "$tmp/gui2.out")
python3 - "$url" <<'EOF' || fail "a missing page does not say how to build it"
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1])
    raise SystemExit("expected 503")
except urllib.error.HTTPError as e:
    html = e.read().decode()
    assert e.code == 503 and 'npm run build' in html and 'not built' in html, (e.code, html[:300])
EOF
kill "$server_pid"
wait "$server_pid" 2> /dev/null || true
server_pid=""
echo "ok: a missing page answers 503 with how to build it"

echo "== browser tests against $prefix/bin/janus (no --web-dir)"
(cd web && env -u JANUS_WEB_DIR JANUS_BIN="$prefix/bin/janus" JANUS_TEST_WEB_DIR=- JANUS_SCREENSHOTS="$tmp/shots" \
  node --test --test-name-pattern='plays by click|phone 430x932' tests/)

if [ "$deb" = 1 ]; then
  echo "== cpack -G DEB"
  (cd "$build" && cpack -G DEB -B "$tmp/deb" > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack failed"; }
  pkg=$(ls "$tmp"/deb/janus_*.deb)
  contents=$(dpkg-deb -c "$pkg")
  for f in ./usr/bin/janus ./usr/share/janus/web/index.html ./usr/share/man/man6/janus.6; do
    grep -q " $f\$" <<< "$contents" || fail "$(basename "$pkg") lacks $f"
  done
  if ls "$build"/python/janus/_janus*.so > /dev/null 2>&1; then
    grep -q " ./usr/lib/python3/dist-packages/janus/__init__.py\$" <<< "$contents" || fail "$(basename "$pkg") lacks the Python module"
    dpkg-deb -x "$pkg" "$tmp/unpacked"
    check_python_module "$tmp/unpacked/usr/lib/python3/dist-packages" "$tmp/unpacked/usr/bin/janus"
  fi
  ! grep -q "janus-torch\|janus-train" <<< "$contents" || fail "$(basename "$pkg") holds libtorch programs"
  # The fields are read first: `dpkg-deb ... | grep -q` under pipefail fails when grep exits at its
  # first match before dpkg-deb has written everything (SIGPIPE).
  fields=$(dpkg-deb -f "$pkg" Recommends Depends)
  ! grep -q libtorch <<< "$(dpkg-deb -f "$pkg" Depends)" || fail "$(basename "$pkg") depends on libtorch"
  # Syzygy's Fathom is loaded with dlopen (src/tb/syzygy.h): dpkg-shlibdeps cannot see it, the package names it.
  grep -q libfathom1 <<< "$fields" ||
    fail "$(basename "$pkg") neither depends on nor recommends libfathom1 (Syzygy tablebases)"
  echo "ok: $(basename "$pkg"): $(dpkg-deb -f "$pkg" Package Version Architecture Depends Recommends | tr '\n' ' ')"
  if [ -x "$build/janus-torch" ]; then
    tpkg=$(ls "$tmp"/deb/janus-torch_*.deb 2> /dev/null) || fail "no janus-torch package although $build/janus-torch was built"
    tcontents=$(dpkg-deb -c "$tpkg")
    for f in ./usr/bin/janus-torch ./usr/bin/janus-train-az ./usr/bin/janus-train-torch; do
      grep -q " $f\$" <<< "$tcontents" || fail "$(basename "$tpkg") lacks $f"
    done
    tdepends=$(dpkg-deb -f "$tpkg" Depends)
    grep -q "janus (= " <<< "$tdepends" || fail "$(basename "$tpkg") does not depend on its janus: $tdepends"
    grep -q "libtorch" <<< "$tdepends" || fail "$(basename "$tpkg") does not depend on libtorch: $tdepends"
    echo "ok: $(basename "$tpkg"): $(dpkg-deb -f "$tpkg" Package Version Depends | tr '\n' ' ')"
  fi
fi
echo "install-test: PASS"
