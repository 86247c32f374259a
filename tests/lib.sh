# SPDX-License-Identifier: GPL-2.0-or-later
# The harness of the shell tests, sourced first by each of them:
#   . "$(dirname "$0")/../lib.sh"      (from tests/DIR/)
# One "ok   NAME" or "FAIL NAME" line per check, then "N passed, N failed"
# and the exit status (finish); the temporary directory $work and its removal
# at exit (workdir, at_exit); the fake kernel trees (sysroot_tree); the polls
# (await); the Debian packages a test needs (need).  CTest reads the exit
# status; people read the lines.  (tests/kernel/guest-lib.sh has its own:
# it runs in a guest's busybox sh, and tests/kernel/run.sh parses its
# PASS/FAIL/SKIP lines.)

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

# sysroot_tree DIR ZONEINFO [OPTION...] [KEY=VALUE...]: a fake kernel's tree
# for --sysroot, made anew and printed (tests/sysroot-tree.sh says how).
lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sysroot_tree() { "$lib_dir/sysroot-tree.sh" "$@"; }

# await CMD...: poll until CMD succeeds; fails after 300 s, which only a broken
# test reaches (a loaded machine or valgrind only makes the wait longer).
await() {
	local end=$((SECONDS + 300))
	# wait(a): poll every 20 ms until CMD succeeds, up to 300 s. Event: what CMD tests, named
	#   where await is called.
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.02
	done
}

# need PACKAGE...: install those of Debian's packages that are missing, as
# scripts/deps --test would, one project script at a time (the lock of the
# scripts that change the machine's packages); if the install fails, once
# more after an apt-get update.  Fails, with apt-get's last lines, if they
# cannot be installed.
need() {
	local p missing=() log
	for p; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	echo "# installing ${missing[*]}"
	log=$(mktemp) || return 1
	if ! lib_apt install "${missing[@]}" >"$log" 2>&1 &&
		! { lib_apt update >"$log" 2>&1 && lib_apt install "${missing[@]}" >"$log" 2>&1; }; then
		tail -n 20 "$log" | sed 's/^/    /' >&2
		rm -f "$log"
		return 1
	fi
	rm -f "$log"
}
lib_apt() {
	# wait(a): no other project script changes packages (flock), then the dpkg lock is free; 900
	#   s for each apt-get.
	DEBIAN_FRONTEND=noninteractive flock /tmp/pcpctl-dpkg.lock apt-get -y -q \
		--no-install-recommends -o DPkg::Lock::Timeout=900 "$@"
}

# expect NAME WANT_EXIT CMD...: ok when CMD exits WANT_EXIT; its stdout and
# stderr are kept in $work/out and $work/err (after workdir), and shown (the
# first 25 lines) when it does not.  The subshell keeps bash's "Killed" notice
# of the crash tests off the log.
expect() {
	local name=$1 want=$2 got
	shift 2
	("$@" >"$work/out" 2>"$work/err"; exit $?) 2>/dev/null
	got=$?
	if [ "$got" = "$want" ]; then ok "$name"; else
		bad "$name: exit $got, expected $want"
		cat "$work/out" "$work/err" | head -n 25 | sed 's/^/    /'
	fi
}

# same NAME WANT GOT: ok when the two texts are equal; else both, or their
# diff when either has many lines.
same() {
	if [ "$2" = "$3" ]; then ok "$1"
	elif [[ $2 != *$'\n'* && $3 != *$'\n'* ]]; then bad "$1: '$3', expected '$2'"
	else
		bad "$1: differs (< expected, > got)"
		diff <(echo "$2") <(echo "$3") | head -n 10 | sed 's/^/    /'
	fi
}
