#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl against simulated kernels of other generations and page sizes: Debian
# 11's 5.10 with 4 KiB pages, 5.10 built with 16 KiB and 64 KiB pages, and the
# patched 7.3 with 16 KiB pages.  The trees are the real captures booted by
# the simulated kernel as such a kernel boots (simctl DIR boot), with the page
# size in proc/self/smaps and the generation's sysctls.
#
# Every check expects what the KERNEL does (tests/sim/simrules.c, checked
# against real captures by sim_golden).  On a pcpctl whose rules assume 4 KiB
# pages and a 512 KiB cap before 5.14, the 5.10 reset exits 1, the 16/64 KiB
# fraction exits 5 and wedges the journal, and the patched 16 KiB kernel fails
# batch 310 and its reset.
# Usage: generations.sh PCPCTL-SIM SIMCTL FIXTURE_DIR
set -u
sim=$(realpath "$1")
simctl=$(realpath "$2")
fixtures=$(realpath "$3")/zoneinfo
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

# boot NAME ZONEINFO RELEASE PAGE_KIB SYSCTL=VALUE...: a tree of two nodes (CPUs 0-1, 2-3).
# The guests' memory stays as captured: with larger pages a zone and its
# watermarks hold PAGE_KIB / 4 times fewer pages than the 4 KiB capture says.
boot() {
	local t=$work/$1 zoneinfo=$2 release=$3 kib=$4
	shift 4
	sysroot_tree "$t" "$fixtures/$zoneinfo" --release "$release" --page-kib "$kib" --scale-pages \
		--sim --sysctl-d "$@" >/dev/null
	"$simctl" "$t" boot || { echo "simctl boot $t failed" >&2; exit 1; }
	echo "$t"
}



# The distinct batches per zone kind, as "DMA 1 DMA32 63 Normal 63 ".
batches() { "$sim" --sysroot "$1" show -r -n -o ZONE,BATCH | sort -u | tr -s ' \n' '  '; }
sysctl() { cat "$1/proc/sys/vm/$2"; }
journal_gone() {
	[ -e "$1/run/pcpctl/journal" ] && bad "$2: a journal is left" || ok "$2: no journal left"
}

echo "# Debian 11's 5.10, 4 KiB pages: the default batch is 63 above ~1 GiB (the 1 MiB cap)"
t=$(boot 510 debian-6.1-4cpu-2node.zoneinfo 5.10.0-32-cloud-arm64 4 percpu_pagelist_fraction=0)
same "5.10 4K boots with batch 63" "DMA 1 DMA32 63 Normal 63 " "$(batches "$t")"
expect "5.10 4K set --fraction 8" 0 "$sim" --sysroot "$t" set --fraction 8
same "5.10 4K fraction 8: batch PAGE_SHIFT * 8 = 96" "DMA 96 DMA32 96 Normal 96 " "$(batches "$t")"
expect "5.10 4K reset exits 0" 0 "$sim" --sysroot "$t" reset
same "5.10 4K reset: fraction 0" 0 "$(sysctl "$t" percpu_pagelist_fraction)"
same "5.10 4K reset: batch 63 again" "DMA 1 DMA32 63 Normal 63 " "$(batches "$t")"
journal_gone "$t" "5.10 4K reset"

# KIB:CAP:DEFAULT:DMA: DMA's batch under fraction 8 is its high / 4 (managed / 8 / 4) below the cap.
for k in 16:112:15:30 64:128:3:7; do
	IFS=: read -r kib cap dflt dma <<<"$k"
	echo "# 5.10 with $kib KiB pages: the fraction's batch cap is PAGE_SHIFT * 8 = $cap"
	t=$(boot "510-$kib" debian-6.1-4cpu-2node.zoneinfo 5.10.223 "$kib" percpu_pagelist_fraction=0)
	same "5.10 ${kib}K boots with batch $dflt (1 MiB of pages, /4, 2^n-1)" \
		"DMA 1 DMA32 $dflt Normal $dflt " "$(batches "$t")"
	expect "5.10 ${kib}K set --fraction 8 exits 0" 0 "$sim" --sysroot "$t" set --fraction 8
	same "5.10 ${kib}K fraction 8: batch $cap" "DMA $dma DMA32 $cap Normal $cap " "$(batches "$t")"
	journal_gone "$t" "5.10 ${kib}K set"
	# A crash in the middle of the reset: rollback puts fraction 8 back and verifies it.
	echo "crash verify" >"$t/sim/faults"
	expect "5.10 ${kib}K crash during reset" 137 "$sim" --sysroot "$t" reset
	rm "$t/sim/faults"
	expect "5.10 ${kib}K rollback after it exits 0" 0 "$sim" --sysroot "$t" rollback
	same "5.10 ${kib}K rollback: fraction 8" 8 "$(sysctl "$t" percpu_pagelist_fraction)"
	same "5.10 ${kib}K rollback: batch $cap" "DMA $dma DMA32 $cap Normal $cap " "$(batches "$t")"
	journal_gone "$t" "5.10 ${kib}K rollback"
	# A change that fails after its write: restored and verified, never a wedge (exit 5).
	rm -f "$t/sim/writes"
	echo "mismatch-after-write 1" >"$t/sim/faults"
	expect "5.10 ${kib}K failed change exits 1, restored" 1 "$sim" --sysroot "$t" set --fraction 9
	rm "$t/sim/faults"
	same "5.10 ${kib}K failed change: fraction 8 kept" 8 "$(sysctl "$t" percpu_pagelist_fraction)"
	journal_gone "$t" "5.10 ${kib}K failed change"
	expect "5.10 ${kib}K reset exits 0" 0 "$sim" --sysroot "$t" reset
	same "5.10 ${kib}K reset: batch $dflt again" "DMA 1 DMA32 $dflt Normal $dflt " "$(batches "$t")"
	expect "5.10 ${kib}K rollback has nothing to do" 0 "$sim" --sysroot "$t" rollback
done

echo "# the patched 7.3 (v3) with 16 KiB pages: the default batch is 15, the maximum 15 << 5 = 480"
p73() { boot 73p-16 patched-7.3-4cpu-2node.zoneinfo 7.3.4-pcpctl 16 percpu_pagelist_batch=0 \
	percpu_pagelist_high_fraction=0; }
t=$(p73)
same "patched 7.3 16K boots with batch 15" "DMA 1 DMA32 15 Normal 15 " "$(batches "$t")"
expect "patched 7.3 16K reset exits 0" 0 "$sim" --sysroot "$t" reset
same "patched 7.3 16K reset leaves batch 15" "DMA 1 DMA32 15 Normal 15 " "$(batches "$t")"
expect "patched 7.3 16K set --batch 310 on 2 nodes exits 0" 0 "$sim" --sysroot "$t" set --batch 310
# node 0's DMA32 takes 310; node 1's zones hold it to a quarter of high_min (213, 220)
same "patched 7.3 16K batch 310 where the zone's batch is 15, DMA keeps 1" \
	"DMA 1 DMA32 213 DMA32 310 Normal 220 " "$(batches "$t")"
journal_gone "$t" "patched 7.3 16K batch 310"
expect "patched 7.3 16K reset after batch 310 exits 0" 0 "$sim" --sysroot "$t" reset
same "patched 7.3 16K reset: batch 0" 0 "$(sysctl "$t" percpu_pagelist_batch)"
same "patched 7.3 16K reset: batch 15 again" "DMA 1 DMA32 15 Normal 15 " "$(batches "$t")"
expect "patched 7.3 16K set --batch 480, the maximum" 0 "$sim" --sysroot "$t" set --batch 480
same "patched 7.3 16K the maximum on the capped zones, each within a quarter of high_min" \
	"DMA 1 DMA32 213 DMA32 442 Normal 220 " "$(batches "$t")"
# Without the kernel's config pcpctl allows what the largest Kconfig shift (6) would, and
# the kernel's EINVAL decides; with /boot/config-RELEASE it knows the range.
expect "patched 7.3 16K set --batch 481 without the kernel's config: the kernel's EINVAL" 1 \
	"$sim" --sysroot "$t" set --batch 481
grep -q "refused vm.percpu_pagelist_batch = 481 (EINVAL)" "$work/err" &&
	ok "patched 7.3 16K 481: the kernel's EINVAL is named" || bad "patched 7.3 16K 481: $(cat "$work/err")"
same "patched 7.3 16K 481: the batch stays 480" 480 "$(sysctl "$t" percpu_pagelist_batch)"
mkdir -p "$t/boot"
echo "CONFIG_PCP_BATCH_SCALE_MAX=5" >"$t/boot/config-7.3.4-pcpctl"
expect "patched 7.3 16K set --batch 481 with the kernel's config exits 2" 2 \
	"$sim" --sysroot "$t" set --batch 481
grep -q "1\.\.480" "$work/err" && ok "patched 7.3 16K 481: the range 1..480 is named" ||
	bad "patched 7.3 16K 481: $(cat "$work/err")"
echo "CONFIG_PCP_BATCH_SCALE_MAX=0" >"$t/boot/config-7.3.4-pcpctl"
expect "patched 7.3 16K, CONFIG_PCP_BATCH_SCALE_MAX=0: 16 exits 2" 2 "$sim" --sysroot "$t" set --batch 16
grep -q "1\.\.15" "$work/err" && ok "patched 7.3 16K scale 0: the range 1..15 is named" ||
	bad "patched 7.3 16K scale 0: $(cat "$work/err")"
rm -r "$t/boot"
echo "crash verify" >"$t/sim/faults"
expect "patched 7.3 16K crash during batch 310" 137 "$sim" --sysroot "$t" set --batch 310
rm "$t/sim/faults"
expect "patched 7.3 16K rollback after it exits 0" 0 "$sim" --sysroot "$t" rollback
same "patched 7.3 16K rollback: batch 480 again" "DMA 1 DMA32 213 DMA32 442 Normal 220 " \
	"$(batches "$t")"
journal_gone "$t" "patched 7.3 16K rollback"

finish
