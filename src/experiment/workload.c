/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.c - page_fault1 and external workloads for pcpctl sweep
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "runas.h"

/*
 * 128 rather than 64 bytes per task: x86's adjacent-line prefetcher pulls
 * lines in pairs, so counters 64 bytes apart would still bounce between
 * the cores and cost the workload more than the page fault it counts.
 */
#define PF1_SLOT_BYTES	128

struct pf1_slot {
	_Alignas(PF1_SLOT_BYTES) _Atomic uint_least64_t ops;
	_Atomic int err;	/* errno of the task's failure, 0 while it runs */
};

static double ts_sec(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

static struct timespec ts_add(const struct timespec *ts, double s)
{
	double whole = floor(s);
	struct timespec r = {
		.tv_sec = ts->tv_sec + (time_t)whole,
		.tv_nsec = ts->tv_nsec + (long)((s - whole) * 1e9),
	};

	if (r.tv_nsec >= 1000000000L) {
		r.tv_sec++;
		r.tv_nsec -= 1000000000L;
	}
	return r;
}

static bool stopped(const volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

/* Sleep until an absolute CLOCK_MONOTONIC deadline.  clock_nanosleep is
 * never restarted after a signal handler, so a handler that sets *stop
 * wakes us even when it was installed with SA_RESTART. */
static int sleep_until(const struct timespec *deadline,
		       volatile sig_atomic_t *stop)
{
	for (;;) {
		int rc;

		if (stopped(stop))
			return -EINTR;
		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL);
		if (rc == 0)
			return stopped(stop) ? -EINTR : 0;
		if (rc != EINTR)
			return -rc;
	}
}

static pid_t reap(pid_t pid, int *status, int flags)
{
	pid_t r;

	do
		r = waitpid(pid, status, flags);
	while (r < 0 && errno == EINTR);
	return r;
}

/* ------------------------------------------------------------------ */
/* page_fault1                                                        */

static void pf1_fail(struct pf1_slot *slot, int err)
{
	atomic_store_explicit(&slot->err, err, memory_order_relaxed);
	_exit(1);
}

__attribute__((noreturn))
static void pf1_task(struct pf1_slot *slot, cpu_set_t *set, size_t setsize,
		     int ready_fd, int go_fd, size_t len, long pagesz,
		     pid_t parent, const struct runas *user)
{
	uint_least64_t ops = 0;
	int err = 0;
	char c;

	/* first: a change of user clears the parent-death signal */
	if (user)
		err = -runas_enter(user);
	/* a parent killed with SIGKILL cannot reap us: die with it */
	if (!err && prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		err = errno;
	else if (!err && getppid() != parent)
		_exit(1);
	/* the parent ends us with SIGKILL; a terminal's ^C is its business */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);

	if (!err && sched_setaffinity(0, setsize, set) < 0)
		err = errno;
	/* one int is below PIPE_BUF: the parent gets whole reports */
	if (write(ready_fd, &err, sizeof(err)) != (ssize_t)sizeof(err) || err)
		_exit(1);
	close(ready_fd);

	/* the barrier: the parent closes the write end once all are ready */
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(go_fd);

	for (;;) {
		volatile char *p;
		size_t off;

		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			pf1_fail(slot, errno);
		/* Huge pages would bypass the order-0 per-CPU lists this
		 * workload exists to stress.  Failure means the kernel has
		 * no THP, which is what we want anyway. */
		(void)madvise((void *)p, len, MADV_NOHUGEPAGE);
		for (off = 0; off < len; off += (size_t)pagesz) {
			p[off] = 1;
			/* only this task writes its counter: a relaxed
			 * store is a plain move, no locked instruction */
			atomic_store_explicit(&slot->ops, ++ops,
					      memory_order_relaxed);
		}
		if (munmap((void *)p, len) < 0)
			pf1_fail(slot, errno);
	}
}

struct pf1_run {
	struct pf1_slot *slots;
	size_t nslots;
	pid_t *pids;		/* 0 once reaped */
	size_t npids;
	int ready[2];
	int go[2];
};

static uint_least64_t pf1_total(const struct pf1_run *r)
{
	uint_least64_t sum = 0;
	size_t i;

	for (i = 0; i < r->npids; i++)
		sum += atomic_load_explicit(&r->slots[i].ops,
					    memory_order_relaxed);
	return sum;
}

/* A task only ever stops by failing: report its error, or -ECHILD when
 * it was killed from outside without a word. */
static int pf1_check(struct pf1_run *r)
{
	bool died = false;
	size_t i;

	for (i = 0; i < r->npids; i++) {
		int st;

		if (r->pids[i] && reap(r->pids[i], &st, WNOHANG) == r->pids[i]) {
			r->pids[i] = 0;
			died = true;
		}
	}
	for (i = 0; i < r->npids; i++) {
		int err = atomic_load_explicit(&r->slots[i].err,
					       memory_order_relaxed);
		if (err)
			return -err;
	}
	return died ? -ECHILD : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void pf1_cleanup(struct pf1_run *r)
{
	size_t i;

	for (i = 0; i < r->npids; i++)
		if (r->pids[i])
			kill(r->pids[i], SIGKILL);
	for (i = 0; i < r->npids; i++)
		if (r->pids[i])
			reap(r->pids[i], NULL, 0);
	free(r->pids);
	if (r->slots)
		munmap(r->slots, r->nslots * sizeof(*r->slots));
	close_fd(&r->ready[0]);
	close_fd(&r->ready[1]);
	close_fd(&r->go[0]);
	close_fd(&r->go[1]);
}

static int pf1_start(struct pf1_run *r, const struct pf1_config *cfg,
		     size_t len, long pagesz)
{
	pid_t parent = getpid();
	size_t i;

	for (i = 0; i < cfg->ncpus; i++) {
		int cpu = cfg->cpus[i];
		size_t setsize = CPU_ALLOC_SIZE(cpu + 1);
		cpu_set_t *set = CPU_ALLOC(cpu + 1);
		pid_t pid;

		if (!set)
			return -ENOMEM;
		CPU_ZERO_S(setsize, set);
		CPU_SET_S(cpu, setsize, set);
		pid = fork();
		if (pid == 0) {
			close(r->ready[0]);
			close(r->go[1]);
			pf1_task(&r->slots[i], set, setsize, r->ready[1],
				 r->go[0], len, pagesz, parent, cfg->user);
		}
		if (pid < 0) {
			int err = errno;

			CPU_FREE(set);
			return -err;
		}
		CPU_FREE(set);
		r->pids[r->npids++] = pid;
	}
	/* with our copy closed, EOF tells us every task has gone */
	close_fd(&r->ready[1]);

	for (i = 0; i < cfg->ncpus; i++) {
		int err;
		ssize_t n;

		do
			n = read(r->ready[0], &err, sizeof(err));
		while (n < 0 && errno == EINTR && !stopped(cfg->stop));
		if (stopped(cfg->stop))
			return -EINTR;
		if (n < 0)
			return -errno;
		if (n != (ssize_t)sizeof(err)) {
			int rc = pf1_check(r);

			return rc < 0 ? rc : -ECHILD;
		}
		if (err)
			return -err;
	}
	return 0;
}

int pf1_run(const struct pf1_config *cfg, double **samples, size_t *nsamples)
{
	struct pf1_run r = { .ready = { -1, -1 }, .go = { -1, -1 } };
	struct timespec t0, prev_t, now, deadline;
	uint_least64_t prev_ops, ops;
	double interval, nq, *out = NULL;
	size_t len, n, nmin, i;
	long pagesz = sysconf(_SC_PAGESIZE);
	int rc;

	if (!cfg || !samples || !nsamples || !cfg->cpus || cfg->ncpus == 0 ||
	    !(cfg->duration_s > 0) || !(cfg->warmup_s >= 0) ||
	    !(cfg->interval_s >= 0) || !isfinite(cfg->duration_s) ||
	    !isfinite(cfg->warmup_s) || !isfinite(cfg->interval_s))
		return -EINVAL;
	/* keeps the deadlines' time_t arithmetic far from overflow */
	if (cfg->enough && !(cfg->max_duration_s >= cfg->duration_s))
		return -EINVAL;
	if ((cfg->enough ? cfg->max_duration_s : cfg->duration_s) + cfg->warmup_s >
	    (double)INT32_MAX ||
	    cfg->ncpus > SIZE_MAX / sizeof(struct pf1_slot))
		return -EINVAL;
	for (i = 0; i < cfg->ncpus; i++)
		if (cfg->cpus[i] < 0 || cfg->cpus[i] == INT_MAX)
			return -EINVAL;
	interval = cfg->interval_s > 0 ? cfg->interval_s : PF1_DEFAULT_INTERVAL_S;
	len = cfg->map_bytes ? cfg->map_bytes : PF1_DEFAULT_MAP_BYTES;
	if (pagesz <= 0 || len < (size_t)pagesz)
		return -EINVAL;
	nq = round(cfg->duration_s / interval);
	nmin = nq < 1 ? 1 : (size_t)nq;
	if (cfg->enough)
		nq = round(cfg->max_duration_s / interval);
	if (nq > (double)(SIZE_MAX / sizeof(double)))
		return -EINVAL;
	n = nq < 1 ? 1 : (size_t)nq;
	if (n < nmin)
		n = nmin;

	out = malloc(n * sizeof(*out));
	r.pids = calloc(cfg->ncpus, sizeof(*r.pids));
	if (!out || !r.pids) {
		rc = -ENOMEM;
		goto done;
	}
	r.nslots = cfg->ncpus;
	r.slots = mmap(NULL, r.nslots * sizeof(*r.slots), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r.slots == MAP_FAILED) {
		r.slots = NULL;
		rc = -errno;
		goto done;
	}
	if (pipe2(r.ready, O_CLOEXEC) < 0 || pipe2(r.go, O_CLOEXEC) < 0) {
		rc = -errno;
		goto done;
	}

	rc = pf1_start(&r, cfg, len, pagesz);
	if (rc < 0)
		goto done;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	close_fd(&r.go[1]);

	deadline = ts_add(&t0, cfg->warmup_s);
	if ((rc = sleep_until(&deadline, cfg->stop)) < 0 ||
	    (rc = pf1_check(&r)) < 0)
		goto done;
	clock_gettime(CLOCK_MONOTONIC, &prev_t);
	prev_ops = pf1_total(&r);
	t0 = prev_t;

	for (i = 0; i < n; i++) {
		/* absolute deadlines: a late wakeup does not shift the rest */
		deadline = ts_add(&t0, interval * (double)(i + 1));
		if ((rc = sleep_until(&deadline, cfg->stop)) < 0 ||
		    (rc = pf1_check(&r)) < 0)
			goto done;
		clock_gettime(CLOCK_MONOTONIC, &now);
		ops = pf1_total(&r);
		out[i] = (double)(ops - prev_ops) / (ts_sec(&now) - ts_sec(&prev_t));
		prev_ops = ops;
		prev_t = now;
		if (cfg->enough && i + 1 >= nmin && i + 1 < n &&
		    cfg->enough(out, i + 1, cfg->enough_arg)) {
			n = i + 1;
			break;
		}
	}
	*samples = out;
	*nsamples = n;
	out = NULL;
done:
	pf1_cleanup(&r);
	free(out);
	return rc;
}

/* ------------------------------------------------------------------ */
/* external workloads                                                 */

struct outbuf {
	char *data;
	size_t len, cap;
};

/* The workload's words for the log; a log that fails loses them, not the run. */
static void pass_on(int log_fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(log_fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

/* The line of stderr being read, and the last one finished. */
struct errtail {
	char cur[EXT_LAST_LINE];
	size_t len;
	char *last;		/* EXT_LAST_LINE bytes, or NULL to keep none */
};

static void errtail_end_line(struct errtail *t)
{
	if (t->len && t->last) {
		memcpy(t->last, t->cur, t->len);
		t->last[t->len] = '\0';
	}
	t->len = 0;
}

static void errtail_add(struct errtail *t, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n' || c == '\r')
			errtail_end_line(t);
		else if (t->len < sizeof(t->cur) - 1)
			/* the line ends up in a message on a terminal */
			t->cur[t->len++] = (char)(c < 0x20 || c == 0x7f ? '?' : c);
	}
}

/* Copy the workload's stderr to the log; -EAGAIN when empty for now, 0 at
 * EOF, 1 after reading something. */
static int errtail_read(struct errtail *t, int fd, int log_fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0)
		return 0;
	pass_on(log_fd, buf, (size_t)n);
	errtail_add(t, buf, (size_t)n);
	return 1;
}

/* Read what the pipe has (a copy to log_fd); -EAGAIN when empty for now, 0
 * at EOF, 1 after reading something. */
static int outbuf_read(struct outbuf *b, int fd, int log_fd)
{
	size_t end;
	ssize_t n;

	if (b->cap - b->len < 4096) {
		size_t cap = b->cap ? b->cap * 2 : 8192;
		char *p;

		if (cap < b->cap)
			return -ENOMEM;
		p = realloc(b->data, cap);
		if (!p)
			return -ENOMEM;
		b->data = p;
		b->cap = cap;
	}
	/* keep one byte for the terminating NUL */
	n = read(fd, b->data + b->len, b->cap - b->len - 1);
	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0)
		return 0;
	pass_on(log_fd, b->data + b->len, (size_t)n);
	/* regexec stops at a NUL: keep the text after one searchable */
	for (end = b->len + (size_t)n; b->len < end; b->len++)
		if (b->data[b->len] == '\0')
			b->data[b->len] = ' ';
	b->data[b->len] = '\0';
	return 1;
}

/* What the group wrote before it was killed.  Stragglers that left the
 * group may hold the pipe open forever: take what is there, never wait. */
static int outbuf_drain(struct outbuf *b, int fd, int log_fd)
{
	int rc;

	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		return -errno;
	while ((rc = outbuf_read(b, fd, log_fd)) == 1)
		;
	return rc == -EAGAIN ? 0 : rc;
}

/* Likewise for stderr: a straggler may hold it open. */
static int errtail_drain(struct errtail *t, int fd, int log_fd)
{
	int rc;

	if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0)
		return -errno;
	while ((rc = errtail_read(t, fd, log_fd)) == 1)
		;
	errtail_end_line(t);
	return rc == -EAGAIN ? 0 : rc;
}

/* How --metric is compiled, for the run and for the check before it alike: by lines. */
#define METRIC_REGEX_FLAGS (REG_EXTENDED | REG_NEWLINE)

/* The first match in text, or with last the last; offsets from text. */
static bool find_match(const regex_t *re, const char *text, bool last, regmatch_t m[2])
{
	regmatch_t here[2];
	const char *at = text;
	bool found = false;

	/* each search starts a line, where ^ matches */
	while (regexec(re, at, 2, here, 0) == 0) {
		/* the output is kept up to a few MiB: its offsets fit */
		regoff_t off = (regoff_t)(at - text);

		for (int i = 0; i < 2; i++) {
			m[i] = here[i];
			if (m[i].rm_so >= 0) {
				m[i].rm_so += off;
				m[i].rm_eo += off;
			}
		}
		found = true;
		if (!last)
			break;
		/* the next match begins on a later line: a line gives one number */
		at = strchr(text + m[0].rm_eo - (m[0].rm_eo > m[0].rm_so), '\n');
		if (!at)
			break;
		at++;
	}
	return found;
}

static int parse_metric(const regex_t *re, bool last, const char *text, double *metric)
{
	regmatch_t m[2];
	const regmatch_t *g;
	locale_t c;
	char *s, *end;
	double v;
	int rc;

	if (!find_match(re, text, last, m))
		return -ENOMSG;
	g = re->re_nsub >= 1 && m[1].rm_so >= 0 ? &m[1] : &m[0];
	s = strndup(text + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
	if (!s)
		return -ENOMEM;
	/* benchmarks print C-locale numbers whatever our locale is */
	c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c) {
		rc = -errno;
		free(s);
		return rc;
	}
	errno = 0;
	v = strtod_l(s, &end, c);
	rc = end == s || *end != '\0' || errno == ERANGE || !isfinite(v) ?
		-EBADMSG : 0;
	freelocale(c);
	free(s);
	if (rc == 0 && metric)
		*metric = v;
	return rc;
}

/* text as one JSON value and nothing else but blanks, or NULL */
static struct json_object *json_whole(const char *text)
{
	size_t len = strlen(text);
	struct json_tokener *tok = len <= INT_MAX ? json_tokener_new() : NULL;
	struct json_object *root = tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;

	if (root && text[json_tokener_get_parse_end(tok) + strspn(text + json_tokener_get_parse_end(tok),
								  " \t\r\n")]) {
		json_object_put(root);
		root = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return root;
}

/* The number at path in the JSON text (struct ext_metric). */
static int parse_metric_json(const char *path, const char *text, double *metric)
{
	struct json_object *root = json_whole(text), *v = root;
	char *parts = strdup(path), *save = NULL;
	int rc = 0;

	if (!parts) {
		json_object_put(root);
		return -ENOMEM;
	}
	if (!root)
		rc = -EBADMSG;
	for (char *k = strtok_r(parts, ".", &save); !rc && k; k = strtok_r(NULL, ".", &save)) {
		bool index = k[strspn(k, "0123456789")] == '\0';

		if (index && json_object_is_type(v, json_type_array) &&
		    strtoul(k, NULL, 10) < json_object_array_length(v))
			v = json_object_array_get_idx(v, strtoul(k, NULL, 10));
		else if (!json_object_is_type(v, json_type_object) ||
			 !json_object_object_get_ex(v, k, &v))
			rc = -ENOMSG;
	}
	if (!rc && !json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		rc = -EBADMSG;
	if (!rc && !isfinite(json_object_get_double(v)))
		rc = -EBADMSG;
	if (!rc && metric)
		*metric = json_object_get_double(v);
	free(parts);
	json_object_put(root);
	return rc;
}

__attribute__((noreturn))
static void ext_child(char *const argv[], const struct runas *user, int nullfd, int outfd,
		      int stderr_fd, int errfd)
{
	sigset_t none;
	int e;

	setpgid(0, 0);
	/* exec keeps the signal mask and ignored signals: start clean */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(nullfd, STDIN_FILENO) < 0 || dup2(outfd, STDOUT_FILENO) < 0 ||
	    dup2(stderr_fd, STDERR_FILENO) < 0) {
		e = errno;
	} else {
		e = user ? -runas_enter(user) : 0;
		if (!e) {
			execvp(argv[0], argv);
			e = errno;
		}
	}
	/* if even the report is lost, 127 says "could not run" as a shell does */
	while (write(errfd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

static int exit_code(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Until the child exits: its output kept for the metric (outfd, -1 when no
 * metric is read) and its log (logpipe) copied to log_fd.  0 with *end the
 * moment it exited, -EINTR once *stop is set, or another negative errno.
 */
static int ext_wait(int pidfd, int outfd, int logpipe, int log_fd, struct outbuf *out,
		    struct errtail *tail, volatile sig_atomic_t *stop, struct timespec *end)
{
	struct pollfd pfd[3] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = outfd, .events = POLLIN },
		{ .fd = logpipe, .events = POLLIN },
	};
	int rc;

	for (;;) {
		/* poll is never restarted after a handler: *stop is seen */
		if (stopped(stop))
			return -EINTR;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		/* The output, then the log: each read until its end of file. */
		for (int i = 1; i < 3; i++) {
			if (!pfd[i].revents)
				continue;
			rc = i == 1 ? outbuf_read(out, outfd, log_fd) :
				      errtail_read(tail, logpipe, log_fd);
			if (rc < 0)
				return rc;
			if (rc == 0)
				pfd[i].fd = -1;
		}
		if (pfd[0].revents) {
			clock_gettime(CLOCK_MONOTONIC, end);
			return 0;
		}
	}
}

int ext_run(char *const argv[], const struct runas *user, const struct ext_metric *metric,
	    struct ext_io *io, volatile sig_atomic_t *stop,
	    double *wall_s, double *value, int *exit_status)
{
	struct outbuf out = { 0 };
	struct errtail tail = { .last = io ? io->last_err : NULL };
	struct timespec t0, t1 = { 0 };
	regex_t re;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, wlog[2] = { -1, -1 };
	int log_fd = io ? io->log_fd : STDERR_FILENO;
	int nullfd = -1, pidfd = -1, status = 0, e, rc = 0;
	bool have_re = false, exited = false;
	pid_t pid = -1;
	ssize_t n;

	if (!argv || !argv[0])
		return -EINVAL;
	if (io)
		io->last_err[0] = '\0';
	if (metric) {
		if (ext_check_metric(metric, NULL, 0))
			return -EINVAL;
		/* it compiled in the check: only memory can fail it now */
		if (metric->regex && regcomp(&re, metric->regex, METRIC_REGEX_FLAGS) != 0)
			return -ENOMEM;
		have_re = metric->regex != NULL;
		if (pipe2(outp, O_CLOEXEC) < 0) {
			rc = -errno;
			goto done;
		}
	}
	if (pipe2(errp, O_CLOEXEC) < 0 || pipe2(wlog, O_CLOEXEC) < 0 ||
	    (nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		rc = -errno;
		goto done;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto done;
	}
	if (pid == 0)
		ext_child(argv, user, nullfd, outp[1] >= 0 ? outp[1] : log_fd, wlog[1], errp[1]);
	/* both sides set the group: whichever runs first, kill(-pid) works */
	setpgid(pid, pid);
	close_fd(&errp[1]);
	close_fd(&outp[1]);
	close_fd(&wlog[1]);
	close_fd(&nullfd);

	/* the system call: glibc has pidfd_open() only from 2.36 (bullseye: 2.31) */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		rc = -errno;
		goto done;
	}
	/* EOF when exec succeeded (close-on-exec), an errno when it failed */
	do
		n = read(errp[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e)) {
		rc = -e;
		goto done;
	}

	rc = ext_wait(pidfd, outp[0], wlog[0], log_fd, &out, &tail, stop, &t1);
	exited = rc == 0;
done:
	if (pid > 0) {
		/* ESRCH when nothing is left of the group: fine */
		kill(-pid, SIGKILL);
		if (reap(pid, &status, 0) < 0 && rc == 0)
			rc = -errno;
	}
	if (rc == 0)
		rc = errtail_drain(&tail, wlog[0], log_fd);
	if (rc == 0 && metric) {
		rc = outbuf_drain(&out, outp[0], log_fd);
		if (rc == 0 && have_re)
			rc = parse_metric(&re, metric->last, out.data ? out.data : "", value);
		else if (rc == 0)
			rc = parse_metric_json(metric->json_path, out.data ? out.data : "", value);
	}
	if (exited) {
		if (wall_s)
			*wall_s = ts_sec(&t1) - ts_sec(&t0);
		if (exit_status)
			*exit_status = exit_code(status);
	}
	if (have_re)
		regfree(&re);
	free(out.data);
	close_fd(&pidfd);
	close_fd(&nullfd);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	close_fd(&wlog[0]);
	close_fd(&wlog[1]);
	return rc;
}

int ext_check_metric(const struct ext_metric *metric, char *why, size_t len)
{
	const char *path = metric->json_path;
	regex_t re;
	int rc;

	if (!metric->regex == !path) {
		if (len)
			snprintf(why, len, "give a regex or a JSON path");
		return -EINVAL;
	}
	if (path) {
		if (!path[0] || path[0] == '.' || path[strlen(path) - 1] == '.' || strstr(path, "..")) {
			if (len)
				snprintf(why, len, "a part of the path is empty");
			return -EINVAL;
		}
		return 0;
	}
	rc = regcomp(&re, metric->regex, METRIC_REGEX_FLAGS);
	if (rc == 0) {
		regfree(&re);
		return 0;
	}
	if (len)
		regerror(rc, &re, why, len);
	return -EINVAL;
}

/* -ENOENT, -EACCES or -EISDIR for what is not a file exec would run. */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

int ext_check_command(const char *name)
{
	const char *path, *dir;
	int found = -ENOENT;

	if (!name || !*name)
		return -ENOENT;
	if (strchr(name, '/'))
		return executable(name);
	/* execvp's search: $PATH, or its default when unset; "" is the cwd */
	path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (dir = path;; dir += strcspn(dir, ":") + 1) {
		size_t dlen = strcspn(dir, ":");
		char *full;
		int rc;

		if (asprintf(&full, "%.*s%s%s", (int)dlen, dir, dlen ? "/" : "", name) < 0)
			return -ENOMEM;
		rc = executable(full);
		free(full);
		if (rc == 0)
			return 0;
		/* as execvp: a file found but not executable is the error to give */
		if (rc != -ENOENT)
			found = rc;
		if (!dir[dlen])
			return found;
	}
}
