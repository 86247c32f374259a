#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every JSON document pcpctl prints, checked against its JSON Schema in
schema/ (Debian's python3-jsonschema, draft 2020-12) and against the one
layout: a report pretty-printed as libsmartcols prints show's tables, a
show --interval sample on one line.  Fixture trees for show, status and
compare, the simulated kernel for set, reset, rollback, rollback --discard
(every exit that prints a report, and the exits that must print none) and a
short sweep; with --live, this machine's kernel, read-only.

Usage: run.py PCPCTL PCPCTL-SIM FIXTURE_DIR SCHEMA_DIR
       run --live PCPCTL SCHEMA_DIR
       run --file SCHEMA FILE   (FILE against schema/SCHEMA.json, for other tests)
"""
import json
import os
import shutil
import subprocess
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import bad, finish, ok, sysroot_tree, workdir  # noqa: E402  (tests/lib.py, the harness)


class Raw(str):
    """A number as pcpctl wrote it: its digits are part of the layout."""


class Obj:
    """An object's members in the order they were printed."""

    def __init__(self, pairs):
        keys = [k for k, _ in pairs]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            raise ValueError(f"key printed twice: {sorted(dup)}")
        self.pairs = pairs


def parse_raw(text):
    return json.loads(text, parse_int=Raw, parse_float=Raw, object_pairs_hook=Obj)


def string(s):
    """A string escaped as pcpctl (and libsmartcols) escape it."""
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def scalar(v):
    if isinstance(v, Raw):
        return v
    if isinstance(v, str):
        return string(v)
    return {True: "true", False: "false", None: "null"}[v]


def pretty(v, level):
    """The layout of a value whose container is `level` deep: a member a line,
    three spaces a level, objects in an array joined as },{, an empty one as
    [] or {}."""
    pad = "   " * (level + 1)
    if isinstance(v, (Obj, list)) and not (v.pairs if isinstance(v, Obj) else v):
        return "{}" if isinstance(v, Obj) else "[]"
    if isinstance(v, Obj):
        body = ",\n".join(f"{pad}{string(k)}: {pretty(x, level + 1)}" for k, x in v.pairs)
        return "{\n" + body + "\n" + "   " * level + "}"
    if isinstance(v, list):
        parts, after_container = [], False
        for i, x in enumerate(v):
            parts.append(pad if i == 0 else "," if after_container else ",\n" + pad)
            parts.append(pretty(x, level + 1))
            after_container = isinstance(x, (Obj, list))
        return "[\n" + "".join(parts) + "\n" + "   " * level + "]"
    return scalar(v)


def compact(v):
    if isinstance(v, Obj):
        return "{" + ",".join(f"{string(k)}:{compact(x)}" for k, x in v.pairs) + "}"
    if isinstance(v, list):
        return "[" + ",".join(compact(x) for x in v) + "]"
    return scalar(v)


def layout_error(text, one_line):
    """None when text is laid out the one way, else what differs."""
    try:
        doc = parse_raw(text)
    except ValueError as e:
        return f"not JSON: {e}"
    if not isinstance(doc, Obj) or not doc.pairs or doc.pairs[0][0] != "version":
        return 'not an object that starts with "version"'
    want = compact(doc) + "\n" if one_line else pretty(doc, 0) + "\n"
    if text == want:
        return None
    at = next((i for i, (a, b) in enumerate(zip(text, want)) if a != b), min(len(text), len(want)))
    line = text.count("\n", 0, at) + 1
    return (f"layout differs at line {line}: got {text[at - 20:at + 20]!r}, "
            f"want {want[at - 20:at + 20]!r}")


class Checker:
    def __init__(self, schema_dir):
        self.validators = {}
        for name in sorted(os.listdir(schema_dir)):
            if name.endswith(".json"):
                with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                    schema = json.load(f)
                jsonschema.Draft202012Validator.check_schema(schema)
                self.validators[name[:-5]] = jsonschema.Draft202012Validator(schema)

    def errors(self, schema, text, one_line=False):
        """What is wrong with one document (a list, empty when nothing)."""
        why = layout_error(text, one_line)
        if why:
            return [why]
        doc = json.loads(text)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
                for e in self.validators[schema].iter_errors(doc)]

    def check(self, name, schema, text, one_line=False):
        errs = self.errors(schema, text, one_line)
        if errs:
            bad(name, "; ".join(errs[:3]) + ("\n" + text[:2000]))
        else:
            ok(name)
        return not errs


def run(checker, name, argv, want_rc, schema=None, lines=False, env=None):
    """Run pcpctl; its exit code must be want_rc and its stdout a document of
    schema (one per line with lines), or nothing when schema is None."""
    p = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if p.returncode != want_rc:
        bad(name, f"exit {p.returncode}, expected {want_rc}: {p.stderr.strip()}")
        return None
    if schema is None:
        if p.stdout:
            bad(name, f"exit {want_rc} printed a report: {p.stdout[:200]!r}")
        else:
            ok(name)
        return None
    if lines:
        docs = p.stdout.splitlines(keepends=True)
        if not docs:
            bad(name, "no line")
        for i, line in enumerate(docs):
            checker.check(f"{name} (line {i + 1})", schema, line, one_line=True)
        return [json.loads(line) for line in docs]
    return json.loads(p.stdout) if checker.check(name, schema, p.stdout) else None


def self_test(checker):
    """The checks must be able to fail: a missing key, a string for a number,
    an extra key, a compact report, a wrong version, a key twice."""
    good = ('{\n   "version": 1,\n   "kernel": "6.1.0",\n   "settings": {\n'
            '      "percpu_pagelist_batch": null,\n'
            '      "percpu_pagelist_high_fraction": 0,\n'
            '      "percpu_pagelist_fraction": null\n   },\n   "boot": {\n'
            '      "percpu_pagelist_batch": null,\n'
            '      "percpu_pagelist_high_fraction": null,\n'
            '      "percpu_pagelist_fraction": null\n   },\n   "tuned": null,\n   "zones": null\n}\n')
    broken = {
        "a missing key": good.replace('      "percpu_pagelist_batch": null,\n', ""),
        "a string where a number belongs": good.replace('fraction": 0', 'fraction": "0"'),
        "an unknown key": good.replace('"kernel"', '"other": 1,\n   "kernel"'),
        "a report on one line": compact(parse_raw(good)) + "\n",
        "another indentation": good.replace("\n   ", "\n  "),
        "another version": good.replace('"version": 1', '"version": 2'),
        "a key twice": good.replace('"kernel": "6.1.0",', '"kernel": "6.1.0",\n   "kernel": "x",'),
    }
    if checker.errors("status", good):
        bad("self-test: a good report passes", checker.errors("status", good))
    else:
        ok("self-test: a good report passes")
    for what, text in broken.items():
        if checker.errors("status", text):
            ok(f"self-test: {what} fails")
        else:
            bad(f"self-test: {what} fails", "accepted")
    line = '{"version":2,"time":"2025-12-01T04:31:02.123Z","seconds":null,"pgfree_per_s":null,' \
           '"pgalloc_per_s":{},"zones":[]}\n'
    if checker.errors("show-interval", line, one_line=True):
        bad("self-test: a good interval line passes", checker.errors("show-interval", line, True))
    else:
        ok("self-test: a good interval line passes")
    if checker.errors("show-interval", pretty(parse_raw(line), 0) + "\n", one_line=True):
        ok("self-test: a pretty-printed interval line fails")
    else:
        bad("self-test: a pretty-printed interval line fails", "accepted")


def tree(work, name, fixtures, zoneinfo, release, nodes="", **sysctls):
    """A sysroot (lib.sysroot_tree) without a page size: a fixture's zoneinfo, the
    release, the sysctls, node cpulists ("0-1;2-3"), proc/vmstat and an etc/sysctl.d."""
    t = sysroot_tree(os.path.join(work, name), os.path.join(fixtures, "zoneinfo", zoneinfo),
                     release=release, page_kib=0, nodes=nodes, sim=True, sysctl_d=True,
                     sysctls=sysctls)
    shutil.copy(os.path.join(fixtures, "vmstat", "live-6.18-2cpu.vmstat"),
                os.path.join(t, "proc/vmstat"))
    return t


def faults(t, *lines):
    path = os.path.join(t, "sim/faults")
    if lines:
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    elif os.path.exists(path):
        os.remove(path)
    if os.path.exists(os.path.join(t, "sim/writes")):
        os.remove(os.path.join(t, "sim/writes"))


def read_only(checker, pcpctl, where, prefix):
    """show, show --summary, status and show --interval on one kernel or tree."""
    pcp = [pcpctl] + prefix
    run(checker, f"{where}: show", pcp + ["show", "--json"], 0, "show")
    run(checker, f"{where}: show --output-all", pcp + ["show", "-J", "--output-all"], 0, "show")
    summary = run(checker, f"{where}: show --summary", pcp + ["show", "-s", "-J"], 0,
                  "show-summary")
    run(checker, f"{where}: show --summary --output-all",
        pcp + ["show", "-s", "-J", "--output-all"], 0, "show-summary")
    run(checker, f"{where}: an empty filter", pcp + ["show", "-J", "--cpu", "9999"], 0, "show")
    run(checker, f"{where}: status", pcp + ["status", "--json"], 0, "status")
    # wait(c): show --interval 0.05: the interval under test; the schema is checked, not the time.
    run(checker, f"{where}: show --interval", pcp + ["show", "--interval", "0.05", "--count",
                                                      "2", "--json"], 0, "show-interval", lines=True)
    run(checker, f"{where}: show --interval --per-cpu",
        pcp + ["show", "--interval", "0.05", "--count", "2", "--json", "--per-cpu"], 0,
        "show-interval", lines=True)
    for z in summary["zones"] if summary else []:
        for key, lo, hi in (("batch", "batch_min", "batch_max"), ("high", "high_lo", "high_hi")):
            lo, hi = z[lo], z[hi]
            if z[key] != (lo if lo == hi else None) or lo > hi:
                bad(f"{where}: summary {key} of node {z['node']} {z['zone']}",
                    f"{z[key]} with {lo}..{hi}")
    return summary


def fixtures_and_sim(checker, pcpctl, sim, fixtures, work):
    kernels = [
        ("6.1", "debian-6.1-cpuless-node.zoneinfo", "6.1.0-57-cloud-amd64", {"percpu_pagelist_high_fraction": 0}),
        ("6.12", "debian-6.12-4cpu-2node.zoneinfo", "6.12.117+deb12-cloud-amd64", {"percpu_pagelist_high_fraction": 0}),
        ("6.18", "live-6.18-2cpu.zoneinfo", "6.18.44", {"percpu_pagelist_high_fraction": 0}),
        ("7.3 patched", "patched-7.3-4cpu-2node.zoneinfo", "7.3.0-pcpctl",
         {"percpu_pagelist_batch": 0, "percpu_pagelist_high_fraction": 0}),
        ("4.14", "synthetic-4.14-2node-sparse.zoneinfo", "4.14.336", {"percpu_pagelist_fraction": 0}),
    ]
    for name, zoneinfo, release, sysctls in kernels:
        t = tree(work, "ro-" + name.replace(" ", "-"), fixtures, zoneinfo, release, **sysctls)
        read_only(checker, pcpctl, name, ["--sysroot", t])

    # set, reset and rollback on the simulated kernel, every exit.
    def new():
        shutil.rmtree(os.path.join(work, "sim"), ignore_errors=True)
        return tree(work, "sim", fixtures, "debian-6.1-4cpu-2node.zoneinfo", "6.1.0-57-pcpctl",
                    "0-1;2-3", percpu_pagelist_batch=0, percpu_pagelist_high_fraction=0)

    t = new()
    s = [sim, "--sysroot", t]
    run(checker, "set --dry-run", s + ["set", "--batch", "310", "--dry-run", "--json"], 0, "change")
    run(checker, "set --persist", s + ["set", "--batch", "310", "--fraction", "8", "--persist", "-J"],
        0, "change")
    run(checker, "set, already so", s + ["set", "--batch", "310", "--json"], 0, "change")
    run(checker, "reset --dry-run", s + ["reset", "--dry-run", "--json"], 0, "change")
    run(checker, "reset --persist", s + ["reset", "--persist", "--json"], 0, "change")
    run(checker, "rollback, nothing to do", s + ["rollback", "--json"], 0, "change")
    run(checker, "rollback --discard, no journal", s + ["rollback", "--discard", "--json"], 0,
        "discard")
    run(checker, "exit 2: an invalid value prints no report",
        s + ["set", "--fraction", "3", "--json"], 2)
    faults(t, "fail-write 1 EIO")
    doc = run(checker, "exit 1: a failed write, rolled back", s + ["set", "--batch", "310", "--json"],
              1, "change")
    if doc and not doc["rolled_back"]:
        bad("exit 1 says rolled_back", doc)
    faults(t, "fail-write 2 EIO", "fail-write 4 EIO")
    doc = run(checker, "exit 5: the rollback failed too",
              s + ["set", "--batch", "310", "--fraction", "8", "--json"], 5, "change")
    if doc and doc["rolled_back"]:
        bad("exit 5 says rolled_back false", doc)
    run(checker, "exit 1: a journal is left", s + ["set", "--fraction", "8", "--json"], 1, "change")
    faults(t, "fail-write 1 EIO")
    run(checker, "exit 5: rollback fails again", s + ["rollback", "--json"], 5, "change")
    faults(t)
    run(checker, "rollback restores", s + ["rollback", "--json"], 0, "change")
    faults(t, "fail-write 2 EIO", "fail-write 4 EIO")
    p = subprocess.run(s + ["set", "--batch", "310", "--fraction", "8", "--persist"],
                       capture_output=True, check=False)
    if p.returncode != 5:
        bad("exit 5 leaves a journal for --discard", f"exit {p.returncode}")
    faults(t)
    doc = run(checker, "rollback --discard, with a journal", s + ["rollback", "--discard", "-J"],
              0, "discard")
    if doc and not (doc["discarded"] and doc["recorded"] and doc["persist_before"]):
        bad("the discarded journal held the change and the sysctl.d file", doc)
    os.makedirs(os.path.join(t, "run/pcpctl"), exist_ok=True)
    with open(os.path.join(t, "run/pcpctl/journal"), "w", encoding="utf-8") as f:
        f.write("garbage\n")
    run(checker, "rollback --discard, a damaged journal", s + ["rollback", "--discard", "-J"], 0,
        "discard")
    faults(t, "foreign-write verify percpu_pagelist_high_fraction=100")
    run(checker, "exit 6: another writer", s + ["set", "--batch", "62", "--fraction", "8", "--json"],
        6, "change")
    faults(t)
    run(checker, "reset after exit 6", s + ["reset", "--json"], 0, "change")
    stock = tree(work, "stock", fixtures, "debian-6.12-4cpu-2node.zoneinfo", "6.12.117",
                 "0-1;2-3", percpu_pagelist_high_fraction=0)
    run(checker, "exit 3: no batch on a stock kernel prints no report",
        [sim, "--sysroot", stock, "set", "--batch", "310", "--json"], 3)
    run(checker, "set --fraction on 6.12", [sim, "--sysroot", stock, "set", "--fraction", "8", "-J"],
        0, "change")
    if os.geteuid() == 0:
        os.chmod(work, 0o755)
        run(checker, "exit 4: no privilege prints no report",
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
             sim, "--sysroot", stock, "set", "--fraction", "0", "--json"], 4)

    # A short sweep, and compare over the sweep fixtures and the sweep just made.
    t = new()
    out = os.path.join(work, "sweep.json")
    # wait(c): a point's length; the schema is checked, not the time.
    p = subprocess.run([sim, "--sysroot", t, "sweep", "--batch", "31,62", "--tasks", "1",
                        "--duration", "0.2", "--warmup", "0", "--runs", "2", "--json"],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        bad("sweep", f"exit {p.returncode}: {p.stderr.strip()}")
    else:
        checker.check("sweep", "sweep", p.stdout)
        with open(out, "w", encoding="utf-8") as f:
            f.write(p.stdout)
    sweeps = os.path.join(fixtures, "sweep")
    run(checker, "compare", [pcpctl, "compare", "--json", os.path.join(sweeps, "base.json"),
                             os.path.join(sweeps, "other.json")], 0, "compare")
    run(checker, "compare, three inputs with labels",
        [pcpctl, "compare", "-J", "--label", "a", "--label", "b", "--label", "c",
         os.path.join(sweeps, "base.json"), os.path.join(sweeps, "other.json"),
         os.path.join(sweeps, "base.json")], 0, "compare")
    if os.path.exists(out):
        run(checker, "compare of a sweep pcpctl wrote", [pcpctl, "compare", "-J", out, out], 0,
            "compare")


def main(argv):
    if argv[1] == "--file":
        checker = Checker(os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                       "..", "..", "schema"))
        with open(argv[3], encoding="utf-8") as f:
            checker.check(f"{argv[3]} against {argv[2]}.json", argv[2], f.read(),
                          one_line=argv[2] == "show-interval")
    elif argv[1] == "--live":
        checker = Checker(argv[3])
        summary = read_only(checker, argv[2], "live", [])
        if summary and not all(z["free_pct"] is not None for z in summary["zones"]):
            bad("live: free_pct is known", summary)
    else:
        checker = Checker(argv[4])
        self_test(checker)
        fixtures_and_sim(checker, argv[1], argv[2], argv[3], workdir())
    finish()


if __name__ == "__main__":
    main(sys.argv)
