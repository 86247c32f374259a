#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The change transaction (set, reset, rollback) against the simulated kernel.
# Usage: [SIM_SHARD=K/N] run.sh PCPCTL-SIM FIXTURE_DIR
set -u
sim=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
here=$(dirname "$(realpath "$0")")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

# mktree NAME ZONEINFO RELEASE NODE_CPULISTS SYSCTL=VALUE...
# NODE_CPULISTS is "0-1;2-3" (node0;node1;...), "" for a kernel without NUMA.
mktree() {
	local name=$1 zoneinfo=$2 release=$3 nodes=$4
	shift 4
	sysroot_tree "$work/$name" "$fixtures/$zoneinfo" --release "$release" --nodes "$nodes" --sim --sysctl-d "$@"
}

# The settings and pcp values of a tree, to prove that nothing changed.
state() {
	cat "$1"/proc/sys/vm/* 2>/dev/null
	"$sim" --sysroot "$1" show -r --output-all 2>/dev/null |
		cut -d' ' -f1-3,5-
	cat "$1/etc/sysctl.d/90-pcpctl.conf" 2>/dev/null
}

# What a reset must restore on every kernel: the sysctls, batch, high_min and
# high_max.  (From 6.7 high is set lazily, by each CPU as it next frees, so
# the high that CPUs show after a write and a reset need not be the old one.)
settings() {
	cat "$1"/proc/sys/vm/* 2>/dev/null
	"$sim" --sysroot "$1" show -r -o NODE,ZONE,CPU,BATCH,HIGH_MIN,HIGH_MAX 2>/dev/null
}


flat=$(dirname "$0")/../schema/flat.py
has() { # has NAME FILE PATTERN (a JSON report matched as if on one line)
	if "$flat" "$2" | grep -q -- "$3"; then ok "$1"; else bad "$1: no \"$3\" in:"; sed 's/^/    /' "$2"; fi
}


cols() { "$sim" --sysroot "$1" show -r -n -o NODE,ZONE,CPU,HIGH,BATCH; }

# await (tests/lib.sh) polls here for: sim/held exists (hold), "waiting up to 10 s" on a second pcpctl's stderr,
# a stopped process's /proc/PID/status says State: T (stopped).
# hold TREE STEP OUT CMD...: CMD in the background, its output in OUT, held
# at STEP by the "hold" fault (the lock is pcpctl's from "journal" on);
# $holder is its PID.
hold() {
	local t=$1 step=$2 out=$3
	shift 3
	echo "hold $step" >"$t/sim/faults"
	"$@" >"$out" 2>&1 &
	holder=$!
	await [ -e "$t/sim/held" ] || bad "$* never reached $step"
	# Held: the others run without the fault.
	rm "$t/sim/faults"
}
# release TREE: let the held pcpctl go on.
release() { : >"$1/sim/release"; }
# stopped PID: SIGSTOP PID (pcpctl itself, started with &; under valgrind the
# wrapper execs, so the PID is the same) and return once it is stopped.
stopped() {
	kill -STOP "$1" || { bad "pid $1 was gone before it could be stopped"; return 1; }
	await grep -q '^State:[[:space:]]*T' "/proc/$1/status" || bad "pid $1 never stopped"
}

# Kernels: Debian 6.1 (eager high), 6.12 (lazy high), this machine's 6.18
# (high_min/high_max), a 4.14 (percpu_pagelist_fraction), each stock and patched; 5.10
# and other page sizes are in tests/sim/generations.
new61p() { mktree 61p debian-6.1-4cpu-2node.zoneinfo 6.1.0-57-pcpctl "0-1;2-3" \
	percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0; }
new61() { mktree 61 debian-6.1-4cpu-2node.zoneinfo 6.1.0-57-cloud-amd64 "0-1;2-3" \
	percpu_pagelist_high_fraction=0; }
new612p() { mktree 612p debian-6.12-cpuless-node.zoneinfo 6.12.117-pcpctl "0-1;2-3;" \
	percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0; }
new618() { mktree 618 live-6.18-2cpu.zoneinfo 6.18.44-fc-v657 "" \
	percpu_pagelist_high_fraction=0; }
new414() { mktree 414 synthetic-4.14-2node-sparse.zoneinfo 4.14.336 "0-1;4-5" \
	percpu_pagelist_fraction=0; }

# SIM_SHARD=K/N runs only every Nth section, from the Kth on, so that a
# slow wrapper (tests/valgrind) can split the suite over the CPUs; every
# section makes its own trees.  (Section bodies keep the indentation they
# had before they were sections.)
shard=${SIM_SHARD:-1/1} sections=0
[[ $shard =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
	{ echo "SIM_SHARD=$shard: want K/N with 1 <= K <= N" >&2; exit 2; }
section() {
	sections=$((sections + 1))
	[ $(((sections - 1) % ${shard#*/} + 1)) = "${shard%/*}" ] || return 1
	echo "# $1"
}

if section "fraction 8 on every kernel era: changed, then unchanged, then reset"; then
for k in 61p 61 612p 618 414; do
	t=$(new$k)
	case $k in 612p|618) view=settings ;; *) view=state ;; esac
	orig=$($view "$t")
	expect "$k set --fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8 --json
	has "$k set reports changed and verified" "$work/out" '"changed":true,"dry_run":false'
	has "$k set verified" "$work/out" '"verified":true,"rolled_back":false'
	expect "$k status after set" 0 "$sim" --sysroot "$t" status --json
	has "$k status shows 8" "$work/out" 'fraction":8'
	expect "$k set again" 0 "$sim" --sysroot "$t" set --fraction 8 --json
	has "$k set again is unchanged" "$work/out" '"changed":false'
	expect "$k reset" 0 "$sim" --sysroot "$t" reset
	has "$k reset reports the change" "$work/out" '8 -> 0'
	same "$k reset restores the original" "$orig" "$($view "$t")"
	[ -e "$t/run/pcpctl/journal" ] && bad "$k journal left" || ok "$k no journal left"
done

fi
if section "the simulated 6.1 reproduces what a real 6.1 guest printed after fraction 8"; then
t=$(new61)
expect "6.1 set --fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8
sysroot_tree "$work/real" debian-6.1-4cpu-2node-frac8.zoneinfo --page-kib 0 --nodes "" >/dev/null
same "6.1 high and batch equal the real capture" "$(cols "$work/real")" "$(cols "$t")"
t=$(mktree 61c debian-6.1-cpuless-node.zoneinfo 6.1.0-57-cloud-amd64 "0-1;2-3;" \
	percpu_pagelist_high_fraction=0)
expect "6.1 cpu-less node set --fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8
sysroot_tree "$work/real" debian-6.1-cpuless-node-frac8.zoneinfo --page-kib 0 --nodes "" >/dev/null
same "6.1 cpu-less node equals the real capture" "$(cols "$work/real")" "$(cols "$t")"

fi
if section "batch on patched kernels"; then
for k in 61p 612p; do
	t=$(new$k)
	want="DMA 1 DMA32 310 Normal 310 "
	[ $k = 612p ] && want="DMA 1 DMA32 310 "
	expect "$k set --batch 310" 0 "$sim" --sysroot "$t" set --batch 310
	has "$k output shows the batch change" "$work/out" 'percpu_pagelist_batch: *0 -> 310'
	has "$k output shows zones" "$work/out" 'batch 63 -> 310'
	grep -q ';$' "$work/out" && bad "$k a zone line ends in ';'" || ok "$k zone lines end without ';'"
	batches=$("$sim" --sysroot "$t" show -r -n -o ZONE,BATCH | sort -u | tr -s ' \n' '  ')
	same "$k batch 310 where the zone's batch is 63, DMA keeps 1" "$want" "$batches"
	expect "$k reset after batch" 0 "$sim" --sysroot "$t" reset
	batches=$("$sim" --sysroot "$t" show -r -n -o BATCH | sort -u | tr '\n' ' ')
	same "$k reset restores default batches" "1 63 " "$batches"
done
t=$(new61p)
expect "6.1 batch 310 with fraction 8 together" 0 "$sim" --sysroot "$t" set --batch 310 --fraction 8
low=$("$sim" --sysroot "$t" show -r -n -o ZONE,HIGH | awk '$1 != "DMA" { print $2 }' | sort -n | head -1)
[ "$low" -ge 1240 ] && ok "6.1 high stays >= 4 * batch ($low)" || bad "6.1 high $low < 1240"

fi
if section "the patch's per-zone rule and its own maximum"; then
t=$(new612p)
expect "dry run of batch 310" 0 "$sim" --sysroot "$t" set --batch 310 --dry-run
has "dry run: DMA keeps batch 1" "$work/out" 'node 0 zone DMA  *batch 1; high'
has "dry run: DMA32 expects batch 310" "$work/out" 'node 0 zone DMA32  *batch 63 -> 310;'
has "dry run: the CPU-less node's DMA32 expects 310" "$work/out" 'node 2 zone DMA32  *batch 63 -> 310;'
same "dry run wrote nothing" 0 "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
# patch v2's kernels said their maximum in a read-only file: pcpctl still reads it
echo 991 >"$t/proc/sys/vm/percpu_pagelist_batch_max"
expect "batch above a v2 kernel's maximum" 2 "$sim" --sysroot "$t" set --batch 992
has "the message gives the v2 kernel's range" "$work/err" 'give 0 (the kernel.s default) or 1\.\.991'
same "nothing written above the maximum" 0 "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
rm "$t/proc/sys/vm/percpu_pagelist_batch_max"
# v3 documents its range, the default batch << CONFIG_PCP_BATCH_SCALE_MAX: from the
# kernel's /boot/config-RELEASE, else the largest any config allows, the kernel deciding
expect "without the kernel's config, 4033 is over any kernel's range" 2 "$sim" --sysroot "$t" set --batch 4033
has "the message gives the widest range" "$work/err" 'give 0 (the kernel.s default) or 1\.\.4032'
expect "without the kernel's config, 2017 is the kernel's EINVAL" 1 "$sim" --sysroot "$t" set --batch 2017
has "the kernel's EINVAL is named with the formula" "$work/err" \
	'refused vm.percpu_pagelist_batch = 2017 (EINVAL): .*CONFIG_PCP_BATCH_SCALE_MAX'
same "nothing written by the refused value" 0 "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
mkdir -p "$t/boot"
echo CONFIG_PCP_BATCH_SCALE_MAX=5 >"$t/boot/config-$(cat "$t/proc/sys/kernel/osrelease")"
expect "with the kernel's config, 2017 exits 2" 2 "$sim" --sysroot "$t" set --batch 2017
has "the message gives the config's range" "$work/err" 'give 0 (the kernel.s default) or 1\.\.2016'
expect "batch at the kernel's maximum" 0 "$sim" --sysroot "$t" set --batch 2016 --fraction 8
batches=$("$sim" --sysroot "$t" show -r -n -o ZONE,BATCH | sort -u | tr -s ' \n' '  ')
# the CPU-less node 2 splits its DMA32 over all 4 CPUs: a quarter of its high_min is 1939
same "the maximum on DMA32 at fraction 8, DMA keeps 1" "DMA 1 DMA32 1939 DMA32 2016 " "$batches"
rm -r "$t/boot"

fi
if section "stock kernels have no batch: exit 3, nothing changed"; then
for k in 61 618 414; do
	t=$(new$k)
	orig=$(state "$t")
	expect "$k set --batch 310 exits 3" 3 "$sim" --sysroot "$t" set --batch 310 --fraction 8
	has "$k message names the patches" "$work/err" "kernel patch from /.*patches/ "
	named=$(sed -n 's#.*kernel patch from \(/[^ ]*\)/ .*#\1#p' "$work/err")
	[ -d "$named" ] && ok "$k the patch directory named exists ($named)" ||
		bad "$k names $named, which does not exist"
	same "$k nothing changed" "$orig" "$(state "$t")"
done

fi
if section "bad values: exit 2, nothing changed"; then
t=$(new61p)
orig=$(state "$t")
for args in "--batch -1" "--fraction 4" "--fraction -8" "--batch 310abc" "--batch 99999999999" \
	"--batch 99999999999999999999999" "--batch 4033" "--fraction 0x10" "--batch= " \
	"--batch +5" "--batch 3.5" ""; do
	# shellcheck disable=SC2086
	expect "set $args exits 2" 2 "$sim" --sysroot "$t" set $args
done
expect "empty --batch exits 2" 2 "$sim" --sysroot "$t" set --batch ""
expect "a fraction past long exits 2" 2 "$sim" --sysroot "$t" set --fraction 99999999999999999999
has "a fraction past long gives the range" "$work/err" 'give 0 (the kernel.s default) or 8\.\.2147483647'
expect "reset takes no values" 2 "$sim" --sysroot "$t" reset --batch 5
expect "show takes no --batch" 2 "$sim" --sysroot "$t" show --batch 5
same "bad values changed nothing" "$orig" "$(state "$t")"
[ -e "$t/run/pcpctl/journal" ] && bad "journal after bad values" || ok "no journal after bad values"

fi
if section "a --sysroot that is not a directory is a usage error"; then
for cmd in show status "set --fraction 8"; do
	# shellcheck disable=SC2086
	expect "--sysroot missing: $cmd exits 2" 2 "$sim" --sysroot "$work/missing" $cmd
	has "--sysroot missing: $cmd names it" "$work/err" "--sysroot .*/missing: no such directory"
done

fi
if section "a full standard output is named as such, in one wording"; then
t=$(new61p)
for args in show "show --json" "show -r" "show -s" status "status --json" export --help \
	"show --help" "sweep --help" --version help "help set"; do
	# shellcheck disable=SC2086
	"$sim" --sysroot "$t" $args >/dev/full 2>"$work/err"
	same "$args >/dev/full exits 1" 1 $?
	has "$args >/dev/full says the disk is full" "$work/err" \
		"^pcpctl: cannot write to standard output: No space left on device$"
done

fi
if section "POSIXLY_CORRECT: the command's name is no operand (pcpctl(8), ENVIRONMENT)"; then
t=$(new61p)
expect "POSIXLY_CORRECT=1 set --fraction 8 --dry-run exits 0" 0 env POSIXLY_CORRECT=1 \
	"$sim" --sysroot "$t" set --fraction 8 --dry-run
expect "POSIXLY_CORRECT=1 --fraction 8 set --dry-run exits 0" 0 env POSIXLY_CORRECT=1 \
	"$sim" --sysroot "$t" --fraction 8 set --dry-run

fi
if section "dry run writes nothing"; then
t=$(new61p)
orig=$(state "$t")
expect "dry run" 0 "$sim" --sysroot "$t" set --batch 310 --fraction 8 --dry-run
has "dry run says what would change" "$work/out" '0 -> 310 (dry run: not written)'
same "dry run changed nothing" "$orig" "$(state "$t")"

fi
if section "a dry run checks everything but the writes"; then
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
t=$(new61p)
orig=$(state "$t")
chmod a+x "$work" && chmod -R a+rX "$t"
expect "dry run as nobody exits 4" 4 "${nobody[@]}" "$sim" --sysroot "$t" set --fraction 8 --dry-run
cp "$work/err" "$work/err.dry"
expect "the real run as nobody exits 4" 4 "${nobody[@]}" "$sim" --sysroot "$t" set --fraction 8
same "dry run as nobody: the real run's message" "$(cat "$work/err")" "$(cat "$work/err.dry")"
expect "reset --dry-run as nobody exits 4" 4 "${nobody[@]}" "$sim" --sysroot "$t" reset --dry-run
same "dry runs as nobody changed nothing" "$orig" "$(state "$t")"
t=$(new618)
expect "dry run of batch without the interface exits 3" 3 "$sim" --sysroot "$t" set --batch 310 --dry-run
cp "$work/err" "$work/err.dry"
expect "the real run without the interface exits 3" 3 "$sim" --sysroot "$t" set --batch 310
same "dry run without the interface: the real run's message" "$(cat "$work/err")" "$(cat "$work/err.dry")"
# The release is read before the interface is looked at, as it always was:
# a kernel whose release cannot be read or told exits 1 even without batch.
t=$(new618)
rm "$t/proc/sys/kernel/osrelease"
expect "an unreadable release without the interface exits 1" 1 "$sim" --sysroot "$t" set --batch 310
has "it names the release file" "$work/err" "osrelease"
t=$(new618)
echo "not-a-release" >"$t/proc/sys/kernel/osrelease"
expect "an unknown release without the interface exits 1" 1 "$sim" --sysroot "$t" set --batch 310 --dry-run
has "it names the release" "$work/err" "not-a-release"

for planted in foreign symlink; do
	t=$(new61p)
	conf=$t/etc/sysctl.d/90-pcpctl.conf
	case $planted in
	foreign) echo "vm.swappiness = 10" >"$conf" ;;
	symlink) printf '# Written by pcpctl set --persist; pcpctl reset --persist removes it.\n' \
		>"$work/elsewhere.conf" && ln -sf "$work/elsewhere.conf" "$conf" ;;
	esac
	orig=$(state "$t")
	expect "dry run with a $planted 90-pcpctl.conf exits 1" 1 "$sim" --sysroot "$t" set --fraction 8 --persist --dry-run --json
	cp "$work/err" "$work/err.dry"
	expect "the real run with a $planted 90-pcpctl.conf exits 1" 1 "$sim" --sysroot "$t" set --fraction 8 --persist
	same "dry run with a $planted 90-pcpctl.conf: the real run's refusal" "$(cat "$work/err")" "$(cat "$work/err.dry")"
	same "a $planted 90-pcpctl.conf: nothing changed" "$orig" "$(state "$t")"
done

t=$(new61p)
echo "crash verify" >"$t/sim/faults"
expect "crash for a leftover journal" 137 "$sim" --sysroot "$t" set --batch 310
rm "$t/sim/faults"
expect "dry run with a leftover journal exits 1" 1 "$sim" --sysroot "$t" set --fraction 8 --dry-run
cp "$work/err" "$work/err.dry"
expect "the real run with a leftover journal exits 1" 1 "$sim" --sysroot "$t" set --fraction 8
same "dry run with a leftover journal: the real run's message" "$(cat "$work/err")" "$(cat "$work/err.dry")"
expect "rollback of the leftover journal" 0 "$sim" --sysroot "$t" rollback
echo "crash committed" >"$t/sim/faults"
expect "crash after a commit record" 137 "$sim" --sysroot "$t" set --fraction 9
rm "$t/sim/faults"
expect "dry run with a committed journal goes ahead, as the real run" 0 "$sim" --sysroot "$t" set --fraction 8 --dry-run --json
has "dry run notes what the change removes" "$work/err" "note: .*run/pcpctl/journal is left over, but the change it records had completed.*; the change removes it"
has "the note is in the dry run's warnings" "$work/out" '"warnings":\["note: .*run/pcpctl/journal is left over, but the change it records had completed.*; the change removes it"\]'
[ -e "$t/run/pcpctl/journal" ] && ok "dry run removed no journal" || bad "dry run removed the journal"
expect "the real run after it removes the journal" 0 "$sim" --sysroot "$t" set --fraction 8
has "the real run notes the removal" "$work/err" "note: removed .*run/pcpctl/journal"

t=$(new61p)
hold "$t" verify /dev/null "$sim" --sysroot "$t" set --batch 310
"$sim" --sysroot "$t" set --batch 100 --dry-run >"$work/out" 2>"$work/err" &
second=$!
await grep -q "waiting up to 10 s" "$work/err" || bad "the dry run never waited"
# pcpctl counts its 10 s in tries of the lock, not on a clock: stopped, the
# dry run tries no more, so it waits out the holder however slowly that
# finishes once let go (a loaded machine, valgrind).
stopped $second
release "$t"
# wait(a): the holder has exited while the dry run is stopped, so the dry run's tries cannot run out
#   (it is stopped within one 20 ms poll of its "waiting" line, against pcpctl's 9.9 s of tries);
#   then the continued dry run exits 0.
wait $holder
kill -CONT $second
wait $second
got=$?
[ "$got" = 0 ] && ok "dry run waits for the lock, then goes ahead" ||
	{ bad "dry run waits for the lock, then goes ahead: exit $got"; sed 's/^/    /' "$work/err"; }
has "dry run waited" "$work/err" "waiting up to 10 s"
has "dry run saw the holder's change" "$work/out" "percpu_pagelist_batch: *310 -> 100 (dry run: not written)"
hold "$t" verify /dev/null "$sim" --sysroot "$t" set --batch 200
expect "dry run under a held lock gives up after 10 s" 1 "$sim" --sysroot "$t" set --batch 100 --dry-run
has "dry run under a held lock: the lock message" "$work/err" "another pcpctl is changing"
# wait(c): pcpctl's own lock wait is the tested thing (src/transaction/lock.c: 100 flock tries 100
#   ms apart, counted in tries, not on a clock); the holder is held by hold (at least 600 s). Then:
#   the holder exits once released.
release "$t"
wait $holder
fl=$(ls "$t/run/pcpctl")
same "dry runs leave only the lock in run/pcpctl" "lock" "$fl"

fi
if section "a dry run predicts each zone as the change then leaves it"; then
# match NAME MODE REPORT TREE: the report's "expected" against the tree's pagesets
match() {
	"$sim" --sysroot "$4" show --json >"$work/show.json"
	if "$here/expected-match.py" "$3" "$work/show.json" "$2" >"$work/match"; then ok "$1"; else
		bad "$1:"; sed 's/^/    /' "$work/match"; fi
}
for k in 61p:eager:--fraction=8 61p:eager:--batch=310,--fraction=8 61:eager:--fraction=8 \
	612p:lazy:--fraction=8 612p:lazy:--batch=310 618:minmax:--fraction=8 \
	618:minmax:--fraction=1000000 414:eager:--fraction=8; do
	IFS=: read -r era mode args <<<"$k"
	args=${args//[=,]/ }
	t=$(new${era%%:*})
	# shellcheck disable=SC2086
	expect "$era dry run $args" 0 "$sim" --sysroot "$t" set $args --dry-run --json
	cp "$work/out" "$work/dry.json"
	# shellcheck disable=SC2086
	expect "$era set $args" 0 "$sim" --sysroot "$t" set $args --json
	match "$era $args: the dry run's expected is what zoneinfo shows after" "$mode" "$work/dry.json" "$t"
	match "$era $args: the real run's expected is what zoneinfo shows after" "$mode" "$work/out" "$t"
	expect "$era dry run of reset" 0 "$sim" --sysroot "$t" reset --dry-run --json
	cp "$work/out" "$work/dry.json"
	expect "$era reset" 0 "$sim" --sysroot "$t" reset --json
	match "$era reset: the dry run's expected is what zoneinfo shows after" "$mode" "$work/dry.json" "$t"
done
# Against real kernels: the captures after the same write (tests/fixtures/zoneinfo/README.md).
for k in debian-6.1-4cpu-2node:6.1.0-57-cloud-amd64:0-1,2-3:eager \
	debian-6.1-cpuless-node:6.1.0-57-cloud-amd64:0-1,2-3,:eager \
	debian-6.12-4cpu-2node:6.12.117+deb12-cloud-amd64:0-1,2-3:batch \
	debian-6.12-cpuless-node:6.12.117+deb12-cloud-amd64:0-1,2-3,:batch; do
	IFS=: read -r base release nodes mode <<<"$k"
	t=$(mktree real-$base "$base.zoneinfo" "$release" "${nodes//,/;}" percpu_pagelist_high_fraction=0)
	expect "$base: dry run of fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8 --dry-run --json
	sysroot_tree "$work/real" "$base-frac8.zoneinfo" --page-kib 0 --nodes "" >/dev/null
	match "$base: expected is what the real kernel showed after fraction 8" "$mode" "$work/out" "$work/real"
done
for k in 6.1:eager 6.12:batch 7.3:minmax; do
	IFS=: read -r v mode <<<"$k"
	t=$(mktree real-patched-$v "patched-$v-4cpu-2node.zoneinfo" "$v.0-pcpctl" "0-1;2-3" \
		percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0)
	bs="310:batch310 2016:batchmax"
	# a capture of patch v2 (its meta names v2's _max file) shows v2's rule at its maximum
	grep -q '^percpu_pagelist_batch_max=' "$fixtures/patched-$v-4cpu-2node.meta" && bs=310:batch310
	for b in $bs; do
		expect "patched $v: dry run of batch ${b%%:*}" 0 "$sim" --sysroot "$t" set --batch "${b%%:*}" --dry-run --json
		sysroot_tree "$work/real" "patched-$v-4cpu-2node-${b#*:}.zoneinfo" --page-kib 0 --nodes "" >/dev/null
		match "patched $v: expected is what the real kernel showed after batch ${b%%:*}" "$mode" "$work/out" "$work/real"
	done
done
t=$(new612p)
expect "6.12 dry run of fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8 --dry-run
has "6.12 dry run gives each zone's lazy high" "$work/out" "node 0 zone DMA32 .*(each CPU sets its high to [0-9]* lazily)"

fi
if section "values the kernel clamps are warned of, and the warnings are in the JSON"; then
# warned NAME: every warning and note on stderr, and nothing else, in the report's "warnings"
warned() {
	if python3 -c 'import json, sys
said = [l[len("pcpctl: "):] for l in open(sys.argv[2]).read().splitlines()
        if l.startswith(("pcpctl: warning: ", "pcpctl: note: "))]
sys.exit(json.load(open(sys.argv[1]))["warnings"] != said or not said)' "$work/out" "$work/err"; then
		ok "$1"; else bad "$1:"; sed 's/^/    /' "$work/out" "$work/err"; fi
}
for era in 618 61 612p; do
	t=$(new$era)
	for dry in --dry-run ""; do
		# shellcheck disable=SC2086
		expect "$era set --fraction 1000000 $dry" 0 "$sim" --sysroot "$t" set --fraction 1000000 $dry --json
		has "$era --fraction 1000000 $dry: high falls to its floor" "$work/err" \
			"warning: vm.percpu_pagelist_high_fraction = 1000000 puts high at its floor of 4 \* batch .*node 0 zone DMA32 252 (not 0)"
		warned "$era --fraction 1000000 $dry: the warning is in the JSON"
	done
done
# Up to 5.13 there is no floor: a fraction above a zone's managed pages gives high 0.
t=$(new414)
for dry in --dry-run ""; do
	# shellcheck disable=SC2086
	expect "4.14 set --fraction 100000 $dry" 0 "$sim" --sysroot "$t" set --fraction 100000 $dry --json
	has "4.14 --fraction 100000 $dry: high 0 is warned of" "$work/err" \
		"warning: vm.percpu_pagelist_fraction = 100000 puts high at 0 .*: node 0 zone DMA (3977 pages)$"
	warned "4.14 --fraction 100000 $dry: the warning is in the JSON"
done
# A tree without the page size is warned of while set checks --batch, before the change.
t=$(new612p)
rm "$t/proc/self/smaps"
expect "set --batch 310 on a tree without the page size" 0 "$sim" --sysroot "$t" set --batch 310 --json
has "a tree without the page size is warned of" "$work/err" "warning: .*does not record the page size: 4 KiB is assumed"
warned "the page size's warning is in the JSON"
t=$(new618)
expect "fraction 8: no clamp" 0 "$sim" --sysroot "$t" set --fraction 8 --json
[ -s "$work/err" ] && bad "fraction 8 warns: $(cat "$work/err")" || ok "fraction 8 warns of nothing"
has "no warning: an empty array" "$work/out" '"warnings":\[\]}$'
grep -qx '   "warnings": \[\]' "$work/out" && ok "an empty array is printed as []" ||
	bad "an empty array is not printed as []: $(grep -A2 '"warnings"' "$work/out")"
# A zone shared by 64 CPUs takes a batch of at most its pages / 8 / 64 / 4: the 6.1
# capture with its one CPU's pageset copied for CPUs 0-63.
t=$(mktree 61wide debian-6.1-1cpu.zoneinfo 6.1.0-57-pcpctl "" percpu_pagelist_batch=0 \
	percpu_pagelist_high_fraction=0)
awk '/^ *cpu: 0$/ { n = 5 } n { block = block $0 "\n"; if (--n) next
	for (c = 0; c < 64; c++) { b = block; sub(/cpu: 0/, "cpu: " c, b); printf "%s", b }
	block = ""; next } { print }' "$fixtures/debian-6.1-1cpu.zoneinfo" >"$t/proc/zoneinfo"
expect "a batch larger than the zones of 64 CPUs take" 0 "$sim" --sysroot "$t" set --batch 1007 --json
has "the capped batch is warned of" "$work/err" "percpu_pagelist_batch = 1007 is more than some zones take; .*: node 0 zone DMA32 63 (not 1007), node 0 zone Normal 63 (not 1007)"
warned "the capped batch's warning is in the JSON"
t=$(new61p)
echo "crash verify" >"$t/sim/faults"
expect "crash for rollback --json" 137 "$sim" --sysroot "$t" set --batch 310
printf 'foreign-write rollback:percpu_pagelist_batch percpu_pagelist_batch=77\n' >"$t/sim/faults"
expect "rollback --json that leaves another writer's value" 6 "$sim" --sysroot "$t" rollback --json
warned "rollback's warning is in its JSON"
rm "$t/sim/faults"
expect "rollback --discard --json" 0 "$sim" --sysroot "$t" rollback --discard --json
has "rollback --discard JSON has warnings" "$work/out" '"warnings":\[\]}$'

fi
if section "a dry run of --persist shows the sysctl.d file before and after"; then
t=$(new61p)
conf=$t/etc/sysctl.d/90-pcpctl.conf
expect "persist fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8 --persist --json
has "a real run reports the file it wrote" "$work/out" '"persist":{"path":".*90-pcpctl.conf","before":null,"after":"# Written by pcpctl; pcpctl reset --persist removes it.\\u000avm.percpu_pagelist_high_fraction = 8\\u000a"}'
before=$(cat "$conf")
expect "dry run of batch 310 --persist" 0 "$sim" --sysroot "$t" set --batch 310 --persist --dry-run --json
cp "$work/out" "$work/dry.json"
same "the dry run left the file" "$before" "$(cat "$conf")"
expect "the real run of batch 310 --persist" 0 "$sim" --sysroot "$t" set --batch 310 --persist --json
if python3 -c 'import json, sys
dry, real = (json.load(open(f))["persist"] for f in sys.argv[1:3])
sys.exit(not (dry["before"] == sys.argv[3] + "\n" and dry["after"] == open(sys.argv[4]).read() == real["after"]
              and real["before"] == dry["before"] and "vm.percpu_pagelist_batch = 310" in dry["after"]))' \
	"$work/dry.json" "$work/out" "$before" "$conf"; then
	ok "persist before/after: the dry run's are the file before and as the real run wrote it"
else bad "persist before/after differ:"; cat "$work/dry.json" "$work/out"; fi
expect "dry run of reset --persist" 0 "$sim" --sysroot "$t" reset --persist --dry-run
has "dry run of reset --persist: the file now" "$work/out" "^    vm.percpu_pagelist_batch = 310$"
has "dry run of reset --persist: removed after" "$work/out" "after the change: removed"
expect "dry run of reset --persist --json" 0 "$sim" --sysroot "$t" reset --persist --dry-run --json
has "dry run of reset --persist: after null" "$work/out" '"after":null},"boot_overrides":'
expect "dry run without --persist" 0 "$sim" --sysroot "$t" set --fraction 9 --dry-run --json
has "without --persist: persist null" "$work/out" '"persist":null,'

fi
if section "the 6.7-6.12 kernels cannot confirm high in zoneinfo, and say so"; then
t=$(new612p)
expect "6.12 set --fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8
has "6.12 note" "$work/out" 'zoneinfo cannot confirm a fraction'
grep -q "verified in zoneinfo" "$work/out" && bad "6.12 claims zoneinfo verified the fraction" ||
	ok "6.12 claims no zoneinfo verification"
same "6.12 says it in one line" "1" "$(grep -c 'zoneinfo cannot confirm' "$work/out")"
has "6.12 last line says the sysctl reads back" "$work/out" '^changed; the sysctls read back as set'

fi
if section "a failing write rolls back what was written"; then
for err in EINVAL EIO EACCES EROFS; do
	for k in 1 2; do
		t=$(new61p)
		orig=$(state "$t")
		echo "fail-write $k $err" >"$t/sim/faults"
		expect "$err on write $k exits 1" 1 "$sim" --sysroot "$t" set --batch 310 --fraction 8 --json
		has "$err on write $k reports rolled back" "$work/out" '"rolled_back":true'
		rm "$t/sim/faults"
		same "$err on write $k left nothing changed" "$orig" "$(state "$t")"
		[ -e "$t/run/pcpctl/journal" ] && bad "journal kept after $err" || ok "journal removed after $err"
	done
done

fi
if section "a verification mismatch rolls back"; then
t=$(new61p)
orig=$(state "$t")
echo "mismatch-after-write 2" >"$t/sim/faults"
expect "mismatch exits 1" 1 "$sim" --sysroot "$t" set --batch 310 --fraction 8
has "mismatch says why" "$work/err" 'verification failed: node 0 zone DMA cpu 3 shows batch'
rm "$t/sim/faults"
same "mismatch left nothing changed" "$orig" "$(state "$t")"
has "a written, undone value is not called unchanged" "$work/out" 'percpu_pagelist_batch: *0 (restored: the change to 310 was undone)$'
has "nor the other" "$work/out" 'percpu_pagelist_high_fraction: *0 (restored: the change to 8 was undone)$'
t=$(new61p)
echo "fail-write 1 EIO" >"$t/sim/faults"
expect "a failed first write exits 1" 1 "$sim" --sysroot "$t" set --batch 310 --fraction 8
rm "$t/sim/faults"
has "a write the kernel refused left the value: unchanged" "$work/out" 'percpu_pagelist_batch: *0 (unchanged)$'
has "the write never tried is unchanged" "$work/out" 'percpu_pagelist_high_fraction: *0 (unchanged)$'

fi
if section "kswapd moves the watermark boost under a change: high follows the boost of the write"; then
zone_line() { awk -v key="$2" '/^Node 0, zone +Normal/ { z = 1 } z && $1 == key { print $2; exit }' \
	"$1/proc/zoneinfo"; }
# high = managed / 8 does not follow the watermark; reset's high = low / CPUs does.
t=$(new61p)
low=$(zone_line "$t" low)
expect "fraction 8 before a boost" 0 "$sim" --sysroot "$t" set --fraction 8
rm -f "$t/sim/writes"
echo "boost-after-write 1 64" >"$t/sim/faults"
expect "a boost raised after the reset's write still verifies" 0 "$sim" --sysroot "$t" reset
same "the boost raised low" "$((low + 64)) 64" "$(zone_line "$t" low) $(zone_line "$t" boost)"
t=$(new61p)
echo "boost-after-write 1 64" >"$t/sim/faults"
expect "fraction 8 while a boost is raised" 0 "$sim" --sysroot "$t" set --fraction 8
rm -f "$t/sim/writes"
echo "boost-after-write 1 -64" >"$t/sim/faults"
expect "a boost cleared after the reset's write still verifies" 0 "$sim" --sysroot "$t" reset
same "the boost was cleared" "$low 0" "$(zone_line "$t" low) $(zone_line "$t" boost)"
rm -f "$t/sim/writes"
echo "mismatch-after-write 1" >"$t/sim/faults"
expect "a real mismatch is still caught" 1 "$sim" --sysroot "$t" set --batch 100
rm "$t/sim/faults"

fi
if section "a rollback that cannot verify keeps the journal: exit 5"; then
t=$(new61p)
echo "mismatch-always" >"$t/sim/faults"
expect "unverifiable rollback exits 5" 5 "$sim" --sysroot "$t" set --batch 310
has "exit 5 says to run rollback, with the --sysroot it was given" "$work/err" "run 'pcpctl --sysroot $t rollback'"
[ -e "$t/run/pcpctl/journal" ] && ok "journal kept after exit 5" || bad "journal missing after exit 5"

fi
if section "a rollback whose write fails keeps the journal; pcpctl rollback finishes it"; then
t=$(new61p)
orig=$(state "$t")
printf 'fail-write 2 EIO\nfail-write 4 EIO\n' >"$t/sim/faults"
expect "failed restore write exits 5" 5 "$sim" --sysroot "$t" set --batch 310 --fraction 8
has "journal path named" "$work/err" "run/pcpctl/journal keeps the old values"
same "batch still 310 after the failed restore" "310" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
has "exit 5 reports the batch in force" "$work/out" 'percpu_pagelist_batch: *0 -> 310$'
has "exit 5's report names the rollback as it runs" "$work/out" "then run 'pcpctl --sysroot $t rollback'"
has "exit 5 says the rollback failed" "$work/out" "failed, and so did the rollback"
grep -q "restored and verified" "$work/out" && bad "exit 5 claims a restore" ||
	ok "exit 5 claims no restore"
expect "set while the journal is left exits 1" 1 "$sim" --sysroot "$t" set --fraction 8 --json
has "a refused set reports the values in force" "$work/out" '"after":{"percpu_pagelist_batch":310,"percpu_pagelist_high_fraction":0,"percpu_pagelist_fraction":null}'
rm "$t/sim/faults"
expect "rollback after exit 5" 0 "$sim" --sysroot "$t" rollback
same "rollback restored the original" "$orig" "$(state "$t")"
t=$(new61p)
printf 'fail-write 2 EIO\nfail-write 4 EIO\n' >"$t/sim/faults"
expect "failed restore write exits 5 (JSON)" 5 "$sim" --sysroot "$t" set --batch 310 --fraction 8 --json
has "exit 5 JSON: not rolled back" "$work/out" '"rolled_back":false'
has "exit 5 JSON: after is what is in force" "$work/out" '"after":{"percpu_pagelist_batch":310,"percpu_pagelist_high_fraction":0,"percpu_pagelist_fraction":null}'

fi
if section "rollback --discard removes a journal that can never be applied, and says what it held"; then
t=$(new61p)
expect "discard without a journal exits 0" 0 "$sim" --sysroot "$t" rollback --discard
has "discard without a journal says so" "$work/out" "nothing to discard"
printf 'fail-write 2 EIO\nfail-write 4 EIO\nfail-write 5 EIO\n' >"$t/sim/faults"
expect "a failed restore for discard exits 5" 5 "$sim" --sysroot "$t" set --batch 310 --fraction 8 --persist
expect "the rollback fails again: exit 5" 5 "$sim" --sysroot "$t" rollback
has "exit 5 of rollback names --discard" "$work/err" "run 'pcpctl --sysroot $t rollback --discard'"
cp "$t/run/pcpctl/journal" "$work/journal.stuck"
chmod a+x "$work" && chmod -R a+rX "$t/proc" "$t/sys" && chmod a+rx "$t" "$t/run" "$t/run/pcpctl"
expect "discard as nobody exits 4" 4 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$sim" --sysroot "$t" rollback --discard
chmod 700 "$t/run/pcpctl"
rm "$t/sim/faults"
before=$(state "$t")
expect "discard exits 0" 0 "$sim" --sysroot "$t" rollback --discard
has "discard names the journal" "$work/out" "^discarded .*run/pcpctl/journal, which recorded:"
has "discard lists the old and written batch" "$work/out" "vm.percpu_pagelist_batch: was 0, the change wrote 310"
has "discard lists the sysctl.d file" "$work/out" "90-pcpctl.conf before the change: no pcp setting"
[ -e "$t/run/pcpctl/journal" ] && bad "discard left the journal" || ok "discard removed the journal"
same "discard changed no setting" "$before" "$(state "$t")"
install -m 0600 "$work/journal.stuck" "$t/run/pcpctl/journal"
expect "discard --json exits 0" 0 "$sim" --sysroot "$t" rollback --discard --json
has "discard JSON lists what it held" "$work/out" '"discarded":true,.*"recorded":\[{"sysctl":"percpu_pagelist_batch","old":0,"wrote":310}'
echo garbage >"$t/run/pcpctl/journal"
expect "a damaged journal is discarded too" 0 "$sim" --sysroot "$t" rollback --discard
has "discard says it was damaged" "$work/out" "which could not be read"
expect "set works after discard" 0 "$sim" --sysroot "$t" set --batch 100

fi
if section "a crash at any step: the journal makes rollback restore the old settings"; then
for step in journal write:percpu_pagelist_batch write:percpu_pagelist_high_fraction verify \
	persist commit; do
	t=$(new61p)
	orig_sysctls=$(cat "$t"/proc/sys/vm/*)
	echo "crash $step" >"$t/sim/faults"
	expect "crash at $step" 137 "$sim" --sysroot "$t" set --batch 310 --fraction 8 --persist
	rm "$t/sim/faults"
	if [ "$step" = journal ]; then
		expect "crash before the journal: show is quiet" 0 "$sim" --sysroot "$t" show
		[ -s "$work/err" ] && bad "warning without journal" || ok "no warning without journal"
		same "crash before the journal changed nothing" "$orig_sysctls" "$(cat "$t"/proc/sys/vm/*)"
		continue
	fi
	expect "after crash at $step show warns" 0 "$sim" --sysroot "$t" show
	has "warning names rollback" "$work/err" "run 'pcpctl --sysroot $t rollback'"
	expect "after crash at $step status warns" 0 "$sim" --sysroot "$t" status
	has "status warning" "$work/err" "interrupted pcpctl change"
	expect "after crash at $step set refuses" 1 "$sim" --sysroot "$t" set --batch 5
	has "set says rollback first" "$work/err" "run 'pcpctl --sysroot $t rollback' first"
	expect "rollback after crash at $step" 0 "$sim" --sysroot "$t" rollback
	if [ "$step" = write:percpu_pagelist_batch ]; then
		has "a crash before any write: nothing called restored" "$work/out" \
			"^vm.percpu_pagelist_batch = 0, as before the change: it had not been written, or an earlier rollback restored it\$"
	else
		has "rollback reports what it restored" "$work/out" "restored vm.percpu_pagelist_batch = 0 (was 310)"
	fi
	if [ "$step" = write:percpu_pagelist_high_fraction ]; then
		has "a write the crash came before is not called restored" "$work/out" \
			"^vm.percpu_pagelist_high_fraction = 0, as before the change: it had not been written, or an earlier rollback restored it\$"
		grep -q 'restored vm.percpu_pagelist_high_fraction' "$work/out" &&
			bad "rollback claims to restore the fraction" || ok "no claim of a fraction restored"
	fi
	has "rollback reports the sysctl.d file" "$work/out" "restored .*90-pcpctl.conf as it was"
	same "crash at $step: sysctls restored" "$orig_sysctls" "$(cat "$t"/proc/sys/vm/*)"
	[ -e "$t/etc/sysctl.d/90-pcpctl.conf" ] && bad "crash at $step: sysctl.d file left behind" ||
		ok "crash at $step: no sysctl.d file, as before"
	expect "after rollback show is quiet" 0 "$sim" --sysroot "$t" show
	[ -s "$work/err" ] && bad "warning after rollback" || ok "no warning after rollback"
	expect "second rollback has nothing to do" 0 "$sim" --sysroot "$t" rollback
	has "nothing to roll back" "$work/out" "nothing to roll back"
done

fi
if section "a tampered or truncated journal is refused, never applied"; then
t=$(new61p)
echo "crash verify" >"$t/sim/faults"
expect "crash for a journal" 137 "$sim" --sysroot "$t" set --batch 310
rm "$t/sim/faults"
cp "$t/run/pcpctl/journal" "$work/journal.good"
sed -i 's/percpu_pagelist_batch 0/percpu_pagelist_batch 9/' "$t/run/pcpctl/journal"
before=$(cat "$t"/proc/sys/vm/*)
expect "tampered journal refused" 1 "$sim" --sysroot "$t" rollback
has "tampered says checksum" "$work/err" "checksum does not match"
has "and how to get past it: rollback --discard" "$work/err" "by hand, then run 'pcpctl --sysroot $t rollback --discard'"
expect "status with a tampered journal" 0 "$sim" --sysroot "$t" status
has "status does not send to a rollback that refuses" "$work/err" "cannot be rolled back: its checksum does not match.*run 'pcpctl --sysroot $t rollback --discard'"
grep -q "to restore the settings it recorded" "$work/err" && bad "status suggests a rollback that refuses" ||
	ok "status suggests no plain rollback"
same "tampered journal changed nothing" "$before" "$(cat "$t"/proc/sys/vm/*)"
head -c 30 "$work/journal.good" >"$t/run/pcpctl/journal"
expect "truncated journal refused" 1 "$sim" --sysroot "$t" rollback
has "truncated says so" "$work/err" "truncated"
rm "$t/run/pcpctl/journal"
ln -s "$work/journal.good" "$t/run/pcpctl/journal"
expect "symlinked journal refused" 1 "$sim" --sysroot "$t" rollback
has "symlink says so" "$work/err" "symbolic link"
rm "$t/run/pcpctl/journal"
install -m 0644 "$work/journal.good" "$t/run/pcpctl/journal"
expect "world-readable journal refused" 1 "$sim" --sysroot "$t" rollback
{ cat "$work/journal.good"; head -c 70000 /dev/zero | tr '\0' '#'; } >"$t/run/pcpctl/journal"
chmod 0600 "$t/run/pcpctl/journal"
expect "oversized journal refused" 1 "$sim" --sysroot "$t" rollback
has "oversized says so" "$work/err" "too large"
install -m 0600 "$work/journal.good" "$t/run/pcpctl/journal"
expect "the intact journal is applied" 0 "$sim" --sysroot "$t" rollback
same "intact journal restored batch 0" "0" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"

fi
if section "a journal of a sysctl the kernel no longer has: status sends to --discard"; then
t=$(new61p)
echo "crash verify" >"$t/sim/faults"
expect "crash for a journal of batch" 137 "$sim" --sysroot "$t" set --batch 310
rm "$t/sim/faults" "$t/proc/sys/vm/percpu_pagelist_batch"
expect "status with it" 0 "$sim" --sysroot "$t" status
has "status names the sysctl and --discard" "$work/err" "cannot be rolled back: it records vm.percpu_pagelist_batch, which this kernel lacks; set the values by hand, then run 'pcpctl --sysroot $t rollback --discard'"
expect "rollback refuses it" 3 "$sim" --sysroot "$t" rollback
has "rollback names --discard too" "$work/err" "'pcpctl --sysroot $t rollback --discard' removes it"

fi
if section "planted files at the lock and in run/pcpctl are refused"; then
t=$(new61p)
mkdir -p "$t/run/pcpctl" && chmod 700 "$t/run/pcpctl"
ln -s /etc/passwd "$t/run/pcpctl/lock"
expect "symlinked lock refused" 1 "$sim" --sysroot "$t" set --batch 310
has "lock symlink message" "$work/err" "symbolic link"
rm "$t/run/pcpctl/lock"
install -m 0644 /dev/null "$t/run/pcpctl/lock"
expect "a lock others can read refused" 1 "$sim" --sysroot "$t" set --batch 310
has "the lock message names the mode found" "$work/err" \
	"refusing the lock .*/run/pcpctl/lock: mode 0644, where only its owner may read or write it (0600); remove it"
ln "$t/run/pcpctl/lock" "$t/run/pcpctl/lock2" && chmod 600 "$t/run/pcpctl/lock"
expect "a lock with two links refused" 1 "$sim" --sysroot "$t" set --batch 310
has "the lock message counts the links" "$work/err" "lock: 2 hard links to it, not 1; remove it"
rm "$t/run/pcpctl/lock" "$t/run/pcpctl/lock2"
install -m 0644 /dev/null "$t/run/pcpctl/journal"
expect "a journal others can read refused" 1 "$sim" --sysroot "$t" rollback
has "the journal message names the mode found" "$work/err" "mode 0644, where only its owner"
rm "$t/run/pcpctl/journal"
chmod 777 "$t/run/pcpctl"
expect "world-writable run dir refused" 1 "$sim" --sysroot "$t" set --batch 310
chmod 700 "$t/run/pcpctl"

fi
if section "persist: sysctl.d written after verification, removed by reset --persist"; then
t=$(new61p)
conf=$t/etc/sysctl.d/90-pcpctl.conf
expect "set --fraction 8 --persist" 0 "$sim" --sysroot "$t" set --fraction 8 --persist --json
has "persisted true" "$work/out" '"persisted":true'
has "conf has fraction" "$conf" '^vm.percpu_pagelist_high_fraction = 8$'
expect "set --batch 310 --persist" 0 "$sim" --sysroot "$t" set --batch 310 --persist
has "conf keeps fraction" "$conf" '^vm.percpu_pagelist_high_fraction = 8$'
has "conf has batch" "$conf" '^vm.percpu_pagelist_batch = 310$'
[ "$(stat -c %a "$conf")" = 644 ] && ok "conf is 0644" || bad "conf mode $(stat -c %a "$conf")"
expect "reset --persist" 0 "$sim" --sysroot "$t" reset --persist
[ -e "$conf" ] && bad "conf still there after reset --persist" || ok "reset --persist removed conf"
has "reset --persist says it removed the file" "$work/out" "^removed .*90-pcpctl.conf"
grep -q "persisted in" "$work/out" && bad "reset --persist claims the deleted file" ||
	ok "reset --persist names no deleted file as persisted"
expect "reset --persist without a file" 0 "$sim" --sysroot "$t" reset --persist
has "reset --persist without a file says so" "$work/out" "nothing to persist: there is no .*90-pcpctl.conf"
echo "vm.swappiness = 10" >"$conf"
orig=$(state "$t")
expect "foreign conf refused, live change rolled back" 1 "$sim" --sysroot "$t" set --batch 310 --persist
has "foreign conf message" "$work/err" "not written by pcpctl"
same "foreign conf: nothing changed" "$orig" "$(state "$t")"

t=$(new61p)
rm -r "$t/etc/sysctl.d"
expect "--persist without etc/sysctl.d creates it" 0 "$sim" --sysroot "$t" set --fraction 8 --persist
has "the file is in the new directory" "$t/etc/sysctl.d/90-pcpctl.conf" '^vm.percpu_pagelist_high_fraction = 8$'
same "the new directory is 0755" 755 "$(stat -c %a "$t/etc/sysctl.d")"

fi
if section "--persist is journaled: a crash or a failed persist puts the file back as it was"; then
t=$(new61p)
conf=$t/etc/sysctl.d/90-pcpctl.conf
expect "persist fraction 8 first" 0 "$sim" --sysroot "$t" set --fraction 8 --persist
orig=$(state "$t")
echo "crash commit" >"$t/sim/faults"
expect "crash after persisting batch 310" 137 "$sim" --sysroot "$t" set --batch 310 --persist
rm "$t/sim/faults"
has "the crash left batch 310 in the file" "$conf" '^vm.percpu_pagelist_batch = 310$'
expect "rollback after the crash" 0 "$sim" --sysroot "$t" rollback --json
has "rollback JSON says the file was restored" "$work/out" '"persisted":true'
same "rollback restored sysctls and the file" "$orig" "$(state "$t")"
mkdir "$conf.tmp"
expect "persist that fails after the writes exits 1" 1 "$sim" --sysroot "$t" set --batch 310 --persist
has "failed persist names the file" "$work/err" "cannot write .*90-pcpctl.conf"
same "failed persist: sysctls and file as before" "$orig" "$(state "$t")"
[ -e "$t/run/pcpctl/journal" ] && bad "journal left after a failed persist" ||
	ok "no journal after a failed persist"
rmdir "$conf.tmp"
expect "reset --persist still works" 0 "$sim" --sysroot "$t" reset --persist

fi
if section "two changes at once never interleave"; then
t=$(new61p)
hold "$t" verify "$work/first" "$sim" --sysroot "$t" set --batch 310
"$sim" --sysroot "$t" set --batch 100 >"$work/out" 2>"$work/err" &
second=$!
await grep -q "waiting up to 10 s" "$work/err" || bad "the second never waited"
stopped $second	# its tries stop until the first has exited (as above)
same "the second changed nothing while the first held the lock" "310" \
	"$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
release "$t"
# wait(a): the first has exited (wait $holder) while the second is stopped; continued, the second
#   exits 0.
wait $holder && ok "the first finished" || bad "the first failed: $(cat "$work/first")"
kill -CONT $second
wait $second
got=$?
[ "$got" = 0 ] && ok "the second waits for the lock, then runs" ||
	{ bad "the second waits for the lock, then runs: exit $got"; sed 's/^/    /' "$work/err"; }
same "the second ran after the first" "100" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
hold "$t" verify /dev/null "$sim" --sysroot "$t" set --batch 310
# wait(c): the second gives up after pcpctl's 10 s of tries, as for the dry run; then the holder
#   exits once released.
expect "the second gives up after 10 s" 1 "$sim" --sysroot "$t" set --batch 200
has "lock message" "$work/err" "another pcpctl is changing"
release "$t"
wait $holder
same "the holder's change stands" "310" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"

fi
if section "without privilege: exit 4 before anything is touched"; then
t=$(new61p)
orig=$(state "$t")
chmod a+x "$work" && chmod -R a+rX "$t"
expect "set as nobody exits 4" 4 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$sim" --sysroot "$t" set --batch 310
has "privilege message" "$work/err" "needs root"
same "unprivileged set changed nothing" "$orig" "$(state "$t")"
[ -e "$t/run" ] && bad "unprivileged set created run/" || ok "unprivileged set created nothing"
expect "show as nobody works" 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$sim" --sysroot "$t" show
# As on a live system where root ran pcpctl before: run/pcpctl exists, with
# a lock file in it.  (A tree without run/ hid what the live kernel showed.)
expect "root's set on the tree" 0 "$sim" --sysroot "$t" set --batch 310
expect "root's reset on the tree" 0 "$sim" --sysroot "$t" reset
expect "rollback as nobody without a journal exits 0" 0 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$sim" --sysroot "$t" rollback
has "rollback as nobody: nothing to roll back" "$work/out" "nothing to roll back"
# run/pcpctl as an older pcpctl made it (0700): the next root change opens it up
chmod 0700 "$t/run/pcpctl"
expect "root's dry run on a 0700 run/pcpctl" 0 "$sim" --sysroot "$t" set --batch 310 --dry-run
same "run/pcpctl is searchable by all after a root run" 755 "$(stat -c %a "$t/run/pcpctl")"
expect "then rollback as nobody exits 0" 0 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$sim" --sysroot "$t" rollback
echo "crash verify" >"$t/sim/faults"
expect "crash for a journal nobody may not read" 137 "$sim" --sysroot "$t" set --batch 310
rm "$t/sim/faults"
expect "rollback as nobody with a journal exits 4" 4 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$sim" --sysroot "$t" rollback
expect "rollback as root after that" 0 "$sim" --sysroot "$t" rollback

fi
if section "no capability at all: show, status and a root change still work"; then
t=$(new61p)
nocaps=(setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all)
expect "show with no capability" 0 "${nocaps[@]}" "$sim" --sysroot "$t" show
expect "status with no capability" 0 "${nocaps[@]}" "$sim" --sysroot "$t" status
expect "set as root with no capability" 0 "${nocaps[@]}" "$sim" --sysroot "$t" set --batch 310
grep -q '^CapEff:\s*0*$' <(setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all \
	cat /proc/self/status) && ok "setpriv really drops them" || bad "setpriv kept capabilities"

fi
if section "a torn journal that precedes every write, or a temporary one, blocks nothing"; then
for torn in empty magic tmp; do
	t=$(new61p)
	mkdir -p -m 700 "$t/run/pcpctl"
	case $torn in
	empty) : >"$t/run/pcpctl/journal" ;;
	magic) printf 'pcpctl journal v1\n' >"$t/run/pcpctl/journal" ;;
	tmp) printf 'pcpctl journal v1\npercpu_pagelist_b' >"$t/run/pcpctl/journal.tmp" ;;
	esac
	chmod 600 "$t"/run/pcpctl/journal*
	expect "$torn journal: set works" 0 "$sim" --sysroot "$t" set --batch 310
	has "$torn journal: set notes the removal" "$work/err" "note: removed .*run/pcpctl/journal"
	same "$torn journal: batch set" "310" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
	[ -e "$t/run/pcpctl/journal" ] || [ -e "$t/run/pcpctl/journal.tmp" ] &&
		bad "$torn journal left" || ok "$torn journal removed"
done
t=$(new61p)
mkdir -p -m 700 "$t/run/pcpctl" && install -m 600 /dev/null "$t/run/pcpctl/journal"
expect "empty journal: rollback has nothing to do" 0 "$sim" --sysroot "$t" rollback
has "empty journal: rollback notes it" "$work/err" "records no setting"
t=$(new61p)
echo "crash write:percpu_pagelist_batch" >"$t/sim/faults"
expect "crash before the first write" 137 "$sim" --sysroot "$t" set --batch 310 --fraction 8
rm "$t/sim/faults"
[ -e "$t/run/pcpctl/journal.tmp" ] && bad "temporary journal left beside the journal" ||
	ok "the journal was renamed into place"
has "the journal records what the change writes" "$t/run/pcpctl/journal" "^wrote percpu_pagelist_batch 310$"
expect "rollback of the whole journal" 0 "$sim" --sysroot "$t" rollback

t=$(new61p)
# As a kill inside persist_write leaves it when the change wrote no sysctl, so kept no journal.
printf 'vm.percpu' >"$t/etc/sysctl.d/90-pcpctl.conf.tmp"
expect "rollback without a journal" 0 "$sim" --sysroot "$t" rollback
[ -e "$t/etc/sysctl.d/90-pcpctl.conf.tmp" ] && bad "rollback left the sysctl.d temporary file" ||
	ok "rollback removed the sysctl.d temporary file"

fi
if section "a committed journal is removed, never rolled back"; then
t=$(new61p)
echo "crash committed" >"$t/sim/faults"
expect "crash after the commit record" 137 "$sim" --sysroot "$t" set --fraction 8 --persist
rm "$t/sim/faults"
has "the journal records the commit" "$t/run/pcpctl/journal" "^committed$"
expect "show after a committed crash" 0 "$sim" --sysroot "$t" show
has "show removes the committed journal" "$work/err" "note: removed .*change it records had completed"
[ -e "$t/run/pcpctl/journal" ] && bad "committed journal left by show" || ok "no journal after show"
echo "crash committed" >"$t/sim/faults"
expect "crash after the commit record again" 137 "$sim" --sysroot "$t" set --fraction 9 --persist
rm "$t/sim/faults"
after=$(cat "$t"/proc/sys/vm/* "$t/etc/sysctl.d/90-pcpctl.conf")
expect "rollback of a committed journal" 0 "$sim" --sysroot "$t" rollback
has "rollback says nothing to roll back" "$work/out" "nothing to roll back"
has "rollback notes the completed change" "$work/err" "had completed"
same "rollback kept the committed change" "$after" "$(cat "$t"/proc/sys/vm/* "$t/etc/sysctl.d/90-pcpctl.conf")"
echo "crash committed" >"$t/sim/faults"
expect "crash after the commit record, third" 137 "$sim" --sysroot "$t" set --fraction 10
rm "$t/sim/faults"
expect "set after a committed crash works" 0 "$sim" --sysroot "$t" set --fraction 11
has "set notes the completed change" "$work/err" "had completed"
same "set applied" "11" "$(cat "$t/proc/sys/vm/percpu_pagelist_high_fraction")"

fi
if section "readers tell a change in progress from an interrupted one"; then
t=$(new61p)
# wait(a): the change is held (hold), not timed, while show and status run; the holder exits once
#   released.
hold "$t" verify /dev/null "$sim" --sysroot "$t" set --batch 310
for cmd in show status; do
	expect "$cmd during a change" 0 "$sim" --sysroot "$t" $cmd
	has "$cmd says a change is in progress" "$work/err" "note: a pcpctl change is in progress"
	grep -q interrupted "$work/err" && bad "$cmd warns of an interruption" || ok "$cmd: no interruption warning"
done
release "$t"
# wait(a): the holder exits once released.
wait $holder
echo "crash verify" >"$t/sim/faults"
expect "crash for an interrupted change" 137 "$sim" --sysroot "$t" set --batch 100
rm "$t/sim/faults"
expect "show after the crash" 0 "$sim" --sysroot "$t" show
has "show says interrupted" "$work/err" "interrupted pcpctl change left .*no pcpctl is running it"
expect "rollback of the interrupted change" 0 "$sim" --sysroot "$t" rollback

fi
if section "another writer's value is never overwritten: exit 6, named, kept"; then
fr=percpu_pagelist_high_fraction
t=$(new61p)
echo "foreign-write verify $fr=100" >"$t/sim/faults"
expect "a foreign write before verification exits 6" 6 "$sim" --sysroot "$t" set --batch 310 --fraction 8
has "the message names the setting and value" "$work/err" "vm.$fr is 100, which pcpctl did not write (it wrote 8)"
has "the report says what was left" "$work/out" "left vm.$fr = 100 as another writer set it"
same "the other writer's value stays" "100" "$(cat "$t/proc/sys/vm/$fr")"
same "pcpctl's own write was restored" "0" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
[ -e "$t/run/pcpctl/journal" ] && bad "journal left after exit 6" || ok "no journal after exit 6"
rm "$t/sim/faults"
t=$(new61p)
printf 'mismatch-after-write 2\nforeign-write rollback:percpu_pagelist_batch percpu_pagelist_batch=77\n' >"$t/sim/faults"
expect "a foreign write between a failure and the rollback exits 6" 6 "$sim" --sysroot "$t" set --batch 310 --fraction 8
has "names batch 77" "$work/err" "vm.percpu_pagelist_batch is 77"
same "batch 77 stays" "77" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
same "the fraction was restored" "0" "$(cat "$t/proc/sys/vm/$fr")"
t=$(new61p)
printf 'foreign-write verify percpu_pagelist_batch=77\ncrash verify\n' >"$t/sim/faults"
expect "a crash after another writer's change" 137 "$sim" --sysroot "$t" set --batch 310 --fraction 8
rm "$t/sim/faults"
echo "foreign-write rollback:percpu_pagelist_batch percpu_pagelist_batch=77" >"$t/sim/faults"
expect "rollback leaves the other writer's value: exit 6" 6 "$sim" --sysroot "$t" rollback
has "rollback names it" "$work/err" "vm.percpu_pagelist_batch is 77, which pcpctl did not write (it wrote 310)"
has "rollback reports the restored fraction" "$work/out" "restored vm.$fr = 0"
same "rollback kept batch 77" "77" "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")"
rm "$t/sim/faults"
expect "set works after exit 6" 0 "$sim" --sysroot "$t" set --batch 100

fi

# The machine moves (tests/sim/simkernel.c's "move" fault, simctl move):
# memory onlined or ballooned, a low watermark rewritten, a CPU offlined.
# SIMCTL (CTest sets it): the tool beside pcpctl-sim, which under valgrind is a wrapper elsewhere.
simctl=${SIMCTL:-$(dirname "$sim")/simctl}
fs() { [ -e "$1/proc/sys/vm/percpu_pagelist_high_fraction" ] && echo percpu_pagelist_high_fraction || echo percpu_pagelist_fraction; }
moves=("balloon 0 DMA32 32768" "managed 0 DMA32 32768" "late 0 DMA32 32768" "low 0 DMA32 100"
	"balloon 0 DMA32 -4096" "offline 1")

if section "the machine moves under set and reset, at each step"; then
for k in 61 612p 618 414; do
	# A balloon moves managed pages without a recompute; memory onlined, a
	# watermark write or a CPU recompute every limit.  Before the journal,
	# just before the write (6.18 only: the others' writes are the same
	# path), and between the write and the verification.
	steps="journal verify"
	[ $k = 618 ] && steps="journal write:percpu_pagelist_high_fraction verify"
	for step in $steps; do
		for move in "${moves[@]}"; do
			t=$(new$k)
			echo "move $step $move" >"$t/sim/faults"
			expect "$k: set --fraction 9 while $move at $step" 0 "$sim" --sysroot "$t" set --fraction 9
			expect "$k: reset while $move at $step" 0 "$sim" --sysroot "$t" reset
			[ -e "$t/run/pcpctl/journal" ] && bad "$k: $move at $step left a journal" || :
			same "$k: $move at $step: the fraction is back at 0" 0 "$(cat "$t/proc/sys/vm/$(fs "$t")")"
		done
	done
done
fi

if section "the machine moves before a restore: a failed change, an interrupted one, a v2 journal"; then
for k in 61 612p 618 414; do
	# The restore of a failed change, with memory onlined or a CPU gone since its observation.
	for move in "managed 0 DMA32 32768" "offline 1" "low 0 DMA32 100"; do
		t=$(new$k)
		printf 'fail-write 1 EIO\nmove rollback-verify %s\n' "$move" >"$t/sim/faults"
		expect "$k: a failed change restored after $move: exit 1, not 5" 1 "$sim" --sysroot "$t" set --fraction 9
		[ -e "$t/run/pcpctl/journal" ] && bad "$k: the restore after $move left a journal" ||
			ok "$k: the restore after $move removed the journal"
	done
	# An interrupted change, then the machine moves, then rollback.
	for move in "managed 0 DMA32 32768" "offline 1" "balloon 0 DMA32 32768" "low 0 DMA32 100"; do
		t=$(new$k)
		"$simctl" "$t" write "$(fs "$t")" 202
		echo "crash verify" >"$t/sim/faults"
		expect "$k: set --fraction 9 killed after its write" 137 "$sim" --sysroot "$t" set --fraction 9
		rm "$t/sim/faults"
		# shellcheck disable=SC2086 # the words of the move
		"$simctl" "$t" move $move || bad "simctl move $move"
		expect "$k: rollback after $move" 0 "$sim" --sysroot "$t" rollback
		has "$k: rollback after $move restored 202" "$work/out" "restored vm.$(fs "$t") = 202 (was 9)"
		same "$k: rollback after $move: the fraction is 202" 202 "$(cat "$t/proc/sys/vm/$(fs "$t")")"
		[ -e "$t/run/pcpctl/journal" ] && bad "$k: rollback after $move left the journal" || :
		case $move in offline*)
			"$simctl" "$t" move online 1
			expect "$k: rollback after the CPU is back: nothing to do" 0 "$sim" --sysroot "$t" rollback
		esac
	done
done
# A v2 journal (observations without inputs), left on a machine that moved since, still rolls back.
t=$(new618)
"$simctl" "$t" write percpu_pagelist_high_fraction 202
echo "crash verify" >"$t/sim/faults"
expect "a change killed after its write" 137 "$sim" --sysroot "$t" set --fraction 9
rm "$t/sim/faults"
grep -q '^observed .* managed [0-9]* low [0-9]* cpus [0-9]*$' "$t/run/pcpctl/journal" &&
	ok "the journal records each observation's inputs" || bad "no inputs in: $(cat "$t/run/pcpctl/journal")"
python3 - "$t/run/pcpctl/journal" <<'EOF2'
import re, sys
text = open(sys.argv[1], 'rb').read()
body = text[:text.rindex(b"sum ")].replace(b"pcpctl journal v3", b"pcpctl journal v2")
body = re.sub(rb" managed \d+ low \d+ cpus \d+", b"", body)
h = 0xcbf29ce484222325
for c in body:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(sys.argv[1], 'wb').write(body + b"sum %016x\n" % h)
EOF2
"$simctl" "$t" move offline 1
expect "a v2 journal rolls back after a CPU went offline" 0 "$sim" --sysroot "$t" rollback
same "the v2 journal's fraction is restored" 202 "$(cat "$t/proc/sys/vm/percpu_pagelist_high_fraction")"
fi

if section "the machine moves: what pcpctl says of it"; then
t=$(new618)
"$simctl" "$t" write percpu_pagelist_high_fraction 202
echo "move verify late 0 Normal 32768" >"$t/sim/faults"
expect "memory onlined between the write and the recompute: set verifies" 0 "$sim" --sysroot "$t" set --fraction 9
has "it says what moved" "$work/err" "note: node 0 zone Normal: managed pages grew by 32768 during the change; the kernel recomputed its limits"
echo "move verify balloon 0 Normal -32768" >"$t/sim/faults"
expect "a balloon took memory after the write: reset verifies" 0 "$sim" --sysroot "$t" reset
has "it says the balloon took it" "$work/err" "node 0 zone Normal: managed pages shrank by 32768 during the change"
rm "$t/sim/faults"
expect "nothing moves: no note" 0 "$sim" --sysroot "$t" set --fraction 9
[ -s "$work/err" ] && bad "a still machine got a note: $(cat "$work/err")" || ok "a still machine gets no note"
# The zone's limits fit no inputs pcpctl can read (each read moves memory
# again): after its reads it checks what holds at any inputs, and says so.
printf 'move read balloon 0 Normal 4096\nmove write:percpu_pagelist_high_fraction balloon 0 Normal 4096\n' >"$t/sim/faults"
expect "memory that never holds still: set ends" 0 "$sim" --sysroot "$t" set --fraction 8
has "it says it kept moving" "$work/err" "node 0 zone Normal: managed pages grew by [0-9]* during the change, and it kept moving: only what holds for any inputs was checked"
rm "$t/sim/faults"
expect "status names the managed pages" 0 "$sim" --sysroot "$t" status
normal=$(awk '/^Node 0, zone +Normal$/ { z = 1 } /^Node/ && !/Normal$/ { z = 0 } z && $1 == "managed" { print $2 }' "$t/proc/zoneinfo")
has "status: node 0 zone Normal's managed pages as they are now" "$work/out" "^node 0 zone Normal managed pages: *$normal$"
fi

if section "memory onlined into an empty zone during a change: batch 1 first, the recompute a moment later"; then
# An empty zone prints no pagesets, so a change has nothing of it to compare
# with; onlining gives it pagesets of batch 1 and recomputes them only after
# (kernel_debug's moving-pcpctl failed in that moment with "node 0 zone
# Movable cpu 0 shows batch 1, expected 7" on set --batch 31).
movable_batches() { cols "$1" | awk '$2 == "Movable" { print $5 }' | sort -u | paste -sd ' '; }
for k in 61p 618; do
	case $k in 61p) change="--batch 31" ;; *) change="--fraction 9" ;; esac
	# The fault itself: the first read sees batch 1 on every CPU, the next the recompute.
	t=$(new$k)
	"$simctl" "$t" move populate 0 Movable 32768 || bad "$k: simctl move populate"
	same "$k: populate: the first read shows batch 1" "1" "$(movable_batches "$t")"
	same "$k: populate: the next read shows the recomputed batch" "7" "$(movable_batches "$t")"
	t=$(new$k)
	echo "move verify populate 0 Movable 32768" >"$t/sim/faults"
	# shellcheck disable=SC2086 # the words of the change
	expect "$k: set $change while memory comes online in the empty Movable zone" 0 \
		"$sim" --sysroot "$t" set $change
	has "$k: it says memory came online in the zone" "$work/err" \
		"note: node 0 zone Movable: memory came online in it (it had none) during the change; the kernel recomputed its limits, and they verify for the new inputs"
	[ -e "$t/run/pcpctl/journal" ] && bad "$k: the change left a journal" || ok "$k: no journal left"
	case $k in
	61p) same "$k: batch 31 is set" 31 "$(cat "$t/proc/sys/vm/percpu_pagelist_batch")" ;;
	*) same "$k: fraction 9 is set" 9 "$(cat "$t/proc/sys/vm/percpu_pagelist_high_fraction")" ;;
	esac
	same "$k: the Movable zone has its recomputed batch" "7" "$(movable_batches "$t")"
	rm "$t/sim/faults"
	expect "$k: reset after it" 0 "$sim" --sysroot "$t" reset
done
fi

finish
