"""What the Python tools share: a UCI engine process, the GUI server's JSON API, starting
`janus gui`, and a process's memory. Imported by the scripts next to it (tools/*.py put their own
folder first on sys.path when run as `tools/NAME.py`).

UCI: https://www.shredderchess.com/chess-features/uci-universal-chess-interface.html (the protocol
text of Stefan Meyer-Kahlen). The GUI's API: docs/gui.md and docs/architecture.md.
"""
import http.client
import json
import re
import subprocess
import threading


class Uci:
    """An engine process spoken to over UCI: `uci` is sent and `uciok` awaited on creation;
    `options` (name -> value) are set right after."""

    def __init__(self, cmd, options=None):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, prefix):
        """The lines (without their newline) up to and including the first one starting with
        `prefix`. Raises RuntimeError when the engine exits first."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine {self.p.args!r} exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def wait_for(self, prefix):
        """The first line starting with `prefix` (the lines before it are dropped)."""
        return self.read_until(prefix)[-1]

    def sync(self):
        """isready / readyok: every command sent so far has been handled."""
        self.send("isready")
        self.read_until("readyok")

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


class GuiApi:
    """A small client of the GUI's JSON API on one kept-alive connection (a dropped connection is
    opened again once). Every request carries the header the server asks of POST and DELETE."""

    def __init__(self, port, timeout=60):
        self.port, self.timeout = port, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method, path, body=None):
        """(HTTP status, decoded JSON or the text of a non-JSON answer). `body`: bytes as they are,
        anything else as JSON."""
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        headers = {"X-Janus": "1", "Content-Type": "application/json"}
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
        raw = r.read()
        try:
            payload = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            payload = raw.decode(errors="replace")
        if r.status == 413:  # the server may close the connection after refusing a body
            self.conn.close()
        return r.status, payload

    def ok(self, method, path, body=None):
        """The payload of a 200 answer; RuntimeError with the request and the answer otherwise."""
        status, payload = self.call(method, path, body)
        if status != 200:
            raise RuntimeError(f"{method} {path} {json.dumps(body) if not isinstance(body, bytes) else '<bytes>'}"
                               f" -> {status} {payload}")
        return payload


def start_gui(janus, data_dir, extra_args=()):
    """Starts `janus gui --port 0 --no-browser --data-dir DATA_DIR EXTRA_ARGS...` and waits for the
    URL it prints. Returns (process, port); its output is drained on a daemon thread from then on.
    Raises RuntimeError (with what it printed) when it exits without a URL."""
    server = subprocess.Popen([janus, "gui", "--port", "0", "--no-browser", "--data-dir", data_dir, *extra_args],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed = ""
    while True:  # "Web page: ..." comes first, then "Janus GUI: <URL>"
        line = server.stdout.readline()
        if not line:
            server.wait()
            raise RuntimeError(f"janus gui printed no URL: {printed!r}")
        printed += line
        m = re.search(r"Janus GUI: http://[^:]+:(\d+)/", line)
        if m:
            break
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    return server, int(m.group(1))


def proc_status_mib(pid, field="VmRSS"):
    """Field `field` (VmRSS, VmHWM, ...) of /proc/PID/status in MiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status")
