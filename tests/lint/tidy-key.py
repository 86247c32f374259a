#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print "FILE KEY" for each FILE: the hash of what clang-tidy's verdict on
it depends on (clang-tidy's version, .clang-tidy, the file's compile command
and its translation unit after the preprocessor), for tests/lint/run.sh's cache.
Usage: tidy-key.py BUILD_DIR FILE...   (BUILD_DIR has compile_commands.json)"""
import hashlib
import json
import os
import shlex
import subprocess
import sys

# Options that name an output or a dependency file: a preprocessing run to
# stdout must not write them, and they do not change the translation unit.
WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
ALONE = {"-c", "-MD", "-MMD"}


def preprocess_command(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in WITH_VALUE:
            skip = True
        elif a not in ALONE:
            out.append(a)
    return out + ["-E"]


def main():
    build, files = sys.argv[1], sys.argv[2:]
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        db = {os.path.realpath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}
    base = hashlib.sha256()
    base.update(subprocess.run(["clang-tidy", "--version"], capture_output=True, check=True).stdout)
    with open(".clang-tidy", "rb") as f:
        base.update(f.read())
    for name in files:
        entry = db.get(os.path.realpath(name))
        if entry is None:
            continue
        args = entry.get("arguments") or shlex.split(entry["command"])
        unit = subprocess.run(preprocess_command(args), cwd=entry["directory"],
                              capture_output=True, check=True).stdout
        h = base.copy()
        h.update(json.dumps(args).encode())
        h.update(unit)
        print(name, h.hexdigest())


if __name__ == "__main__":
    main()
