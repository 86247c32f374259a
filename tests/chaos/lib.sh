# SPDX-License-Identifier: GPL-2.0-or-later
# What the chaos tests share: the seed, the harness and $work, a simulated
# kernel tree, and the state that a change must leave whole.
# Sourced by the tests in this directory.

# The seed of every random choice: CHAOS_SEED replays a run.
chaos_seed() {
	seed=${CHAOS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	RANDOM=$((seed % 32768))
	echo "# seed $seed (replay with CHAOS_SEED=$seed)"
}

# CHAOS_QUICK=1 (the sanitizer build) runs a tenth of the iterations.
scaled() { if [ "${CHAOS_QUICK:-0}" = 1 ]; then echo $((($1 + 9) / 10)); else echo "$1"; fi; }

# The harness, with $work; a check that passes only counts (thousands of
# iterations).
quiet_ok=1
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
workdir

# rand LO HI: a number in [LO, HI] from bash's seeded generator.
rand() { echo $(($1 + (RANDOM * 32768 + RANDOM) % ($2 - $1 + 1))); }

# A random moment up to MAX microseconds, as seconds for sleep(1).
moment() { printf '0.%06d' "$(rand 0 "$1")"; }

# simtree DIR: a patched 6.1 with two nodes (batch and high fraction), for pcpctl-sim.
simtree() {
	sysroot_tree "$1" "$fixtures/debian-6.1-4cpu-2node.zoneinfo" --sim --sysctl-d \
		percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0 >/dev/null
}

# snapshot ROOT: the pcp sysctls and the sysctl.d file (or its absence).
snapshot() {
	local f
	for f in percpu_pagelist_batch percpu_pagelist_high_fraction; do
		[ -e "$1/proc/sys/vm/$f" ] && echo "$f=$(cat "$1/proc/sys/vm/$f")"
	done
	if [ -e "$1/etc/sysctl.d/90-pcpctl.conf" ]; then cat "$1/etc/sysctl.d/90-pcpctl.conf"
	else echo "(no sysctl.d file)"; fi
}

# leftovers ROOT: any journal or temporary file a change left.
leftovers() {
	ls -d "$1/run/pcpctl/journal" "$1/run/pcpctl/journal.tmp" \
		"$1/etc/sysctl.d/90-pcpctl.conf.tmp" 2>/dev/null
}

# live_sysctl [TEST DESCRIPTION]: the live tests' sysctl in $sysctl; exit 77
# (SKIP) unless root may write it, and TEST (shell code, eval'd), if given,
# holds: DESCRIPTION says what it needs.
live_sysctl() {
	sysctl=/proc/sys/vm/percpu_pagelist_high_fraction
	if [ "$(id -u)" != 0 ] || [ ! -w $sysctl ] || ! eval "${1:-true}"; then
		echo "SKIP: needs root${2:+, }${2:-} and a writable $sysctl"
		exit 77
	fi
}

# killed_within MICROSECONDS CMD...: CMD in the background (its stderr in
# $work/err), SIGKILLed at a random moment within MICROSECONDS; its exit
# status in $rc (137 when the kill came first).
killed_within() {
	local window=$1 pid
	shift
	# wait(c): the kill moment (a random moment within the window); wait reaps the killed
	#   command at once.
	"$@" >/dev/null 2>"$work/err" &
	pid=$!
	sleep "$(moment "$window")"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
}
