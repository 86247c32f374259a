# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness of the Python tests, imported first by each of them:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import check, finish, workdir      (from tests/DIR/; ok and bad too)

One "ok   NAME" or "FAIL NAME: DETAIL" line per check (a DETAIL of many
lines indented below, its first and last 25 when longer than 50), then "N passed, N
failed" and the exit status (finish); a temporary directory removed at exit
(workdir).  CTest reads the exit status; people read the lines."""
import atexit
import shutil
import sys
import tempfile

passes = failures = 0
# quiet_ok = True: a check that passes only counts (hundreds of checks).
quiet_ok = False


def check(name, cond, detail=""):
    """Count and print one check; cond's truth, for the caller's use."""
    global passes, failures
    if cond:
        passes += 1
        if not quiet_ok:
            print(f"ok   {name}")
    else:
        failures += 1
        lines = str(detail).strip().splitlines()
        if len(lines) <= 1:
            print(f"FAIL {name}{': ' + lines[0] if lines else ''}")
        else:
            print(f"FAIL {name}")
            if len(lines) > 50:
                lines = lines[:25] + ["..."] + lines[-25:]
            for line in lines:
                print(f"    {line}")
    return bool(cond)


def ok(name):
    """A check that passed."""
    check(name, True)


def bad(name, detail=""):
    """A check that failed, and why."""
    check(name, False, detail)


def finish(prefix=""):
    """The summary line (after PREFIX), and exit 1 if a check failed."""
    print(f"{prefix}{passes} passed, {failures} failed")
    sys.exit(1 if failures else 0)


def workdir(prefix=None):
    """A new directory, removed at exit."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path
