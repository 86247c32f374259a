/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each function names the kernel function it stands for, with the versions
 * read (mm/page_alloc.c unless said otherwise).  The arithmetic is the
 * kernel's, including its integer divisions, so that the simulator prints
 * what a real kernel of that generation and page size prints.
 */
#include "simrules.h"

#include <stdlib.h>
#include <string.h>

bool sim_gen_of_release(const char *release, enum sim_gen *gen)
{
	char *end;
	unsigned long major = strtoul(release, &end, 10), minor;

	if (end == release || *end != '.' || major > 1000)
		return false;
	release = end + 1;
	minor = strtoul(release, &end, 10);
	if (end == release || minor > 1000)
		return false;
	if (major < 4 || (major == 4 && minor < 19))
		*gen = SIM_GEN_4_14;
	else if (major == 4 || (major == 5 && minor < 14))
		*gen = SIM_GEN_4_19;
	else if (major == 5 || (major == 6 && minor < 7))
		*gen = SIM_GEN_5_14;
	else
		*gen = SIM_GEN_6_7;
	return true;
}

unsigned long sim_page_size_of_smaps(const char *smaps)
{
	const char *key = smaps ? strstr(smaps, "KernelPageSize:") : NULL;
	unsigned long kib;
	char *end;

	if (!key)
		return 4096;
	kib = strtoul(key + strlen("KernelPageSize:"), &end, 10);
	/* A page is a power of two from 4 KiB up; anything else is no reading. */
	if (kib < 4 || kib > 1024UL * 1024 || (kib & (kib - 1)))
		return 4096;
	return kib * 1024;
}

/* include/linux/log2.h rounddown_pow_of_two(), for n >= 1. */
static long rounddown_pow2(long n)
{
	long p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

/*
 * zone_batchsize(): ~0.1% of the zone, at most 512 KiB of pages in 4.14
 * ("if (batch * PAGE_SIZE > 512 * 1024)"), 1 MiB from 4.19 (SZ_1M / PAGE_SIZE
 * in 5.10, 6.1, 6.12), a quarter of that, clamped to 2^n - 1.  A zone under
 * 4096 pages gets 0 here; its callers raise it to 1.
 */
static long zone_batchsize(enum sim_gen gen, unsigned page_shift, uint64_t managed)
{
	uint64_t cap = (gen == SIM_GEN_4_14 ? 512UL * 1024 : 1024UL * 1024) >> page_shift;
	long batch = (long)(managed / 1024 < cap ? managed / 1024 : cap);

	batch /= 4;
	if (batch < 1)
		batch = 1;
	return rounddown_pow2(batch + batch / 2) - 1;
}

/*
 * zone_highsize(), 5.14 (one fraction), 6.7-7.3 (the fraction as an
 * argument): the low watermark, or managed / fraction, over the CPUs of
 * the zone's node; at least batch << 2.
 */
static long zone_highsize(const struct sim_zone *z, long batch, long fraction)
{
	uint64_t total = fraction ? z->managed / (uint64_t)fraction : z->low;
	uint64_t high = total / (z->split ? z->split : 1);

	return (long)(high > (uint64_t)batch << 2 ? high : (uint64_t)batch << 2);
}

/*
 * The patch's pcp_batch_default(), pcp_batch_of(ULONG_MAX): zone_batchsize()
 * of a zone at the 1 MiB cap (256 KiB after the quarter in 7.3's form).
 */
static long patch_batch_cap(unsigned page_shift)
{
	long quarter = (long)((1024UL * 1024) >> page_shift) / 4;
	long cap = rounddown_pow2(quarter + quarter / 2) - 1;

	return cap < 1 ? 1 : cap;
}

/*
 * The patch's zone_pageset_batch(batch, high_min), v3: the admin's batch only
 * where the zone's own batch is pcp_batch_default(), and then at most
 * high_min >> 2, high_min being what zone_highsize() gave with the zone's
 * own batch (6.1: the one high).
 */
static long patch_zone_batch(const struct sim_kernel *k, long own, long high_min)
{
	if (!k->patch_batch || own != patch_batch_cap(k->page_shift))
		return own;
	return k->patch_batch < high_min >> 2 ? k->patch_batch : high_min >> 2;
}

void sim_zone_pcp(const struct sim_kernel *k, const struct sim_zone *z, struct sim_pcp *out)
{
	long own = zone_batchsize(k->gen, k->page_shift, z->managed);
	long batch = own < 1 ? 1 : own;

	if (k->gen <= SIM_GEN_4_19) {
		/*
		 * pageset_set_high_and_batch(), 4.14 and 5.10: with a fraction,
		 * pageset_set_high(): high = managed / fraction, batch = high / 4
		 * at least 1 and at most PAGE_SHIFT * 8; without,
		 * pageset_set_batch(): high = 6 * zone_batchsize(), batch at least 1.
		 */
		if (k->fraction) {
			long high = (long)(z->managed / (uint64_t)k->fraction);
			long cap = (long)k->page_shift * 8;

			out->high = (int)high;
			batch = high / 4 > cap ? cap : high / 4;
			out->batch = batch < 1 ? 1 : (int)batch;
		} else {
			out->high = (int)(6 * own);
			out->batch = (int)batch;
		}
		out->high_min = out->high_max = out->high;
		return;
	}
	/*
	 * zone_set_pageset_high_and_batch(), 5.14-7.3: max(1, zone_batchsize())
	 * sizes high; the patch then sets the batch from that high.
	 */
	if (k->gen == SIM_GEN_5_14) {
		/* 5.14-6.6: one high, on every CPU at once. */
		out->high = (int)zone_highsize(z, batch, k->fraction);
		out->high_min = out->high_max = out->high;
		out->batch = (int)patch_zone_batch(k, batch, out->high);
		return;
	}
	/*
	 * 6.7-7.3: a fraction fixes high_min = high_max; without one high_min
	 * comes from the low watermark and high_max from
	 * MIN_PERCPU_PAGELIST_HIGH_FRACTION.  pcp->high moves between them as
	 * each CPU frees (nr_pcp_high(), decay_pcp_high()); the writing CPU's
	 * settles at high_min.
	 */
	out->high_min = (int)zone_highsize(z, batch, k->fraction);
	out->high_max = k->fraction ? out->high_min : (int)zone_highsize(z, batch, SIM_MIN_FRACTION);
	out->high = out->high_min;
	out->batch = (int)patch_zone_batch(k, batch, out->high_min);
}

/*
 * percpu_pagelist_batch_limit of the patch (v3), pcp_bulk_limit():
 * pcp_batch_default() << CONFIG_PCP_BATCH_SCALE_MAX.
 */
long sim_patch_batch_max(unsigned page_shift, int scale_max)
{
	return patch_batch_cap(page_shift) << scale_max;
}
