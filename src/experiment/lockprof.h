/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockprof.h - the share of CPU time in the queued spinlock slowpath, the
 * zone->lock contention of the kernel mails, sampled per sweep point
 *
 * cpu-clock samples on every CPU (perf_event_open, kernel and user IPs, as
 * 'perf record -a -e cpu-clock' takes them); a sample whose IP falls in
 * native_queued_spin_lock_slowpath or __pv_queued_spin_lock_slowpath (or,
 * in a kernel without paravirt spinlocks, queued_spin_lock_slowpath),
 * located in /proc/kallsyms, counts as contention.  Each sample carries its
 * kernel callchain too, so that contention can be put down to the pcp
 * refill (rmqueue_bulk) or drain (free_pcppages_bulk) that took the lock,
 * where kallsyms has those functions (a build may inline them).  The events and the
 * symbol table need privileges pcpctl drops: lockprof_open runs before
 * that, and reads the live kernel only (/proc/kallsyms is not taken under
 * --sysroot).
 */
#ifndef PCPCTL_LOCKPROF_H
#define PCPCTL_LOCKPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The functions whose samples are contention, the callers it is put down to, and where they lie. */
enum lockprof_sym {
	LOCKPROF_NATIVE,	/* native_queued_spin_lock_slowpath */
	LOCKPROF_PV,		/* __pv_queued_spin_lock_slowpath */
	LOCKPROF_REFILL,	/* rmqueue_bulk, or where inlined its caller */
	LOCKPROF_DRAIN,		/* free_pcppages_bulk */
	LOCKPROF_REFILL_CALLER,	/* __rmqueue_pcplist, rmqueue_bulk's only caller */
	LOCKPROF_PLAIN,		/* queued_spin_lock_slowpath, without paravirt spinlocks */
	LOCKPROF_NSYMS
};
struct lockprof_range {
	uint64_t lo[LOCKPROF_NSYMS], hi[LOCKPROF_NSYMS];	/* [lo, hi); 0, 0 when absent */
};

/*
 * Locate the functions in text, as /proc/kallsyms has it: each from its
 * address to the next higher address of any symbol; a compiler's clone
 * (rmqueue_bulk.constprop.0) stands for the function.  Where rmqueue_bulk
 * is inlined, __rmqueue_pcplist stands for it: the one lock that can spin
 * there is the zone->lock of the inlined refill (the pcp lock is only
 * tried).  -ENOENT when neither
 * slowpath is there, -EPERM when the addresses read as 0 (kptr_restrict, no
 * CAP_SYSLOG).
 */
int lockprof_find(const char *text, struct lockprof_range *r);

/* Samples counted: all, in a slowpath, and of those under a refill or a drain. */
struct lockprof_counts {
	uint64_t total, lock, refill, drain;
};

/*
 * Count one PERF_RECORD_SAMPLE, body as it follows the record header: the
 * IP, then with chains the callchain (nr, then nr addresses, context
 * markers among them).  A slowpath sample is a refill when the nearest
 * caller of the two is rmqueue_bulk, a drain when it is free_pcppages_bulk.
 * -EBADMSG when len does not hold what the body says.
 */
int lockprof_count(const struct lockprof_range *r, const void *body, size_t len, bool chains,
		   struct lockprof_counts *c);

/* What a point's samples come to, in percent of all of them. */
struct lockprof_share {
	double lock_pct;
	bool has_refill, has_drain;	/* callchains taken and the function in kallsyms */
	double refill_pct, drain_pct;	/* parts of lock_pct */
};

/* -ENODATA when no sample was counted. */
int lockprof_share(const struct lockprof_range *r, const struct lockprof_counts *c, bool chains,
		   struct lockprof_share *s);

struct lockprof;

/*
 * Open the sampling on every online CPU, disabled.  On failure NULL, with
 * the reason in why (perf_event_paranoid, no kallsyms, a container...).
 */
struct lockprof *lockprof_open(char *why, size_t why_len);
/* Count from now on. */
int lockprof_start(struct lockprof *lp);
/* Stop and give the shares of samples since the start: 0, -ENODATA when no
 * sample came, or a negative errno. */
int lockprof_stop(struct lockprof *lp, struct lockprof_share *s);
/* Why the refill or drain share will be null, or NULL when neither will. */
const char *lockprof_callers_why(const struct lockprof *lp);
void lockprof_close(struct lockprof *lp);

#endif
