#!/usr/bin/env python3
"""Writes the man page janus.6 from the command help of a janus binary.

    tools/make-manpage.py JANUS [OUT] [--version V]

Runs `JANUS --help` and `JANUS <subcommand> --help` for every subcommand it lists and turns the
text into a troff man page (section 6, games): NAME, SYNOPSIS, DESCRIPTION, OPTIONS, one
subsection per subcommand with its own help, FILES, ENVIRONMENT and SEE ALSO. The help text is the
only source, so the page never disagrees with the binary. Called at install time by CMake
(cmake/JanusInstall.cmake); OUT defaults to standard output.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys


def run_help(janus, *args):
    """The --help text of `janus args...` (CLI11 prints it on stdout and exits 0), or None with a
    warning on stderr when the command fails (a subcommand whose help needs a missing part)."""
    cmd = [janus, *args, "--help"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        print(f"make-manpage: warning: '{' '.join(cmd)}' failed ({r.returncode}): {r.stderr.strip()}", file=sys.stderr)
        return None
    return r.stdout


def escape(text):
    """Escapes text for troff: backslashes, and a leading dot or quote on a line."""
    text = text.replace("\\", "\\e")
    return "\n".join(("\\&" + line if line[:1] in (".", "'") else line) for line in text.split("\n"))


def split_help(text):
    """(description, usage, body) of a CLI11 help text; body is what follows the usage line."""
    lines = text.rstrip("\n").split("\n")
    usage_at = next((i for i, l in enumerate(lines) if l.startswith("Usage:")), None)
    if usage_at is None:
        return "\n".join(lines).strip(), "", ""
    description = "\n".join(lines[:usage_at]).strip()
    usage = lines[usage_at][len("Usage:"):].strip()
    body = "\n".join(lines[usage_at + 1:]).strip("\n")
    return description, usage, body


def subcommands(body):
    """(name, summary) pairs listed in the 'Subcommands:' block of a help body."""
    names, inside = [], False
    for line in body.split("\n"):
        if line.startswith("Subcommands:"):
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            m = re.match(r"\s{2}(\S+)\s+(.*)", line)
            if m:
                names.append((m.group(1), m.group(2).strip()))
    return names


def preformatted(text):
    """Help text kept as printed (columns aligned), in a no-fill block."""
    return ".nf\n" + escape(text) + "\n.fi"


def main():
    ap = argparse.ArgumentParser(description="Write janus.6 from the help of a janus binary.")
    ap.add_argument("janus", help="the janus binary")
    ap.add_argument("out", nargs="?", help="output file (default: standard output)")
    ap.add_argument("--version", default="", help="version for the page footer")
    args = ap.parse_args()

    top = run_help(args.janus)
    if top is None:
        raise SystemExit(f"make-manpage: '{args.janus} --help' failed; is this a janus binary?")
    description, _, body = split_help(top)
    names = subcommands(body)
    if not names:
        raise SystemExit("make-manpage: the help of janus lists no subcommands; is this a janus binary?")
    # SOURCE_DATE_EPOCH (reproducible builds), else today.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    date = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else datetime.datetime.now()).strftime("%Y-%m-%d")

    out = [
        f'.TH JANUS 6 "{date}" "{("janus " + args.version).strip()}" "Games"',
        ".SH NAME",
        "janus \\- chess engine (UCI) with a web GUI, match runner and training tools",
        ".SH SYNOPSIS",
        ".B janus",
        ".br",
        ".B janus",
        "\\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]",
        ".SH DESCRIPTION",
        escape(description),
        ".PP",
        "Without a subcommand janus speaks the UCI protocol on standard input and output, so any chess",
        "GUI can use it. The subcommands below are printed from the program's own help.",
        ".SH OPTIONS",
        preformatted(("\n" + body).split("\nSubcommands:")[0].strip("\n")),
        ".SH SUBCOMMANDS",
    ]
    for name, summary in names:
        text = run_help(args.janus, name)
        if text is None:  # keep the summary the top-level help gives
            out += [f".SS {escape(name)}", escape(summary)]
            continue
        sub_description, usage, sub_body = split_help(text)
        usage = re.sub(r"^\S*janus", "janus", usage)
        out += [f".SS {escape(name)}", escape(sub_description), ".PP", f"Usage: {escape(usage)}"]
        if sub_body.strip():
            out += [".PP", preformatted(sub_body)]
    out += [
        ".SH FILES",
        ".TP",
        ".I <prefix>/share/janus/web",
        "The web page served by \\fBjanus gui\\fR, found relative to the binary (\\fI../share/janus/web\\fR).",
        ".TP",
        ".I <prefix>/share/janus/nets",
        "Networks installed with janus (for the EvalFile option).",
        ".TP",
        ".I $XDG_DATA_HOME/janus",
        "Games and bug reports of \\fBjanus gui\\fR (default \\fI~/.local/share/janus\\fR).",
        ".SH ENVIRONMENT",
        ".TP",
        ".B JANUS_WEB_DIR",
        "The web page folder for \\fBjanus gui\\fR when \\fB\\-\\-web\\-dir\\fR is not given.",
        ".SH SEE ALSO",
        "The documentation in the source tree: README.md and docs/ (docs/gui.md for the web GUI).",
        "",
    ]
    text = "\n".join(out)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
