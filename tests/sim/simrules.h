/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simulated kernel's own reading of mm/page_alloc.c, generation by
 * generation and for any page size.  It is written apart from src/model/pcprules.c
 * and shares no code with it, so that a test compares two readings of the
 * kernel, and the simulator's numbers are checked against real captures
 * (tests/sim/golden.py).
 */
#ifndef PCPCTL_SIMRULES_H
#define PCPCTL_SIMRULES_H

#include <stdbool.h>
#include <stdint.h>

enum sim_gen {
	SIM_GEN_4_14,	/* before 4.19: percpu_pagelist_fraction, batch cap 512 KiB */
	SIM_GEN_4_19,	/* 4.19-5.13: percpu_pagelist_fraction, batch cap 1 MiB */
	SIM_GEN_5_14,	/* 5.14-6.6: percpu_pagelist_high_fraction, eager high */
	SIM_GEN_6_7,	/* 6.7 and later: high_min/high_max, high set lazily */
};

/* "5.10.0-32-cloud-arm64" -> SIM_GEN_4_19; false when no "MAJOR.MINOR" leads it. */
bool sim_gen_of_release(const char *release, enum sim_gen *gen);

/* The page size in bytes from /proc/self/smaps text (first KernelPageSize:); 4096 without one. */
unsigned long sim_page_size_of_smaps(const char *smaps);

/* What a kernel of this generation and page size holds, with the sysctls in force. */
struct sim_kernel {
	enum sim_gen gen;
	unsigned page_shift;
	long fraction;		/* the generation's fraction sysctl; 0 = default */
	long patch_batch;	/* vm.percpu_pagelist_batch of the patch; 0 = unset or absent */
};

struct sim_zone {
	uint64_t managed, low;	/* low: the low watermark as zoneinfo prints it */
	unsigned split;		/* CPUs zone_highsize() divides by */
};

/* One zone's pagesets as zone_set_pageset_high_and_batch() (or its forebears) leaves them. */
struct sim_pcp {
	int batch, high;	/* high: eager generations; the writer's high from 6.7 */
	int high_min, high_max;	/* 6.7 and later */
};

void sim_zone_pcp(const struct sim_kernel *k, const struct sim_zone *z, struct sim_pcp *out);

/* The smallest fraction the kernel takes (other than 0). */
#define SIM_MIN_FRACTION 8

/*
 * The largest vm.percpu_pagelist_batch the patch (v3) takes, as its boot code
 * computes it, for a kernel built with CONFIG_PCP_BATCH_SCALE_MAX = scale_max.
 */
long sim_patch_batch_max(unsigned page_shift, int scale_max);

/* CONFIG_PCP_BATCH_SCALE_MAX of the simulated kernel: Debian's, Kconfig's default. */
#define SIM_SCALE_MAX 5

#endif
