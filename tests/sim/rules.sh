#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The simulated kernel alone (simctl, no pcpctl) against the numbers the
# kernel sources give for each generation and page size (tests/sim/simrules.c
# cites them; KERNEL.md lists them).  sim_golden checks the same
# rules against real 4 KiB captures; this covers what no capture has yet:
# 4.14, 5.10, and 16 and 64 KiB pages.
# Usage: rules.sh SIMCTL FIXTURE_DIR
set -u
simctl=$(realpath "$1")
fixtures=$(realpath "$2")/zoneinfo
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir


# tree NAME ZONEINFO RELEASE PAGE_KIB SYSCTL=VALUE...: as tests/sim/generations.sh boots them
tree() {
	local t=$work/$1 zoneinfo=$2 release=$3 kib=$4
	shift 4
	sysroot_tree "$t" "$fixtures/$zoneinfo" --release "$release" --page-kib "$kib" --scale-pages \
		"$@" >/dev/null
	"$simctl" "$t" boot || bad "simctl boot $1"
	echo "$t"
}

# FIELD of every CPU, one "node zone value" line per distinct value, joined by ", "
field() {
	awk -v f="$2:" '/^Node/ { node = $2; zone = $4 } $1 == f { print substr(node, 1, length(node) - 1), zone, $2 }' \
		"$1/proc/zoneinfo" | sort -u | paste -sd, - | sed 's/,/, /g'
}
write() { "$simctl" "$1" write "$2" "$3" 2>/dev/null; }

# The captures' zones, in 4 KiB pages: node 0 DMA (3840) and DMA32 (debian-6.1: 511830;
# patched-7.3: 510196), node 1 DMA32 (245728) and Normal (245230; 253397).  16 KiB pages
# hold a quarter as many, 64 KiB a sixteenth.
echo "# zone_batchsize(): 512 KiB cap before 4.19, 1 MiB from 4.19, of PAGE_SIZE pages"
t=$(tree 414 debian-6.1-4cpu-2node.zoneinfo 4.14.0 4 percpu_pagelist_fraction=0)
same "4.14 4K: batch 31" "0 DMA 1, 0 DMA32 31, 1 DMA32 31, 1 Normal 31" "$(field "$t" batch)"
same "4.14 4K: high 6 * batch, 0 for a zone under 4096 pages" \
	"0 DMA 0, 0 DMA32 186, 1 DMA32 186, 1 Normal 186" "$(field "$t" high)"
for k in 4:63 16:15 64:3; do
	t=$(tree 510-${k%%:*} debian-6.1-4cpu-2node.zoneinfo 5.10.0-32-cloud-arm64 "${k%%:*}" \
		percpu_pagelist_fraction=0)
	b=${k#*:}
	same "5.10 ${k%%:*}K: batch $b" "0 DMA 1, 0 DMA32 $b, 1 DMA32 $b, 1 Normal $b" "$(field "$t" batch)"
done

echo "# percpu_pagelist_fraction up to 5.13: high = managed / N, batch = high / 4 up to PAGE_SHIFT * 8"
for k in 4:96:96:63978 16:112:30:15994 64:128:7:3998; do
	IFS=: read -r kib cap dma high <<<"$k"
	t=$work/510-$kib
	write "$t" percpu_pagelist_fraction 8 || bad "5.10 ${kib}K: fraction 8 refused"
	same "5.10 ${kib}K fraction 8: batch $cap, DMA's high / 4 = $dma" \
		"0 DMA $dma, 0 DMA32 $cap, 1 DMA32 $cap, 1 Normal $cap" "$(field "$t" batch)"
	same "5.10 ${kib}K fraction 8: node 0 DMA32 high $high on every CPU" "0 DMA32 $high" \
		"$(field "$t" high | tr ',' '\n' | grep '0 DMA32' | sed 's/^ //')"
done
t=$work/510-4
before=$(cat "$t/proc/zoneinfo")
write "$t" percpu_pagelist_fraction 4 && bad "5.10 fraction 4 accepted" || ok "5.10 fraction 4: EINVAL"
same "5.10 fraction 4: the value stays" 8 "$(cat "$t/proc/sys/vm/percpu_pagelist_fraction")"
same "5.10 fraction 4: zoneinfo unchanged" "$before" "$(cat "$t/proc/zoneinfo")"
write "$t" percpu_pagelist_fraction 0 || bad "5.10 fraction 0 refused"
same "5.10 fraction 0: batch 63 again" "0 DMA 1, 0 DMA32 63, 1 DMA32 63, 1 Normal 63" "$(field "$t" batch)"

echo "# 5.14-6.6 zone_highsize(): high = managed / N / node CPUs, at least 4 * batch, every CPU"
t=$(tree 61-16 debian-6.1-4cpu-2node.zoneinfo 6.1.0-57-arm64-16k 16 percpu_pagelist_high_fraction=0)
write "$t" percpu_pagelist_high_fraction 8 || bad "6.1 16K: high fraction 8 refused"
same "6.1 16K high fraction 8: batch stays 15" "0 DMA 1, 0 DMA32 15, 1 DMA32 15, 1 Normal 15" \
	"$(field "$t" batch)"
# 127957 / 8 / 2 = 7997; 61432 / 8 / 2 = 3839; 61307 / 8 / 2 = 3831; DMA 960 / 8 / 2 = 60.
same "6.1 16K high fraction 8: high on every CPU" "0 DMA 60, 0 DMA32 7997, 1 DMA32 3839, 1 Normal 3831" \
	"$(field "$t" high)"

echo "# the batch patch (v3): the default batch and the largest value follow the page size"
# The maximum is the default batch << CONFIG_PCP_BATCH_SCALE_MAX (5): 15 << 5 at 16 KiB, 3 << 5
# at 64 KiB.  A zone at the default batch takes the value up to a quarter of its high_min.
for k in 16:480:310:"0 DMA 1, 0 DMA32 310, 1 DMA32 213, 1 Normal 220" \
	64:96:96:"0 DMA 1, 0 DMA32 96, 1 DMA32 53, 1 Normal 55"; do
	IFS=: read -r kib max n want <<<"$k"
	t=$(tree "73p-$kib" patched-7.3-4cpu-2node.zoneinfo 7.3.4-pcpctl "$kib" percpu_pagelist_batch=0 \
		percpu_pagelist_high_fraction=0)
	write "$t" percpu_pagelist_batch "$n" || bad "patched 7.3 ${kib}K: batch $n refused"
	same "patched 7.3 ${kib}K batch $n: where zone_batchsize() is the default, within a quarter of high_min" \
		"$want" "$(field "$t" batch)"
	write "$t" percpu_pagelist_batch $((max + 1)) && bad "patched ${kib}K: $((max + 1)) accepted" ||
		ok "patched 7.3 ${kib}K: $((max + 1)) is EINVAL without percpu_pagelist_batch_max"
	write "$t" percpu_pagelist_batch "$max" || bad "patched ${kib}K: $max refused"
	write "$t" percpu_pagelist_batch 0 || bad "patched ${kib}K: 0 refused"
done
same "patched 7.3 64K batch 0: the default batch 3" "0 DMA 1, 0 DMA32 3, 1 DMA32 3, 1 Normal 3" \
	"$(field "$t" batch)"
# 240 / 8 / 2 = 15; 31887 / 8 / 2 = 1992; 15358 / 16 = 959; 15837 / 16 = 989.
same "patched 7.3 64K batch 0: high_max = managed / 8 / node CPUs" \
	"0 DMA 15, 0 DMA32 1992, 1 DMA32 959, 1 Normal 989" "$(field "$t" high_max)"

finish
