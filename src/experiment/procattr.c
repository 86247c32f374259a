/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procattr.c - which other tasks used CPU during a sweep point
 */
#include "procattr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if PCPCTL_PROCPS == 4
#include <libproc2/pids.h>
#elif PCPCTL_PROCPS == 3
#include <proc/readproc.h>
#else
#error "PCPCTL_PROCPS must be 4 (libproc2) or 3 (libprocps): CMakeLists.txt sets it"
#endif

static void take_comm(struct procattr_task *t, const char *comm)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
}

/* One record into the pipe: the child's and the parent's binary are one, and so is the layout. */
static int write_all(int fd, const struct procattr_task *t)
{
	const char *p = (const char *)t;
	size_t left = sizeof(*t);

	while (left) {
		ssize_t w = write(fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		left -= (size_t)w;
	}
	return 0;
}

/* Every process of the live /proc as a record into fd: 0, or -1 when the library or the pipe failed. */
#if PCPCTL_PROCPS == 4
static int list_processes(int fd)
{
	enum rel { PID, PPID, CPU, BEGAN, TICKS, CMD };
	enum pids_item items[] = {
		PIDS_ID_PID, PIDS_ID_PPID, PIDS_PROCESSOR, PIDS_TICS_BEGAN, PIDS_TICS_ALL, PIDS_CMD,
	};
	struct pids_info *info = NULL;
	struct pids_stack *st;
	int rc = 0;

	if (procps_pids_new(&info, items, (int)(sizeof(items) / sizeof(items[0]))) < 0)
		return -1;
	while (!rc && (st = procps_pids_get(info, PIDS_FETCH_TASKS_ONLY))) {
		struct procattr_task t = {
			.pid = PIDS_VAL(PID, s_int, st, info),
			.ppid = PIDS_VAL(PPID, s_int, st, info),
			.cpu = PIDS_VAL(CPU, s_int, st, info),
			.began = PIDS_VAL(BEGAN, ull_int, st, info),
			.ticks = PIDS_VAL(TICKS, ull_int, st, info),
		};

		take_comm(&t, PIDS_VAL(CMD, str, st, info));
		rc = write_all(fd, &t);
	}
	procps_pids_unref(&info);
	return rc;
}
#else
static int list_processes(int fd)
{
	PROCTAB *pt = openproc(PROC_FILLSTAT);
	proc_t *p;
	int rc = 0;

	if (!pt)
		return -1;
	while (!rc && (p = readproc(pt, NULL))) {
		struct procattr_task t = {
			.pid = p->tgid, .ppid = p->ppid, .cpu = p->processor,
			.began = p->start_time, .ticks = p->utime + p->stime,
		};

		take_comm(&t, p->cmd);
		rc = write_all(fd, &t);
		freeproc(p);
	}
	closeproc(pt);
	return rc;
}
#endif

/*
 * The library runs in a child, for both generations: procps 3.3 exits the
 * process on some errors (its allocation failures, a /proc it cannot
 * read), and a sweep takes its snapshots while its transaction is open,
 * with the settings of a point applied.  A child's exit only loses that
 * point's names; pcpctl goes on to restore the settings.  Its CPU time is
 * pcpctl's own (RUSAGE_CHILDREN), as sysload counts it.
 */
int procattr_snap(struct procattr_snap *s)
{
	struct procattr_task *all = NULL;
	size_t n = 0, cap = 0, have = 0;
	int fds[2], status, rc = 0;
	pid_t pid;

	s->task = NULL;
	s->n = 0;
	/* procps 3.3 exits by exit(): the child must not write the parent's buffered output again */
	fflush(NULL);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		close(fds[0]);
		_exit(list_processes(fds[1]) ? 1 : 0);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r;

		if (have == cap * sizeof(*all)) {
			size_t ncap = cap ? 2 * cap : 256;
			struct procattr_task *more = realloc(all, ncap * sizeof(*all));

			if (!more) {
				rc = -ENOMEM;
				break;
			}
			all = more;
			cap = ncap;
		}
		r = read(fds[0], (char *)all + have, cap * sizeof(*all) - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			break;
		}
		if (r == 0)
			break;
		have += (size_t)r;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (!rc && (status != 0 || have % sizeof(*all)))
		rc = -EIO;
	n = have / sizeof(*all);
	if (rc) {
		free(all);
		return rc;
	}
	s->task = all;
	s->n = n;
	return 0;
}

void procattr_snap_free(struct procattr_snap *s)
{
	if (!s)
		return;
	free(s->task);
	s->task = NULL;
	s->n = 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct procattr_task *x = *(const struct procattr_task *const *)a;
	const struct procattr_task *y = *(const struct procattr_task *const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static const struct procattr_task **sorted(const struct procattr_snap *s)
{
	const struct procattr_task **v = malloc((s->n ? s->n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < s->n; i++)
		v[i] = &s->task[i];
	qsort(v, s->n, sizeof(*v), by_pid);
	return v;
}

static const struct procattr_task *find(const struct procattr_task **v, size_t n, int pid)
{
	struct procattr_task key = { .pid = pid };
	const struct procattr_task *k = &key, **hit = bsearch(&k, v, n, sizeof(*v), by_pid);

	return hit ? *hit : NULL;
}

/* A pid's chain of parents in end reaches self; a chain longer than the pid space is a loop. */
static int descends(const struct procattr_task **v, size_t n, const struct procattr_task *t, int self)
{
	for (size_t hops = 0; t && hops <= n; hops++) {
		if (t->pid == self || t->ppid == self)
			return 1;
		if (t->ppid <= 0 || t->ppid == t->pid)
			return 0;
		t = find(v, n, t->ppid);
	}
	return 0;
}

static int larger_first(const void *a, const void *b)
{
	const struct procattr_user *x = a, *y = b;

	if (x->cpu_s != y->cpu_s)
		return x->cpu_s < y->cpu_s ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int procattr_diff(const struct procattr_snap *begin, const struct procattr_snap *end, int self,
		  long hz, struct procattr_user *top, size_t max, size_t *n)
{
	const struct procattr_task **b = sorted(begin), **e = sorted(end);
	struct procattr_user *users = malloc((end->n ? end->n : 1) * sizeof(*users));
	size_t nusers = 0;

	*n = 0;
	if (!b || !e || !users || hz <= 0) {
		free(b);
		free(e);
		free(users);
		return hz <= 0 ? -EINVAL : -ENOMEM;
	}
	for (size_t i = 0; i < end->n; i++) {
		const struct procattr_task *t = e[i], *was = find(b, begin->n, t->pid);
		struct procattr_user *u = &users[nusers];
		unsigned long long ticks = t->ticks;

		if (descends(e, end->n, t, self))
			continue;
		if (was && was->began == t->began) {
			/* never backwards on a sane kernel: count nothing if it did */
			ticks = t->ticks >= was->ticks ? t->ticks - was->ticks : 0;
		} else {
			was = NULL;
		}
		if (!ticks)
			continue;
		memset(u, 0, sizeof(*u));
		u->pid = t->pid;
		memcpy(u->comm, t->comm, sizeof(u->comm));
		u->comm[sizeof(u->comm) - 1] = '\0';
		u->cpu_s = (double)ticks / (double)hz;
		if (was && was->cpu >= 0)
			u->cpus[u->ncpus++] = was->cpu;
		if (t->cpu >= 0 && !(u->ncpus && u->cpus[0] == t->cpu))
			u->cpus[u->ncpus++] = t->cpu;
		nusers++;
	}
	qsort(users, nusers, sizeof(*users), larger_first);
	*n = nusers < max ? nusers : max;
	memcpy(top, users, *n * sizeof(*top));
	free(b);
	free(e);
	free(users);
	return 0;
}
