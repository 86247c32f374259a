/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apply.h"
#include "atomicfile.h"
#include "c.h"
#include "change.h"
#include "command.h"
#include "hostinfo.h"
#include "lockprof.h"
#include "msg.h"
#include "netns.h"
#include "numparse.h"
#include "pcprules.h"
#include "plot.h"
#include "report.h"
#include "runas.h"
#include "stats.h"
#include "sweepset.h"
#include "sysload.h"
#include "sysroot.h"
#include "welch.h"
#include "workload.h"

static int parse_one(const char *s, size_t len, long *v)
{
	char buf[32];

	if (len == 0 || len >= sizeof(buf))
		return len ? -ERANGE : -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_long(buf, 0, INT_MAX, v);
}

int sweep_parse_values(const char *text, long **values, size_t *n)
{
	const char *colon = strchr(text, ':');
	long *v = NULL;
	size_t count = 0;
	int rc;

	if (colon) {
		const char *colon2 = strchr(colon + 1, ':');
		long start, stop, step;

		if (!colon2)
			return -EINVAL;
		if ((rc = parse_one(text, (size_t)(colon - text), &start)) ||
		    (rc = parse_one(colon + 1, (size_t)(colon2 - colon - 1), &stop)) ||
		    (rc = parse_one(colon2 + 1, strlen(colon2 + 1), &step)))
			return rc;
		if (step == 0 || stop < start)
			return -EINVAL;
		if ((stop - start) / step >= SWEEP_MAX_POINTS)
			return -ERANGE;
		count = (size_t)((stop - start) / step) + 1;
		v = malloc(count * sizeof(*v));
		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < count; i++)
			v[i] = start + (long)i * step;
	} else {
		for (const char *p = text;; p += strcspn(p, ",") + 1) {
			long *bigger;

			if (count == SWEEP_MAX_POINTS) {
				free(v);
				return -ERANGE;
			}
			bigger = realloc(v, (count + 1) * sizeof(*v));
			if (!bigger) {
				free(v);
				return -ENOMEM;
			}
			v = bigger;
			rc = parse_one(p, strcspn(p, ","), &v[count++]);
			if (rc) {
				free(v);
				return rc;
			}
			if (!p[strcspn(p, ",")])
				break;
		}
	}
	*values = v;
	*n = count;
	return 0;
}

struct point {
	long value, tasks;
	long high;		/* the largest pcp high after applying value; -1 unknown */
	double *samples;
	size_t nsamples;
	struct stats_summary st;
	struct sysload_point load;
	bool has_ci;		/* ci_pct holds the 95% interval of the center */
	double ci_pct;		/* its half-width, percent of the center */
	double seconds;		/* time measured: page_fault1's samples, a COMMAND's runs */
	bool has_lock;		/* lock was sampled */
	struct lockprof_share lock;	/* shares of cpu-clock samples in the spinlock slowpath */
	bool measured;
};

/*
 * The best center (stats_center(): the highest Hmean, or the lowest mean
 * of a cost), and whether Welch's t-test on the samples finds it better
 * than the runner-up: a best value that is not significantly better
 * is reported as such, and not marked on the chart.
 */
struct verdict {
	size_t best, runner_up;	/* SIZE_MAX when there is none */
	bool significant;
	bool tested;		/* p holds a value */
	double p;
	const char *why;	/* when untested: why not */
};

/* The verdict among the points with this many tasks. */
static struct verdict verdict_of(const struct point *pts, size_t n, long tasks, bool command,
				 enum better better)
{
	struct verdict v = { .best = SIZE_MAX, .runner_up = SIZE_MAX };
	struct welch w;

	for (size_t i = 0; i < n; i++) {
		double c = stats_center(&pts[i].st, better);

		if (pts[i].tasks != tasks)
			continue;
		if (v.best == SIZE_MAX ||
		    stats_better_than(c, stats_center(&pts[v.best].st, better), better)) {
			v.runner_up = v.best;
			v.best = i;
		} else if (v.runner_up == SIZE_MAX ||
			   stats_better_than(c, stats_center(&pts[v.runner_up].st, better), better)) {
			v.runner_up = i;
		}
	}
	if (v.runner_up == SIZE_MAX) {
		v.why = "only one value was measured";
		return v;
	}
	switch (welch_test(pts[v.best].samples, pts[v.best].nsamples,
			   pts[v.runner_up].samples, pts[v.runner_up].nsamples, &w)) {
	case 0:
		v.tested = true;
		v.p = w.p;
		/* t > 0: the best's samples are larger on average */
		v.significant = (better == BETTER_LOWER ? w.t < 0 : w.t > 0) && w.p < WELCH_ALPHA;
		break;
	case -EINVAL:
		/* a COMMAND gives a sample per run, whatever --duration says */
		v.why = command ? "a point has fewer than 2 samples; use more --runs" :
				  "a point has fewer than 2 samples; use a longer --duration or more --runs";
		break;
	default:
		v.why = "the samples have no spread to test";
	}
	return v;
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

/* SIGINT, SIGTERM and SIGHUP end the sweep, which then restores the settings. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

struct sweep_plan {
	bool batch;		/* sweeping batch, else fraction */
	long *values;
	size_t n;
	long *tasks;		/* the task counts, each point measured with each */
	size_t ntasks;
	long max_tasks, runs;
	double precision, max_duration;	/* precision 0: a fixed --duration */
	bool pinned;		/* the other setting held at pin for every point */
	long pin;
	double duration, warmup;
	enum better better;	/* of the metric: ops/s and runs/s are better higher */
	int *cpus;
	int log_fd;		/* the workload's output: stderr or --workload-log */
	struct runas user;	/* as root, who the workload runs as */
	bool switch_user;	/* root: every workload process becomes user */
};

static int usage_number(const char *opt, const char *text, long min, long max, long *v)
{
	if (parse_long(text, min, max, v)) {
		pcp_error("%s \"%s\": give a whole number from %ld to %ld", opt, text, min, max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int usage_seconds(const char *opt, const char *text, double min, double *v)
{
	if (parse_seconds(text, min, 86400, v)) {
		pcp_error("%s \"%s\": give seconds from %g to 86400 (e.g. 10 or 0.5)", opt, text, min);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * --tasks: "1,2,4" or "25%,50%,100%" of the CPUs this process may use,
 * rounded up; a count given twice (also after rounding) is measured once.
 */
static int parse_tasks(const char *text, long ncpus, struct sweep_plan *p)
{
	const char *s = text;

	for (;;) {
		size_t len = strcspn(s, ",");
		bool pct = len > 0 && s[len - 1] == '%';
		char buf[16];
		long v, *more;
		size_t i;

		if (len == 0 || len >= sizeof(buf) ||
		    (memcpy(buf, s, len - pct), buf[len - pct] = '\0',
		     parse_long(buf, 1, pct ? 100 : ncpus, &v))) {
			pcp_error("--tasks \"%s\": give counts from 1 to %ld or percentages of them "
				  "(e.g. 1,2 or 50%%,100%%)", text, ncpus);
			return EXIT_USAGE;
		}
		if (pct)
			v = (ncpus * v + 99) / 100;
		for (i = 0; i < p->ntasks && p->tasks[i] != v; i++)
			;
		if (i == p->ntasks) {
			more = realloc(p->tasks, (p->ntasks + 1) * sizeof(*more));
			if (!more) {
				pcp_error("out of memory");
				return EXIT_FAIL;
			}
			p->tasks = more;
			p->tasks[p->ntasks++] = v;
			if (v > p->max_tasks)
				p->max_tasks = v;
		}
		if (!s[len])
			return EXIT_OK;
		s += len + 1;
	}
}

/* What is wrong with a START:STOP:STEP or list sweep_parse_values refused. */
static void values_usage(const char *opt, const char *values)
{
	long start, stop = 0, step = 0;
	char *end;

	errno = 0;
	start = strtol(values, &end, 10);
	if (*end == ':')
		stop = strtol(end + 1, &end, 10);
	if (*end == ':')
		step = strtol(end + 1, &end, 10);
	if (!errno && !*end && strchr(values, ':') != strrchr(values, ':') && start >= 0 &&
	    stop <= INT_MAX) {
		if (step <= 0) {
			pcp_error("%s \"%s\": STEP %ld: give a step of 1 or more", opt, values, step);
			return;
		}
		if (stop < start) {
			pcp_error("%s \"%s\": STOP %ld is below START %ld: give the smaller first, "
				  "%ld:%ld:%ld", opt, values, stop, start, stop, start, step);
			return;
		}
		if ((stop - start) / step >= SWEEP_MAX_POINTS) {
			pcp_error("%s \"%s\": %ld values, more than a sweep's %d: give a larger "
				  "STEP, such as %ld:%ld:%ld", opt, values, (stop - start) / step + 1,
				  SWEEP_MAX_POINTS, start, stop,
				  (stop - start + SWEEP_MAX_POINTS - 2) / (SWEEP_MAX_POINTS - 1));
			return;
		}
	}
	pcp_error("%s \"%s\": give START:STOP:STEP (e.g. 31:527:31) or a list (e.g. 31,63,310) "
		  "of at most %d values from 0 to %d", opt, values, SWEEP_MAX_POINTS, INT_MAX);
}

/* What opening path to write would find, without creating or truncating it. */
static int check_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
	int rc;

	if (slash && !dir) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = access(path, F_OK) == 0 ? access(path, W_OK) : access(dir ? dir : ".", W_OK | X_OK);
	if (rc < 0)
		pcp_error("cannot write %s: %s", path, strerror(errno));
	free(dir);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

/*
 * --workload-log, written by pcpctl for the workload: a new file, 0644
 * whatever the umask, or one of pcpctl's user that it truncates; never
 * through a link, nor another user's file or a hard link to one.  An fd,
 * or -1 once said why not.
 */
static int open_workload_log(const char *path)
{
	const char *why = NULL, *base;
	struct stat st;
	int dir = open_parent_dir(path, &base), fd, err;

	if (dir < 0) {
		pcp_error("cannot write %s: %s", path, strerror(-dir));
		return -1;
	}
	/* Both opens in the one directory: it cannot be swapped between them. */
	fd = openat(dir, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		close(dir);
		if (fchmod(fd, 0644) == 0)
			return fd;
		pcp_error("cannot write %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (errno == EEXIST)
		fd = openat(dir, base, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	close(dir);
	if (fd < 0) {
		pcp_error("cannot write %s: %s", path,
			  err == ELOOP ? "a symbolic link, which pcpctl does not follow" :
			  strerror(err));
		return -1;
	}
	if (fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_uid != geteuid())
		why = "another user's file; remove it or give another name";
	else if (st.st_nlink != 1)
		why = "a file with more than one hard link; remove it or give another name";
	if (!why && ftruncate(fd, 0) < 0)
		why = strerror(errno);
	if (!why)
		return fd;
	pcp_error("cannot write %s: %s", path, why);
	close(fd);
	return -1;
}

/* Whether the namespace of --netns was entered: a missing one is found by a dry run too. */
static int check_netns(const struct sweep_opts *o)
{
	if (!o->netns)
		return EXIT_OK;
	if (!o->command) {
		pcp_error("--netns runs a COMMAND in a network namespace: give it after --");
		return EXIT_USAGE;
	}
	if (!netns_name_ok(o->netns)) {
		pcp_error("--netns \"%s\": give the name of a namespace, as ip netns list shows it",
			  o->netns);
		return EXIT_USAGE;
	}
	switch (o->netns_rc) {
	case 0:
		return EXIT_OK;
	case -ENOENT:
		pcp_error("--netns %s: there is no %s/%s; make it with ip netns add %s", o->netns,
			  PATH_NETNS, o->netns, o->netns);
		return EXIT_USAGE;
	case -EINVAL:
		pcp_error("--netns %s: %s/%s is no network namespace", o->netns, PATH_NETNS,
			  o->netns);
		return EXIT_USAGE;
	case -EPERM:
		pcp_error("--netns %s: entering a namespace takes root (CAP_SYS_ADMIN)", o->netns);
		return EXIT_NOPRIV;
	default:
		pcp_error("--netns %s: cannot enter it: %s", o->netns, strerror(-o->netns_rc));
		return EXIT_FAIL;
	}
}

/* The longest --metric-unit: a table's heading is no place for a sentence. */
#define METRIC_UNIT_MAX 31

/* --metric or --metric-json, as ext_run() takes it */
static struct ext_metric metric_of(const struct sweep_opts *o)
{
	return (struct ext_metric){ .regex = o->metric, .last = o->metric_last,
				    .json_path = o->metric_json };
}

/* A metric or COMMAND that cannot work is a usage error found before any write. */
static int check_command(const struct sweep_opts *o)
{
	struct ext_metric m = metric_of(o);
	char why[128];
	int rc;

	if (o->metric && o->metric_json) {
		pcp_error("give one of --metric and --metric-json: a sweep measures one number");
		return EXIT_USAGE;
	}
	if (o->metric_unit && !o->metric && !o->metric_json) {
		pcp_error("--metric-unit names a --metric or --metric-json: give one");
		return EXIT_USAGE;
	}
	if (o->metric_unit && (!o->metric_unit[0] || strlen(o->metric_unit) > METRIC_UNIT_MAX ||
			       strpbrk(o->metric_unit, "\t\n\r\033"))) {
		pcp_error("--metric-unit \"%s\": give a name of 1 to %d characters on one line, "
			  "such as usec or Gbit/s", o->metric_unit, METRIC_UNIT_MAX);
		return EXIT_USAGE;
	}
	if (o->metric_last && !o->metric) {
		pcp_error("--metric-last takes the last line that matches a --metric: give one");
		return EXIT_USAGE;
	}
	if ((o->metric || o->metric_json) && ext_check_metric(&m, why, sizeof(why))) {
		if (o->metric)
			pcp_error("--metric \"%s\": not a regular expression: %s", o->metric, why);
		else
			pcp_error("--metric-json \"%s\": %s; give keys joined by dots, such as "
				  "end.sum_received.bits_per_second", o->metric_json, why);
		return EXIT_USAGE;
	}
	if (o->command && (rc = ext_check_command(o->command[0]))) {
		pcp_error("the workload \"%s\" cannot be run: %s%s", o->command[0], strerror(-rc),
			  strchr(o->command[0], '/') ? "" : " (looked up in $PATH)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * Who the workload runs as.  Root's workload becomes --user, sudo's caller
 * or nobody; anyone else's stays its caller, which it cannot leave.
 */
static int plan_user(const struct sweep_opts *o, struct sweep_plan *p)
{
	const char *who = o->user ? o->user : "nobody";
	int rc;

	if (geteuid() != 0) {
		if (!o->user)
			return EXIT_OK;
		pcp_error("--user %s: only root runs the workload as another user", o->user);
		return EXIT_NOPRIV;
	}
	rc = runas_find(o->user, &p->user);
	switch (rc) {
	case 0:
		p->switch_user = true;
		return EXIT_OK;
	case -EPERM:
		pcp_error("--user %s: the workload never runs as root; give another user", who);
		return EXIT_USAGE;
	case -EINVAL:
		pcp_error("SUDO_UID and SUDO_GID are no user and group ids; give --user USER");
		return EXIT_USAGE;
	case -ENOENT:
		if (o->user)
			pcp_error("--user %s: no such user", who);
		else
			pcp_error("no user nobody to run the workload as; give --user USER");
		return EXIT_USAGE;
	default:
		pcp_error("cannot look up the user %s: %s", who, strerror(-rc));
		return EXIT_FAIL;
	}
}

/* The setting held while the other is swept (--with-batch, --with-fraction). */
static int plan_pin(struct kernel *k, const struct sweep_opts *o, struct sweep_plan *p)
{
	const char *with = o->with_batch ? o->with_batch : o->with_fraction;
	int rc;

	if (!with)
		return EXIT_OK;
	if (!o->with_batch == !o->batch || (o->with_batch && o->with_fraction)) {
		pcp_error("pin the setting that is not swept: --batch with --with-fraction, "
			  "--fraction with --with-batch");
		return EXIT_USAGE;
	}
	if ((rc = usage_number(o->with_batch ? "--with-batch" : "--with-fraction", with, 0,
			       INT_MAX, &p->pin)) ||
	    (rc = change_value_usage(k, !p->batch, p->pin)))
		return rc;
	p->pinned = true;
	return EXIT_OK;
}

/* How long each point runs: --runs, --duration, --warmup, --precision, --max-duration. */
static int plan_timing(const struct sweep_opts *o, struct sweep_plan *p)
{
	int rc = EXIT_OK;

	if (o->precision) {
		size_t len = strlen(o->precision);
		char buf[32];

		/* A percentage with or without its sign: 2% and 2 are the same. */
		if (len && o->precision[len - 1] == '%')
			len--;
		if (len < 1 || len >= sizeof(buf) ||
		    (snprintf(buf, sizeof(buf), "%.*s", (int)len, o->precision),
		     parse_seconds(buf, 0.01, 100, &p->precision))) {
			pcp_error("--precision \"%s\": give a percentage from 0.01%% to 100%% "
				  "(e.g. 2%% or 2)", o->precision);
			return EXIT_USAGE;
		}
		p->precision /= 100;
		p->max_duration = 60;
	} else if (o->max_duration) {
		pcp_error("--max-duration bounds --precision: give both");
		return EXIT_USAGE;
	}
	if ((o->runs && (rc = usage_number("--runs", o->runs, 1, 1000, &p->runs))) ||
	    (o->duration && (rc = usage_seconds("--duration", o->duration, 0.01, &p->duration))) ||
	    (o->warmup && (rc = usage_seconds("--warmup", o->warmup, 0, &p->warmup))) ||
	    (o->max_duration &&
	     (rc = usage_seconds("--max-duration", o->max_duration, 0.01, &p->max_duration))))
		return rc;
	/* a COMMAND's runs take as long as they take: --duration is page_fault1's */
	if (p->precision && !o->command && p->max_duration < p->duration) {
		pcp_error("--max-duration %g is below --duration %g", p->max_duration, p->duration);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * The sweep's plan from its options.  --workload-log is only checked to be
 * writable: cmd_sweep creates it once the privilege is checked, so that a
 * sweep refused or not run leaves the file as it was.
 */
static int make_plan(struct kernel *k, const struct sweep_opts *o, struct sweep_plan *p)
{
	const char *values = o->batch ? o->batch : o->fraction;
	const char *opt = o->batch ? "--batch" : "--fraction";
	cpu_set_t allowed;
	long ncpus = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	p->log_fd = STDERR_FILENO;
	if (!o->batch == !o->fraction) {
		pcp_error("sweep needs exactly one of --batch or --fraction, e.g. --batch 31:527:31");
		return EXIT_USAGE;
	}
	if ((o->metric || o->metric_json) && !o->command) {
		pcp_error("%s reads an external workload's output: give its command after --",
			  o->metric ? "--metric" : "--metric-json");
		return EXIT_USAGE;
	}
	if ((rc = check_netns(o)))
		return rc;
	if (o->better && strcmp(o->better, "higher") != 0 && strcmp(o->better, "lower") != 0) {
		pcp_error("--better \"%s\": give lower (a latency, a cost) or higher (a rate)",
			  o->better);
		return EXIT_USAGE;
	}
	if (o->better && !o->metric && !o->metric_json) {
		pcp_error("--better is the direction of a --metric: without one, the sweep "
			  "measures runs or ops per second, which are better higher");
		return EXIT_USAGE;
	}
	p->better = o->better && strcmp(o->better, "lower") == 0 ? BETTER_LOWER : BETTER_HIGHER;
	if ((rc = check_command(o)) || (rc = plan_user(o, p)))
		return rc;
	p->batch = o->batch;
	rc = sweep_parse_values(values, &p->values, &p->n);
	if (rc) {
		values_usage(opt, values);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < p->n; i++)
		if ((rc = change_value_usage(k, p->batch, p->values[i])))
			return rc;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		pcp_error("cannot read this process's CPUs: %s", strerror(errno));
		return EXIT_FAIL;
	}
	ncpus = CPU_COUNT(&allowed);
	p->runs = 1;
	p->duration = 10;
	p->warmup = 2;
	if ((rc = parse_tasks(o->tasks ? o->tasks : "100%", ncpus, p)))
		return rc;
	if (o->plot && (strcmp(o->plot, "-") == 0 || !chart_svg_name(o->plot))) {
		pcp_error("--plot %s: give an SVG file to draw the chart in (standard output has "
			  "the report), e.g. --plot sweep.svg", o->plot);
		return EXIT_USAGE;
	}
	if ((rc = plan_pin(k, o, p)) || (rc = plan_timing(o, p)))
		return rc;
	if (o->workload_log && !o->command) {
		pcp_error("--workload-log keeps an external workload's output: give its command after --");
		return EXIT_USAGE;
	}
	if (o->dry_run && o->json) {
		pcp_error("--dry-run prints the plan as text: leave out --json");
		return EXIT_USAGE;
	}
	/* cmd_sweep opens it: nothing is written before the privilege is checked. */
	if (o->workload_log && (rc = check_writable(o->workload_log)))
		return rc;
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): parse_tasks gives max_tasks >= 1 */
	p->cpus = calloc((size_t)p->max_tasks, sizeof(*p->cpus));
	if (!p->cpus)
		return EXIT_FAIL;
	for (int cpu = 0, n = 0; n < p->max_tasks; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			p->cpus[n++] = cpu;
	return EXIT_OK;
}

/* The command as a shell would take it back, for messages. */
static void print_command(FILE *f, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];

		fputs(i ? " " : "", f);
		if (*a && !a[strcspn(a, " \t\n'\"\\$`*?[]{}();&|<>!#~")]) {
			fputs(a, f);
			continue;
		}
		fputc('\'', f);
		for (; *a; a++)
			if (*a == '\'')
				fputs("'\\''", f);
			else
				fputc(*a, f);
		fputc('\'', f);
	}
}

/*
 * Run the external workload once.  A run that ends badly is reported here,
 * with what the admin needs to reproduce it, and gives -ECANCELED.
 */
static int run_external(const struct sweep_opts *o, const struct sweep_plan *p, long pt_tasks,
			const struct ext_metric *m, double *wall, double *metric)
{
	struct ext_io io = { .log_fd = p->log_fd };
	int status = 0, rc;
	char tasks[24];

	/* an external workload sizes itself to the point's task count */
	snprintf(tasks, sizeof(tasks), "%ld", pt_tasks);
	if (setenv("PCPCTL_TASKS", tasks, 1) < 0)
		return -errno;

	rc = ext_run(o->command, p->switch_user ? &p->user : NULL, m, &io, &stop_requested,
		     wall, metric, &status);
	if (rc == -EINTR || (rc == 0 && status == 0))
		return rc;
	fputs("pcpctl: the workload \"", stderr);
	print_command(stderr, o->command);
	if (rc == 0 || rc == -ENOMSG || rc == -EBADMSG) {
		if (status || !m)
			fprintf(stderr, "\" exited with status %d", status);
		else if (rc == -ENOMSG && m->regex)
			fprintf(stderr, "\" printed nothing that matches --metric '%s'", m->regex);
		else if (m->regex)
			fprintf(stderr, "\" printed a match of --metric '%s' that is no number",
				m->regex);
		else if (rc == -ENOMSG)
			fprintf(stderr, "\" printed JSON with nothing at --metric-json '%s'",
				m->json_path);
		else
			fprintf(stderr, "\" printed no JSON, or no number at --metric-json '%s'",
				m->json_path);
	} else {
		fprintf(stderr, "\" could not be run: %s", strerror(-rc));
	}
	if (io.last_err[0])
		fprintf(stderr, "; its last line on stderr: %s", io.last_err);
	fputc('\n', stderr);
	return -ECANCELED;
}

/* The 95% interval of the samples' center, relative to it. */
static int center_ci95(const double *x, size_t n, enum better better, double *rel)
{
	return better == BETTER_LOWER ? welch_mean_ci95(x, n, rel) : welch_hmean_ci95(x, n, rel);
}

/* --precision: whether the samples so far pin the center down well enough. */
static bool precise_enough(const double *x, size_t n, void *arg)
{
	const struct sweep_plan *p = arg;
	double rel;

	return center_ci95(x, n, p->better, &rel) == 0 && rel <= p->precision;
}

/*
 * Whether a COMMAND runs once more for this point: R times, or with
 * --precision at least R times (2, the fewest an interval needs) and then
 * until its interval is narrow enough or its runs took --max-duration.
 */
static bool another_run(const struct sweep_plan *p, const struct point *pt, long done)
{
	if (!p->precision)
		return done < p->runs;
	if (done < p->runs || done < 2)
		return true;
	return pt->seconds < p->max_duration &&
	       !precise_enough(pt->samples, pt->nsamples, (void *)p);
}

/*
 * Run the workload at the current setting; samples are page_fault1's ops/s
 * per second, or one per run of a COMMAND (its metric, or runs/s).
 */
static int measure(const struct sysroot *live, const struct sweep_opts *o,
		   const struct sweep_plan *p, struct point *pt)
{
	struct sysload_mark begin, end;
	int rc;

	if (o->command && p->warmup > 0) {
		double wall, metric;

		rc = run_external(o, p, pt->tasks, NULL, &wall, &metric);
		if (rc)
			return rc;
	}
	rc = sysload_mark(live, &begin);
	if (!rc && o->lockprof)
		rc = lockprof_start(o->lockprof);
	for (long r = 0; !rc && (o->command ? another_run(p, pt, r) : r < p->runs); r++) {
		/* ext_run sets both when it returns 0 */
		double *samples = NULL, wall = 0, metric = 0;
		struct ext_metric m = metric_of(o);
		bool measured = o->metric || o->metric_json;
		size_t n = 0;

		if (o->command) {
			rc = run_external(o, p, pt->tasks, measured ? &m : NULL, &wall, &metric);
			if (!rc) {
				samples = malloc(sizeof(*samples));
				if (!samples)
					rc = -ENOMEM;
				else {
					samples[0] = measured ? metric : 1.0 / wall;
					n = 1;
					pt->seconds += wall;
				}
			}
		} else {
			struct pf1_config cfg = {
				.cpus = p->cpus, .ncpus = (size_t)pt->tasks, .duration_s = p->duration,
				.warmup_s = p->warmup, .stop = &stop_requested,
				.enough = p->precision ? precise_enough : NULL,
				.enough_arg = (void *)p, .max_duration_s = p->max_duration,
				.user = p->switch_user ? &p->user : NULL,
			};

			rc = pf1_run(&cfg, &samples, &n);
		}
		if (rc)
			break;
		double *all = realloc(pt->samples, (pt->nsamples + n) * sizeof(*all));
		if (!all) {
			free(samples);
			rc = -ENOMEM;
			break;
		}
		memcpy(all + pt->nsamples, samples, n * sizeof(*all));
		pt->samples = all;
		pt->nsamples += n;
		free(samples);
	}
	if (o->lockprof) {
		int lrc = lockprof_stop(o->lockprof, &pt->lock);

		pt->has_lock = lrc == 0;
		if (lrc && lrc != -ENODATA && !rc)
			rc = lrc;
	}
	if (!rc)
		rc = sysload_mark(live, &end);
	if (!rc)
		rc = sysload_diff(&begin, &end, &pt->load);
	if (!rc)
		rc = stats_summarize(pt->samples, pt->nsamples, &pt->st);
	if (!rc) {
		if (!o->command)
			pt->seconds = (double)pt->nsamples * PF1_DEFAULT_INTERVAL_S;
		pt->has_ci = center_ci95(pt->samples, pt->nsamples, p->better, &pt->ci_pct) == 0;
		pt->ci_pct *= 100;
		pt->measured = true;
	}
	return rc;
}

/*
 * The first word of text (up to end) outside bracket expressions and
 * escapes, or with last the last word: what a --metric regex says of its
 * number, such as "tps" of 'tps = ([0-9.]+)'.
 */
static size_t regex_word(const char *text, const char *end, bool last, char *buf, size_t size)
{
	const char *p = text, *start = NULL, *found = NULL;
	size_t len = 0, flen = 0;

	for (;; p++) {
		bool word = p < end && (isalnum((unsigned char)*p) || strchr("_/%-", *p));

		if (word && !start)
			start = p;
		if (!word && start) {
			found = start;
			flen = (size_t)(p - start);
			start = NULL;
			if (!last)
				break;
		}
		if (p >= end)
			break;
		if (*p == '\\' && p + 1 < end) {
			p++;
		} else if (*p == '[') {
			/* A bracket expression: "]" first in it is a member, not its end. */
			p += p[1] == ']' ? 2 : p[1] == '^' && p[2] == ']' ? 3 : 1;
			while (p < end && *p != ']')
				p++;
		}
	}
	len = flen < size - 1 ? flen : size - 1;
	if (found)
		memcpy(buf, found, len);
	buf[found ? len : 0] = '\0';
	return found ? len : 0;
}

/*
 * What a sample measures: ops/s for page_fault1, runs/s for a COMMAND, and
 * with --metric the word its regex puts after the number's group (a unit,
 * as KiB/s of 'bw=([0-9]+)KiB/s') or else before it (a name, as tps); with
 * --metric-json the path's last key (bits_per_second); or --metric-unit.
 */
static const char *unit(const struct sweep_opts *o)
{
	static char name[METRIC_UNIT_MAX + 1];
	const char *open, *close;

	if (!o->command)
		return "ops/s";
	if (o->metric_unit)
		return o->metric_unit;
	if (o->metric_json)
		return strrchr(o->metric_json, '.') ? strrchr(o->metric_json, '.') + 1 :
						      o->metric_json;
	if (!o->metric)
		return "runs/s";
	open = strchr(o->metric, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close ||
	    (!regex_word(close + 1, close + 1 + strlen(close + 1), false, name, sizeof(name)) &&
	     !regex_word(o->metric, open, true, name, sizeof(name))))
		snprintf(name, sizeof(name), "metric");
	return name;
}

/*
 * "1 task", "2 tasks", or for a COMMAND, which is only told the count and
 * may ignore it, no more than that: "PCPCTL_TASKS=2"
 */
static const char *tasks_words(const struct sweep_opts *o, long tasks, char *buf, size_t len)
{
	if (o->command)
		snprintf(buf, len, "PCPCTL_TASKS=%ld", tasks);
	else
		snprintf(buf, len, "%ld task%s", tasks, tasks == 1 ? "" : "s");
	return buf;
}

/* --precision: how close a point came, and in how long (a COMMAND: how many runs) */
static void print_precision(const struct sweep_opts *o, const struct sweep_plan *p,
			    const struct point *pt)
{
	char words[40];

	fprintf(stderr, "pcpctl: %s %ld with %s: +-%.2f%% after ", p->batch ? "batch" : "fraction",
		pt->value, tasks_words(o, pt->tasks, words, sizeof(words)),
		pt->has_ci ? pt->ci_pct : NAN);
	if (o->command)
		fprintf(stderr, "%.1f s, %zu run%s\n", pt->seconds, pt->nsamples,
			pt->nsamples == 1 ? "" : "s");
	else
		fprintf(stderr, "%.0f s\n", pt->seconds);
}

/* The table that sweep's rows fill as they are measured, through the report writer. */
static void print_header(const struct sweep_opts *o, const struct sweep_plan *p)
{
	new_report_line(stdout, false, PCPCTL_JSON_VERSION);
	print_string(PRINT_FP, NULL, "sweep of %s", p->batch ? "batch" : "fraction");
	print_u64(PRINT_FP, NULL, " over %llu", p->n);
	print_string(PRINT_FP, NULL, " value%s", p->n == 1 ? "" : "s");
	print_string(PRINT_FP, NULL, ": %s", o->command ? o->command[0] : "page_fault1");
	print_string(PRINT_FP, NULL, "%s", o->command ? " with PCPCTL_TASKS=" : ", ");
	for (size_t i = 0; i < p->ntasks; i++) {
		print_string(PRINT_FP, NULL, "%s", i ? "," : "");
		print_long(PRINT_FP, NULL, "%ld", p->tasks[i]);
	}
	if (!o->command)
		print_string(PRINT_FP, NULL, " task%s", p->max_tasks == 1 ? "" : "s");
	print_long(PRINT_FP, NULL, ", %ld", p->runs);
	print_string(PRINT_FP, NULL, " run%s per point", p->runs == 1 ? "" : "s");
	if (p->pinned) {
		print_string(PRINT_FP, NULL, ", %s", p->batch ? "fraction" : "batch");
		print_long(PRINT_FP, NULL, " pinned at %ld", p->pin);
	}
	if (p->better == BETTER_LOWER)
		print_string(PRINT_FP, NULL, "; MEAN, P50 and P99 in %s, lower is better", unit(o));
	else
		print_string(PRINT_FP, NULL, "; HMEAN, MIN and MAX in %s", unit(o));
	print_string(PRINT_FP, NULL, "\n%8s", p->batch ? "BATCH" : "FRACTION");
	print_string(PRINT_FP, NULL, " %5s", "TASKS");
	print_string(PRINT_FP, NULL, " %7s", "HIGH");
	print_string(PRINT_FP, NULL, " %14s", p->better == BETTER_LOWER ? "MEAN" : "HMEAN");
	print_string(PRINT_FP, NULL, " %14s", p->better == BETTER_LOWER ? "P50" : "MIN");
	print_string(PRINT_FP, NULL, " %14s", p->better == BETTER_LOWER ? "P99" : "MAX");
	print_string(PRINT_FP, NULL, " %7s", "COV%");
	print_string(PRINT_FP, NULL, " %8s", "CHANGE%");
	print_string(PRINT_FP, NULL, " %6s", "LOCK%");
	print_string(PRINT_FP, NULL, " %7s", "REFILL%");
	print_string(PRINT_FP, NULL, " %6s", "DRAIN%");
	print_string(PRINT_FP, NULL, " %12s", "PGALLOC");
	print_string(PRINT_FP, NULL, " %12s", "PGFREE");
	print_string(PRINT_FP, NULL, " %10s", "PGFAULT");
	print_string(PRINT_FP, NULL, " %s\n", "DISTURBED");
	end_report_line();
}

/* A percentage with its format, or "-" as wide when there is none. */
static void print_pct(const char *fmt, const char *none, bool has, double value)
	__attribute__((format(printf, 1, 0)));

static void print_pct(const char *fmt, const char *none, bool has, double value)
{
	if (has)
		print_double(PRINT_FP, NULL, fmt, value);
	else
		print_null(PRINT_FP, NULL, none, "-");
}

/* A measured value in the table: one decimal, or three figures when it is below 1. */
static void print_measured(double v)
{
	char cell[64];

	snprintf(cell, sizeof(cell), stats_format(v, 1), v);
	print_string(PRINT_FP, NULL, " %14s", cell);
}

static void print_row(const struct point *pt, const struct point *first, enum better better)
{
	double change = 0;

	stats_gain_pct(stats_center(&pt->st, better), stats_center(&first->st, better), better,
		       &change);
	/* A change that rounds to nothing is +0.0, not -0.0. */
	if (fabs(change) < 0.05)
		change = 0;
	new_report_line(stdout, false, PCPCTL_JSON_VERSION);
	print_long(PRINT_FP, NULL, "%8ld", pt->value);
	print_long(PRINT_FP, NULL, " %5ld", pt->tasks);
	if (pt->high >= 0)
		print_long(PRINT_FP, NULL, " %7ld", pt->high);
	else
		print_null(PRINT_FP, NULL, " %7s", "-");
	print_measured(stats_center(&pt->st, better));
	print_measured(better == BETTER_LOWER ? pt->st.p50 : pt->st.min);
	print_measured(better == BETTER_LOWER ? pt->st.p99 : pt->st.max);
	print_pct(" %7.2f", " %7s", pt->st.has_cv, 100 * pt->st.cv);
	print_double(PRINT_FP, NULL, " %+8.1f", change);
	print_pct(" %6.2f", " %6s", pt->has_lock, pt->lock.lock_pct);
	print_pct(" %7.2f", " %7s", pt->has_lock && pt->lock.has_refill, pt->lock.refill_pct);
	print_pct(" %6.2f", " %6s", pt->has_lock && pt->lock.has_drain, pt->lock.drain_pct);
	print_u64(PRINT_FP, NULL, " %12llu", pt->load.pgalloc);
	print_u64(PRINT_FP, NULL, " %12llu", pt->load.pgfree);
	print_u64(PRINT_FP, NULL, " %10llu", pt->load.pgfault);
	print_string(PRINT_FP, NULL, " %s\n", pt->load.disturbed ? "yes" : "no");
	end_report_line();
	fflush(stdout);
}

/* The points as JSON (text shows them as they are measured, print_row()). */
static void print_points(const struct point *pts, size_t n, bool o_command)
{
	open_json_array("points");
	for (size_t i = 0; i < n; i++) {
		const struct point *pt = &pts[i];

		open_json_object(NULL);
		print_long(PRINT_JSON, "value", "%ld", pt->value);
		print_long(PRINT_JSON, "tasks", "%ld", pt->tasks);
		print_long_or_null("high", "%ld", pt->high >= 0, pt->high);
		print_double(PRINT_JSON, "hmean", stats_format(pt->st.hmean, 3), pt->st.hmean);
		print_double(PRINT_JSON, "min", stats_format(pt->st.min, 3), pt->st.min);
		print_double(PRINT_JSON, "max", stats_format(pt->st.max, 3), pt->st.max);
		print_double(PRINT_JSON, "mean", stats_format(pt->st.mean, 3), pt->st.mean);
		print_double(PRINT_JSON, "p50", stats_format(pt->st.p50, 3), pt->st.p50);
		print_double(PRINT_JSON, "p99", stats_format(pt->st.p99, 3), pt->st.p99);
		if (pt->st.has_cv)
			print_double(PRINT_JSON, "cov", "%.6f", pt->st.cv);
		else
			print_null(PRINT_JSON, "cov", "%s", "-");
		print_double_or_null("lock_pct", "%.3f", pt->has_lock, pt->lock.lock_pct);
		print_double_or_null("lock_refill_pct", "%.3f", pt->has_lock && pt->lock.has_refill,
				     pt->lock.refill_pct);
		print_double_or_null("lock_drain_pct", "%.3f", pt->has_lock && pt->lock.has_drain,
				     pt->lock.drain_pct);
		print_double_or_null("ci95_pct", "%.3f", pt->has_ci, pt->ci_pct);
		print_double(PRINT_JSON, "seconds", o_command ? "%.3f" : "%.1f", pt->seconds);
		open_json_array("samples");
		for (size_t s = 0; s < pt->nsamples; s++)
			print_double(PRINT_JSON, NULL, stats_format(pt->samples[s], 3),
				     pt->samples[s]);
		close_json_array();
		open_json_object("vmstat");
		print_u64(PRINT_JSON, "pgalloc", "%llu", pt->load.pgalloc);
		print_u64(PRINT_JSON, "pgfree", "%llu", pt->load.pgfree);
		print_u64(PRINT_JSON, "pgfault", "%llu", pt->load.pgfault);
		close_json_object();
		print_bool(PRINT_JSON, "disturbed", "%s", pt->load.disturbed);
		close_json_object();
	}
	close_json_array();
}

/* The text line that names the best value, or says there is none. */
static void print_verdict_text(const struct sweep_opts *o, const struct sweep_plan *p,
			       const struct point *pts, const struct verdict *v, long tasks)
{
	const char *parameter = p->batch ? "batch" : "fraction";
	const struct point *b = &pts[v->best];
	bool lower = p->better == BETTER_LOWER;
	double center = stats_center(&b->st, p->better);
	char shown[64];

	if (p->ntasks > 1) {
		char words[40];

		printf("with %s, ", tasks_words(o, tasks, words, sizeof(words)));
	}
	snprintf(shown, sizeof(shown), stats_format(center, 1), center);
	if (v->significant)
		printf("best: %s %ld, %s %s%s, better than %s %ld (Welch p = %.3g)", parameter,
		       b->value, shown, unit(o), lower ? " (mean, lower is better)" : "",
		       parameter, pts[v->runner_up].value, v->p);
	else if (v->tested)
		printf("no %s was significantly better: %s %ld has the %s, %s %s, "
		       "but against %s %ld Welch p = %.3g", parameter, parameter, b->value,
		       lower ? "lowest mean" : "highest Hmean", shown, unit(o), parameter,
		       pts[v->runner_up].value, v->p);
	else
		printf("no %s was significantly better: %s %ld has the %s, %s %s, "
		       "untested: %s", parameter, parameter, b->value,
		       lower ? "lowest mean" : "highest Hmean", shown, unit(o), v->why);
	putchar('\n');
}

static void print_verdict_json(const char *key, const struct point *pts, size_t n,
			       const struct verdict *v, long tasks)
{
	if (v->best >= n) {
		print_null(PRINT_JSON, key, "%s", "");
		return;
	}
	open_json_object(key);
	if (!key)
		print_long(PRINT_JSON, "tasks", "%ld", tasks);
	print_long(PRINT_JSON, "value", "%ld", pts[v->best].value);
	print_double(PRINT_JSON, "hmean", stats_format(pts[v->best].st.hmean, 3),
		     pts[v->best].st.hmean);
	print_double(PRINT_JSON, "mean", stats_format(pts[v->best].st.mean, 3),
		     pts[v->best].st.mean);
	print_bool(PRINT_JSON, "significant", "%s", v->significant);
	print_long_or_null("runner_up", "%ld", v->runner_up < n,
			   v->runner_up < n ? pts[v->runner_up].value : 0);
	print_double_or_null("p", "%.6g", v->tested, v->p);
	close_json_object();
}

/* The "host" object of the JSON report, null for each unknown. */
static void print_host(const struct hostinfo *h)
{
	open_json_object("host");
	print_string_or_null("name", h->name);
	print_string_or_null("kernel", h->kernel);
	print_string_or_null("cpu_model", h->cpu_model);
	print_long_or_null("online_cpus", "%ld", h->online_cpus >= 0, h->online_cpus);
	print_long_or_null("numa_nodes", "%ld", h->numa_nodes >= 0, h->numa_nodes);
	close_json_object();
}

/*
 * What a sweep came to: in JSON every point; in text (after the rows) a
 * verdict per task count.  v has one per p->tasks; "best" is the one of
 * the largest task count, the one a sweep without --tasks has.
 */
static int print_result(const struct sweep_opts *o, const struct sweep_plan *p,
			const struct hostinfo *host, const struct point *pts, size_t n,
			const struct verdict *v, bool restored)
{
	size_t top = 0;

	for (size_t t = 0; t < p->ntasks; t++)
		if (p->tasks[t] == p->max_tasks)
			top = t;
	new_json_obj(o->json);
	print_string(PRINT_JSON, "parameter", "%s", p->batch ? "batch" : "fraction");
	print_string(PRINT_JSON, "workload", "%s", o->command ? o->command[0] : "page_fault1");
	print_string(PRINT_JSON, "unit", "%s", unit(o));
	print_long(PRINT_JSON, "runs", "%ld", p->runs);
	if (o->command)
		print_null(PRINT_JSON, "duration", "%s", "");
	else
		print_double(PRINT_JSON, "duration", "%g", p->duration);
	print_long(PRINT_JSON, "tasks", "%ld", p->max_tasks);
	open_json_array("task_counts");
	for (size_t t = 0; t < p->ntasks; t++)
		print_long(PRINT_JSON, NULL, "%ld", p->tasks[t]);
	close_json_array();
	if (p->pinned) {
		open_json_object("pinned");
		print_long(PRINT_JSON, p->batch ? "fraction" : "batch", "%ld", p->pin);
		close_json_object();
	} else {
		print_null(PRINT_JSON, "pinned", "%s", "");
	}
	print_string(PRINT_JSON, "better", "%s", stats_better_name(p->better));
	if (o->command) {
		open_json_array("command");
		for (char *const *arg = o->command; *arg; arg++)
			print_string(PRINT_JSON, NULL, "%s", *arg);
		close_json_array();
	} else {
		print_null(PRINT_JSON, "command", "%s", "");
	}
	print_string_or_null("metric", o->metric);
	print_bool(PRINT_JSON, "metric_last", "%s", o->metric_last);
	print_string_or_null("metric_json", o->metric_json);
	print_host(host);
	print_string(PRINT_JSON, "pcpctl_version", "%s", PCPCTL_VERSION);
	print_points(pts, n, o->command);
	print_verdict_json("best", pts, n, &v[top], p->max_tasks);
	open_json_array("best_by_tasks");
	for (size_t t = 0; t < p->ntasks; t++)
		if (v[t].best < n)
			print_verdict_json(NULL, pts, n, &v[t], p->tasks[t]);
	close_json_array();
	print_bool(PRINT_JSON, "restored", "%s", restored);
	print_bool(PRINT_JSON, "complete", "%s", n == p->n * p->ntasks);
	if (!o->json)
		for (size_t t = 0; t < p->ntasks; t++)
			if (v[t].best < n)
				print_verdict_text(o, p, pts, &v[t], p->tasks[t]);
	/* Said apart from any verdict: also after a failure, which leaves none. */
	if (!o->json && restored)
		printf("the settings from before are restored\n");
	return delete_json_obj();
}

static int write_csv(const char *path, const struct point *pts, size_t n, bool batch)
{
	struct atomic_stream out;
	FILE *f;
	int err;

	if (atomic_stream_open(&out)) {
		pcp_error("out of memory");
		return -ENOMEM;
	}
	f = out.f;
	/* new columns go last, where a reader of the older ones does not see them */
	fprintf(f, "%s,hmean,min,max,cov,pgalloc,pgfree,pgfault,disturbed,tasks,high,mean,p50,p99\n",
		batch ? "batch" : "fraction");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%ld,%.*f,%.*f,%.*f,", pts[i].value,
			stats_decimals(pts[i].st.hmean, 3), pts[i].st.hmean,
			stats_decimals(pts[i].st.min, 3), pts[i].st.min,
			stats_decimals(pts[i].st.max, 3), pts[i].st.max);
		if (pts[i].st.has_cv)
			fprintf(f, "%.6f", pts[i].st.cv);
		fprintf(f, ",%llu,%llu,%llu,%d,%ld,", pts[i].load.pgalloc, pts[i].load.pgfree,
			pts[i].load.pgfault, pts[i].load.disturbed, pts[i].tasks);
		if (pts[i].high >= 0)
			fprintf(f, "%ld", pts[i].high);
		fprintf(f, ",%.*f,%.*f,%.*f\n", stats_decimals(pts[i].st.mean, 3), pts[i].st.mean,
			stats_decimals(pts[i].st.p50, 3), pts[i].st.p50,
			stats_decimals(pts[i].st.p99, 3), pts[i].st.p99);
	}
	/* replaced as the chart is: a link there is replaced, never followed */
	err = atomic_stream_commit(&out, path);
	if (err)
		pcp_error("cannot write %s: %s", path, strerror(-err));
	return err;
}

/*
 * --plot: the sweep read back as plot reads a file, so that it is drawn as
 * plot draws it (a panel per task count, lock panels, the subtitle).  The
 * points' samples are borrowed, not copied.
 */
static int write_plot(const struct sweep_opts *o, const struct sweep_plan *p,
		      const struct hostinfo *host, const struct point *pts, size_t n,
		      const struct verdict *v)
{
	struct sweepfile_point *fp = calloc(n, sizeof(*fp));
	char label[256];
	struct sweep_input in = {
		.path = o->plot, .label = label,
		.f = { .parameter = p->batch ? "batch" : "fraction",
		       .workload = o->command ? o->command[0] : "page_fault1",
		       .unit = (char *)unit(o), .better = p->better, .runs = p->runs,
		       .duration = o->command ? 0 : p->duration, .pinned = p->pinned,
		       .pin = p->pin, .points = fp, .npoints = n },
	};
	int rc;

	if (!fp) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	snprintf(label, sizeof(label), "%s%s%s", host->name ? host->name : "this machine",
		 host->kernel ? " " : "", host->kernel ? host->kernel : "");
	for (size_t i = 0; i < n; i++)
		fp[i] = (struct sweepfile_point){
			.tasks = pts[i].tasks, .value = pts[i].value, .hmean = pts[i].st.hmean,
			.mean = pts[i].st.mean,
			/* 1 / (1 / x) of one sample may round past x: the bar holds the mean. */
			.min = fmin(pts[i].st.min, pts[i].st.hmean),
			.max = fmax(pts[i].st.max, pts[i].st.hmean), .has_lock = pts[i].has_lock,
			.lock_pct = pts[i].has_lock ? pts[i].lock.lock_pct : 0,
			.samples = pts[i].samples, .nsamples = pts[i].nsamples,
		};
	for (size_t t = 0; t < p->ntasks; t++)
		if (v[t].significant && v[t].best < n)
			fp[v[t].best].best = true;
	rc = chart_write(o->plot, &in, 1);
	free(fp);
	return rc;
}

/* "2 h 5 min", "3 min 20 s", "45 s" */
static const char *duration_words(double s, char *buf, size_t len)
{
	long t = lround(s);

	if (t >= 3600)
		snprintf(buf, len, "%ld h %ld min", t / 3600, t % 3600 / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ld min %ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%g s", s < 1 ? s : (double)t);
	return buf;
}

/* The seconds pf1_run() measures for a duration: whole intervals, one at least. */
static double pf1_measured(double duration)
{
	return fmax(1, round(duration / PF1_DEFAULT_INTERVAL_S)) * PF1_DEFAULT_INTERVAL_S;
}

/* sweep --dry-run: what the sweep would measure and how long it would take. */
static void print_plan(const struct sweep_opts *o, const struct sweep_plan *p)
{
	size_t points = p->n * p->ntasks;
	char hi[40];

	printf("dry run: sweep of %s over %zu value%s x %zu task count%s x %ld run%s = %zu point%s",
	       p->batch ? "batch" : "fraction", p->n, p->n == 1 ? "" : "s", p->ntasks,
	       p->ntasks == 1 ? "" : "s", p->runs, p->runs == 1 ? "" : "s", points,
	       points == 1 ? "" : "s");
	if (p->pinned)
		printf(", %s pinned at %ld", p->batch ? "fraction" : "batch", p->pin);
	printf("\nvalues: ");
	for (size_t i = 0; i < p->n; i++)
		printf("%s%ld", i ? "," : "", p->values[i]);
	printf("\n%s: ", o->command ? "PCPCTL_TASKS" : "tasks");
	for (size_t i = 0; i < p->ntasks; i++)
		printf("%s%ld", i ? "," : "", p->tasks[i]);
	fputs("\nworkload: ", stdout);
	if (o->command)
		print_command(stdout, o->command);
	else
		fputs("page_fault1", stdout);
	if (p->switch_user)
		printf("\nuser: %s (uid %lu, gid %lu)", p->user.name, (unsigned long)p->user.uid,
		       (unsigned long)p->user.gid);
	if (!o->command) {
		/* page_fault1 measures whole sampling intervals, one at least */
		double least = pf1_measured(p->duration), most = pf1_measured(p->max_duration);
		double each = (double)p->runs * (p->warmup + least);
		char lo[40];

		if (p->precision)
			printf("\ntime: %s to %s (per run %g s warm-up, then %g to %g s until +-%g%%)",
			       duration_words((double)points * each, lo, sizeof(lo)),
			       duration_words((double)points * (double)p->runs *
					      (p->warmup + most), hi, sizeof(hi)),
			       p->warmup, least, most, 100 * p->precision);
		else
			printf("\ntime: about %s (per run %g s warm-up and %g s measured)",
			       duration_words((double)points * each, lo, sizeof(lo)), p->warmup,
			       least);
	} else {
		long runs = (p->precision && p->runs < 2 ? 2 : p->runs) + (p->warmup > 0);

		printf("\ntime: %zu runs of the COMMAND%s, %s", points * (size_t)runs,
		       p->precision ? " at least" : "",
		       p->warmup > 0 ? "a warm-up run per point included" : "no warm-up run");
		if (p->precision)
			printf("; more until +-%g%% or %s of runs per point", 100 * p->precision,
			       duration_words(p->max_duration, hi, sizeof(hi)));
	}
	printf("\nnothing written: the checks a sweep makes before its first write passed\n");
}

/*
 * The largest pcp high the change gave any zone, -1 when zoneinfo has none.
 * From 6.7 a CPU sets its high only when it next frees, so high may still
 * be the previous point's: high_max is the limit the value set, read back
 * where zoneinfo prints it (6.13+), else as the rules give it (6.7-6.12).
 */
static long largest_high(const struct change_result *res)
{
	const struct zoneinfo *zi = &res->zi_after;
	long high = -1;

	for (size_t z = 0; z < zi->nzones; z++) {
		const struct zi_zone *zone = &zi->zones[z];
		bool printed;
		int lo, hi;

		if (!zone->npagesets)
			continue;
		printed = zi_has(&zone->pagesets[0], ZI_HIGH_MAX);
		if (res->rules.era == ERA_LAZY_HIGH && !printed)
			continue;
		zi_zone_range(zone, printed ? ZI_HIGH_MAX : ZI_HIGH, &lo, &hi);
		if (hi > high)
			high = hi;
	}
	for (size_t e = 0; e < res->nexpected; e++)
		if (res->expected[e].lazy && res->expected[e].high_max > high)
			high = res->expected[e].high_max;
	return high;
}

/* The change to value, and the pinned setting with it. */
static struct change_request point_request(const struct sweep_plan *p, long value, bool dry_run)
{
	return (struct change_request){
		.set_batch = p->batch || p->pinned, .batch = p->batch ? value : p->pin,
		.set_fraction = !p->batch || p->pinned, .fraction = p->batch ? p->pin : value,
		.in_session = !dry_run, .dry_run = dry_run,
	};
}

/* Apply value, and the pinned setting with it, verified; *high as zoneinfo then says. */
static int apply_point(struct kernel *k, const struct sysroot *root, const struct sweep_plan *p,
		       long value, bool dry_run, long *high)
{
	struct change_request req = point_request(p, value, dry_run);
	struct change_result res;
	int rc = change_exit(root, apply_change(k, &req, NULL, &res));

	if (!rc && high)
		*high = largest_high(&res);
	apply_result_free(&res);
	return rc;
}

static void plan_free(struct sweep_plan *p)
{
	free(p->values);
	free(p->tasks);
	free(p->cpus);
	runas_free(&p->user);
	if (p->log_fd != STDERR_FILENO)
		close(p->log_fd);
}

/*
 * What a sweep is to do, worked out once before it runs: its plan (values,
 * tasks, workload), and in change the kernel and what the first value
 * writes (the swept setting, and the pinned one), for the command table to
 * check this process may.  sweep_prepare: an exit code, once the usage and
 * the first value's interface are checked; sweep_prep_free() whatever it
 * returned.
 */
struct sweep_prep {
	struct change_prep change;
	struct sweep_plan *plan;
};

static int sweep_prepare(const struct sysroot *root, const struct sweep_opts *o,
			 struct sweep_prep *prep)
{
	struct change_prep *c = &prep->change;
	struct change_request req;
	int rc;

	memset(prep, 0, sizeof(*prep));
	prep->plan = calloc(1, sizeof(*prep->plan));
	c->k = kernel_open(root);
	if (prep->plan)
		prep->plan->log_fd = STDERR_FILENO;
	if (!prep->plan || !c->k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = make_plan(c->k, o, prep->plan);
	if (rc)
		return rc;
	/* Every value writes what the first does, and the restore only what they wrote. */
	req = point_request(prep->plan, prep->plan->values[0], true);
	return change_exit(root, apply_targets(c->k, &req, &c->plan));
}

static void sweep_prep_free(struct sweep_prep *prep)
{
	if (prep->plan)
		plan_free(prep->plan);
	free(prep->plan);
	prep->plan = NULL;
	change_prep_free(&prep->change);
}

/* Each value with each task count, in order, until one fails or a signal stops the sweep. */
static int measure_all(struct kernel *k, const struct sysroot *root, const struct sysroot *live,
		       const struct sweep_opts *o, const struct sweep_plan *p, struct point *pts)
{
	int rc = EXIT_OK;

	for (size_t v = 0; v < p->n && !rc && !stop_requested; v++) {
		long high = -1;

		fprintf(stderr, "pcpctl: value %zu/%zu: %s %ld\n", v + 1, p->n,
			p->batch ? "batch" : "fraction", p->values[v]);
		rc = apply_point(k, root, p, p->values[v], false, &high);
		for (size_t t = 0; t < p->ntasks && !rc && !stop_requested; t++) {
			struct point *pt = &pts[v * p->ntasks + t];

			pt->value = p->values[v];
			pt->tasks = p->tasks[t];
			pt->high = high;
			rc = measure(live, o, p, pt);
			if (rc) {
				if (rc != -EINTR && rc != -ECANCELED) {
					char words[40];

					pcp_error("measuring %s %ld with %s failed: %s",
						  p->batch ? "batch" : "fraction", pt->value,
						  tasks_words(o, pt->tasks, words, sizeof(words)),
						  strerror(-rc));
				}
				return EXIT_FAIL;
			}
			if (p->precision)
				print_precision(o, p, pt);
			if (!o->json)
				print_row(pt, &pts[t], p->better);
		}
	}
	return rc;
}

/*
 * Whatever was measured, also after an error: the points, each task
 * count's verdict, the CSV and the chart.  restored: the settings from
 * before the sweep are back.  EXIT_FAIL when a report could not be written.
 */
static int report_points(const struct sweep_opts *o, const struct sweep_plan *p,
			 const struct hostinfo *host, const struct point *pts, size_t npts,
			 struct verdict *verdicts, bool restored)
{
	size_t measured = 0;
	int rc = EXIT_OK;

	while (measured < npts && pts[measured].measured)
		measured++;
	for (size_t t = 0; t < p->ntasks; t++)
		verdicts[t] = verdict_of(pts, measured, p->tasks[t], o->command, p->better);
	if (print_result(o, p, host, pts, measured, verdicts, restored))
		rc = EXIT_FAIL;
	if (measured && o->csv && write_csv(o->csv, pts, measured, p->batch))
		rc = EXIT_FAIL;
	if (measured && o->plot && write_plot(o, p, host, pts, measured, verdicts))
		rc = EXIT_FAIL;
	return rc;
}

/* Every value (with the pin) as the kernel would take it, writing nothing; then the plan. */
static int dry_run(struct kernel *k, const struct sysroot *root, const struct sweep_opts *o,
		   const struct sweep_plan *p)
{
	int rc = EXIT_OK;

	for (size_t v = 1; v < p->n && !rc; v++)
		rc = apply_point(k, root, p, p->values[v], true, NULL);
	if (!rc)
		print_plan(o, p);
	return rc;
}

static int cmd_sweep(const struct sysroot *root, const struct sweep_opts *o,
		     const struct sweep_prep *prep)
{
	struct change_session session = { .lock = -1 };
	struct hostinfo host = { .online_cpus = -1, .numa_nodes = -1 };
	struct verdict *verdicts = NULL;
	struct point *pts = NULL;
	struct kernel *k = prep->change.k;
	/* The workload runs here whatever --sysroot says: its load is the live system's. */
	struct sysroot *live = NULL;
	size_t npts = 0;
	struct sweep_plan *p = prep->plan;
	int rc = EXIT_OK, end_rc, report_rc;

	if (o->workload_log && !o->dry_run) {
		int fd = open_workload_log(o->workload_log);

		if (fd < 0)
			return EXIT_FAIL;
		p->log_fd = fd;
	}
	live = sysroot_open(NULL);
	npts = p->n * p->ntasks;
	pts = calloc(npts, sizeof(*pts));
	verdicts = calloc(p->ntasks, sizeof(*verdicts));
	if (!live || !pts || !verdicts) {
		pcp_error("out of memory");
		rc = EXIT_FAIL;
		goto out;
	}
	hostinfo_read(root, &host);
	/* A dry run of the first point reports a missing interface or privilege up front. */
	rc = apply_point(k, root, p, p->values[0], true, NULL);
	if (rc)
		goto out;
	if (!o->lockprof)
		pcp_warn("zone lock contention is not sampled (LOCK%% and lock_pct are null): %s",
			 o->lockprof_why ? o->lockprof_why : "not asked for");
	else if (lockprof_callers_why(o->lockprof))
		pcp_warn("zone lock contention is not put down to the pcp refill or drain "
			 "(null REFILL%% or DRAIN%%): %s", lockprof_callers_why(o->lockprof));
	if (o->dry_run) {
		rc = dry_run(k, root, o, p);
		goto out;
	}
	catch_signals();
	rc = change_exit(root, apply_session_begin(k, &session));
	if (rc)
		goto out;
	if (!o->json)
		print_header(o, p);
	rc = measure_all(k, root, live, o, p, pts);
	end_rc = change_exit(root, apply_session_end(k, &session));
	if (stop_requested) {
		pcp_error("interrupted by signal %d; %s", (int)stop_requested,
			  end_rc == EXIT_OK ? "the settings from before were restored" :
					      "restoring the settings failed");
		rc = EXIT_FAIL;
	}
	if (end_rc)
		rc = end_rc;
	report_rc = report_points(o, p, &host, pts, npts, verdicts, end_rc == EXIT_OK);
	if (!rc)
		rc = report_rc;
out:
	for (size_t i = 0; pts && i < npts; i++)
		free(pts[i].samples);
	free(pts);
	free(verdicts);
	hostinfo_free(&host);
	apply_session_free(&session);
	sysroot_free(live);
	return rc;
}

/* What the command line says; run() hands it on. */
static struct {
	struct sweep_opts sweep;
	int dry_run, metric_last;
} cli;
static struct sweep_prep prep;

static const struct poptOption sweep_options[] = {
	{ "batch", '\0', POPT_ARG_STRING, &cli.sweep.batch, 0, NULL, NULL },
	{ "fraction", '\0', POPT_ARG_STRING, &cli.sweep.fraction, 0, NULL, NULL },
	{ "tasks", '\0', POPT_ARG_STRING, &cli.sweep.tasks, 0, NULL, NULL },
	{ "duration", '\0', POPT_ARG_STRING, &cli.sweep.duration, 0, NULL, NULL },
	{ "warmup", '\0', POPT_ARG_STRING, &cli.sweep.warmup, 0, NULL, NULL },
	{ "precision", '\0', POPT_ARG_STRING, &cli.sweep.precision, 0, NULL, NULL },
	{ "max-duration", '\0', POPT_ARG_STRING, &cli.sweep.max_duration, 0, NULL, NULL },
	{ "runs", '\0', POPT_ARG_STRING, &cli.sweep.runs, 0, NULL, NULL },
	{ "metric", '\0', POPT_ARG_STRING, &cli.sweep.metric, 0, NULL, NULL },
	{ "metric-last", '\0', POPT_ARG_NONE, &cli.metric_last, 0, NULL, NULL },
	{ "metric-json", '\0', POPT_ARG_STRING, &cli.sweep.metric_json, 0, NULL, NULL },
	{ "metric-unit", '\0', POPT_ARG_STRING, &cli.sweep.metric_unit, 0, NULL, NULL },
	{ "better", '\0', POPT_ARG_STRING, &cli.sweep.better, 0, NULL, NULL },
	{ "csv", '\0', POPT_ARG_STRING, &cli.sweep.csv, 0, NULL, NULL },
	{ "plot", '\0', POPT_ARG_STRING, &cli.sweep.plot, 0, NULL, NULL },
	{ "workload-log", '\0', POPT_ARG_STRING, &cli.sweep.workload_log, 0, NULL, NULL },
	{ "with-batch", '\0', POPT_ARG_STRING, &cli.sweep.with_batch, 0, NULL, NULL },
	{ "with-fraction", '\0', POPT_ARG_STRING, &cli.sweep.with_fraction, 0, NULL, NULL },
	{ "user", '\0', POPT_ARG_STRING, &cli.sweep.user, 0, NULL, NULL },
	{ "netns", '\0', POPT_ARG_STRING, &cli.sweep.netns, 0, NULL, NULL },
	{ "dry-run", '\0', POPT_ARG_NONE, &cli.dry_run, 0, NULL, NULL },
	POPT_TABLEEND
};

/*
 * The lock sampling and the namespace of --netns need what pcpctl is about
 * to drop: open and enter them first.
 */
static void setup(const struct command_args *a)
{
	static char why[256];

	if (cli.sweep.netns && netns_name_ok(cli.sweep.netns)) {
		struct sysroot *sr = sysroot_open(a->common->sysroot);

		cli.sweep.netns_rc = sr ? netns_enter(sr, cli.sweep.netns) : -ENOMEM;
		sysroot_free(sr);
	}
	if (a->common->sysroot) {
		cli.sweep.lockprof_why = "--sysroot: the live kernel alone can be sampled";
		return;
	}
	cli.sweep.lockprof = lockprof_open(why, sizeof(why));
	cli.sweep.lockprof_why = why;
}

static int prepare(const struct sysroot *root, const struct command_args *a,
		   struct change_prep **p)
{
	/* whatever follows the COMMAND is its own: its options too */
	if (a->before_dashdash) {
		pcp_error("give the COMMAND after --, as in pcpctl sweep --fraction 0,8 -- COMMAND "
			  "[ARG...]; see pcpctl sweep --help");
		return EXIT_USAGE;
	}
	cli.sweep.json = a->common->json;
	cli.sweep.dry_run = cli.dry_run;
	cli.sweep.metric_last = cli.metric_last;
	cli.sweep.command = a->args;
	*p = &prep.change;
	return sweep_prepare(root, &cli.sweep, &prep);
}

static int run(const struct sysroot *root, const struct command_args *a)
{
	(void)a;
	return cmd_sweep(root, &cli.sweep, &prep);
}

static void done(void)
{
	sweep_prep_free(&prep);
	lockprof_close(cli.sweep.lockprof);
}

const struct command sweep_command = {
	.name = "sweep", .prepare = prepare, .run = run, .setup = setup, .done = done,
	.dry_run = &cli.dry_run, .takes_command = true, .switches_user = true,
	.summary = "measure a workload at each value and restore the settings",
	.usage = "--batch VALUES | --fraction VALUES [options] [-- COMMAND...]",
	.options = sweep_options, .options_help =
	"     --batch VALUES   batches to measure: START:STOP:STEP or a list (31,63,310)\n"
	"     --fraction VALUES  fractions to measure, likewise (0,8,16)\n"
	"     --tasks LIST     task counts, each point measured with each: 1,2,4 or\n"
	"                      25%,50%,100% of the CPUs (default: all); page_fault1\n"
	"                      runs one process per CPU, a COMMAND gets PCPCTL_TASKS\n"
	"     --with-fraction N  hold the fraction at N while sweeping --batch\n"
	"     --with-batch N   hold the batch at N while sweeping --fraction\n"
	"     --duration S     seconds measured per run (default 10)\n"
	"     --precision P%   measure each point until the 95% interval of its Hmean\n"
	"                      (its mean with --better lower) is within +-P%, for\n"
	"                      --duration S at least (a COMMAND: --runs R runs and 2\n"
	"                      at least, each run a sample)\n"
	"     --max-duration S  and at most S seconds (default 60)\n"
	"     --warmup S       seconds run before measuring (default 2); with a COMMAND,\n"
	"                      any S > 0 means one unmeasured run before each value\n"
	"     --runs R         runs per value (default 1)\n"
	"     --metric REGEX   take COMMAND's result from its output (first group of\n"
	"                      the first line that matches) instead of runs per second\n"
	"     --metric-last    from the last line that matches instead\n"
	"     --metric-json PATH  take it from COMMAND's JSON output at PATH, keys\n"
	"                      joined by dots (end.sum_received.bits_per_second)\n"
	"     --metric-unit UNIT  what the metric is called (default: a word of REGEX,\n"
	"                      or PATH's last key)\n"
	"     --better lower|higher  which way the metric improves (default higher);\n"
	"                      lower: judged by its mean, shown with P50 and P99\n"
	"     --csv FILE       also write the points as CSV\n"
	"     --plot FILE      also draw throughput against the value as SVG\n"
	"     --workload-log FILE  write COMMAND's output to FILE (default: stderr)\n"
	"     --user USER      run the workload as USER (default: sudo's caller, else\n"
	"                      nobody); never root\n"
	"     --netns NAME     run COMMAND in the network namespace NAME (ip netns)\n"
	"     --dry-run        print the plan and its time, make every check a sweep\n"
	"                      makes before its first write; write nothing\n"
	" -J, --json           print the points as JSON\n"
	"     -- COMMAND...    measure COMMAND instead of the built-in page_fault1\n",
};
