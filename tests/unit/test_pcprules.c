/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel rules pcpctl verifies changes with, checked against what real
 * kernels printed: Debian 6.1 guests before and after
 * percpu_pagelist_high_fraction=8, our patched 6.1 at boot, patch v3 on 7.3
 * after percpu_pagelist_batch=310 and its maximum, and this machine's 6.18.
 * (6.12 sets high lazily, per CPU as it next frees, so its zoneinfo confirms
 * nothing.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>

#include "c.h"
#include "kernel.h"
#include "fixture.h"
#include "pcprules.h"
#include "sysroot.h"
#include "zoneinfo.h"

struct capture {
	const char *file;
	enum pcp_era era;
	long fraction;
	unsigned split[3];	/* online CPUs per node, as the guest's sysfs listed them */
	int batch;		/* vm.percpu_pagelist_batch of the patched kernel; 0 = default */
};

static const struct capture captures[] = {
	{ "debian-6.1-1cpu.zoneinfo", ERA_HIGH_FRACTION, 0, { 1 }, 0 },
	{ "debian-6.1-1cpu-frac8.zoneinfo", ERA_HIGH_FRACTION, 8, { 1 }, 0 },
	{ "debian-6.1-4cpu-2node.zoneinfo", ERA_HIGH_FRACTION, 0, { 2, 2 }, 0 },
	{ "debian-6.1-4cpu-2node-frac8.zoneinfo", ERA_HIGH_FRACTION, 8, { 2, 2 }, 0 },
	{ "debian-6.1-cpuless-node.zoneinfo", ERA_HIGH_FRACTION, 0, { 2, 2, 4 }, 0 },
	{ "debian-6.1-cpuless-node-frac8.zoneinfo", ERA_HIGH_FRACTION, 8, { 2, 2, 4 }, 0 },
	{ "live-6.18-2cpu.zoneinfo", ERA_HIGH_MINMAX, 0, { 2 }, 0 },
	/* Our kernel patch on 6.1 at boot: vm.percpu_pagelist_batch = 0 is the stock rule. */
	{ "patched-6.1-4cpu-2node.zoneinfo", ERA_HIGH_FRACTION, 0, { 2, 2 }, 0 },
	/* Patch v3 on 6.1 after 310 and 2016: the batch a quarter of high, high as stock. */
	{ "patched-6.1-4cpu-2node-batch310.zoneinfo", ERA_HIGH_FRACTION, 0, { 2, 2 }, 310 },
	{ "patched-6.1-4cpu-2node-batchmax.zoneinfo", ERA_HIGH_FRACTION, 0, { 2, 2 }, 2016 },
	/*
	 * Patch v3 on 7.3 after 310 and its maximum, 2016: each large zone's
	 * batch is held to a quarter of its high_min (1770, 854, 881), DMA
	 * keeps 1, high_min/high_max are the stock kernel's.  Its boot capture
	 * is left out: boot computes them before the last memory reaches the
	 * zones, and the first change updates them.
	 */
	{ "patched-7.3-4cpu-2node-batch310.zoneinfo", ERA_HIGH_MINMAX, 0, { 2, 2 }, 310 },
	{ "patched-7.3-4cpu-2node-batchmax.zoneinfo", ERA_HIGH_MINMAX, 0, { 2, 2 }, 2016 },
};

static void test_rules_match_real_kernels(void **state)
{
	(void)state;
	for (size_t c = 0; c < ARRAY_SIZE(captures); c++) {
		const struct capture *cap = &captures[c];
		struct zoneinfo zi;
		size_t checked = 0;

		parse_fixture(cap->file, &zi);
		for (size_t i = 0; i < zi.nzones; i++) {
			const struct zi_zone *z = &zi.zones[i];

			for (size_t j = 0; j < z->npagesets; j++) {
				const struct zi_pageset *ps = &z->pagesets[j];
				struct pcp_zone_input in = {
					.era = cap->era, .page_shift = 12,
					.managed = z->field[ZI_MANAGED],
					.low = z->field[ZI_LOW], .split = cap->split[z->node],
					.fraction = cap->fraction,
				};
				struct pcp_expect ex;

				assert_int_equal(ps->value[ZI_BATCH],
						 pcp_patched_batch(&in, cap->batch));
				pcp_expected(&in, &ex);
				if (ex.check_high && ps->value[ZI_HIGH] != ex.high)
					fail_msg("%s node %d zone %s cpu %d: high %d, expected %d",
						 cap->file, z->node, z->name, ps->cpu,
						 ps->value[ZI_HIGH], ex.high);
				if (ex.check_minmax && (ps->value[ZI_HIGH_MIN] != ex.high_min ||
							ps->value[ZI_HIGH_MAX] != ex.high_max))
					fail_msg("%s node %d zone %s cpu %d: high_min/max %d/%d, expected %d/%d",
						 cap->file, z->node, z->name, ps->cpu,
						 ps->value[ZI_HIGH_MIN], ps->value[ZI_HIGH_MAX],
						 ex.high_min, ex.high_max);
				checked++;
			}
		}
		assert_true(checked > 0);
		zoneinfo_free(&zi);
	}
}

static void test_patched_batch_rule(void **state)
{
	struct pcp_zone_input in = { .era = ERA_HIGH_MINMAX, .page_shift = 12, .managed = 3840,
				     .split = 2, .low = 100 };
	struct pcp_expect ex;

	(void)state;
	/* A 16 MiB DMA zone keeps its own batch whatever the request. */
	assert_int_equal(pcp_patched_batch(&in, 310), 1);
	assert_int_equal(pcp_patched_batch(&in, 2016), 1);
	/* A 400 MiB zone (batch 31) is below the cap: it keeps 31. */
	in.managed = 100000;
	assert_int_equal(pcp_patched_batch(&in, 310), 31);
	/*
	 * A 2 GiB zone on 2 CPUs, low watermark 4000: high_min is 2000, so the
	 * batch is held to 500, whatever larger value is asked for.
	 */
	in.managed = 500000;
	in.low = 4000;
	assert_int_equal(pcp_patched_batch(&in, 0), 63);
	assert_int_equal(pcp_patched_batch(&in, 31), 31);
	assert_int_equal(pcp_patched_batch(&in, 310), 310);
	assert_int_equal(pcp_patched_batch(&in, 2016), 500);
	/* high_min and high_max stay those of the default batch (v2 lifted them to 4 * 1007). */
	pcp_expected(&in, &ex);
	assert_int_equal(ex.high_min, 2000);
	assert_int_equal(ex.high_max, 500000 / 8 / 2);
	/* With fraction 8, high_min = 31250 and a quarter of it exceeds any request. */
	in.fraction = 8;
	assert_int_equal(pcp_patched_batch(&in, 2016), 2016);
	/* With fraction 100: 2500 per CPU stays 2500, the batch goes down to 625. */
	in.fraction = 100;
	pcp_expected(&in, &ex);
	assert_int_equal(ex.high_min, 2500);
	assert_int_equal(pcp_patched_batch(&in, 2016), 625);
	/*
	 * The 64 GiB zone with 64 CPUs whose high_min is 387: the batch
	 * is held to 96 and high_min stays 387 (v2 made it 4028).
	 */
	in.fraction = 0;
	in.managed = 16ULL * 1024 * 1024;
	in.split = 64;
	in.low = 387 * 64;
	pcp_expected(&in, &ex);
	assert_int_equal(ex.high_min, 387);
	assert_int_equal(pcp_patched_batch(&in, 1007), 96);
	/* A watermark share under 4 * 63: the floor, and the batch no lower than 63. */
	in.low = 100 * 64;
	pcp_expected(&in, &ex);
	assert_int_equal(ex.high_min, 252);
	assert_int_equal(pcp_patched_batch(&in, 1007), 63);
	assert_int_equal(pcp_patched_batch(&in, 31), 31);
}

/*
 * Patch v2's figures, from its own rule, for the test below to show they fail
 * the bound: its maximum was (SHRT_MAX - pages per pageblock) >> scale_max,
 * and its shift bottomed out at 0, so that maximum moved itself in one hold.
 */
static long v2_max(unsigned page_shift, int scale_max)
{
	/* pageblock_order with huge pages: 9 at 4 KiB, 11 at 16 KiB, 13 at 64 KiB. */
	long pageblock = 1L << (page_shift == 12 ? 9 : page_shift == 14 ? 11 : 13);

	return (32767 - pageblock) >> scale_max;
}

static long v2_hold(unsigned page_shift, int scale_max, long batch)
{
	long bound = pcp_hold_bound(page_shift, scale_max);
	int scale = scale_max;

	while (scale && batch << scale > bound)
		scale--;
	return batch << scale;
}

/*
 * The one lock-hold bound for every page size and CONFIG_PCP_BATCH_SCALE_MAX:
 * the accepted maximum and the largest pages moved under one zone->lock hold
 * at any accepted batch never exceed the unpatched kernel's own worst case,
 * its default batch at the full scale.  v2's figures fail.
 */
static void test_hold_bound_by_config(void **state)
{
	static const struct {
		unsigned shift;
		int scale_max;
		long bound;	/* the unpatched kernel: default batch << scale_max */
		long v2_max;	/* the largest batch v2 accepted */
		long v2_hold;	/* and the pages it moved in one hold */
	} cases[] = {
		{ 12, 5, 2016, 1007, 2014 },
		{ 12, 4, 1008, 2015, 2015 },
		{ 12, 3, 504, 4031, 4031 },
		{ 12, 0, 63, 32255, 32255 },
		{ 14, 5, 480, 959, 959 },
		{ 16, 5, 96, 767, 767 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned shift = cases[i].shift;
		int scale = cases[i].scale_max;
		long bound = pcp_hold_bound(shift, scale), worst = 0;

		assert_int_equal(bound, cases[i].bound);
		/* v3: the maximum is the bound, and no batch up to it moves more. */
		for (long n = 1; n <= bound; n++) {
			long hold = pcp_bulk_max(shift, scale, n);

			if (hold > bound || hold < n)
				fail_msg("%u/%d: batch %ld moves %ld per hold, bound %ld", shift,
					 scale, n, hold, bound);
			worst = hold > worst ? hold : worst;
		}
		assert_int_equal(worst, bound);
		assert_int_equal(pcp_bulk_max(shift, scale, bound), bound);
		/* The default batch keeps the full scale: nothing changes at 0. */
		assert_int_equal(pcp_bulk_max(shift, scale, pcp_batch_cap(shift)), bound);
		/* v2: the figures, each over the bound except 4 KiB at scale 5. */
		assert_int_equal(v2_max(shift, scale), cases[i].v2_max);
		assert_int_equal(v2_hold(shift, scale, v2_max(shift, scale)), cases[i].v2_hold);
		if (shift == 12 && scale == 5)
			assert_true(v2_hold(shift, scale, v2_max(shift, scale)) <= bound);
		else
			assert_true(v2_hold(shift, scale, v2_max(shift, scale)) > bound);
	}
	/* The sawtooth at 4 KiB and scale 5. */
	assert_int_equal(pcp_bulk_max(12, 5, 127), 1016);
	assert_int_equal(pcp_bulk_max(12, 5, 253), 1012);
	assert_int_equal(pcp_bulk_max(12, 5, 310), 1240);
	assert_int_equal(pcp_bulk_max(12, 5, 505), 1010);
	assert_int_equal(pcp_bulk_max(12, 5, 1007), 2014);
	assert_int_equal(pcp_bulk_max(12, 5, 1009), 1009);
}

static void test_era_of_release(void **state)
{
	static const struct {
		const char *release;
		enum pcp_era era;
	} cases[] = {
		{ "4.14.336", ERA_FRACTION_512K }, { "4.18.20", ERA_FRACTION_512K },
		{ "4.19.0", ERA_FRACTION }, { "5.10.0-32-cloud-arm64", ERA_FRACTION },
		{ "5.13.19", ERA_FRACTION },
		{ "5.14.0-284.el9.x86_64", ERA_HIGH_FRACTION }, { "6.1.0-57-cloud-amd64", ERA_HIGH_FRACTION },
		{ "6.6.63", ERA_HIGH_FRACTION }, { "6.7.0", ERA_LAZY_HIGH },
		{ "6.12.117+deb12-cloud-amd64", ERA_LAZY_HIGH }, { "6.13.1", ERA_HIGH_MINMAX },
		{ "6.18.44-fc-v657", ERA_HIGH_MINMAX }, { "7.0.0", ERA_HIGH_MINMAX },
	};
	enum pcp_era era;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(pcp_era_of_release(cases[i].release, &era), 0);
		assert_int_equal(era, cases[i].era);
	}
	assert_int_not_equal(pcp_era_of_release("linux", &era), 0);
}

static void test_fraction_era_batch(void **state)
{
	/* 5.13 and older: fraction sets high = managed / N, batch = high / 4 capped at 96. */
	struct pcp_zone_input in = { .era = ERA_FRACTION, .page_shift = 12, .managed = 1000000,
				     .fraction = 8 };

	(void)state;
	assert_int_equal(pcp_fraction_batch(&in), 96);
	in.fraction = 10000;
	assert_int_equal(pcp_fraction_batch(&in), 25);
	/* Fraction 0 is zone_batchsize(): 1 MiB of pages since 4.19, 512 KiB before. */
	in.fraction = 0;
	assert_int_equal(pcp_fraction_batch(&in), 63);
	in.era = ERA_FRACTION_512K;
	assert_int_equal(pcp_fraction_batch(&in), 31);
	in.fraction = 8;
	assert_int_equal(pcp_fraction_batch(&in), 96);
	in.era = ERA_FRACTION;
	in.fraction = 0;
	in.managed = 3000;
	assert_int_equal(pcp_fraction_batch(&in), 1);
	in.era = ERA_LAZY_HIGH;
	assert_int_equal(pcp_fraction_batch(&in), -1);
}

static void test_limits_and_floor(void **state)
{
	/* A 1 GiB zone on 2 CPUs: managed / 8 / 2 = 16384, the floor 4 * 63 = 252. */
	struct pcp_zone_input in = { .page_shift = 12, .managed = 262144, .low = 4000, .split = 2,
				     .fraction = 8 };
	static const enum pcp_era eras[] = { ERA_HIGH_FRACTION, ERA_LAZY_HIGH, ERA_HIGH_MINMAX };
	struct pcp_expect ex;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(eras); i++) {
		in.era = eras[i];
		in.fraction = 8;
		pcp_expected(&in, &ex);
		/* 6.7-6.12 have the limits too; zoneinfo does not print them. */
		assert_int_equal(ex.high_min, 16384);
		assert_int_equal(ex.high_max, 16384);
		assert_false(ex.floored);
		in.fraction = 1000000;
		pcp_expected(&in, &ex);
		assert_true(ex.floored);
		assert_int_equal(ex.share, 0);
		assert_int_equal(ex.high_min, 252);
		assert_int_equal(ex.high_max, 252);
		/* The watermark's share under the floor is the kernel's own default, no clamp. */
		in.fraction = 0;
		in.low = 100;
		pcp_expected(&in, &ex);
		assert_false(ex.floored);
		assert_int_equal(ex.high_min, 252);
		in.low = 4000;
	}
	in.era = ERA_LAZY_HIGH;
	pcp_expected(&in, &ex);
	assert_false(ex.check_minmax);
	assert_false(ex.check_high);
	assert_int_equal(ex.high_min, 2000);
	assert_int_equal(ex.high_max, 16384);
	in.era = ERA_FRACTION;
	in.fraction = 1000000;
	pcp_expected(&in, &ex);
	assert_false(ex.floored);
	assert_int_equal(ex.high_min, ex.high);
	assert_int_equal(ex.high_max, ex.high);
}

/* A zone of bytes at a page shift, in pages. */
static uint64_t pages(uint64_t bytes, unsigned shift)
{
	return bytes >> shift;
}

#define GiB (1024ULL * 1024 * 1024)
#define MiB (1024ULL * 1024)

/*
 * zone_batchsize() by page size and generation: ~0.1% of the zone, capped at
 * 1 MiB of pages since 4.19 (512 KiB before), a quarter, clamped to 2^n - 1.
 */
static void test_default_batch_by_page_size(void **state)
{
	static const struct {
		enum pcp_era era;
		unsigned shift;
		uint64_t bytes;
		int batch;
	} cases[] = {
		/* 4 KiB: 63 on zones over ~1 GiB since 4.19 (Debian 11's 5.10), 31 before. */
		{ ERA_FRACTION_512K, 12, 4 * GiB, 31 },
		{ ERA_FRACTION, 12, 4 * GiB, 63 },
		{ ERA_FRACTION, 12, 2 * GiB, 63 },
		{ ERA_FRACTION, 12, 1200 * MiB, 63 },
		{ ERA_FRACTION, 12, 600 * MiB, 31 },
		{ ERA_HIGH_FRACTION, 12, 4 * GiB, 63 },
		{ ERA_LAZY_HIGH, 12, 4 * GiB, 63 },
		{ ERA_HIGH_MINMAX, 12, 4 * GiB, 63 },
		/* A 16 MiB DMA zone: under 4 MiB of batch, raised to 1. */
		{ ERA_FRACTION, 12, 16 * MiB, 1 },
		{ ERA_HIGH_MINMAX, 12, 16 * MiB, 1 },
		/* 16 KiB (arm64-16k): 1 MiB is 64 pages, so 15; 512 KiB gave 7. */
		{ ERA_FRACTION_512K, 14, 4 * GiB, 7 },
		{ ERA_FRACTION, 14, 4 * GiB, 15 },
		{ ERA_HIGH_FRACTION, 14, 4 * GiB, 15 },
		{ ERA_LAZY_HIGH, 14, 4 * GiB, 15 },
		{ ERA_HIGH_MINMAX, 14, 4 * GiB, 15 },
		{ ERA_HIGH_MINMAX, 14, 1 * GiB, 15 },
		{ ERA_HIGH_MINMAX, 14, 256 * MiB, 3 },
		/* 64 KiB (ppc64el, arm64 64k): 1 MiB is 16 pages, so 3; 512 KiB gave 1. */
		{ ERA_FRACTION_512K, 16, 4 * GiB, 1 },
		{ ERA_FRACTION, 16, 4 * GiB, 3 },
		{ ERA_HIGH_FRACTION, 16, 4 * GiB, 3 },
		{ ERA_LAZY_HIGH, 16, 4 * GiB, 3 },
		{ ERA_HIGH_MINMAX, 16, 4 * GiB, 3 },
		{ ERA_HIGH_MINMAX, 16, 16 * MiB, 1 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pcp_zone_input in = { .era = cases[i].era, .page_shift = cases[i].shift,
					     .managed = pages(cases[i].bytes, cases[i].shift) };

		if (pcp_default_batch(&in) != cases[i].batch)
			fail_msg("case %zu: batch %d, expected %d", i, pcp_default_batch(&in),
				 cases[i].batch);
	}
}

/* pageset_set_high() up to 5.13: a fraction's batch is capped at PAGE_SHIFT * 8. */
static void test_fraction_cap_by_page_size(void **state)
{
	static const struct {
		unsigned shift;
		int cap;
	} cases[] = { { 12, 96 }, { 14, 112 }, { 16, 128 } };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pcp_zone_input in = { .era = ERA_FRACTION, .page_shift = cases[i].shift,
					     .managed = pages(4 * GiB, cases[i].shift), .fraction = 8 };

		assert_int_equal(pcp_fraction_batch(&in), cases[i].cap);
		in.era = ERA_FRACTION_512K;
		assert_int_equal(pcp_fraction_batch(&in), cases[i].cap);
		/* Below the cap, a quarter of high. */
		in.era = ERA_FRACTION;
		in.fraction = (long)in.managed / 40;
		assert_int_equal(pcp_fraction_batch(&in), 10);
		/* Fraction 0: the default batch, and high 6 times it. */
		in.fraction = 0;
		struct pcp_expect ex;

		pcp_expected(&in, &ex);
		assert_int_equal(ex.high, 6 * pcp_default_batch(&in));
	}
}

/* The patch's PCP_BATCH_CAP is the default batch of a big zone at each page size. */
static void test_patch_cap_by_page_size(void **state)
{
	struct pcp_zone_input in = { .era = ERA_HIGH_MINMAX, .split = 2 };

	(void)state;
	assert_int_equal(pcp_batch_cap(12), 63);
	assert_int_equal(pcp_batch_cap(14), 15);
	assert_int_equal(pcp_batch_cap(16), 3);
	/* 256 KiB pages: 1 MiB is 4 pages, the batch 0 that max(1, ...) raises. */
	assert_int_equal(pcp_batch_cap(18), 1);
	/* 16 KiB, 2 GiB on 2 CPUs at fraction 8: the zone at the cap (15) takes 310. */
	in.page_shift = 14;
	in.managed = pages(2 * GiB, 14);
	in.fraction = 8;
	assert_int_equal(pcp_patched_batch(&in, 0), 15);
	assert_int_equal(pcp_patched_batch(&in, 310), 310);
	/* A quarter of high_min at fraction 8: 131072 / 8 / 2 / 4 = 2048. */
	assert_int_equal(pcp_patched_batch(&in, 4000), 2048);
	/* 64 KiB, 4 GiB on 2 CPUs, fraction 8: 65536 / 8 / 2 / 4 = 1024. */
	in.page_shift = 16;
	in.managed = pages(4 * GiB, 16);
	assert_int_equal(pcp_patched_batch(&in, 0), 3);
	assert_int_equal(pcp_patched_batch(&in, 96), 96);
	/* A zone below the cap keeps its own batch at any page size. */
	in.managed = pages(32 * MiB, 16);
	assert_int_equal(pcp_patched_batch(&in, 310), 1);
}

/* The page shift of a page size, and the page size a capture's smaps records. */
static void test_page_size(void **state)
{
	long bytes = 0;

	(void)state;
	assert_int_equal(pcp_page_shift(4096), 12);
	assert_int_equal(pcp_page_shift(16384), 14);
	assert_int_equal(pcp_page_shift(65536), 16);
	assert_int_equal(pcp_page_shift(8192), 13);
	assert_int_equal(pcp_page_shift(3000), -EINVAL);
	assert_int_equal(pcp_page_shift(0), -EINVAL);
	assert_int_equal(pcp_page_shift(1L << 20), -EINVAL);
	assert_int_equal(smaps_page_size("55d0-55d1 r--p 0 08:01 1 /bin/cat\nSize:  4 kB\n"
					 "KernelPageSize:       16 kB\nMMUPageSize:  16 kB\n"
					 "KernelPageSize:        4 kB\n", &bytes), 0);
	assert_int_equal(bytes, 16384);
	assert_int_equal(smaps_page_size("KernelPageSize:       64 kB\n", &bytes), 0);
	assert_int_equal(bytes, 65536);
	assert_int_equal(smaps_page_size("Size: 4 kB\n", &bytes), -ENOENT);
	assert_int_equal(smaps_page_size("KernelPageSize: 4 MB\n", &bytes), -EINVAL);
	assert_int_equal(smaps_page_size("KernelPageSize: kB\n", &bytes), -EINVAL);
	assert_int_equal(smaps_page_size("KernelPageSize: 99999999999999999999 kB\n", &bytes),
			 -EINVAL);
}

/* Which releases pcpctl knows the rules of exactly. */
static void test_release_doubt(void **state)
{
	static const char *const known[] = {
		"4.14.336", "5.10.0-32-cloud-arm64", "6.1.0-57-cloud-amd64",
		"6.12.117+deb12-cloud-amd64", "6.18.44-fc-v657", "7.3.4+deb13-cloud-amd64",
		"5.15.0-91-generic", "7.2.11+deb13-powerpc64le-64k",
	};
	static const char *const doubtful[] = {
		"5.14.0-427.el9.x86_64", "4.18.0-553.el8_10.x86_64", "5.14.21-150500.55.39-default",
		"5.10.210-201.852.amzn2.x86_64", "7.4.0", "8.0.1", "7.10.0-1-amd64",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (pcp_release_doubt(known[i]))
			fail_msg("%s: %s", known[i], pcp_release_doubt(known[i]));
	for (size_t i = 0; i < ARRAY_SIZE(doubtful); i++)
		if (!pcp_release_doubt(doubtful[i]))
			fail_msg("%s is taken as known", doubtful[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_match_real_kernels),
		cmocka_unit_test(test_patched_batch_rule),
		cmocka_unit_test(test_hold_bound_by_config),
		cmocka_unit_test(test_era_of_release),
		cmocka_unit_test(test_fraction_era_batch),
		cmocka_unit_test(test_limits_and_floor),
		cmocka_unit_test(test_default_batch_by_page_size),
		cmocka_unit_test(test_fraction_cap_by_page_size),
		cmocka_unit_test(test_patch_cap_by_page_size),
		cmocka_unit_test(test_page_size),
		cmocka_unit_test(test_release_doubt),
	};

	return cmocka_run_group_tests_name("pcprules", tests, NULL, NULL);
}
