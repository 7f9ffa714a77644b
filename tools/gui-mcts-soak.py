#!/usr/bin/env python3
"""Soak test of the GUI's MCTS analysis: does an infinite analysis run for minutes within its memory?

Starts `janus gui --port 0 --no-browser` with a temporary data folder and `--mcts-tree MIB` (the
MCTS tree bound per engine; a full tree recycles its least-visited subtrees, docs/mcts.md "Memory
and recycling"), creates a session and sends what the page sends for "load a PGN and analyse" with
the MCTS face chosen: POST .../mode {"mode": "analysis"}, POST .../load {"pgn": "1. e4 e6 *"},
POST .../analysis {"on": true, "multiPv": 3, "face": "mcts"}. It keeps the session's event stream
(GET .../events) open, as the page does (a session without a stream stops its search), and every
--interval seconds (10) records:

  - visits: "totalVisits" of the MCTS table (the root's visits; info events, face "mcts", multipv 1)
    and the visits/s over the last interval;
  - the score shown (White's view: cp or mate) and the best move's Q from the table;
  - the tree's fill ("hashfull", per mille: ~1000 when full, about half after a recycle);
  - state.analysis.on / .running (GET .../state) and whether the stream is still open (the server
    resets "running" only for a move search: an analysis that ended by itself would still show it
    running, so the growth of the visits is the real test);
  - the janus process's VmRSS and VmHWM (peak) from /proc/PID/status, its CPU time and the load.

It fails (exit status 1, with the last events, the state JSON and the RSS curve) if the analysis
stops before --minutes (10) are over (state off or not running, stream closed, server exited), if
the root's visits do not grow for more than --stall seconds (60), or if the peak RSS exceeds
--max-rss-mib (default: the tree bound + 256 MiB: the server, one session's --hash table and search
tables, the NNUE and policy networks and the MCTS evaluation cache take about 100 MiB together).

Afterwards (unless --compare-depth 0) it searches the same position with `Search=alphabeta` to
--compare-depth (18) through UCI and prints both scores: the MCTS score is Q mapped to centipawns
by the same score model as alpha-beta's, so the two should be of the same size.

    tools/gui-mcts-soak.py [--janus build/janus] [--minutes 10] [--mcts-tree 256] [--csv FILE]

Many sessions at once (--sessions N, N > 1): N sessions, each with its own event stream, analyse a
position of their own (1.e4 e6 for the first, then other openings in turn) with the MCTS face at
the same time, under one memory budget (--memory-mib M, janus gui's flag; --max-sessions is raised
to N). Every interval it prints how many sessions analyse, the smallest, median and total root
visits, the budget's use as /api/info "memory" reports it, and the process's RSS and peak. It fails
as above when any session's analysis stops or stalls, when a session cannot start (a 503 of the
budget), or when the peak RSS exceeds --max-rss-mib, which defaults to the budget: the point is
that one budget holds every session's trees, caches and hash tables.

    nice tools/gui-mcts-soak.py --sessions 20 --memory-mib 2560 --minutes 10 --compare-depth 0

Not a CI test: the figures depend on the machine; docs/gui.md quotes a run.
"""

import argparse
import collections
import csv
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from janus_tools import GuiApi, start_gui

PGN = "1. e4 e6 *"
UCI_MOVES = "e2e4 e7e6"
# The positions of the other sessions (--sessions N): sessions 2, 3, ... take these in turn.
OTHER_PGNS = ["1. d4 d5 *", "1. e4 c5 *", "1. c4 e5 *", "1. Nf3 d5 *", "1. e4 e5 2. Nf3 Nc6 *", "1. d4 Nf6 2. c4 e6 *",
              "1. e4 c6 *", "1. g3 d5 *", "1. e4 d5 *", "1. d4 f5 *"]



def stop_server(server, data_dir, timeout_s):
    """Ends the janus gui process (SIGTERM, SIGKILL after timeout_s) and removes its data folder."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            server.kill()
    shutil.rmtree(data_dir, ignore_errors=True)


def write_csv(path, rows):
    """Writes the sample rows (dicts with the same keys) to `path` as CSV; nothing without a path or rows."""
    if path and rows:
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)

def proc_status(pid):
    """VmRSS and VmHWM of process `pid` in MiB (None when the process is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    out[line.split(":")[0]] = int(line.split()[1]) / 1024
    except OSError:
        return None, None
    return out.get("VmRSS"), out.get("VmHWM")


def cpu_seconds(pid):
    """User + system CPU time of process `pid` (all threads), in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def load1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


class Stream(threading.Thread):
    """Reads a session's server-sent events; keeps the latest MCTS table line and the last events."""

    def __init__(self, port, sid):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.path = f"/api/sessions/{sid}/events"
        self.lock = threading.Lock()
        self.last = collections.deque(maxlen=12)  # (time, event, data) of the last events
        self.info = None          # the latest MCTS info with the table (multipv 1)
        self.visits = 0           # its totalVisits
        self.grew_at = time.monotonic()  # when totalVisits last grew
        self.infos = 0
        self.closed = None        # why the stream ended (None while open)

    def run(self):
        try:
            self.conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
            r = self.conn.getresponse()
            if r.status != 200:
                raise RuntimeError(f"GET {self.path} -> {r.status}")
            event, data = "message", []
            while True:
                line = r.readline()
                if not line:
                    raise RuntimeError("the server closed the event stream")
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if data:
                        self.dispatch(event, "\n".join(data))
                    event, data = "message", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
        except Exception as e:  # noqa: BLE001 - any end of the stream is reported by the main loop
            with self.lock:
                self.closed = str(e) or type(e).__name__

    def dispatch(self, event, data):
        now = time.monotonic()
        with self.lock:
            self.last.append((now, event, data))
            if event != "info":
                return
            j = json.loads(data)
            if j.get("face") != "mcts" or j.get("multipv") != 1 or "moves" not in j:
                return
            self.infos += 1
            self.info = j
            v = j["moves"]["totalVisits"]
            if v > self.visits:
                self.grew_at = now
            self.visits = v


def score_text(score):
    if score is None:
        return "-"
    if "mate" in score:
        return f"M{score['mate']:+d}"
    return f"{score['cp']:+d}"


def fmt_time(s):
    return f"{int(s) // 60}:{int(s) % 60:02d}"


def alphabeta_score(janus, depth, threads=1):
    """`Search=alphabeta` at `depth` on the position through UCI: (cp or None, mate or None, line)."""
    p = subprocess.Popen([janus], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nsetoption name Threads value {threads}\nsetoption name Hash value 64\n"
                  f"setoption name Search value alphabeta\nisready\n"
                  f"position startpos moves {UCI_MOVES}\ngo depth {depth}\n")
    p.stdin.flush()
    last = ""
    for line in p.stdout:
        if line.startswith("info") and " score " in line and " pv " in line:
            last = line.strip()
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=30)
    cp = re.search(r"score cp (-?\d+)", last)
    mate = re.search(r"score mate (-?\d+)", last)
    return (int(cp.group(1)) if cp else None, int(mate.group(1)) if mate else None, last)


def many_sessions(args):
    """--sessions N > 1: N sessions analyse with MCTS at once under --memory-mib (see the docstring)."""
    n = args.sessions
    extra = ["--mcts-tree", str(args.mcts_tree), "--hash", str(args.hash), "--max-sessions", str(max(16, n))]
    if args.memory_mib:
        extra += ["--memory-mib", str(args.memory_mib)]
    data_dir = tempfile.mkdtemp(prefix="janus-mcts-soak-")
    try:
        server, port = start_gui(args.janus, data_dir, extra)
    except RuntimeError as e:
        sys.exit(f"gui-mcts-soak: {e}")
    rows, failure, streams, sids, api = [], None, [], [], None
    load_start = load1()
    try:
        api = GuiApi(port)
        info = api.ok("GET", "/api/info")
        budget = info["memory"]["budgetMiB"]
        max_rss = args.max_rss_mib if args.max_rss_mib is not None else budget
        print(f"janus gui pid {server.pid}, port {port}, {n} sessions, --memory-mib {budget}, --mcts-tree {args.mcts_tree}, "
              f"--hash {args.hash}; {info['mcts'].get('backend')}")
        print(f"bound on the peak RSS: {max_rss:.0f} MiB; load average at start {load_start:.2f} "
              f"({os.cpu_count()} CPUs); nice {os.nice(0)}", flush=True)
        for i in range(n):
            sids.append(api.ok("POST", "/api/sessions", {})["id"])
        for i, sid in enumerate(sids):
            base = f"/api/sessions/{sid}"
            stream = Stream(port, sid)
            stream.start()
            streams.append(stream)
            pgn = PGN if i == 0 else OTHER_PGNS[(i - 1) % len(OTHER_PGNS)]
            api.ok("POST", f"{base}/load", {"pgn": pgn, "mode": "analysis"})
            api.ok("POST", f"{base}/analysis", {"on": True, "face": "mcts"})
        memory = api.ok("GET", "/api/info")["memory"]
        print(f"all {n} analysing: the budget reserves {memory['usedMiB']} of {budget} MiB "
              f"({memory['mctsTrees']} MCTS trees)")
        start = time.monotonic()
        for stream in streams:
            stream.grew_at = start
        hdr = (f"{'time':>5} {'analysing':>9} {'min visits':>10} {'median':>8} {'total':>10} {'tree‰ med':>9} "
               f"{'budget used':>11} {'RSS MiB':>8} {'peak':>7} {'load':>5}")
        print(hdr, flush=True)
        end = start + args.minutes * 60
        next_sample = start + args.interval
        while True:
            time.sleep(max(0.0, min(next_sample, end) - time.monotonic()))
            now = time.monotonic()
            t = now - start
            if server.poll() is not None:
                failure = f"janus gui exited with status {server.returncode} after {t:.0f} s"
                break
            rss, hwm = proc_status(server.pid)
            memory = api.ok("GET", "/api/info")["memory"]
            visits, fills, analysing = [], [], 0
            for i, (sid, stream) in enumerate(zip(sids, streams)):
                status, st = api.call("GET", f"/api/sessions/{sid}")
                an = st.get("analysis", {}) if isinstance(st, dict) else {}
                with stream.lock:
                    v, grew_at, closed, j = stream.visits, stream.grew_at, stream.closed, stream.info
                visits.append(v)
                fills.append((j or {}).get("hashfull", 0))
                if an.get("on") and an.get("running"):
                    analysing += 1
                if failure:
                    continue
                if status != 200:
                    failure = f"session {i + 1}: GET -> {status} {st}"
                elif closed:
                    failure = f"session {i + 1}: the event stream ended after {t:.0f} s: {closed}"
                elif not an.get("on") or not an.get("running"):
                    failure = (f"session {i + 1}: the analysis stopped after {t:.0f} s: {json.dumps(an)}; "
                               f"lastError {st.get('lastError') if isinstance(st, dict) else ''}")
                elif now - grew_at > args.stall:
                    failure = f"session {i + 1}: the root's visits stopped growing: {v} for {now - grew_at:.0f} s"
            sv = sorted(visits)
            row = {"t_s": round(t, 1), "analysing": analysing, "min_visits": sv[0], "median_visits": sv[len(sv) // 2],
                   "total_visits": sum(sv), "tree_permille_median": sorted(fills)[len(fills) // 2],
                   "budget_used_mib": memory["usedMiB"], "budget_mib": budget,
                   "rss_mib": round(rss or 0, 1), "hwm_mib": round(hwm or 0, 1), "load1": load1()}
            rows.append(row)
            print(f"{fmt_time(t):>5} {analysing:>9} {row['min_visits']:>10} {row['median_visits']:>8} {row['total_visits']:>10} "
                  f"{row['tree_permille_median']:>9} {memory['usedMiB']:>11} {row['rss_mib']:>8.1f} {row['hwm_mib']:>7.1f} "
                  f"{row['load1']:>5.2f}", flush=True)
            if not failure and hwm and hwm > max_rss:
                failure = f"peak RSS {hwm:.1f} MiB exceeds the bound {max_rss:.0f} MiB"
            if failure or now >= end:
                break
            next_sample += args.interval
    except Exception as e:  # noqa: BLE001
        failure = f"{type(e).__name__}: {e}"
    finally:
        if failure:
            print(f"\nFAIL: {failure}")
            print("RSS curve (s: MiB):", ", ".join(f"{r['t_s']:.0f}: {r['rss_mib']}" for r in rows))
        stop_server(server, data_dir, 60)
    write_csv(args.csv, rows)
    if rows:
        last = rows[-1]
        print(f"summary: {'FAIL' if failure else 'PASS'}: {n} sessions analysing with MCTS for {last['t_s'] / 60:.1f} min, "
              f"root visits per session {last['min_visits']}-{max(s.visits for s in streams)} (median "
              f"{last['median_visits']}, total {last['total_visits']}), peak RSS {max(r['hwm_mib'] for r in rows):.1f} MiB "
              f"within the budget of {rows[0]['budget_mib']} MiB (the budget's count at the end {last['budget_used_mib']} MiB), "
              f"RSS at the end {last['rss_mib']:.1f} MiB, load {load_start:.2f} -> {load1():.2f}")
    if failure:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--janus", default="build/janus", help="the janus binary (default build/janus)")
    ap.add_argument("--minutes", type=float, default=10, help="how long the analysis must run (default 10)")
    ap.add_argument("--interval", type=float, default=10, help="seconds between samples (default 10)")
    ap.add_argument("--stall", type=float, default=60, help="fail when the visits do not grow this many seconds (default 60)")
    ap.add_argument("--mcts-tree", type=int, default=256, help="janus gui --mcts-tree: MCTS tree MiB per engine (default 256, the GUI's default)")
    ap.add_argument("--hash", type=int, default=16, help="janus gui --hash (default 16)")
    ap.add_argument("--max-rss-mib", type=float, default=None, help="bound on the peak RSS (VmHWM; default the tree + 256 MiB)")
    ap.add_argument("--compare-depth", type=int, default=18, help="alpha-beta UCI depth to compare the score with (0: no comparison; default 18)")
    ap.add_argument("--csv", help="also write the samples to this CSV file")
    ap.add_argument("--sessions", type=int, default=1, help="sessions analysing at once (default 1; see the docstring)")
    ap.add_argument("--memory-mib", type=int, default=0, help="janus gui --memory-mib (default: the server's default)")
    args = ap.parse_args()
    if not os.access(args.janus, os.X_OK):
        sys.exit(f"gui-mcts-soak: '{args.janus}' is not an executable janus binary (build it or pass --janus)")
    if args.sessions < 1:
        sys.exit(f"gui-mcts-soak: --sessions {args.sessions}: expected at least 1")
    if args.sessions > 1:
        many_sessions(args)
        return
    max_rss = args.max_rss_mib if args.max_rss_mib is not None else args.mcts_tree + 256

    data_dir = tempfile.mkdtemp(prefix="janus-mcts-soak-")
    try:
        server, port = start_gui(args.janus, data_dir, ["--mcts-tree", str(args.mcts_tree), "--hash", str(args.hash)] +
                                 (["--memory-mib", str(args.memory_mib)] if args.memory_mib else []))
    except RuntimeError as e:
        sys.exit(f"gui-mcts-soak: {e}")
    rows, failure, state, stream, api, sid = [], None, None, None, None, None
    load_start = load1()
    try:
        api = GuiApi(port)
        info = api.ok("GET", "/api/info")
        print(f"janus gui pid {server.pid}, port {port}, --mcts-tree {args.mcts_tree} (server says treeMiB "
              f"{info['mcts'].get('treeMiB')}), --hash {args.hash}; {info['mcts'].get('backend')}")
        print(f"bound on the peak RSS: {max_rss:.0f} MiB; load average at start {load_start:.2f} "
              f"({os.cpu_count()} CPUs); nice {os.nice(0)}")
        sid = api.ok("POST", "/api/sessions", {})["id"]
        base = f"/api/sessions/{sid}"
        stream = Stream(port, sid)
        stream.start()
        api.ok("POST", f"{base}/mode", {"mode": "analysis"})
        st = api.ok("POST", f"{base}/load", {"pgn": PGN})
        if st["fen"].split()[:2] != ["rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR", "w"]:
            raise RuntimeError(f"the loaded position is {st['fen']}")
        state = api.ok("POST", f"{base}/analysis", {"on": True, "multiPv": 3, "face": "mcts"})
        start = time.monotonic()
        stream.grew_at = start
        cpu0 = cpu_seconds(server.pid)
        print(f"position {st['fen']}; analysis {json.dumps(state['analysis'])}")
        hdr = (f"{'time':>5} {'visits':>10} {'visits/s':>9} {'score':>6} {'Q':>7} {'best':>5} "
               f"{'tree‰':>5} {'run':>3} {'RSS MiB':>8} {'peak':>7} {'cpu%':>5} {'load':>5}")  # cpu%: of one core
        print(hdr, flush=True)
        prev_t, prev_v = 0.0, 0
        end = start + args.minutes * 60
        next_sample = start + args.interval
        while True:
            time.sleep(max(0.0, min(next_sample, end) - time.monotonic()))
            now = time.monotonic()
            t = now - start
            if server.poll() is not None:
                failure = f"janus gui exited with status {server.returncode} after {t:.0f} s"
                break
            status, state = api.call("GET", base)
            rss, hwm = proc_status(server.pid)
            cpu = cpu_seconds(server.pid)
            with stream.lock:
                j, visits, grew_at, closed = stream.info, stream.visits, stream.grew_at, stream.closed
            an = state.get("analysis", {}) if isinstance(state, dict) else {}
            rows_ = (j or {}).get("moves", {}).get("rows", [])
            row = {
                "t_s": round(t, 1), "visits": visits, "nodes": (j or {}).get("nodes", 0),
                "visits_per_s": round((visits - prev_v) / max(1e-9, t - prev_t)),
                "score_cp": (j or {}).get("score", {}).get("cp", ""),
                "score_mate": (j or {}).get("score", {}).get("mate", ""),
                "q_best": rows_[0]["q"] if rows_ and rows_[0]["q"] is not None else "",
                "best": rows_[0]["san"] if rows_ else "",
                "depth": (j or {}).get("depth", ""), "tree_permille": (j or {}).get("hashfull", ""),
                "on": an.get("on"), "running": an.get("running"),
                "rss_mib": round(rss or 0, 1), "hwm_mib": round(hwm or 0, 1),
                "cpu_pct": round(100 * (cpu - cpu0) / max(1e-9, t - prev_t)) if cpu is not None else "",
                "load1": load1(),
            }
            cpu0 = cpu
            rows.append(row)
            q = f"{row['q_best']:+.3f}" if row["q_best"] != "" else "-"
            print(f"{fmt_time(t):>5} {visits:>10} {row['visits_per_s']:>9} {score_text((j or {}).get('score')):>6} "
                  f"{q:>7} {row['best']:>5} {row['tree_permille']:>5} {'yes' if row['running'] else 'NO':>3} "
                  f"{row['rss_mib']:>8.1f} {row['hwm_mib']:>7.1f} {row['cpu_pct']:>5} {row['load1']:>5.2f}", flush=True)
            prev_t, prev_v = t, visits
            if status != 200:
                failure = f"GET {base} -> {status} {state}"
            elif closed:
                failure = f"the event stream ended after {t:.0f} s: {closed}"
            elif not an.get("on") or not an.get("running"):
                failure = f"the analysis stopped after {t:.0f} s: state.analysis = {json.dumps(an)}"
            elif now - grew_at > args.stall:
                failure = (f"the root's visits stopped growing: {visits} for {now - grew_at:.0f} s "
                           f"(more than {args.stall:.0f} s)")
            elif hwm and hwm > max_rss:
                failure = f"peak RSS {hwm:.1f} MiB exceeds the bound {max_rss:.0f} MiB"
            if failure or now >= end:
                break
            next_sample += args.interval
    except Exception as e:  # noqa: BLE001
        failure = f"{type(e).__name__}: {e}"
    finally:
        if failure:
            print(f"\nFAIL: {failure}")
            if stream:
                with stream.lock:
                    last = list(stream.last)
                print("last events (seconds before the failure, event, data up to 400 characters):")
                for ts, ev, data in last:
                    print(f"  -{time.monotonic() - ts:6.1f} s  {ev}: {data[:400]}")
            if isinstance(state, dict):
                short = {k: v for k, v in state.items() if k not in ("pgn", "fens", "openings")}
                print("state:", json.dumps(short))
            print("RSS curve (s: MiB):", ", ".join(f"{r['t_s']:.0f}: {r['rss_mib']}" for r in rows))
        if api and sid and server.poll() is None:
            try:
                api.call("POST", f"/api/sessions/{sid}/analysis", {"on": False})
                api.call("DELETE", f"/api/sessions/{sid}")
            except Exception:  # noqa: BLE001
                pass
        stop_server(server, data_dir, 30)

    write_csv(args.csv, rows)
    if rows:
        last = rows[-1]
        rates = [r["visits_per_s"] for r in rows]
        score = (f"M{last['score_mate']:+d}" if last["score_mate"] != "" else
                 f"{last['score_cp']:+d} cp" if last["score_cp"] != "" else "-")
        print(f"summary: {'FAIL' if failure else 'PASS'}: {last['t_s'] / 60:.1f} min, {last['visits']} root visits "
              f"({last['nodes']} playouts), {min(rates)}-{max(rates)} visits/s per interval "
              f"(mean {last['visits'] / max(1e-9, last['t_s']):.0f}), score {score} (best {last['best']}, Q "
              f"{last['q_best'] if last['q_best'] == '' else format(last['q_best'], '+.3f')}), peak RSS {max(r['hwm_mib'] for r in rows):.1f} MiB (bound {max_rss:.0f}), "
              f"RSS at the end {last['rss_mib']:.1f} MiB, load {load_start:.2f} -> {load1():.2f}")
    if failure:
        sys.exit(1)
    if args.compare_depth > 0 and rows:
        cp, mate, line = alphabeta_score(args.janus, args.compare_depth)
        print(f"alpha-beta (UCI, Search=alphabeta, depth {args.compare_depth}): "
              f"{'mate ' + str(mate) if mate is not None else f'{cp:+d} cp'}; MCTS in the GUI: {score}")
        print(f"  {line}")


if __name__ == "__main__":
    main()
