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
	local t=$1
	rm -rf "$t"
	mkdir -p "$t/proc/sys/kernel" "$t/proc/sys/vm" "$t/etc/sysctl.d" "$t/sim" \
		"$t/sys/devices/system/node/node0" "$t/sys/devices/system/node/node1"
	cp "$fixtures/debian-6.1-4cpu-2node.zoneinfo" "$t/proc/zoneinfo"
	echo 6.1.0-57-pcpctl >"$t/proc/sys/kernel/osrelease"
	mkdir -p "$t/proc/self" && echo "KernelPageSize:        4 kB" >"$t/proc/self/smaps"
	echo 0 >"$t/proc/sys/vm/percpu_pagelist_batch"
	echo 0 >"$t/proc/sys/vm/percpu_pagelist_high_fraction"
	echo 0-1 >"$t/sys/devices/system/node/node0/cpulist"
	echo 2-3 >"$t/sys/devices/system/node/node1/cpulist"
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
