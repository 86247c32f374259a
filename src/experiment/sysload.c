/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysload.c - what the system did during one sweep point
 */
#include "sysload.h"

#include <errno.h>
#include <stddef.h>
#include <sys/resource.h>
#include <unistd.h>

#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "c.h"

static const enum vmstat_item pgalloc_items[] = {
	VMSTAT_PGALLOC_DMA, VMSTAT_PGALLOC_DMA32, VMSTAT_PGALLOC_NORMAL,
	VMSTAT_PGALLOC_HIGH, VMSTAT_PGALLOC_MOVABLE,
};

/* A fresh context per read: libproc2 rereads a kept context at most once
 * a second, and a mark must be of this moment. */
static int read_vmstat(struct sysload_mark *m)
{
	struct vmstat_info *info = NULL;
	struct vmstat_result *r;
	size_t i;
	int rc;

	rc = procps_vmstat_new(&info);
	if (rc < 0)
		return rc;
	m->pgalloc = 0;
	for (i = 0; i < ARRAY_SIZE(pgalloc_items); i++) {
		/* a zone this kernel lacks reads as 0 */
		r = procps_vmstat_get(info, pgalloc_items[i]);
		if (!r)
			goto fail;
		m->pgalloc += r->result.ul_int;
	}
	if (!(r = procps_vmstat_get(info, VMSTAT_PGFREE)))
		goto fail;
	m->pgfree = r->result.ul_int;
	if (!(r = procps_vmstat_get(info, VMSTAT_PGFAULT)))
		goto fail;
	m->pgfault = r->result.ul_int;
	procps_vmstat_unref(&info);
	return 0;
fail:
	rc = errno ? -errno : -EIO;
	procps_vmstat_unref(&info);
	return rc;
}

/* guest and guest_nice are left out: the kernel already counts them in
 * user and nice */
static const enum stat_item busy_items[] = {
	STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IRQ,
	STAT_TIC_SOFTIRQ,
};

static int read_stat(struct sysload_mark *m)
{
	struct stat_info *info = NULL;
	struct stat_result *r;
	size_t i;
	int rc;

	rc = procps_stat_new(&info);
	if (rc < 0)
		return rc;
	m->busy_ticks = 0;
	for (i = 0; i < ARRAY_SIZE(busy_items); i++) {
		r = procps_stat_get(info, busy_items[i]);
		if (!r)
			goto fail;
		m->busy_ticks += r->result.ull_int;
	}
	if (!(r = procps_stat_get(info, STAT_TIC_STOLEN)))
		goto fail;
	m->steal_ticks = r->result.ull_int;
	procps_stat_unref(&info);
	return 0;
fail:
	rc = errno ? -errno : -EIO;
	procps_stat_unref(&info);
	return rc;
}

static double tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int read_ours(struct sysload_mark *m)
{
	struct rusage self, children;

	if (getrusage(RUSAGE_SELF, &self) < 0 ||
	    getrusage(RUSAGE_CHILDREN, &children) < 0)
		return -errno;
	m->ours_s = tv_sec(&self.ru_utime) + tv_sec(&self.ru_stime) +
		    tv_sec(&children.ru_utime) + tv_sec(&children.ru_stime);
	return 0;
}

int sysload_mark(struct sysload_mark *m)
{
	int rc;

	if (!m)
		return -EINVAL;
	if (clock_gettime(CLOCK_MONOTONIC, &m->t) < 0)
		return -errno;
	if ((rc = read_ours(m)) < 0 || (rc = read_stat(m)) < 0 ||
	    (rc = read_vmstat(m)) < 0)
		return rc;
	return 0;
}

int sysload_diff(const struct sysload_mark *b, const struct sysload_mark *e,
		 struct sysload_point *out)
{
	struct sysload_point p;
	long hz = sysconf(_SC_CLK_TCK);

	if (!b || !e || !out || hz <= 0)
		return -EINVAL;
	p.wall_s = (double)(e->t.tv_sec - b->t.tv_sec) +
		   (double)(e->t.tv_nsec - b->t.tv_nsec) / 1e9;
	if (!(p.wall_s > 0))
		return -EINVAL;
	if (e->pgalloc < b->pgalloc || e->pgfree < b->pgfree ||
	    e->pgfault < b->pgfault || e->busy_ticks < b->busy_ticks ||
	    e->steal_ticks < b->steal_ticks || e->ours_s < b->ours_s)
		return -ERANGE;
	p.pgalloc = e->pgalloc - b->pgalloc;
	p.pgfree = e->pgfree - b->pgfree;
	p.pgfault = e->pgfault - b->pgfault;
	p.busy_cpus = (double)(e->busy_ticks - b->busy_ticks) / (double)hz / p.wall_s;
	p.steal_cpus = (double)(e->steal_ticks - b->steal_ticks) / (double)hz / p.wall_s;
	p.ours_cpus = (e->ours_s - b->ours_s) / p.wall_s;
	/* /proc/stat is sampled at ticks, rusage is exact: near an idle
	 * system the difference can come out slightly negative */
	p.others_cpus = p.busy_cpus > p.ours_cpus ? p.busy_cpus - p.ours_cpus : 0;
	p.disturbed = p.others_cpus > SYSLOAD_DISTURBED_CPUS ||
		      p.steal_cpus > SYSLOAD_DISTURBED_CPUS;
	*out = p;
	return 0;
}
