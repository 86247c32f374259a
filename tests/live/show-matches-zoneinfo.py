#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pcpctl show --json on the live kernel, checked field by field against
/proc/zoneinfo, parsed here independently of pcpctl's parser.

count and high move while the machine runs, so the text compared is the
very text pcpctl read: pcpctl runs under strace, which records the bytes
each of its reads of /proc/zoneinfo returned.  Parsed here, they must give
pcpctl's rows exactly, every field of every row.  Reads of /proc/zoneinfo
here, before and after, must give the same rows and the same batch,
high_min and high_max: the traced text is the kernel's file, and pcpctl
left out no row.  Those move with a settings change, and also with the
inputs the kernel derives them from (managed pages, as memory is added;
the low watermark; the CPUs, which are the rows): the comparison is made
only when every zone's managed pages and low watermark held still from the
first read to the last, and otherwise made again, up to 20 times.  Nothing
here waits for the counts to hold still.

Usage: show-matches-zoneinfo.py PCPCTL [SYSROOT]
SYSROOT (a fixture tree) checks the comparison itself without the live
kernel: pcpctl then reads SYSROOT/proc/zoneinfo."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

pcpctl = sys.argv[1]
sysroot = sys.argv[2] if len(sys.argv) > 2 else None
path = os.path.join(sysroot, "proc/zoneinfo") if sysroot else "/proc/zoneinfo"
HEADER = re.compile(r"^Node (\d+), zone +(\w+)$")
INPUT = re.compile(r"^ +(managed|low) +(\d+)$")
FIELD = re.compile(r"^ +(count|high|batch|high_min|high_max): +(\d+)$")
CPU = re.compile(r"^ +cpu: (\d+)$")


def parse_zoneinfo(lines):
    rows, node, zone, row = [], None, None, None
    for line in lines:
        line = line.rstrip("\n")
        if m := HEADER.match(line):
            node, zone = int(m[1]), m[2]
        elif m := CPU.match(line):
            row = {"node": node, "zone": zone, "cpu": int(m[1]), "count": None,
                   "high": None, "batch": None, "high_min": None, "high_max": None}
            rows.append(row)
        elif (m := FIELD.match(line)) and row is not None:
            row[m[1]] = int(m[2])
    return rows


def parse_inputs(lines):
    """Each zone's managed pages and low watermark: what high_min and high_max derive from."""
    inputs, zone = {}, None
    for line in lines:
        if m := HEADER.match(line.rstrip("\n")):
            zone = (int(m[1]), m[2])
        elif (m := INPUT.match(line.rstrip("\n"))) and zone is not None:
            inputs[zone + (m[1],)] = int(m[2])
    return inputs


def read_zoneinfo():
    with open(path) as f:
        lines = f.readlines()
    return parse_zoneinfo(lines), parse_inputs(lines)


def stable(rows):
    return [{k: v for k, v in r.items() if k not in ("count", "high")} for r in rows]


# strace -xx prints every byte of a string as \xHH: the path that openat
# opened, and what a read returned.
OPENAT = re.compile(r'^openat\(AT_FDCWD, "((?:\\x[0-9a-f]{2})*)", [^)]*\) += (-?\d+)')
READ = re.compile(r'^read\((\d+), "((?:\\x[0-9a-f]{2})*)", \d+\) += (\d+)$')
CLOSE = re.compile(r"^close\((\d+)\)")


def unhex(s):
    return bytes.fromhex(s.replace("\\x", ""))


def traced_reads(trace):
    """The texts that each open of path returned, from strace -ff's files."""
    texts, real = [], os.path.realpath(path.encode())
    for name in sorted(glob.glob(trace + ".*")):
        fd, text = None, b""
        with open(name) as f:
            for line in f:
                if (m := OPENAT.match(line)) and os.path.realpath(unhex(m[1])) == real:
                    if int(m[2]) < 0:
                        sys.exit(f"FAIL: pcpctl could not open {path}: {line}")
                    fd, text = m[2], b""
                elif fd is not None and line.startswith(f"read({fd},"):
                    if not (m := READ.match(line)) or len(unhex(m[2])) != int(m[3]):
                        sys.exit(f"FAIL: a read of {path} not traced whole: {line[:200]}")
                    text += unhex(m[2])
                elif fd is not None and (m := CLOSE.match(line)) and m[1] == fd:
                    texts.append(text)
                    fd = None
    return texts


def run(argv, env=None):
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(argv)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def attempt():
    """pcpctl's reads and this script's around them; None when the inputs moved meanwhile."""
    before, inputs_before = read_zoneinfo()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        # LeakSanitizer cannot run under ptrace: the traced run leaves the leak
        # check to the untraced one below.
        env = dict(os.environ,
                   ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
        cmd = [pcpctl] + (["--sysroot", sysroot] if sysroot else []) + ["show", "--json"]
        out = run(["strace", "-ff", "-qq", "-o", trace, "-e", "trace=openat,read,close",
                   "-e", "signal=none", "-xx", "-s", str(1 << 24)] + cmd, env=env)
        texts = traced_reads(trace)
    untraced = json.loads(run(cmd))
    after, inputs_after = read_zoneinfo()
    read_inputs = parse_inputs(texts[0].decode().splitlines()) if len(texts) == 1 else None
    if inputs_before != inputs_after or (read_inputs is not None and read_inputs != inputs_after):
        return None
    return before, after, out, untraced, texts


# wait(a): pcpctl runs under strace and its rows are compared with the very bytes it read from
#   /proc/zoneinfo; a try is made again only when this script's reads around it saw the inputs move:
#   20 tries, a count, not a time (bound 1500 s, CTest default).
for tries in range(1, 21):
    if (result := attempt()) is not None:
        break
    print(f"# try {tries}: managed pages or a low watermark moved during it; again")
else:
    sys.exit("FAIL: managed pages or a low watermark moved during each of 20 tries")
before, after, out, untraced, texts = result
shown = json.loads(out)["pagesets"]

if len(texts) != 1:
    sys.exit(f"FAIL: pcpctl read {path} {len(texts)} times, not once")
read_rows = parse_zoneinfo(texts[0].decode().splitlines())
if not read_rows:
    sys.exit(f"FAIL: no pageset in the {len(texts[0])} bytes pcpctl read from {path}")
if shown != read_rows:
    diff = [(r, s) for r, s in zip(read_rows, shown) if r != s]
    sys.exit(f"FAIL: pcpctl's rows are not those of the text it read ({len(read_rows)} read, "
             f"{len(shown)} shown); first differences (read, shown): {diff[:3]}")
for what, other in (("before", before), ("after", after), ("untraced pcpctl", untraced["pagesets"])):
    if stable(other) != stable(read_rows):
        sys.exit(f"FAIL: rows or batch/high_min/high_max of the read {what} differ from "
                 f"those pcpctl read:\n{other}\n{read_rows}")
print(f"ok: all {len(shown)} pagesets match field by field the {len(texts[0])} bytes "
      f"pcpctl read from {path}")
print("1 passed, 0 failed")
