/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pcprules.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pcp_era_of_release(const char *release, enum pcp_era *era)
{
	long major, minor;
	char *end;

	/* As sscanf "%d.%d" did, but an overflowing number is refused, not undefined. */
	errno = 0;
	major = strtol(release, &end, 10);
	if (end == release || *end != '.' || errno)
		return -EINVAL;
	release = end + 1;
	minor = strtol(release, &end, 10);
	if (end == release || errno || major < 0 || minor < 0)
		return -EINVAL;
	if (major < 4 || (major == 4 && minor < 19))
		*era = ERA_FRACTION_512K;
	else if (major < 5 || (major == 5 && minor < 14))
		*era = ERA_FRACTION;
	else if (major == 5 || (major == 6 && minor < 7))
		*era = ERA_HIGH_FRACTION;
	else if (major == 6 && minor < 13)
		*era = ERA_LAZY_HIGH;
	else
		*era = ERA_HIGH_MINMAX;
	return 0;
}

const char *pcp_release_doubt(const char *release)
{
	long major, minor;
	const char *dash;
	char *end;

	major = strtol(release, &end, 10);
	minor = *end == '.' ? strtol(end + 1, &end, 10) : 0;
	if (major > PCP_NEWEST_MAJOR || (major == PCP_NEWEST_MAJOR && minor > PCP_NEWEST_MINOR))
		return "its generation is newer than the newest pcpctl knows (7.3)";
	/*
	 * Debian's 6.1.0-57-cloud-amd64 and Ubuntu's 5.15.0-91-generic follow
	 * the stable releases; "-427.el9" numbers a vendor's own patch level.
	 */
	dash = strchr(release, '-');
	if (dash && dash[1 + strspn(dash + 1, "0123456789")] == '.' && isdigit((unsigned char)dash[1]))
		return "it is a vendor's build (its release numbers the vendor's own patch level), "
		       "which may carry rules of later generations";
	return NULL;
}

bool pcp_era_fraction_sets_batch(enum pcp_era era)
{
	return era == ERA_FRACTION_512K || era == ERA_FRACTION;
}

int pcp_page_shift(long page_size)
{
	/* From 4 KiB (x86, arm64, ppc64) to 256 KiB (hexagon, the largest Linux has). */
	for (int shift = 12; shift <= 18; shift++)
		if (page_size == 1L << shift)
			return shift;
	return -EINVAL;
}

static int rounddown_pow_of_two(int n)
{
	int p = 1;

	while (p <= n / 2)
		p *= 2;
	return p;
}

/* The kernel's clamp of a batch to 2^n - 1 pages, against cache aliasing of 2^n. */
static int clamp_batch(int batch)
{
	return rounddown_pow_of_two(batch + batch / 2) - 1;
}

/*
 * zone_batchsize(): ~0.1% of the zone, at most 1 MiB of pages (since 4.19;
 * 512 KiB before), a quarter of that clamped; 0 for zones under 4 MiB at
 * 4 KiB pages, which the kernel then raises to 1.
 */
static int zone_batchsize(const struct pcp_zone_input *in)
{
	uint64_t cap = (in->era == ERA_FRACTION_512K ? 512 * 1024 : 1024 * 1024) >> in->page_shift;
	int batch = (int)(in->managed / 1024 < cap ? in->managed / 1024 : cap);

	batch /= 4;
	if (batch < 1)
		batch = 1;
	return clamp_batch(batch);
}

int pcp_default_batch(const struct pcp_zone_input *in)
{
	int batch = zone_batchsize(in);

	return batch < 1 ? 1 : batch;
}

int pcp_batch_cap(unsigned page_shift)
{
	/* zone_batchsize() of a zone at its 1 MiB cap, as max(1, ...) raises it. */
	int cap = clamp_batch(((1024 * 1024) >> page_shift) / 4);

	return cap < 1 ? 1 : cap;
}

long pcp_hold_bound(unsigned page_shift, int scale_max)
{
	return (long)pcp_batch_cap(page_shift) << scale_max;
}

long pcp_bulk_max(unsigned page_shift, int scale_max, long batch)
{
	int scale = scale_max;

	while (scale && batch << scale > pcp_hold_bound(page_shift, scale_max))
		scale--;
	return batch << scale;
}

/*
 * zone_highsize(): a share of the zone split over the node's CPUs, at least
 * 4 default batches (the patch leaves this floor alone); *share is the share
 * before that floor.
 */
static int highsize(const struct pcp_zone_input *in, long fraction, uint64_t *share)
{
	uint64_t total = fraction ? in->managed / (uint64_t)fraction : in->low;
	uint64_t floor = (uint64_t)pcp_default_batch(in) * 4;

	*share = total / (in->split ? in->split : 1);
	return (int)(*share > floor ? *share : floor);
}

int pcp_patched_batch(const struct pcp_zone_input *in, long requested)
{
	int batch = pcp_default_batch(in);
	uint64_t unused;
	int quarter;

	if (!requested || batch != pcp_batch_cap(in->page_shift))
		return batch;
	quarter = highsize(in, in->fraction, &unused) / 4;
	return requested < quarter ? (int)requested : quarter;
}

void pcp_expected(const struct pcp_zone_input *in, struct pcp_expect *out)
{
	uint64_t unused;

	*out = (struct pcp_expect){ 0 };
	switch (in->era) {
	case ERA_FRACTION_512K:
	case ERA_FRACTION:
		out->check_high = true;
		out->high = in->fraction ? (int)(in->managed / (uint64_t)in->fraction) :
					   6 * zone_batchsize(in);
		out->high_min = out->high_max = out->high;
		out->zero_high = in->fraction && out->high == 0;
		return;
	case ERA_HIGH_FRACTION:
		out->check_high = true;
		out->high = highsize(in, in->fraction, &out->share);
		out->high_min = out->high_max = out->high;
		break;
	case ERA_LAZY_HIGH:
	case ERA_HIGH_MINMAX:
		/* 6.7 brought both limits; 6.13 began to print them. */
		out->check_minmax = in->era == ERA_HIGH_MINMAX;
		out->high_min = highsize(in, in->fraction, &out->share);
		out->high_max = in->fraction ? out->high_min :
					       highsize(in, PCP_FRACTION_MIN, &unused);
		break;
	}
	/* Without a fraction the floor guards the watermark's share: the kernel's own default. */
	out->floored = in->fraction && out->share < (uint64_t)out->high_min;
}

int pcp_fraction_batch(const struct pcp_zone_input *in)
{
	/* pageset_set_high(): 96 with 4 KiB pages, 112 with 16 KiB, 128 with 64 KiB. */
	const int batch_cap = (int)in->page_shift * 8;
	int high, batch;

	if (!pcp_era_fraction_sets_batch(in->era))
		return -1;
	if (!in->fraction)
		return pcp_default_batch(in);
	high = (int)(in->managed / (uint64_t)in->fraction);
	batch = high / 4 > batch_cap ? batch_cap : high / 4;
	return batch < 1 ? 1 : batch;
}
