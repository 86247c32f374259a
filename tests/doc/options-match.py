#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The man page against the program: every option, command and column that
`pcpctl --help` and each command's --help print is documented in man/pcpctl.8 and the man page
documents none that they lack; each help fits in 80 columns; every exit code of src/util/msg.h and every
file of src/kernel/sysroot.h is in EXIT STATUS and FILES, and HACKING.md's exit codes are msg.h's; groff formats the page
without a warning.

Usage: options-match.py PCPCTL [MANPAGE]"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import check, finish, need  # noqa: E402  (tests/lib.py, the harness)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
pcpctl = sys.argv[1]
manpage = sys.argv[2] if len(sys.argv) > 2 else os.path.join(SRC, "man", "pcpctl.8")

if not need("groff-base", "man-db", "mandoc"):
    sys.exit("FAIL cannot install groff-base, man-db, mandoc")

OPTION = re.compile(r"(?:(?<![\w-])(-[A-Za-z]), )?(?<![\w-])(--[a-z][a-z-]*)")

# --- what --help says -------------------------------------------------------
def help_of(*args):
    return subprocess.run([pcpctl, *args, "--help"], capture_output=True, text=True,
                          check=True).stdout


# pcpctl --help lists the commands, and each command's --help its options.
main_help = help_of()
main_cmds = re.findall(r"^ (\w+) {2,}", main_help.split("\nCommands:\n", 1)[-1].split("\n\n")[0],
                       re.M)
help_text = main_help + "".join("\n" + help_of(c) for c in main_cmds)
for c in main_cmds:
    text = help_of(c)
    check(f"{c} --help fits in 80 columns", all(len(l) <= 80 for l in text.splitlines()))
    check(f"{c} --help is its own, not pcpctl --help", text != main_help and
          text.startswith(f"Usage:\n pcpctl {c} "))
check("pcpctl --help fits in 80 columns", all(len(l) <= 80 for l in main_help.splitlines()))
# pcpctl help [COMMAND] prints what --help prints, exit 0; an unknown one is a usage error.
for args, want in [([], main_help)] + [([c], help_of(c)) for c in main_cmds]:
    r = subprocess.run([pcpctl, "help", *args], capture_output=True, text=True)
    check(f"pcpctl help {' '.join(args)} prints what --help prints, exit 0",
          r.returncode == 0 and r.stdout == want and not r.stderr, r.stderr)
r = subprocess.run([pcpctl, "help", "shwo"], capture_output=True, text=True)
check("pcpctl help shwo: exit 2, did you mean show", r.returncode == 2 and not r.stdout and
      'did you mean "show"' in r.stderr, r.stderr)
check("--help's -J line names the commands without --json",
      " -J, --json           JSON output (all commands but export, plot and help)" in main_help)
for c in ("export", "plot", "help"):
    r = subprocess.run([pcpctl, c, "--json"], capture_output=True, text=True)
    check(f"{c} --json is refused (exit 2), as --help says", r.returncode == 2, r.stderr)
help_opts, help_cols, help_cmds = set(), {}, set()
section = None
for line in help_text.splitlines():
    if line and not line.startswith(" "):
        section = line.rstrip(":")
        continue
    if section == "Commands" and (m := re.match(r" (\w+) {2,}", line)):
        help_cmds.add(m[1])
    elif section and section.startswith(("Options", "Common options")):
        # Only the option column, not options mentioned in descriptions.
        if m := re.match(r" +((?:-[A-Za-z], )?--[a-z][a-z-]*)", line):
            om = OPTION.match(m[1])
            help_opts.add((om[1], om[2]))
    elif section and section.startswith("Columns of "):
        if m := re.match(r" +([A-Z][A-Z_]*)  ", line):
            help_cols.setdefault(section[len("Columns of "):], set()).add(m[1])

check("--help lists commands", len(help_cmds) >= 6, str(help_cmds))
check("--help lists options", len(help_opts) >= 20, str(len(help_opts)))
check("--help lists two column tables",
      set(help_cols) == {"show", "show --summary"}, str(sorted(help_cols)))

# --- what the man page says (its roff source: .SH, .SS, .TP tags) ------------
def plain(roff):
    """A roff line as text: escapes resolved, font macros applied as text."""
    roff = roff.replace("\\-", "-").replace("\\~", " ").replace("\\(aq", "'")
    roff = re.sub(r"\\f[BIRP]", "", roff)
    m = re.match(r"^\.(B|I|SM|SB|BI|BR|IB|IR|RB|RI)\s+(.*)", roff)
    if not m:
        return roff
    args = [a[1:-1] if a.startswith('"') else a for a in re.findall(r'"[^"]*"|\S+', m[2])]
    # .B and .I join their arguments with spaces, the alternating ones without.
    return (" " if len(m[1]) == 1 or m[1] in ("SM", "SB") else "").join(args)


man_src = open(manpage, encoding="utf-8").read().splitlines()
sections = {}           # "SH" or "SH/SS" -> list of (tag, body lines)
sh = ss = None
tags = {}               # section key -> tags
body = {}               # SH -> plain text
expect_tag = False
for line in man_src:
    if line.startswith('.\\"'):
        continue
    if line.startswith(".SH "):
        sh, ss = plain(line[4:]).strip(), None
        continue
    if line.startswith(".SS "):
        ss = plain(line[4:]).strip()
        continue
    key = f"{sh}/{ss}" if ss else sh
    if expect_tag:
        tags.setdefault(key, []).append(plain(line).strip())
        expect_tag = False
    elif line.startswith((".TP", ".TQ")):
        expect_tag = True
    body.setdefault(sh, []).append(plain(line))

SH_ORDER = ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OUTPUT",
            "EXIT STATUS", "ENVIRONMENT", "FILES", "NOTES", "EXAMPLES", "SEE ALSO"]
present = [l[4:].strip().strip('"') for l in man_src if l.startswith(".SH ")]
check("man page has the sections in man-pages(7) order", present == SH_ORDER, str(present))

man_opts = set()
for key, ts in tags.items():
    if key.startswith("COMMANDS/"):
        for t in ts:
            for m in OPTION.finditer(t):
                man_opts.add((m[1], m[2]))
for opt in sorted(help_opts, key=lambda o: o[1]):
    name = f"{opt[0]}, {opt[1]}" if opt[0] else opt[1]
    check(f"option {name} of --help is in OPTIONS", opt in man_opts)
for opt in sorted(man_opts - help_opts, key=lambda o: o[1]):
    name = f"{opt[0]}, {opt[1]}" if opt[0] else opt[1]
    check(f"option {name} of OPTIONS is in --help", False, "documented but not in --help")

# A command is a subsection of COMMANDS, its options the tags in it.
man_cmds = {plain(l[4:]).split()[0]
            for l in man_src[man_src.index(".SH COMMANDS"):man_src.index(".SH OUTPUT")]
            if l.startswith(".SS ")} - {"Common"}
check("COMMANDS documents every command of --help", help_cmds == man_cmds,
      f"--help {sorted(help_cmds)}, man {sorted(man_cmds)}")

for table, cols in sorted(help_cols.items()):
    man_cols = {t.split()[0] for t in tags.get(f"OUTPUT/Columns of {table}", [])}
    check(f"OUTPUT has a subsection 'Columns of {table}'", bool(man_cols))
    for c in sorted(cols - man_cols):
        check(f"column {c} of '{table}' is in COLUMNS", False, "missing from the man page")
    for c in sorted(man_cols - cols):
        check(f"column {c} of the man page's '{table}' is in --help", False,
              "documented but not in --help")
    check(f"columns of '{table}' match ({len(cols)})", cols == man_cols)

# --- exit codes and files from the source ------------------------------------
codes = re.findall(r"EXIT_\w+\s*=\s*(\d+)", open(os.path.join(SRC, "src", "util", "msg.h")).read())
exit_tags = {t.strip() for t in tags.get("EXIT STATUS", [])}
check("src/util/msg.h has exit codes", len(codes) >= 6, str(codes))
for c in codes:
    check(f"exit status {c} is documented", c in exit_tags)
for t in sorted(exit_tags - set(codes)):
    check(f"exit status {t} of the man page exists in src/util/msg.h", False)
# HACKING.md's table, one row a code, says the same codes as msg.h.
hacking = open(os.path.join(SRC, "HACKING.md")).read()
table = hacking.split("## Exit codes", 1)[-1].split("\n## ", 1)[0]
rows = re.findall(r"^\| (\d+) \|", table, re.M)
check("HACKING.md's exit codes are msg.h's", rows == codes, f"HACKING.md {rows}, msg.h {codes}")

sysroot_h = open(os.path.join(SRC, "src", "kernel", "sysroot.h")).read()
file_tags = " ".join(tags.get("FILES", []))
paths = re.findall(r'#define PATH_\w+\s+"([^"]+)"', sysroot_h)
check("src/kernel/sysroot.h has paths", len(paths) >= 5, str(paths))
for p in paths:
    if p.endswith("/"):         # a directory prefix: its files are listed one by one
        continue
    check(f"FILES lists {p}", p in file_tags or p + "/" in file_tags)
kernel_c = open(os.path.join(SRC, "src", "kernel", "kernel.c")).read()
for name in re.findall(r'\] = "(percpu_pagelist_\w+)"', kernel_c):
    check(f"FILES lists /proc/sys/vm/{name}", f"/proc/sys/vm/{name}" in file_tags)
topology = re.search(r'PATH_NODES "/node%d/cpulist"', open(os.path.join(SRC, "src", "kernel", "topology.c")).read())
check("FILES lists the node cpulists", topology is not None and
      "/sys/devices/system/node/nodeN/cpulist" in file_tags)

batch_at = [i for i, l in enumerate(man_src) if l.startswith(".BI \\-\\-batch")]
check("--batch and --fraction of set are documented under set, before reset",
      ".SS set" in man_src and ".SS reset" in man_src and
      any(man_src.index(".SS set") < i < man_src.index(".SS reset") for i in batch_at))
# --- one wording for each option -------------------------------------------------
check("-J is documented once",
      sum(1 for l in man_src if l.startswith('.BR \\-J ", " \\-\\-json')) == 1)

# --- SYNOPSIS: each command's form names every option it takes and no other --------
synopsis = man_src[man_src.index(".SH SYNOPSIS") + 1:man_src.index(".SH DESCRIPTION")]
synopsis = synopsis[:synopsis.index(".PP")] if ".PP" in synopsis else synopsis
forms, form = [], []
for line in synopsis + [".br"]:
    if line == ".br":
        forms.append(" ".join(plain(l) for l in form))
        form = []
    else:
        form.append(line)
COMMON = {"--sysroot", "--help", "--version"}
SYN_OPT = re.compile(r"(?<![\w-])(--?[A-Za-z][a-z-]*)")
syn_opts = {}
for f in forms:
    words = re.findall(r"[\w-]+", f)
    cmd = next((w for w in words[1:] if w in help_cmds), None)
    if cmd:
        syn_opts.setdefault(cmd, set()).update(SYN_OPT.findall(f))
check("SYNOPSIS has a form for every command", set(syn_opts) == help_cmds,
      f"forms for {sorted(syn_opts)}, commands {sorted(help_cmds)}")
for c in sorted(syn_opts):
    text = help_of(c)
    takes = set()
    for line in text.splitlines():
        if m := re.match(r" +((?:-[A-Za-z], )?--[a-z][a-z-]*)", line):
            om = OPTION.match(m[1])
            if om[2] not in COMMON:
                takes.add((om[1], om[2]))
    missing = [o[1] for o in takes if o[1] not in syn_opts[c] and o[0] not in syn_opts[c]]
    check(f"SYNOPSIS of {c} names each of its options", not missing, str(missing))
    names = {n for o in takes for n in o if n}
    extra = sorted(syn_opts[c] - names)
    check(f"SYNOPSIS of {c} names no option {c} does not take", not extra, str(extra))
for c in ("set", "reset"):
    usage = help_of(c).splitlines()[1]
    check(f"{c}'s usage line names --dry-run, --persist and --persist-only",
          "[--dry-run]" in usage and "[--persist[-only]]" in usage, usage)
warmup_help = " ".join(help_of("sweep").split("--warmup", 1)[1].split("\n     --runs")[0].split())
warmup_tag = next(i for i, l in enumerate(man_src) if l.startswith(".BI \\-\\-warmup"))
warmup_man = " ".join("\n".join(plain(l) for l in man_src[warmup_tag:]).split("--warmup", 1)[1]
                     .split("--runs")[0].split())
check("--warmup: the help and the man page both say 'before each value'",
      "before each value" in warmup_help and "before each value" in warmup_man,
      f"help: {warmup_help!r}; man: {warmup_man!r}")

# --- groff ---------------------------------------------------------------------
transaction_page = os.path.join(os.path.dirname(manpage), "pcpctl-transaction.7")
for page in (manpage, transaction_page):
    name = os.path.basename(page)
    g = subprocess.run(["groff", "-man", "-ww", "-z", page], capture_output=True, text=True)
    check(f"groff -man -ww -z prints no warning for {name}",
          g.returncode == 0 and not g.stdout and not g.stderr, (g.stdout + g.stderr).strip())
    m = subprocess.run(["mandoc", "-T", "lint", "-W", "style", page], capture_output=True, text=True)
    check(f"mandoc -T lint finds nothing in {name}", m.returncode == 0 and not m.stdout and
          not m.stderr, (m.stdout + m.stderr).strip())
check("pcpctl(8) sends the reader to pcpctl-transaction(7)",
      ".BR pcpctl\\-transaction (7)," in man_src or ".BR pcpctl\\-transaction (7)" in man_src)
if shutil.which("man"):
    for width in (80, 132):
        m = subprocess.run(["man", "--warnings", "-l", manpage], capture_output=True, text=True,
                           env=dict(os.environ, MANWIDTH=str(width), MAN_KEEP_FORMATTING="0"))
        check(f"man -l renders at {width} columns without a warning",
              m.returncode == 0 and not m.stderr and "pcpctl" in m.stdout, m.stderr.strip())
finish()
