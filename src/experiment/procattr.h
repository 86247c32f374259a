/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procattr.h - which other tasks used CPU during a sweep point
 *
 * A snapshot of the live system's processes is read through procps'
 * library (procps 4's libproc2 or procps 3.3's libprocps, whichever the
 * build found) at a point's start and end; procattr_diff() puts the CPU
 * time between them down to the processes.  The library reads the live
 * /proc only: there is no snapshot of a --sysroot tree.
 */
#ifndef PCPCTL_PROCATTR_H
#define PCPCTL_PROCATTR_H

#include <stddef.h>

/* Kernel thread names such as "kworker/u4:2-events_unbound" fit. */
#define PROCATTR_COMM_MAX	64
/* The tasks a point keeps: the largest, enough to say who disturbed it. */
#define PROCATTR_TOP		5

/* One process (all its threads) as the library read it. */
struct procattr_task {
	int pid, ppid;
	int cpu;			/* the CPU it last ran on; -1 unknown */
	unsigned long long began;	/* start time, ticks after boot: tells a reused pid */
	unsigned long long ticks;	/* user + system time, clock ticks */
	char comm[PROCATTR_COMM_MAX];
};

struct procattr_snap {
	struct procattr_task *task;
	size_t n;
};

/* A process that used CPU during the point. */
struct procattr_user {
	int pid;
	char comm[PROCATTR_COMM_MAX];
	double cpu_s;		/* CPU seconds during the point */
	int cpus[2];		/* the CPUs it was last seen on, at the start and the end */
	size_t ncpus;		/* 0 to 2, without repeats and unknowns */
};

/*
 * The live system's processes now.  0, or a negative errno (-EIO: the
 * library failed).  Free with procattr_snap_free().
 */
int procattr_snap(struct procattr_snap *s);
void procattr_snap_free(struct procattr_snap *s);

/*
 * The processes of end that used CPU since begin, largest first (equal ones
 * by pid), at most max of them into top, their number into *n: 0, or
 * -ENOMEM.  A pid of end
 * that begin lacks, or has with another start time, began during the point:
 * all its time counts.  self and its descendants in end (pcpctl, the
 * snapshot's own child, a workload not yet reaped) are left out; a process
 * that ended during the point is not in end and not counted.  hz: clock
 * ticks per second.
 */
int procattr_diff(const struct procattr_snap *begin, const struct procattr_snap *end, int self,
		  long hz, struct procattr_user *top, size_t max, size_t *n);

#endif /* PCPCTL_PROCATTR_H */
