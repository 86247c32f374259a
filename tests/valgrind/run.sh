#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One of the CLI suites (tests/cli/run.sh, tests/cli/plot.sh or tests/sim/run.sh) with
# every pcpctl run under valgrind's memcheck: invalid accesses, uses of
# uninitialised memory, bad frees, and definite or indirect leaks all fail
# the suite.  Each suite is a CTest test of its own (valgrind_cli,
# valgrind_plot, valgrind_sim), so that they share the CPUs with the rest.
# Usage: [SIM_SHARD=K/N] run.sh cli|plot|sim PCPCTL PCPCTL_SIM FIXTURE_DIR
#        (a build without sanitizers; SIM_SHARD: that part of the sim suite)
#
# Each suite runs against a wrapper named like the real binary that execs
# valgrind on it, with --error-exitcode=99 (so an error also shows as an
# unexpected exit code) and one log per process; every log is then checked
# for "ERROR SUMMARY: [1-9]" or "definitely lost: [1-9]".  The crash tests
# SIGKILL pcpctl, valgrind with it, so their logs stop short of the summary:
# those logs must hold nothing but valgrind's preamble.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=$(cd "$here/.." && pwd)
usage() {
	echo "usage: $0 cli|plot|sim PCPCTL PCPCTL_SIM FIXTURE_DIR" >&2
	exit 2
}
[ $# -eq 4 ] || usage
pcpctl=$(realpath "$2")
sim=$(realpath "$3")
fixture_dir=$(realpath "$4")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
case $1 in
cli) run=(cli "$tests/cli/run.sh" "$work/bin/pcpctl") ;;
plot) run=(plot "$tests/cli/plot.sh" "$work/bin/pcpctl" "$fixture_dir") ;;
sim) run=(sim "$tests/sim/run.sh" "$work/bin/pcpctl-sim" "$fixture_dir") ;;
*) usage ;;
esac

need valgrind || { echo "FAIL cannot install valgrind"; exit 1; }
# valgrind cannot run a binary built with ASan (the ctest of build-asan).
for b in "$pcpctl" "$sim"; do
	if ldd "$b" 2>/dev/null | grep -Eq 'lib(a|ub|t)san' ||
	   nm "$b" 2>/dev/null | grep -q '__asan_init'; then
		echo "skipped: $b is built with a sanitizer; use a plain build under valgrind"
		exit 77
	fi
done

# The sim suite runs pcpctl-sim as nobody too: wrappers and logs must be
# reachable and writable for it.
chmod 755 "$work"
mkdir -m 755 "$work/bin"
mkdir -m 1777 "$work/logs"

# wrap NAME REAL: $work/bin/NAME runs REAL under valgrind, one log per process.
# A suite starts more processes than pid_max, so a PID alone may name a log
# that a process of another user (root, then nobody) already made, which the
# sticky directory then refuses: the user and the time make the name unique.
wrap() {
	cat >"$work/bin/$1" <<WRAPPER
#!/bin/sh
exec valgrind --error-exitcode=99 --leak-check=full \\
	--errors-for-leak-kinds=definite,indirect --track-fds=no \\
	--log-file="$work/logs/$1.%p.\$(id -u).\$(date +%s%N).log" '$2' "\$@"
WRAPPER
	chmod 755 "$work/bin/$1"
}
wrap pcpctl "$pcpctl"
wrap pcpctl-sim "$sim"

# check_logs SUITE: every valgrind log of this suite, then clear them.
check_logs() {
	local suite=$1 n=0 killed=0 bad=0 log
	for log in "$work"/logs/*.log; do
		[ -e "$log" ] || continue
		n=$((n + 1))
		if grep -q 'ERROR SUMMARY:' "$log"; then
			if grep -Eq 'ERROR SUMMARY: [1-9]|definitely lost: [1-9]|indirectly lost: [1-9]' "$log"; then
				bad=$((bad + 1))
				echo "FAIL valgrind $suite: $(basename "$log")"
				sed 's/^/    /' "$log"
			fi
		else
			# Killed before its summary: anything after the preamble
			# (Memcheck, Copyright, Using Valgrind, Command, Parent PID,
			# blank "==PID== " lines) is a report.
			killed=$((killed + 1))
			if grep -Ev '^==[0-9]+== ($|Memcheck, a memory error detector|Copyright \(C\)|Using Valgrind-|Command: |Parent PID: )' "$log" | grep -q .; then
				bad=$((bad + 1))
				echo "FAIL valgrind $suite: $(basename "$log") (killed, with reports)"
				sed 's/^/    /' "$log"
			fi
		fi
	done
	rm -f "$work"/logs/*.log
	if [ "$n" = 0 ]; then
		bad "valgrind $suite: no valgrind logs (did the wrapper run?)"
	elif [ "$bad" = 0 ]; then
		ok "valgrind $suite: $n runs clean ($killed killed by crash tests before their summary)"
	else
		bad "valgrind $suite: $bad of $n runs with reports"
	fi
}

# suite NAME COMMAND...: run a suite, count its own results, then the logs.
suite() {
	local name=$1 out=$work/$1.out
	shift
	echo "# $name under valgrind"
	"$@" 2>&1 | tee "$out"
	local rc=${PIPESTATUS[0]} counts
	counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
	if [ -n "$counts" ]; then
		pass=$((pass + ${counts%% passed*}))
		counts=${counts#*, }
		fail=$((fail + ${counts%% failed*}))
	fi
	if [ "$rc" != 0 ] && { [ -z "$counts" ] || [ "${counts%% failed*}" = 0 ]; }; then
		bad "$name: exit $rc"
	fi
	check_logs "$name"
}

suite "${run[@]}"

finish
