#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""HACKING.md's layout table against the tree: every path it names exists,
every source file (src/, the C files of tests/, fuzz/ and bench/) is named
by its own name, and every other tracked file lies under a named folder.
Its parts table against the tree and CMakeLists.txt: every folder of src/
is a part, named in both tables, and the parts each may use are those its
library links PUBLIC.  src/ itself holds the three spine files, no more, and
HACKING.md says so.

Usage: hacking-layout.py [SRCDIR]"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish  # noqa: E402  (tests/lib.py, the harness)

HERE = os.path.dirname(os.path.abspath(__file__))
top = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(HERE, "..", ".."))


text = open(os.path.join(top, "HACKING.md"), encoding="utf-8").read()
layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
named = set()
for row in layout.splitlines():
    if not row.startswith("| `"):
        continue
    for path in re.findall(r"`([^`]+)`", row.split("|")[1]):
        if m := re.fullmatch(r"(.*)\.\[(\w+)\]", path):
            named.update(f"{m[1]}.{ext}" for ext in m[2])
        elif "*" in path:
            d, pattern = os.path.split(path)
            rx = re.compile(re.escape(pattern).replace(r"\*", ".*") + "$")
            matches = [os.path.join(d, f) for f in os.listdir(os.path.join(top, d)) if rx.match(f)]
            check(f"{path} matches files", bool(matches))
            named.update(matches)
        else:
            named.add(path)
check("the layout table names paths", len(named) > 40, str(len(named)))
for path in sorted(named):
    check(f"{path} exists", os.path.exists(os.path.join(top, path)))

# Paths that HACKING.md names outside the table must exist too.
for path in sorted(set(re.findall(r"`((?:src|tests|fuzz|bench)/[\w./-]+)`", text)) - named):
    if "[" not in path and "*" not in path:
        check(f"{path} (outside the table) exists", os.path.exists(os.path.join(top, path)))

try:
    files = subprocess.run(["git", "-C", top, "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f), top)
             for d, dirs, fs in os.walk(top)
             for f in fs
             if not os.path.relpath(d, top).split(os.sep)[0].startswith(("build", ".git"))]
folders = {p.rstrip("/") for p in named if p.endswith("/")}
for f in sorted(files):
    if "/" not in f:
        continue        # README.md, CMakeLists.txt, HACKING.md and the like
    source = f.startswith("src/") or (f.endswith((".c", ".h")) and f.count("/") == 1)
    if source:
        check(f"{f} is named", f in named)
    else:
        covered = f in named or any(f.startswith(d + "/") for d in folders)
        check(f"{f} lies under a named folder", covered)

# The parts: the folders of src/, their rows in the layout table, and the
# parts each may use, as HACKING.md says and as CMakeLists.txt links them.
parts = {f.split("/")[1] for f in files if f.startswith("src/") and f.count("/") == 2}
check("src/ has parts", len(parts) >= 5, str(sorted(parts)))
for part in sorted(parts):
    check(f"src/{part}/ has a row of its own", f"src/{part}/" in named)
    check(f"src/{part}/ holds its own files only", all(
        f.count("/") == 2 for f in files if f.startswith(f"src/{part}/")))
# src/ itself holds the three spine files of the design card, and no header:
# a header there would be found by a quoted include of its neighbours, and
# by no rule of the parts.
spine = {"src/pcpctl.c", "src/zoneinfo.c", "src/apply.c"}
top_level = {f for f in files if f.startswith("src/") and f.count("/") == 1}
check("src/ itself holds exactly pcpctl.c, zoneinfo.c and apply.c", top_level == spine,
      f"{sorted(top_level)}")
exception = re.search(r"`src/`\s+itself\s+holds\s+exactly\s+`pcpctl\.c`,\s+`zoneinfo\.c`\s+and\s+`apply\.c`", text)
check("HACKING.md states src/'s exception", bool(exception))
table = text.split("## Parts", 1)[1].split("\n## ", 1)[0] if "## Parts" in text else ""
may_use = {}
for row in table.splitlines():
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(cells) == 2 and (m := re.fullmatch(r"`(\w+)`", cells[0])):
        may_use[m[1]] = set(re.findall(r"`(\w+)`", cells[1]))
check("the parts table names every folder of src/", set(may_use) == parts,
      f"table {sorted(may_use)}, src/ {sorted(parts)}")
cmake = open(os.path.join(top, "CMakeLists.txt"), encoding="utf-8").read()
links = {}
for target, scope, args in re.findall(r"target_link_libraries\(\s*pcpctl_(\w+)\s+(\w+)([^)]*)\)", cmake):
    if scope == "PUBLIC":
        links.setdefault(target, set()).update(re.findall(r"\bpcpctl_(\w+)", args))
for part in sorted(may_use):
    check(f"CMakeLists.txt links {part} to the parts it may use",
          links.get(part, set()) == may_use[part],
          f"HACKING.md {sorted(may_use[part])}, CMake {sorted(links.get(part, set()))}")
finish()
