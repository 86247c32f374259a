/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How each kernel generation derives pcp batch and high from the sysctls,
 * so that a change can be verified against zoneinfo (and simulated in the
 * tests).  The figures come from mm/page_alloc.c of each version and are
 * checked against zoneinfo captured from real kernels.
 */
#ifndef PCPCTL_PCPRULES_H
#define PCPCTL_PCPRULES_H

#include <stdbool.h>
#include <stdint.h>

enum pcp_era {
	ERA_FRACTION,		/* up to 5.13: percpu_pagelist_fraction sets high and batch */
	ERA_HIGH_FRACTION,	/* 5.14-6.6: high_fraction sets high on every CPU */
	ERA_LAZY_HIGH,		/* 6.7-6.12: auto-tuned high, high_min/high_max not printed */
	ERA_HIGH_MINMAX,	/* 6.13+: high_min/high_max printed */
};

/* The era of a release string such as "6.12.117+deb12-cloud-amd64"; -EINVAL if unparsable. */
int pcp_era_of_release(const char *release, enum pcp_era *era);

/*
 * The largest batch our kernel patch accepts with Debian's x86_64 configs:
 * (SHRT_MAX - pageblock of 512 pages) >> CONFIG_PCP_BATCH_SCALE_MAX (5), as
 * pcp->free_count, a short, must hold a scaled batch plus one pageblock.
 */
#define PCP_BATCH_MAX 1007

/* A fraction of 1..7 would let pcp lists hold more than an eighth of a zone. */
#define PCP_FRACTION_MIN 8

/* zone_batchsize() of every zone above about 1 GiB: the only batch the patch replaces. */
#define PCP_BATCH_CAP 63

/* zone_batchsize(), already raised to at least 1 as the kernel does. */
int pcp_default_batch(enum pcp_era era, uint64_t managed);

/* What one zone's pagesets must show, given the settings and the zone. */
struct pcp_zone_input {
	enum pcp_era era;
	uint64_t managed, low;	/* low: the low watermark as zoneinfo prints it */
	unsigned split;		/* online CPUs of the zone's node, else all online CPUs */
	long fraction;		/* the era's fraction sysctl; 0 = default */
	int batch;		/* the batch in force (observed, or the one requested) */
};

struct pcp_expect {
	bool check_high;	/* high is set eagerly on every CPU (up to 6.6) */
	bool check_minmax;	/* high_min/high_max (6.13+) */
	int high;
	/*
	 * The limits of high in every era, printed or not (6.7-6.12 keep them
	 * unprinted); equal where one high holds for every CPU.
	 */
	int high_min, high_max;
	/*
	 * 5.14+: the fraction's share, managed / fraction / split, is below the
	 * floor of 4 * batch, so high is raised to the floor instead.
	 */
	bool floored;
	uint64_t share;
};

void pcp_expected(const struct pcp_zone_input *in, struct pcp_expect *out);

/*
 * The batch the kernel patch (v2) gives a zone for vm.percpu_pagelist_batch
 * = requested (0: the default): the request applies only where
 * zone_batchsize() is at PCP_BATCH_CAP, and never above a quarter of the
 * zone's per-CPU share at PCP_FRACTION_MIN unless the zone's own batch is.
 */
int pcp_patched_batch(const struct pcp_zone_input *in, long requested);

/* The batch a fraction imposes up to 5.13 (it sets both); -1 in later eras. */
int pcp_fraction_batch(const struct pcp_zone_input *in);

#endif
