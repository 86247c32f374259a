#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl (the real binary, over the live kernel interface) against what real
# kernels answered.  Each tree's proc/zoneinfo is a capture from a real boot
# and stays as it is whatever pcpctl writes: a kernel frozen at that answer.
#
#  1. Every golden pair (tests/fixtures/golden): the tree shows the after file
#     and holds the sysctls as before the step; pcpctl makes the same write
#     and must verify it (exit 0), on every generation and page size captured.
#  2. A kernel that does not do what pcpctl expects (the frozen boot state
#     ignores the write): the change fails, the restore verifies against what
#     the kernel showed before, exit 1, no journal left (never exit 5).
#  3. A journal of an older pcpctl (v1, without observations) still rolls back.
#  4. Kernels whose rules pcpctl cannot know exactly (a vendor release, a
#     release whose generation the zoneinfo format contradicts, a newer
#     generation, a page size pcpctl was not checked with): set succeeds, says
#     which checks it made, and never claims "verified in zoneinfo".
# Usage: kernel-answers.sh PCPCTL FIXTURE_DIR
set -u
pcpctl=$(realpath "$1")
fixtures=$(realpath "$2")
golden=$fixtures/golden
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

has() { if grep -qE -- "$3" "$2"; then ok "$1"; else bad "$1: no \"$3\" in:"; sed 's/^/    /' "$2"; fi; }
hasnt() { if grep -qE -- "$3" "$2"; then bad "$1: \"$3\" in:"; sed 's/^/    /' "$2"; else ok "$1"; fi; }

meta() { sed -n "s/^$2=//p" "$1" | head -1; }
# The JSON report in $work/out on one line, for has.
compact() {
	python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin), separators=(",", ":")))' \
		<"$work/out" >"$work/json" && mv "$work/json" "$work/out"
}

# tree DIR ZONEINFO RELEASE PAGE_KIB NODE_CPULISTS(;-separated) SYSCTL=VALUE...
# (PAGE_KIB empty: no page size recorded)
tree() {
	local t=$1 zoneinfo=$2 release=$3 kib=${4:-0} nodes=$5
	shift 5
	sysroot_tree "$t" "$zoneinfo" --release "$release" --page-kib "$kib" --nodes "$nodes" "$@" >/dev/null
}

# The tree of a golden guest's step NAME: the after file, the sysctls before.
golden_tree() {
	local g=$1 name=$2 t=$3 nodes="" n kv
	local -a sysctls=()
	for ((n = 0; n < $(meta "$g/guest.meta" nodes); n++)); do
		nodes+="${nodes:+;}$(meta "$g/guest.meta" "node${n}_cpus")"
	done
	while IFS= read -r kv; do sysctls+=("${kv#before.}"); done < <(grep '^before\.' "$g/$name.step")
	tree "$t" "$g/$name.after" "$(meta "$g/guest.meta" uname_r)" \
		$(($(meta "$g/guest.meta" page_size) / 1024)) "$nodes" "${sysctls[@]}"
}

echo "# 1. every golden pair: pcpctl makes the kernel's write and verifies it"
npairs=0
for g in "$golden"/*/; do
	g=${g%/}
	for step in "$g"/*.step; do
		name=$(basename "$step" .step)
		args=()
		for s in percpu_pagelist_batch percpu_pagelist_high_fraction percpu_pagelist_fraction; do
			was=$(meta "$step" "before.$s") now=$(meta "$step" "after.$s")
			[ -n "$now" ] && [ "$was" != "$now" ] || continue
			case $s in
			percpu_pagelist_batch) args+=(--batch "$now") ;;
			*) args+=(--fraction "$now") ;;
			esac
		done
		[ ${#args[@]} -gt 0 ] || continue
		t=$work/golden
		golden_tree "$g" "$name" "$t"
		expect "$(basename "$g")/$name: set ${args[*]}" 0 "$pcpctl" --sysroot "$t" set "${args[@]}"
		has "$(basename "$g")/$name: verified" "$work/out" \
			"changed and verified in zoneinfo|the sysctls read back as set"
		[ -e "$t/run/pcpctl/journal" ] && bad "$(basename "$g")/$name: journal left" ||
			ok "$(basename "$g")/$name: no journal left"
		npairs=$((npairs + 1))
	done
done
[ "$npairs" -ge 18 ] && ok "$npairs golden pairs replayed" || bad "only $npairs golden pairs replayed"

g510=$golden/debian-5.10-amd64-4cpu-2node
echo "# 1b. Debian 11's 5.10: reset back to the default batch 63 (31 before 4.19)"
tree "$work/510" "$g510/02-reset.after" 5.10.0-32-cloud-amd64 4 "0-1;2-3" percpu_pagelist_fraction=8
expect "5.10 reset" 0 "$pcpctl" --sysroot "$work/510" reset
has "5.10 reset verified in zoneinfo" "$work/out" "changed and verified in zoneinfo"
has "5.10 reset shows batch 63" "$work/out" "zone DMA32 +batch 63; high 378"

echo "# 1c. the patch at 16 KiB pages: reset gives batch 15, the patch's cap there (not 63)"
# With vm.percpu_pagelist_batch at 0 the patch leaves zone_batchsize() as it
# is: a patched kernel shows what the stock 7.3 arm64-16k guest showed.
g16=$golden/debian-7.3-arm64-16k-4cpu-2node
tree "$work/p16" "$g16/04-echo-0.after" 7.3.4+deb13-arm64-16k 16 "0-1;2-3" \
	percpu_pagelist_batch=310 percpu_pagelist_batch_max=1007 percpu_pagelist_high_fraction=0
expect "patched 16 KiB reset" 0 "$pcpctl" --sysroot "$work/p16" reset
has "patched 16 KiB reset verified" "$work/out" "changed and verified in zoneinfo"
has "patched 16 KiB: batch 15" "$work/out" "node 1 zone DMA +batch 15;"

echo "# 2. the kernel does not do what pcpctl expected: restored, verified against before, exit 1"
tree "$work/frozen" "$g510/01-frac8.before" 5.10.0-32-cloud-amd64 4 "0-1;2-3" \
	percpu_pagelist_fraction=0
expect "frozen kernel: set --fraction 8 fails with exit 1" 1 \
	"$pcpctl" --sysroot "$work/frozen" set --fraction 8
has "it says the kernel did not do what pcpctl expected" "$work/out" \
	"failed: the kernel did not do what pcpctl expected \(node 0 zone DMA cpu 0 shows batch 1, expected 96\); restored and verified against the values before"
has "both numbers on stderr" "$work/err" "verification failed: node 0 zone DMA cpu 0 shows batch 1, expected 96"
same_frac=$(cat "$work/frozen/proc/sys/vm/percpu_pagelist_fraction")
[ "$same_frac" = 0 ] && ok "the fraction is restored" || bad "the fraction is $same_frac"
[ -e "$work/frozen/run/pcpctl/journal" ] && bad "journal left (wedged)" || ok "no journal left"
expect "rollback afterwards has nothing to do" 0 "$pcpctl" --sysroot "$work/frozen" rollback
expect "set --fraction 8 --json" 1 "$pcpctl" --sysroot "$work/frozen" set --fraction 8 --json
compact
has "JSON: unexpected names both numbers" "$work/out" '"unexpected":"node 0 zone DMA cpu 0 shows batch 1, expected 96"'
has "JSON: the restore was checked against the observation" "$work/out" '"checks":\["sysctls","observed"\]'
has "JSON: rolled back" "$work/out" '"rolled_back":true'

echo "# 3. a v1 journal (no observations) still rolls back, verified by the rules"
tree "$work/v1" "$g510/01-frac8.before" 5.10.0-32-cloud-amd64 4 "0-1;2-3" \
	percpu_pagelist_fraction=8
mkdir -p "$work/v1/run/pcpctl"
chmod 0700 "$work/v1/run/pcpctl"
python3 - "$work/v1/run/pcpctl/journal" <<'EOF'
import os, sys
body = b"pcpctl journal v1\npercpu_pagelist_fraction 0\nwrote percpu_pagelist_fraction 8\n"
h = 0xcbf29ce484222325
for c in body:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, body + b"sum %016x\n" % h)
os.close(fd)
EOF
expect "v1 journal: rollback" 0 "$pcpctl" --sysroot "$work/v1" rollback
has "v1 journal: restored" "$work/out" "restored vm.percpu_pagelist_fraction = 0 \(was 8\)"
[ -e "$work/v1/run/pcpctl/journal" ] && bad "v1 journal left" || ok "v1 journal removed"

echo "# 4. kernels whose rules pcpctl cannot know exactly: what holds in every generation"
g61=$golden/debian-6.1-amd64-4cpu-2node
# doubt NAME RELEASE PAGE_KIB WANT_DOUBT
doubt() {
	tree "$work/d" "$g61/01-frac8.after" "$2" "$3" "0-1;2-3" percpu_pagelist_high_fraction=0
	expect "$1: dry run" 0 "$pcpctl" --sysroot "$work/d" set --fraction 8 --dry-run
	has "$1: the dry run says its expectation is a guess" "$work/out" "which pcpctl cannot know to be this kernel's: $4"
	expect "$1: set --fraction 8" 0 "$pcpctl" --sysroot "$work/d" set --fraction 8
	has "$1: says why" "$work/out" "pcpctl cannot know this kernel's rules exactly \($4"
	has "$1: names its checks" "$work/out" "^checked: the sysctls read back as written; every CPU of a zone shows one batch; no batch moved"
	hasnt "$1: no false \"verified in zoneinfo\"" "$work/out" "verified in zoneinfo"
	expect "$1: reset --json" 0 "$pcpctl" --sysroot "$work/d" reset --json
	compact
	has "$1: JSON not exact" "$work/out" '"exact":false,"doubt":"'"$4"
	has "$1: JSON checks" "$work/out" '"checks":\["sysctls","one_batch","batch_kept"\]'
}
doubt "RHEL 9's 5.14.0-427.el9" 5.14.0-427.el9.x86_64 4 "it is a vendor's build"
doubt "a 6.1 zoneinfo under a 6.13 release" 6.13.0 4 \
	"its zoneinfo does not print high_min/high_max, which its release's generation does"
doubt "a generation newer than pcpctl knows" 7.5.1 4 "its generation is newer"
doubt "an 8 KiB page size" 6.1.0-57-cloud-amd64 8 "its page size, 8192 bytes"
# A 7.3 zoneinfo (high_min/high_max printed) under a 5.14 vendor release.
tree "$work/d" "$fixtures/zoneinfo/debian-7.3-4cpu-2node.zoneinfo" 5.14.0-427.el9.x86_64 4 \
	"0-1;2-3" percpu_pagelist_batch=0 percpu_pagelist_high_fraction=0
expect "7.3 format, 5.14 vendor release: set --batch 310" 0 "$pcpctl" --sysroot "$work/d" set --batch 310
has "7.3 format: checks the batch within the request" "$work/out" "every batch that moved is within the one written|every CPU of a zone shows one batch"
hasnt "7.3 format: no false \"verified in zoneinfo\"" "$work/out" "verified in zoneinfo"
# A tree that does not record its page size: 4 KiB and one warning that says how.
tree "$work/nops" "$g61/01-frac8.after" 6.1.0-57-cloud-amd64 "" "0-1;2-3" percpu_pagelist_high_fraction=0
expect "no smaps: set --fraction 8" 0 "$pcpctl" --sysroot "$work/nops" set --fraction 8
has "no smaps: warns" "$work/err" "proc/self/smaps does not record the page size: 4 KiB is assumed. Copy /proc/self/smaps"
[ "$(grep -c 'does not record the page size' "$work/err")" = 1 ] && ok "no smaps: warned once" ||
	bad "no smaps: warned $(grep -c 'does not record the page size' "$work/err") times"

finish
