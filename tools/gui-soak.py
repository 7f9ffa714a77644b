#!/usr/bin/env python3
"""Soak test of `janus gui`'s memory: the server's RSS before, during and after many sessions.

Starts `janus gui --port 0` and runs --sessions sessions (default 20) one after the other, keeping
at most --open of them open at once (the oldest is closed with DELETE, as the server's eviction
would close it). Each session plays a new game with a few moves, tries to load an 8000-ply PGN
(refused: more than the plies a game may hold), loads --big-bodies PGNs of about 1 MB each (a
short game with a long comment), sends one body over the 2 MiB limit (refused with 413), analyses
for a moment and asks for a hint. The server's VmRSS is printed after each session, then after all
sessions are closed; the process's peak (VmHWM) last.

    tools/gui-soak.py [--janus build/janus] [--sessions 20] [--open 16] [--hash 16]

Exit status 1 if a bound is not enforced (a too-long PGN or an oversized body accepted). Not a CI
test: the figures depend on the machine; docs/gui.md quotes a run.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from janus_tools import GuiApi, proc_status_mib, start_gui


def long_pgn(plies):
    """A legal game of `plies` plies (knights out and back; repetitions do not stop a PGN load)."""
    moves = []
    for i in range(plies // 4):
        moves.append(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8")
    return " ".join(moves) + " *"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--janus", default="build/janus", help="the janus binary (default build/janus)")
    ap.add_argument("--sessions", type=int, default=20, help="sessions to run (default 20)")
    ap.add_argument("--open", type=int, default=16, help="sessions open at once (default 16, the server's --max-sessions)")
    ap.add_argument("--hash", type=int, default=16, help="hash table per session in MiB (default 16)")
    ap.add_argument("--big-bodies", type=int, default=3, help="1 MB PGN bodies per session (default 3)")
    args = ap.parse_args()
    if not os.access(args.janus, os.X_OK):
        sys.exit(f"gui-soak: '{args.janus}' is not an executable janus binary (build it or pass --janus)")

    data_dir = tempfile.mkdtemp(prefix="janus-soak-")
    try:
        server, port = start_gui(args.janus, data_dir, ["--max-sessions", str(args.open), "--hash", str(args.hash)])
    except RuntimeError as e:
        sys.exit(f"gui-soak: {e}")
    failures = []
    try:
        time.sleep(1)
        before = proc_status_mib(server.pid)
        print(f"janus gui pid {server.pid}, --max-sessions {args.open}, --hash {args.hash}")
        print(f"RSS before: {before:.1f} MiB")
        api = GuiApi(port)
        too_long = long_pgn(8000)
        comment = "{" + "x" * 1_000_000 + "}"  # 1 MB, under the 1 MiB PGN field limit
        big = f'[Event "soak"]\n\n1. e4 {comment} e5 2. Nf3 Nc6 *'
        oversized = json.dumps({"pgn": "y" * (3 << 20)}).encode()
        open_ids = []
        for n in range(1, args.sessions + 1):
            if len(open_ids) >= args.open:
                api.call("DELETE", f"/api/sessions/{open_ids.pop(0)}")
            status, created = api.call("POST", "/api/sessions", {})
            if status != 200:
                failures.append(f"session {n}: POST /api/sessions -> {status} {created}")
                continue
            sid = created["id"]
            base = f"/api/sessions/{sid}"
            open_ids.append(sid)
            api.call("POST", f"{base}/new", {"color": "white", "level": 1})
            for uci in ("e2e4", "d2d4", "g1f3"):
                for _ in range(100):  # wait for Janus's reply (level 1: a few ms)
                    st = api.call("GET", base)[1]
                    if st["turn"] == "white" and not st["thinking"]:
                        break
                    time.sleep(0.02)
                api.call("POST", f"{base}/move", {"uci": uci})
            status, j = api.call("POST", f"{base}/load", {"pgn": too_long})
            if status != 400 or "plies" not in str(j):
                failures.append(f"session {n}: an 8000-ply PGN got {status} {str(j)[:120]}")
            for _ in range(args.big_bodies):
                status, j = api.call("POST", f"{base}/load", {"pgn": big})
                if status != 200:
                    failures.append(f"session {n}: a 1 MB PGN got {status} {str(j)[:120]}")
            status, j = api.call("POST", f"{base}/load", oversized)
            if status != 413:
                failures.append(f"session {n}: a 3 MiB body got {status} {str(j)[:120]}")
            api.call("POST", f"{base}/mode", {"mode": "analysis"})
            api.call("POST", f"{base}/analysis", {"on": True, "multiPv": 3})
            time.sleep(0.3)
            api.call("POST", f"{base}/analysis", {"on": False})
            api.call("POST", f"{base}/mode", {"mode": "play", "color": "black"})
            api.call("POST", f"{base}/hint", {})
            print(f"session {n:2d}: {len(open_ids):2d} open, RSS {proc_status_mib(server.pid):.1f} MiB", flush=True)
        for sid in open_ids:
            api.call("DELETE", f"/api/sessions/{sid}")
        time.sleep(1)
        after = proc_status_mib(server.pid)
        peak = proc_status_mib(server.pid, "VmHWM")
        print(f"RSS after closing all sessions: {after:.1f} MiB (before {before:.1f} MiB, peak {peak:.1f} MiB)")
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data_dir, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
