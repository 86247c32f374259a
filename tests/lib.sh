# SPDX-License-Identifier: GPL-2.0-or-later
# The harness of the shell tests, sourced first by each of them:
#   . "$(dirname "$0")/../lib.sh"      (from tests/DIR/)
# One "ok   NAME" or "FAIL NAME" line per check, then "N passed, N failed"
# and the exit status (finish); the temporary directory $work and its removal
# at exit (workdir, at_exit).  CTest reads the exit status; people read the
# lines.  (tests/kernel/guest-lib.sh has its own: it runs in a guest's
# busybox sh, and tests/kernel/run parses its PASS/FAIL/SKIP lines.)

pass=0 fail=0
# quiet_ok=1: a check that passes only counts (loops of thousands of checks).
quiet_ok=${quiet_ok:-}
ok() { [ -n "$quiet_ok" ] || echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# check NAME EXPR: ok when the shell code EXPR (one word, eval'd) succeeds,
#   else FAIL NAME (EXPR).
# check NAME CMD ARG...: ok when CMD succeeds; its output is kept in $work
#   (after workdir) and its last 25 lines shown when it fails.
check() {
	local name=$1
	shift
	if [ $# = 1 ]; then
		if eval "$1"; then ok "$name"; else bad "$name ($1)"; fi
	elif [ -z "$work" ]; then
		if "$@"; then ok "$name"; else bad "$name"; fi
	elif "$@" >"$work/check.out" 2>&1; then
		ok "$name"
	else
		bad "$name"
		tail -n 25 "$work/check.out" | sed 's/^/    /'
	fi
}

# finish: the summary line, and exit 1 if a check failed.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ] || exit 1
	exit 0
}

# workdir [MKTEMP_ARGS]: $work, a new directory removed at exit, after the
# commands given to at_exit (in the order given).
work=''
lib_at_exit=()
at_exit() { lib_at_exit+=("$1"); }
lib_exit() {
	local cmd
	for cmd in "${lib_at_exit[@]}"; do eval "$cmd"; done
	[ -z "$work" ] || rm -rf "$work"
}
workdir() {
	work=$(mktemp -d "$@") || exit 1
	trap lib_exit EXIT
}
