/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pcprules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
	if (major < 5 || (major == 5 && minor < 14))
		*era = ERA_FRACTION;
	else if (major == 5 || (major == 6 && minor < 7))
		*era = ERA_HIGH_FRACTION;
	else if (major == 6 && minor < 13)
		*era = ERA_LAZY_HIGH;
	else
		*era = ERA_HIGH_MINMAX;
	return 0;
}

static int rounddown_pow_of_two(int n)
{
	int p = 1;

	while (p <= n / 2)
		p *= 2;
	return p;
}

/* zone_batchsize(): 0 for zones under 4 MiB, which the kernel then raises to 1. */
static int zone_batchsize(enum pcp_era era, uint64_t managed)
{
	/* ~0.1% of the zone, capped at 1 MiB of 4 KiB pages (512 KiB before 4.19). */
	uint64_t cap = era == ERA_FRACTION ? 128 : 256;
	int batch = (int)(managed / 1024 < cap ? managed / 1024 : cap);

	batch /= 4;
	if (batch < 1)
		batch = 1;
	return rounddown_pow_of_two(batch + batch / 2) - 1;
}

int pcp_default_batch(enum pcp_era era, uint64_t managed)
{
	int batch = zone_batchsize(era, managed);

	return batch < 1 ? 1 : batch;
}

int pcp_patched_batch(const struct pcp_zone_input *in, long requested)
{
	int batch = pcp_default_batch(in->era, in->managed);
	uint64_t quarter = in->managed / PCP_FRACTION_MIN / (in->split ? in->split : 1) / 4;

	if (!requested || batch != PCP_BATCH_CAP)
		return batch;
	if (quarter < (uint64_t)batch)
		quarter = (uint64_t)batch;
	return (uint64_t)requested < quarter ? (int)requested : (int)quarter;
}

/*
 * zone_highsize(): a share of the zone split over the node's CPUs, at least
 * 4 batches; *share is the share before that floor.
 */
static int highsize(const struct pcp_zone_input *in, long fraction, uint64_t *share)
{
	uint64_t total = fraction ? in->managed / (uint64_t)fraction : in->low;
	uint64_t floor = (uint64_t)in->batch * 4;

	*share = total / (in->split ? in->split : 1);
	return (int)(*share > floor ? *share : floor);
}

void pcp_expected(const struct pcp_zone_input *in, struct pcp_expect *out)
{
	uint64_t unused;

	*out = (struct pcp_expect){ 0 };
	switch (in->era) {
	case ERA_FRACTION:
		out->check_high = true;
		out->high = in->fraction ? (int)(in->managed / (uint64_t)in->fraction) :
					   6 * zone_batchsize(in->era, in->managed);
		out->high_min = out->high_max = out->high;
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
	/* PAGE_SHIFT * 8 with 4 KiB pages. */
	const int batch_cap = 96;
	int high, batch;

	if (in->era != ERA_FRACTION)
		return -1;
	if (!in->fraction)
		return pcp_default_batch(in->era, in->managed);
	high = (int)(in->managed / (uint64_t)in->fraction);
	batch = high / 4 > batch_cap ? batch_cap : high / 4;
	return batch < 1 ? 1 : batch;
}
