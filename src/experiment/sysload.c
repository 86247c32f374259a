/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysload.c - what the system did during one sweep point
 */
#include "sysload.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "c.h"
#include "kernel.h"
#include "sysroot.h"

static const enum vm_counter pgalloc_counters[] = {
	VM_PGALLOC_DMA, VM_PGALLOC_DMA32, VM_PGALLOC_NORMAL,
	VM_PGALLOC_HIGH, VM_PGALLOC_MOVABLE,
};

/* Re-read at every mark: a mark must be of this moment. */
static int read_vmstat(const struct sysroot *root, struct sysload_mark *m)
{
	struct vm_counters c;
	char *text;
	size_t len, i;
	int rc = sysroot_read_file(root, PATH_VMSTAT, &text, &len);

	if (rc)
		return rc;
	rc = vmstat_parse(text, &c);
	free(text);
	if (rc)
		return rc;
	/* a zone this kernel lacks has no pgalloc line: it allocated nothing */
	m->pgalloc = 0;
	for (i = 0; i < ARRAY_SIZE(pgalloc_counters); i++)
		m->pgalloc += c.value[pgalloc_counters[i]];
	/* every kernel pcpctl knows has both: a file without them is no vmstat */
	if (!(c.present & (1u << VM_PGFREE)) || !(c.present & (1u << VM_PGFAULT)))
		return -EINVAL;
	m->pgfree = c.value[VM_PGFREE];
	m->pgfault = c.value[VM_PGFAULT];
	return 0;
}

int stat_parse_ticks(const char *text, unsigned long long *busy, unsigned long long *steal)
{
	/* "cpu  user nice system idle iowait irq softirq steal [guest guest_nice]" */
	enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, NFIELDS };
	unsigned long long v[NFIELDS];
	const char *p = text;

	if (strncmp(p, "cpu ", 4) != 0)
		return -EINVAL;
	p += 4;
	for (int f = 0; f < NFIELDS; f++) {
		char *end;

		p += strspn(p, " ");
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v[f] = strtoull(p, &end, 10);
		if (errno || (*end != ' ' && *end != '\n' && *end != '\0'))
			return -EINVAL;
		p = end;
	}
	/* guest and guest_nice are left out: the kernel already counts them
	 * in user and nice */
	*busy = v[USER] + v[NICE] + v[SYSTEM] + v[IRQ] + v[SOFTIRQ];
	*steal = v[STEAL];
	return 0;
}

static int read_stat(const struct sysroot *root, struct sysload_mark *m)
{
	char *text;
	size_t len;
	int rc = sysroot_read_file(root, PATH_STAT, &text, &len);

	if (rc)
		return rc;
	rc = stat_parse_ticks(text, &m->busy_ticks, &m->steal_ticks);
	free(text);
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

int sysload_mark(const struct sysroot *root, struct sysload_mark *m)
{
	int rc;

	if (!root || !m)
		return -EINVAL;
	if (clock_gettime(CLOCK_MONOTONIC, &m->t) < 0)
		return -errno;
	if ((rc = read_ours(m)) < 0 || (rc = read_stat(root, m)) < 0 ||
	    (rc = read_vmstat(root, m)) < 0)
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
