#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every wait of the tests says what it waits for, beside it.

The scripts and sources of tests/, scripts/, .ci/, bench/ and fuzz/, the top
CMakeLists.txt and the playbooks the tests run (ansible/examples/) are
scanned for wait constructs (WAIT below: sleeps, timeouts, CTest TIMEOUTs,
lock waits, poll and retry loops, durations and intervals handed to pcpctl,
shell `wait`, Ansible's async/poll/retries).  Each must have a marker

    # wait(C): EVENT OR BOUND      (shell, Python, CMake, YAML)
    /* wait(C): EVENT OR BOUND */  (C)

on its own line or on one of the MAX_ABOVE lines above it, with no blank line
in between, where C is the class: (a) an event wait whose generous bound
only matters when something is broken, (b) a bound on a whole test, (c) a
sleep or duration that is itself the tested thing, with nothing asserted on
time.  There is no (d), a bet that something happens within a fixed time on
a loaded machine.  Comment lines, Python docstrings and verbatim texts (a
here-document that cat writes out, cat >FILE <<'EOF') are not scanned for
waits; a marker with any other class fails.

Usage: waits-marked.py [SRCDIR]"""
import ast
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lib  # noqa: E402  (tests/lib.py, the harness)
from lib import check, finish  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
top = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(HERE, "..", ".."))
TREES = ("tests", "scripts", ".ci", "bench", "fuzz", "ansible/examples")
TOP_FILES = ("CMakeLists.txt",)
CODE = (".c", ".h", ".sh", ".py", ".yml", ".cmake")
MAX_ABOVE = 8

WAIT = re.compile("|".join((
    r"(?<![\w-])(u|nano)?sleep\b",                  # sleep(1), time.sleep, usleep, nanosleep
    r"(?<![\w-])timeout\s+(\"?\$|\d)",              # timeout(1)
    r"\btimeout=|-timeout=|Lock::Timeout=",         # Python's, libFuzzer's, dpkg's lock wait
    r"TIMEOUT\b|\w_timeout\b",                      # CTest's TIMEOUT, KT_QEMU_TIMEOUT, sweep_timeout
    r"(?<![\w-])flock\b",                           # flock(1)
    r"^\s*(async|poll|retries|delay|until):",       # Ansible's waits and retries
    r"(^\s*|[;&|]\s*)until\b",                         # a shell poll loop
    r"^\s*(for|while|until)\b.*\b(_?tr(y|ies)|attempts?|retr(y|ies))\b",  # a retry loop
    r"^\s*(while|until)\b.*\b(SECONDS|EPOCHREALTIME)\b",  # a loop on the clock
    r"(^\s*|[;&|({]\s*|then\s+|do\s+)wait\b(?!\()",    # the shell's wait
    r"\.wait\(",                                    # Popen.wait
    r"include\(CTest\)",                            # its DART_TESTING_TIMEOUT
    r"ulimit -t|\bsetitimer\b|\balarm\(",
    r"--(max-)?duration\b|--interval\b",            # pcpctl's own durations
    r"\bsweep_(duration|poll)\b",                    # the playbooks' durations
    r"\b(max_)?duration_s\b|\binterval_s\b",        # the workload's, in the unit tests
)))
MARK = re.compile(r"(?:#|/\*|//)\s*wait\(([^)]*)\):?(.*)")
TEXT = re.compile(r"""\s*cat\s+>\S+\s+<<-?\s*(['"])(\w+)\1\s*$""")
COMMENT = re.compile(r"^\s*(#|//|/\*|\*)")
lib.quiet_ok = True  # a line per wait would bury the failures


def sources():
    for name in TOP_FILES:
        yield name
    for tree in TREES:
        for root, dirs, files in os.walk(os.path.join(top, tree)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, top)
                if rel == "tests/doc/waits-marked.py":
                    continue
                if name.endswith(CODE) or name == "CMakeLists.txt":
                    yield rel
                    continue
                with open(path, "rb") as f:
                    if f.read(2) == b"#!":
                        yield rel


def docstrings(rel, lines):
    """The line numbers of a Python file's docstrings."""
    if not (rel.endswith(".py") or (lines and "python" in lines[0])):
        return set()
    tree = ast.parse("\n".join(lines), rel)
    inside = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            inside.update(range(body[0].lineno, body[0].end_lineno + 1))
    return inside


def heredocs(rel, lines):
    """The line numbers of a shell script's verbatim texts: here-documents
    that cat writes out with a quoted delimiter (cat >FILE <<'EOF')."""
    inside, end = set(), None
    for number, line in enumerate(lines, 1):
        if end is not None:
            inside.add(number)
            if line.strip() == end:
                end = None
        elif m := TEXT.match(line):
            end = m.group(2)
    return inside


def scanned(rel, lines):
    """The lines a wait is looked for in: not comments, docstrings or data."""
    skip = docstrings(rel, lines) | heredocs(rel, lines)
    for number, line in enumerate(lines, 1):
        if number not in skip and not COMMENT.match(line):
            yield number, line


files = waits = marks = 0
for rel in sources():
    with open(os.path.join(top, rel), encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    files += 1
    marked = set()
    for number, line in enumerate(lines, 1):
        if m := MARK.search(line):
            marks += 1
            marked.add(number)
            check(f"{rel}:{number} wait({m.group(1)}) is class a, b or c", m.group(1) in ("a", "b", "c"))
            check(f"{rel}:{number} wait({m.group(1)}) says what it waits for", m.group(2).strip(" */"),
                  line.strip())
    for number, line in scanned(rel, lines):
        if not WAIT.search(line):
            continue
        waits += 1
        covered = False
        for above in range(number, max(0, number - MAX_ABOVE - 1), -1):
            if not lines[above - 1].strip():
                break
            if above in marked:
                covered = True
                break
        check(f"{rel}:{number} has a wait(CLASS) comment", covered,
              line.strip())

# A scanner that found nothing would pass: the suite has hundreds of waits.
check("the scan finds the waits", files >= 100 and waits >= 200, f"{files} files, {waits} waits")
finish(f"{files} files, {waits} wait lines, {marks} markers, ")
