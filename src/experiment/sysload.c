/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysload.c - what the system did during one sweep point
 */
#include "sysload.h"

#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "c.h"
#include "escape.h"
#include "kernel.h"
#include "report.h"
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

int sysload_mark(const struct sysroot *root, bool name_tasks, struct sysload_mark *m)
{
	int rc;

	if (!root || !m)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	/* the snapshot's child before the clock and rusage: its time is ours on both sides */
	if (name_tasks) {
		m->procs_err = procattr_snap(&m->procs);
		m->has_procs = m->procs_err == 0;
	}
	if (clock_gettime(CLOCK_MONOTONIC, &m->t) < 0)
		rc = -errno;
	else if ((rc = read_ours(m)) == 0 && (rc = read_stat(root, m)) == 0)
		rc = read_vmstat(root, m);
	if (rc)
		sysload_mark_free(m);
	return rc;
}

void sysload_mark_free(struct sysload_mark *m)
{
	if (!m)
		return;
	procattr_snap_free(&m->procs);
	m->has_procs = false;
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
	p.has_tasks = b->has_procs && e->has_procs;
	p.ntasks = 0;
	if (p.has_tasks) {
		int rc = procattr_diff(&b->procs, &e->procs, (int)getpid(), hz, p.tasks,
				       PROCATTR_TOP, &p.ntasks);

		if (rc)
			return rc;
	}
	*out = p;
	return 0;
}

void sysload_disturbed_words(char *buf, size_t size, double others_cpus, double steal_cpus,
			     bool has_tasks, const struct procattr_user *tasks, size_t ntasks)
{
	size_t len = 0;

#define ADD(...) do { \
		int w = snprintf(buf + len, size - len, __VA_ARGS__); \
		if (w > 0) \
			len = (size_t)w < size - len ? len + (size_t)w : size - 1; \
	} while (0)
	if (!size)
		return;
	buf[0] = '\0';
	ADD("disturbed");
	if (others_cpus > SYSLOAD_DISTURBED_CPUS || steal_cpus <= SYSLOAD_DISTURBED_CPUS) {
		ADD(", %.2f CPU by ", others_cpus);
		if (!has_tasks)
			ADD("other processes");
		else if (!ntasks)
			ADD("processes that ended during the point");
		for (size_t i = 0; has_tasks && i < ntasks && i < SYSLOAD_NAMED; i++) {
			char shown[4 * PROCATTR_COMM_MAX + 1];

			escape_text(shown, sizeof(shown), tasks[i].comm,
				    strnlen(tasks[i].comm, sizeof(tasks[i].comm)), true);
			ADD("%s%s (pid %d)", i ? ", " : "", shown, tasks[i].pid);
		}
	}
	if (steal_cpus > SYSLOAD_DISTURBED_CPUS)
		ADD("%s%.2f CPU taken by the hypervisor",
		    others_cpus > SYSLOAD_DISTURBED_CPUS ? "; " : ", ", steal_cpus);
#undef ADD
}

void sysload_print_tasks_json(bool has_tasks, const struct procattr_user *tasks, size_t ntasks)
{
	if (!has_tasks) {
		print_null(PRINT_JSON, "other_tasks", "%s", "-");
		return;
	}
	open_json_array("other_tasks");
	for (size_t k = 0; k < ntasks; k++) {
		const struct procattr_user *u = &tasks[k];

		open_json_object(NULL);
		print_long(PRINT_JSON, "pid", "%ld", u->pid);
		print_string(PRINT_JSON, "command", "%s", u->comm);
		print_double(PRINT_JSON, "cpu_seconds", "%.2f", u->cpu_s);
		open_json_array("cpus");
		for (size_t c = 0; c < u->ncpus; c++)
			print_long(PRINT_JSON, NULL, "%ld", u->cpus[c]);
		close_json_array();
		close_json_object();
	}
	close_json_array();
}
