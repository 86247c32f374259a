#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the kernel patches (patches/linux-*/) must say in their own text, issue
# 23 item by item: each check fails on patch v2 and passes on v3.  Behaviour
# is checked by booting them (tests/kernel) and by pcprules' unit tests; this
# catches the textual properties a reviewer reads first.
# usage: tests/patches/check.sh [PATCHES_DIR]
set -u
dir=${1:-$(dirname "$0")/../../patches}
. "$(dirname "$(realpath "$0")")/../lib.sh"
added() { grep '^+' "$1" | grep -v '^+++'; }
removed() { grep '^-' "$1" | grep -v '^---'; }

for p in "$dir"/linux-*/0001-*.patch; do
	s=$(basename "$(dirname "$p")")
	s=${s#linux-}
	# 8: no read-only companion file, the range is in vm.rst
	check "$s: no percpu_pagelist_batch_max (item 8)" bash -c "! grep -q percpu_pagelist_batch_max '$p'"
	check "$s: vm.rst gives the range with CONFIG_PCP_BATCH_SCALE_MAX=0 (items 1, 8)" \
		grep -q '^+.*CONFIG_PCP_BATCH_SCALE_MAX=0 the maximum is the' "$p"
	# 10: no invented identity; the sender signs
	check "$s: no Signed-off-by (item 10)" bash -c "! grep -qi '^Signed-off-by:' '$p'"
	# 9: zone_batchsize()'s arithmetic moved, not copied: as many added as removed lines use it
	a=$(added "$p" | grep -c 'rounddown_pow_of_two')
	r=$(removed "$p" | grep -c 'rounddown_pow_of_two')
	check "$s: zone_batchsize()'s arithmetic moved, not copied ($a added, $r removed) (item 9)" \
		test "$a" = "$r"
	# 9: the shift is stored with the batch, not looped on every free
	check "$s: no per-free shift loop (pcp_batch_scale) (item 9)" bash -c "! grep -q 'pcp_batch_scale(' '$p'"
	check "$s: bulk_max set in pageset_update (item 9)" \
		grep -q '^+.*WRITE_ONCE(pcp->bulk_max, pcp_bulk_max(batch));' "$p"
	# 9: the unlocked read on memory online is marked
	check "$s: READ_ONCE(percpu_pagelist_batch) and WRITE_ONCE on the write (item 9)" \
		bash -c "grep -q '^+.*READ_ONCE(percpu_pagelist_batch)' '$p' && grep -q '^+.*WRITE_ONCE(percpu_pagelist_batch,' '$p'"
	# 2, 3: high from the default batch, the batch then held to a quarter of it
	check "$s: the batch follows high, set after zone_highsize() (items 2, 3)" \
		grep -q '^+.*new_batch = zone_pageset_batch(new_batch, new_high' "$p"
	check "$s: the reclaim cap keeps the default batch's base (item 2)" \
		grep -q '^+.*min(.*batch.*pcp_batch_default()) << 2' "$p"
	case $s in
	6.1)
		# 7: a run of high-order frees still frees the whole list, as upstream
		check "$s: nr_pcp_free's high-order run left as upstream (item 7)" \
			bash -c "! grep -q '^-.*return pcp->count;' '$p'"
		;;
	*)
		# 6: the flag is recomputed wherever the batch changes
		check "$s: PCPF_FREE_HIGH_BATCH recomputed in zone_set_pageset_high_and_batch (item 6)" \
			grep -q '^+.*zone_pcp_update_cacheinfo(zone, cpu);' "$p"
		# 4: the decay path's holds stay default-sized
		check "$s: decay_pcp_high gives the lock back after a default batch (item 4)" \
			grep -q '^+.*to_drain_batched = min3(to_drain, batch, pcp_batch_default());' "$p"
		;;
	esac
	if [ "$s" = 7.3 ]; then
		check "$s: the free path gives the lock back after a default batch (item 4)" \
			grep -q '^+.*to_free_batched = min3(to_free, batch, pcp_batch_default());' "$p"
	fi
done
[ "$pass" -gt 0 ] || bad "no patch was checked"
finish
