/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How each kernel generation derives pcp batch and high from the sysctls and
 * the page size, so that a change can be verified against zoneinfo.  The
 * figures come from mm/page_alloc.c of each version and are checked against
 * zoneinfo captured from real kernels (tests/fixtures/golden).
 */
#ifndef PCPCTL_PCPRULES_H
#define PCPCTL_PCPRULES_H

#include <stdbool.h>
#include <stdint.h>

enum pcp_era {
	ERA_FRACTION_512K,	/* up to 4.18: as ERA_FRACTION, zone_batchsize() capped at 512 KiB */
	ERA_FRACTION,		/* 4.19-5.13: percpu_pagelist_fraction sets high and batch */
	ERA_HIGH_FRACTION,	/* 5.14-6.6: high_fraction sets high on every CPU */
	ERA_LAZY_HIGH,		/* 6.7-6.12: auto-tuned high, high_min/high_max not printed */
	ERA_HIGH_MINMAX,	/* 6.13+: high_min/high_max printed */
};

/* The era of a release string such as "6.12.117+deb12-cloud-amd64"; -EINVAL if unparsable. */
int pcp_era_of_release(const char *release, enum pcp_era *era);

/*
 * Whether the era's rules are surely those of a release: NULL when they are,
 * else why not (a distribution build that numbers its own patch level, as
 * RHEL's 5.14.0-427.el9 or SUSE's 5.14.21-150500.55.39, carries backports
 * from later generations; a generation newer than pcpctl knows).
 */
const char *pcp_release_doubt(const char *release);

/* The newest generation whose rules pcpctl knows: 7.3. */
#define PCP_NEWEST_MAJOR 7
#define PCP_NEWEST_MINOR 3

/* Up to 5.13, when percpu_pagelist_fraction sets batch as well as high. */
bool pcp_era_fraction_sets_batch(enum pcp_era era);

/* The page shift of a page size in bytes (12 for 4096); -EINVAL for no page size Linux has. */
int pcp_page_shift(long page_size);

/* CONFIG_PCP_BATCH_SCALE_MAX: Kconfig's default and the largest it allows. */
#define PCP_SCALE_MAX_DEFAULT 5
#define PCP_SCALE_MAX_LIMIT 6

/* A fraction of 1..7 would let pcp lists hold more than an eighth of a zone. */
#define PCP_FRACTION_MIN 8

/*
 * The largest zone_batchsize(), that of every zone above about 1 GiB: the
 * only batch the patch replaces.  63 with 4 KiB pages, 15 with 16 KiB, 3
 * with 64 KiB.
 */
int pcp_batch_cap(unsigned page_shift);

/*
 * The most pages an unpatched kernel moves under one zone->lock hold: the
 * largest batch shifted by CONFIG_PCP_BATCH_SCALE_MAX (2016 with 4 KiB pages
 * and 5).  Patch v3 keeps every hold within it, and it is also the largest
 * vm.percpu_pagelist_batch that patch accepts.
 */
long pcp_hold_bound(unsigned page_shift, int scale_max);

/*
 * Patch v3's pcp->bulk_max for a batch: the batch shifted by the largest
 * shift up to scale_max that keeps it within pcp_hold_bound().  The most
 * pages any path moves under one hold with that batch.
 */
long pcp_bulk_max(unsigned page_shift, int scale_max, long batch);

/* What one zone's pagesets must show, given the settings and the zone. */
struct pcp_zone_input {
	enum pcp_era era;
	unsigned page_shift;	/* of the kernel's page size: 12, 14, 16 */
	uint64_t managed, low;	/* low: the low watermark as zoneinfo prints it */
	unsigned split;		/* online CPUs of the zone's node, else all online CPUs */
	long fraction;		/* the era's fraction sysctl; 0 = default */
};

/* zone_batchsize(), already raised to at least 1 as the kernel does. */
int pcp_default_batch(const struct pcp_zone_input *in);

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
	/*
	 * Up to 5.13: managed / fraction is 0, and with no floor in those
	 * kernels high is 0: the list keeps no page.
	 */
	bool zero_high;
};

void pcp_expected(const struct pcp_zone_input *in, struct pcp_expect *out);

/*
 * The batch the kernel patch (v3) gives a zone for vm.percpu_pagelist_batch
 * = requested (0: the default): the request applies only where
 * zone_batchsize() is at pcp_batch_cap(), and never above a quarter of the
 * zone's high_min (high up to 6.6) as the kernel computes it from the
 * default batch, which the request leaves alone.
 */
int pcp_patched_batch(const struct pcp_zone_input *in, long requested);

/* The batch a fraction imposes up to 5.13 (it sets both); -1 in later eras. */
int pcp_fraction_batch(const struct pcp_zone_input *in);

#endif
