#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The transaction words nothing of a change: apply.c hands its events to the
# caller's listener (change.c words them), and privs.c answers whether a
# sysctl may be written, which the command table says once for every
# command.  msg.h cannot be refused to the whole part (the lock, the journal
# and the sysctl.d files still say their own failures), so the files are read.
# Usage: quiet-core.sh SRCDIR
set -u
src=$1/src
fail=0
for f in apply.c transaction/privs.c; do
	# A print call: the message functions, stdio's printers, or msg.h itself.
	hits=$(grep -nE '\<(pcp_(error|warn|note)|v?f?printf|fputs|puts|putchar|perror)[[:space:]]*\(|#include[[:space:]]*"msg\.h"' \
		"$src/$f")
	if [ -n "$hits" ]; then
		echo "FAIL $f prints:"
		echo "$hits"
		fail=1
	else
		echo "ok   $f prints nothing"
	fi
done
# The transaction words nothing at all: what it returns and tells is data
# (apply.h's struct apply_why, rules_doubt, apply_zone_clamp), and change.c
# words it.  English shows as a string literal holding a blank followed by a
# letter, a sentence or a piece of one; the names apply.c may spell (sysctls,
# checks, checkpoints, "%s:%s") have no blank.  The file is scanned as C:
# comments, character literals and strings are told apart by a small lexer,
# so a quote in a comment or a "/*" in a string cannot fool it, and split
# literals ("a " "b") are checked piece by piece.
hits=$(python3 - "$src/apply.c" <<'EOF'
import re
import sys

text = open(sys.argv[1]).read()
i, line, n = 0, 1, len(text)
while i < n:
    c = text[i]
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        end = n if end < 0 else end + 2
    elif text.startswith("//", i):
        end = text.find("\n", i)
        end = n if end < 0 else end
    elif c in "'\"":
        end = i + 1
        while end < n and text[end] != c:
            end += 2 if text[end] == "\\" else 1
        end += 1
        if c == '"' and re.search(r" [A-Za-z]", text[i:end]):
            print(f"{line}: {text[i:end]}")
    else:
        end = i + 1
    line += text.count("\n", i, end)
    i = end
EOF
)
if [ -n "$hits" ]; then
	echo "FAIL apply.c words English:"
	echo "$hits"
	fail=1
else
	echo "ok   apply.c words nothing"
fi
# Write access is checked once, by the dispatcher: no handler checks it again.
hits=$(grep -rnE '\<(sysctl_write_access|check_write_access)[[:space:]]*\(' "$src"/*/*.c |
	grep -v "^$src/transaction/privs.c:")
if [ -n "$hits" ]; then
	echo "FAIL write access checked outside pcpctl.c:"
	echo "$hits"
	fail=1
else
	echo "ok   write access checked by pcpctl.c alone"
fi
grep -qE '\<sysctl_write_access[[:space:]]*\(' "$src/pcpctl.c" &&
	echo "ok   pcpctl.c checks write access" ||
	{ echo "FAIL pcpctl.c does not check write access"; fail=1; }
exit $fail
