/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysload.h - what the system did during one sweep point
 *
 * Take a mark before a point's workload starts and another after it has
 * been reaped (pf1_run and ext_run return only then), and diff them:
 * page allocator traffic from /proc/vmstat, and the CPU time that
 * processes other than pcpctl and its reaped children used meanwhile.
 *
 * Reads /proc/vmstat and /proc/stat under the root it is given: sweep
 * gives the live system whatever --sysroot says (its workload runs here),
 * the tests also captured files.
 */
#ifndef PCPCTL_SYSLOAD_H
#define PCPCTL_SYSLOAD_H

#include <stdbool.h>
#include <time.h>

/*
 * A point is disturbed when other processes kept on average more than
 * this fraction of one CPU busy.  The workload pins a task on each CPU it
 * uses, so whatever else runs takes time slices from those tasks: 10% of
 * one CPU can cost a few percent of throughput, about the size of the
 * differences between batch values that a sweep is meant to find.
 */
#define SYSLOAD_DISTURBED_CPUS	0.10

struct sysload_mark {
	struct timespec t;		/* CLOCK_MONOTONIC */
	unsigned long long pgalloc;	/* sum of pgalloc_<zone> */
	unsigned long long pgfree;
	unsigned long long pgfault;
	unsigned long long busy_ticks;	/* /proc/stat cpu: user nice system irq softirq */
	unsigned long long steal_ticks;
	double ours_s;			/* CPU time of pcpctl and its reaped children */
};

struct sysload_point {
	double wall_s;
	unsigned long long pgalloc, pgfree, pgfault;	/* deltas */
	double busy_cpus;	/* average number of busy CPUs, everything */
	double ours_cpus;	/* of those, pcpctl and the workload */
	double others_cpus;	/* busy - ours, never below 0 */
	double steal_cpus;	/* taken by the hypervisor */
	/*
	 * others_cpus or steal_cpus above SYSLOAD_DISTURBED_CPUS: a
	 * hypervisor running someone else takes time from the workload just
	 * like a local process would.
	 */
	bool disturbed;
};

struct sysroot;

/* 0, or a negative errno from reading /proc/vmstat or /proc/stat under root. */
int sysload_mark(const struct sysroot *root, struct sysload_mark *m);

/*
 * The "cpu " line, which /proc/stat begins with: busy (user, nice, system,
 * irq, softirq) and steal ticks.  0, or -EINVAL for a text that is not
 * /proc/stat (no steal field: older than any kernel pcpctl knows).
 */
int stat_parse_ticks(const char *text, unsigned long long *busy, unsigned long long *steal);

/*
 * end must be a later mark than begin: -EINVAL if no time passed.
 * Counters that went backwards (never on a sane kernel) give -ERANGE.
 */
int sysload_diff(const struct sysload_mark *begin,
		 const struct sysload_mark *end, struct sysload_point *out);

#endif /* PCPCTL_SYSLOAD_H */
