# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness of the Python tests, imported first by each of them:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import check, finish, workdir      (from tests/DIR/; ok and bad too)

One "ok   NAME" or "FAIL NAME: DETAIL" line per check (a DETAIL of many
lines indented below, its first and last 25 when longer than 50), then "N passed, N
failed" and the exit status (finish); a temporary directory removed at exit
(workdir); the fake kernel trees (sysroot_tree); the Debian packages a test
needs (need).  CTest reads the exit status; people read the lines."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

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


def sysroot_tree(path, zoneinfo, release=None, page_kib=None, nodes=None,
                 sim=False, sysctl_d=False, scale_pages=False, sysctls=None):
    """A fake kernel's tree for --sysroot, made anew at PATH by
    tests/sysroot-tree.sh (its defaults where an argument is None); PATH."""
    cmd = [os.path.join(HERE, "sysroot-tree.sh"), path, zoneinfo]
    if release is not None:
        cmd += ["--release", release]
    if page_kib is not None:
        cmd += ["--page-kib", str(page_kib)]
    if nodes is not None:
        cmd += ["--nodes", ";".join(nodes) if isinstance(nodes, (list, tuple)) else nodes]
    if scale_pages:
        cmd.append("--scale-pages")
    if sim:
        cmd.append("--sim")
    if sysctl_d:
        cmd.append("--sysctl-d")
    cmd += [f"{k}={v}" for k, v in (sysctls or {}).items()]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return path


def need(*packages):
    """Install those of Debian's packages that are missing: lib.sh's need, run
    by bash (one way of installing, with its lock and its retry); its truth."""
    sys.stdout.flush()
    return subprocess.run(["bash", "-c", '. "$0"; need "$@"',
                           os.path.join(HERE, "lib.sh"), *packages]).returncode == 0
