/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockprof.h - the share of CPU time in the queued spinlock slowpath, the
 * zone->lock contention of the kernel mails, sampled per sweep point
 *
 * cpu-clock samples on every CPU (perf_event_open, kernel and user IPs, as
 * 'perf record -a -e cpu-clock' takes them); a sample whose IP falls in
 * native_queued_spin_lock_slowpath or __pv_queued_spin_lock_slowpath,
 * located in /proc/kallsyms, counts as contention.  The events and the
 * symbol table need privileges pcpctl drops: lockprof_open runs before
 * that, and reads the live kernel only (/proc/kallsyms is not taken under
 * --sysroot).
 */
#ifndef PCPCTL_LOCKPROF_H
#define PCPCTL_LOCKPROF_H

#include <stddef.h>
#include <stdint.h>

/* The functions whose samples are contention, and where they lie. */
#define LOCKPROF_NSYMS 2
struct lockprof_range {
	uint64_t lo[LOCKPROF_NSYMS], hi[LOCKPROF_NSYMS];	/* [lo, hi); 0, 0 when absent */
};

/*
 * Locate the slowpaths in text, as /proc/kallsyms has it: each from its address to the next
 * higher address of any symbol.  -ENOENT when neither is there, -EPERM when
 * the addresses read as 0 (kptr_restrict, no CAP_SYSLOG).
 */
int lockprof_find(const char *text, struct lockprof_range *r);

struct lockprof;

/*
 * Open the sampling on every online CPU, disabled.  On failure NULL, with
 * the reason in why (perf_event_paranoid, no kallsyms, a container...).
 */
struct lockprof *lockprof_open(char *why, size_t why_len);
/* Count from now on. */
int lockprof_start(struct lockprof *lp);
/* Stop and give the share of samples in the slowpaths, in percent: 0,
 * -ENODATA when no sample came, or a negative errno. */
int lockprof_stop(struct lockprof *lp, double *pct);
void lockprof_close(struct lockprof *lp);

#endif
