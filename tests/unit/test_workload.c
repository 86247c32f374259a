/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_workload.c - page_fault1 and external workload runners
 *
 * Short real runs: they fork, pin and fault for fractions of a second.
 * After each, the test process must have no children left, alive or
 * zombie.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysload.h"
#include "sysroot.h"
#include "workload.h"

static int cpus[2];
static size_t ncpus;
static volatile sig_atomic_t stop;

/* Use CPUs we may run on, wherever CTest puts us. */
static int setup(void **state)
{
	cpu_set_t set;
	int c;

	(void)state;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
	return ncpus ? 0 : -1;
}

static void assert_no_children(void)
{
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

/* SA_RESTART on purpose: the runners must see the flag anyway. */
static void stop_after(double s)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	struct itimerval it = { .it_value = {
		.tv_sec = (time_t)s,
		.tv_usec = (suseconds_t)((s - (double)(time_t)s) * 1e6) } };

	stop = 0;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	/* wait(c): the stop moment of pf1_run and ext_run (SIGALRM sets stop). */
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
}

static void test_pf1_tiny(void **state)
{
	struct pf1_config cfg = {
		.cpus = cpus, .ncpus = ncpus,
		/* wait(c): n == 6 is a count; samples are relations. */
		.duration_s = 0.3, .warmup_s = 0.05, .interval_s = 0.05,
		.map_bytes = 4 << 20,
	};
	double *samples = NULL, t0 = now(), t, sum = 0;
	size_t n = 0, i;

	(void)state;
	assert_int_equal(pf1_run(&cfg, &samples, &n), 0);
	t = now() - t0;
	assert_int_equal(n, 6);
	/*
	 * On a loaded machine a sample may be taken late, its next at once, or
	 * the tasks may get no CPU in 50 ms: a sample can be 0, not the sum.
	 * The bounds on the time are relations: at least warmup and duration,
	 * and done long before a run that ignored them would be.
	 */
	for (i = 0; i < n; i++) {
		assert_true(samples[i] >= 0);
		sum += samples[i];
	}
	assert_true(sum > 0);
	/* wait(a): the lower bound holds at any load (absolute deadlines); 30 s
	 * only catches a run that ignored its deadlines. */
	assert_true(t >= 0.35 && t < 30);
	free(samples);
	assert_no_children();
}

/* enough() ends the run once it says so, never before duration_s, never past max. */
static bool after_n(const double *x, size_t n, void *arg)
{
	(void)x;
	return n >= *(size_t *)arg;
}

static void test_pf1_enough(void **state)
{
	struct pf1_config cfg = {
		/* wait(c): n == 5, 2 and 8 below are counts. */
		.cpus = cpus, .ncpus = 1, .duration_s = 0.1, .warmup_s = 0, .interval_s = 0.05,
		.map_bytes = 4 << 20, .enough = after_n, .max_duration_s = 0.4,
	};
	size_t want, n = 0;
	double *samples = NULL;

	(void)state;
	cfg.enough_arg = &want;
	want = 5;		/* from the 2nd sample on, yes at the 5th */
	assert_int_equal(pf1_run(&cfg, &samples, &n), 0);
	assert_int_equal(n, 5);
	free(samples);
	want = 1;		/* wait(c): asked only from duration_s on: 2 samples */
	assert_int_equal(pf1_run(&cfg, &samples, &n), 0);
	assert_int_equal(n, 2);
	free(samples);
	want = 100;		/* wait(c): never: max_duration_s, 8 samples */
	assert_int_equal(pf1_run(&cfg, &samples, &n), 0);
	assert_int_equal(n, 8);
	free(samples);
	cfg.max_duration_s = 0.05;	/* wait(c): below duration_s: refused */
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	assert_no_children();
}

/* The workload's faults show in /proc/vmstat, its CPU time as ours. */
static void test_sysload_pf1(void **state)
{
	struct pf1_config cfg = {
		.cpus = cpus, .ncpus = ncpus,
		/* wait(c): the checks are relations. */
		.duration_s = 0.3, .interval_s = 0.3, .map_bytes = 4 << 20,
	};
	struct sysroot *live = sysroot_open(NULL);
	struct sysload_mark b, e;
	struct sysload_point p;
	double *samples = NULL;
	size_t n = 0;

	(void)state;
	assert_non_null(live);
	assert_int_equal(sysload_mark(live, &b), 0);
	assert_int_equal(pf1_run(&cfg, &samples, &n), 0);
	assert_int_equal(sysload_mark(live, &e), 0);
	sysroot_free(live);
	assert_int_equal(sysload_diff(&b, &e, &p), 0);
	assert_int_equal(n, 1);
	/* each op is a fault that allocates a page, and the page is freed */
	assert_true((double)p.pgfault >= samples[0] * 0.3 * 0.9);
	assert_true((double)p.pgalloc >= samples[0] * 0.3 * 0.9);
	assert_true(p.pgfree > 0);
	/* how much CPU the tasks got depends on what else runs: only that
	 * their time was counted as ours can be checked here */
	assert_true(p.ours_cpus > 0);
	assert_true(p.others_cpus >= 0);
	assert_int_equal(sysload_diff(&e, &b, &p), -EINVAL);
	free(samples);
	assert_no_children();
}

/* /proc/stat and /proc/vmstat captured together on a 6.18 machine with 2 CPUs. */
static void test_sysload_captured(void **state)
{
	struct sysroot *tree = sysroot_open(FIXTURE_DIR "/proc/live-6.18-2cpu");
	struct sysroot *empty = sysroot_open(FIXTURE_DIR "/vmstat");
	struct sysload_mark m;

	(void)state;
	assert_non_null(tree);
	assert_non_null(empty);
	assert_int_equal(sysload_mark(tree, &m), 0);
	/* cpu  26826 2776 8176 21525 398 0 107 47 0 0: user nice system irq softirq */
	assert_int_equal(m.busy_ticks, 26826 + 2776 + 8176 + 0 + 107);
	assert_int_equal(m.steal_ticks, 47);
	/* pgalloc_dma, _dma32, _normal, _movable; no HighMem on x86-64 */
	assert_int_equal(m.pgalloc, 17489241);
	assert_int_equal(m.pgfree, 18599685);
	assert_int_equal(m.pgfault, 20516208);
	/* a tree without the files: reading them fails, nothing is made up */
	assert_int_equal(sysload_mark(empty, &m), -ENOENT);
	sysroot_free(tree);
	sysroot_free(empty);
}

static void test_stat_parse_ticks(void **state)
{
	unsigned long long busy = 0, steal = 0;

	(void)state;
	assert_int_equal(stat_parse_ticks("cpu  1 2 3 100 5 6 7 8 9 10\ncpu0 1 2 3 100 5 6 7 8 9 10\n",
					  &busy, &steal), 0);
	assert_int_equal(busy, 1 + 2 + 3 + 6 + 7);
	assert_int_equal(steal, 8);
	/* guest and guest_nice are optional (before 2.6.24 and 2.6.33) */
	assert_int_equal(stat_parse_ticks("cpu  1 1 1 1 1 1 1 4\n", &busy, &steal), 0);
	assert_int_equal(steal, 4);
	/* no steal field, a per-CPU line first, damage: not /proc/stat */
	assert_int_equal(stat_parse_ticks("cpu  1 2 3 4 5 6 7\n", &busy, &steal), -EINVAL);
	assert_int_equal(stat_parse_ticks("cpu0 1 2 3 4 5 6 7 8\n", &busy, &steal), -EINVAL);
	assert_int_equal(stat_parse_ticks("cpu  1 2 3 4 5 6 7 x\n", &busy, &steal), -EINVAL);
	assert_int_equal(stat_parse_ticks("cpu  1 2 3 4 5 6 7 -8\n", &busy, &steal), -EINVAL);
	assert_int_equal(stat_parse_ticks("cpu  99999999999999999999999 2 3 4 5 6 7 8\n",
					  &busy, &steal), -EINVAL);
	assert_int_equal(stat_parse_ticks("", &busy, &steal), -EINVAL);
}

static void test_pf1_stop(void **state)
{
	struct pf1_config cfg = {
		.cpus = cpus, .ncpus = ncpus,
		/* wait(c): the run that is stopped (stop_after(0.2): the stop moment). */
		.duration_s = 30, .warmup_s = 0.05, .interval_s = 1,
		.map_bytes = 4 << 20, .stop = &stop,
	};
	double *samples = NULL, t0 = now();
	size_t n = 0;

	(void)state;
	stop_after(0.2);
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINTR);
	/* wait(a): pf1_run returns -EINTR, stopped, not run to its 30 s,
	 * however slow the machine; bound 15 s. */
	assert_true(now() - t0 < cfg.duration_s / 2);
	assert_null(samples);
	assert_int_equal(n, 0);
	assert_no_children();

	/* wait(a): already set: pf1_run returns -EINTR at once; bound 15 s. */
	t0 = now();
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINTR);
	assert_true(now() - t0 < cfg.duration_s / 2);
	assert_no_children();
	stop = 0;
}

static void test_pf1_invalid(void **state)
{
	const int neg[] = { -1 };
	/* wait(c): -EINVAL: nothing runs for long, whatever the durations. */
	struct pf1_config good = {
		.cpus = cpus, .ncpus = 1, .duration_s = 0.1, .interval_s = 0.05,
	};
	struct pf1_config cfg;
	double *samples = NULL;
	size_t n = 0;

	(void)state;
	cfg = good, cfg.ncpus = 0;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	cfg = good, cfg.cpus = neg;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	/* wait(c): refused durations: -EINVAL, nothing runs. */
	cfg = good, cfg.duration_s = 0;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	cfg = good, cfg.warmup_s = -1;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	cfg = good, cfg.interval_s = -0.1;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	cfg = good, cfg.map_bytes = 1;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	assert_null(samples);
	assert_no_children();
}

/* A CPU id past any machine's: the task cannot pin, the run fails. */
static void test_pf1_offline_cpu(void **state)
{
	const int far[] = { 0, 1 << 20 };
	/* wait(c): -EINVAL: nothing runs for long. */
	struct pf1_config cfg = {
		.cpus = far, .ncpus = 2, .duration_s = 0.1, .interval_s = 0.05,
		.map_bytes = 1 << 20,
	};
	double *samples = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(pf1_run(&cfg, &samples, &n), -EINVAL);
	assert_null(samples);
	assert_no_children();
}

/* A --metric regex as ext_run() takes it. */
#define RE(text) (&(struct ext_metric){ .regex = (text) })

static void test_ext_metric(void **state)
{
	char *const argv[] = { "sh", "-c",
		"echo 'warming up'; echo 'result: 12.5 ops/s'; "
		"echo 'result: 99 ops/s'; exit 3", NULL };
	double wall = -1, metric = -1, t0 = now(), t;
	int status = -1;

	(void)state;
	assert_int_equal(ext_run(argv, NULL, RE("result: ([0-9.]+) ops/s"), NULL, NULL,
				 &wall, &metric, &status), 0);
	t = now() - t0;
	assert_true(metric == 12.5);
	assert_int_equal(status, 3);
	/* the command's own time: within the call's, whatever the load */
	assert_true(wall > 0 && wall <= t);

	/* no group: the whole match */
	assert_int_equal(ext_run(argv, NULL, RE("[0-9]+\\.[0-9]+"), NULL, NULL,
				 NULL, &metric, NULL), 0);
	assert_true(metric == 12.5);
	assert_int_equal(ext_run(argv, NULL, RE("nothing like it"), NULL, NULL,
				 &wall, &metric, &status), -ENOMSG);
	assert_int_equal(status, 3);
	assert_int_equal(ext_run(argv, NULL, RE("result: (.*)"), NULL, NULL,
				 NULL, &metric, NULL), -EBADMSG);
	assert_int_equal(ext_run(argv, NULL, RE("("), NULL, NULL, NULL, &metric, NULL), -EINVAL);
	assert_no_children();
}

/* iperf3 -P 2 prints a line per stream, then SUM lines: which one is taken. */
static void test_ext_metric_lines(void **state)
{
	char *const argv[] = { "printf", "%s\n", "[  5] 0.00-1.00 sec 1321 Mbits/sec",
		"[SUM] 0.00-1.00 sec 8000 Mbits/sec", "[SUM] 0.00-2.00 sec 9000 Mbits/sec receiver",
		"[SUM] 0.00-2.00 sec 9100 Mbits/sec sender", NULL };
	struct ext_metric last = { .regex = "^\\[SUM\\].* ([0-9]+) Mbits/sec", .last = true };
	double v = -1;

	(void)state;
	assert_int_equal(ext_run(argv, NULL, RE("^\\[SUM\\].* ([0-9]+) Mbits/sec"), NULL, NULL, NULL,
				 &v, NULL), 0);
	assert_true(v == 8000);
	assert_int_equal(ext_run(argv, NULL, &last, NULL, NULL, NULL, &v, NULL), 0);
	assert_true(v == 9100);
	/* $ ends a line: the receiver's line, not the sender's after it */
	assert_int_equal(ext_run(argv, NULL, RE("([0-9]+) Mbits/sec receiver$"), NULL, NULL, NULL,
				 &v, NULL), 0);
	assert_true(v == 9000);
	/* . does not cross lines: nothing after "1321" on its line says receiver */
	assert_int_equal(ext_run(argv, NULL, RE("1321.*receiver"), NULL, NULL, NULL, &v, NULL),
			 -ENOMSG);
	assert_no_children();
}

static void test_ext_metric_json(void **state)
{
	char *const argv[] = { "echo", "{\"end\": {\"sum_received\": {\"bits_per_second\": 9.4e9},"
		" \"streams\": [{\"jitter_ms\": 0.0123}, {\"jitter_ms\": 2}], \"host\": \"b\"}}", NULL };
	char *const text[] = { "echo", "9.4e9", "bits/s", NULL };
	struct ext_metric m = { .json_path = "end.sum_received.bits_per_second" };
	double v = -1;
	char why[64] = "";

	(void)state;
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), 0);
	assert_true(v == 9.4e9);
	m.json_path = "end.streams.1.jitter_ms";
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), 0);
	assert_true(v == 2);
	m.json_path = "end.streams.2.jitter_ms";
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), -ENOMSG);
	m.json_path = "end.sum_sent.bits_per_second";
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), -ENOMSG);
	m.json_path = "end.host";
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), -EBADMSG);
	m.json_path = "end";
	assert_int_equal(ext_run(text, NULL, &m, NULL, NULL, NULL, &v, NULL), -EBADMSG);
	m.json_path = "end..bits";
	assert_int_equal(ext_check_metric(&m, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "a part of the path is empty");
	assert_int_equal(ext_run(argv, NULL, &m, NULL, NULL, NULL, &v, NULL), -EINVAL);
	assert_true(v == 2);
	assert_no_children();
}

static void test_ext_status(void **state)
{
	char *const plain[] = { "true", NULL };
	char *const killed[] = { "sh", "-c", "kill -9 $$", NULL };
	char *const missing[] = { "/nonexistent/pcpctl-workload", NULL };
	char *const empty[] = { NULL };
	double wall = -1;
	int status = -1;

	(void)state;
	assert_int_equal(ext_run(plain, NULL, NULL, NULL, NULL, &wall, NULL, &status), 0);
	assert_int_equal(status, 0);
	assert_true(wall >= 0);
	assert_int_equal(ext_run(killed, NULL, NULL, NULL, NULL, NULL, NULL, &status), 0);
	assert_int_equal(status, 128 + SIGKILL);
	assert_int_equal(ext_run(missing, NULL, NULL, NULL, NULL, NULL, NULL, &status), -ENOENT);
	assert_int_equal(ext_run(empty, NULL, NULL, NULL, NULL, NULL, NULL, &status), -EINVAL);
	assert_no_children();
}

/* Everything the workload writes reaches the log, none of it our stdout. */
static void test_ext_io(void **state)
{
	char *const argv[] = { "sh", "-c",
		"echo out=5; echo first >&2; printf 'last\\tline\\n\\n' >&2; exit 3", NULL };
	char *const quiet[] = { "true", NULL };
	struct ext_io io = { .log_fd = memfd_create("log", MFD_CLOEXEC) };
	double metric = -1;
	char log[256] = "";
	int status = -1;
	ssize_t n;

	(void)state;
	assert_true(io.log_fd >= 0);
	assert_int_equal(ext_run(argv, NULL, NULL, &io, NULL, NULL, NULL, &status), 0);
	assert_int_equal(status, 3);
	/* the last non-empty line, its control characters made visible */
	assert_string_equal(io.last_err, "last?line");
	assert_int_equal(ext_run(argv, NULL, RE("out=([0-9]+)"), &io, NULL, NULL, &metric, NULL), 0);
	assert_true(metric == 5);
	n = pread(io.log_fd, log, sizeof(log) - 1, 0);
	assert_true(n > 0);
	/* stdout and stderr in the log, twice: a captured stdout is copied too */
	assert_string_equal(log, "out=5\nfirst\nlast\tline\n\nout=5\nfirst\nlast\tline\n\n");
	assert_int_equal(ext_run(quiet, NULL, NULL, &io, NULL, NULL, NULL, &status), 0);
	assert_string_equal(io.last_err, "");
	close(io.log_fd);
	assert_no_children();
}

/* A background straggler keeps stdout open: we must not wait for it. */
static void test_ext_straggler(void **state)
{
	/* wait(c): a straggler that keeps stdout open. */
	char *const argv[] = { "sh", "-c", "sleep 30 & echo value=7", NULL };
	double metric = -1, t0 = now();

	(void)state;
	assert_int_equal(ext_run(argv, NULL, RE("value=([0-9]+)"), NULL, NULL, NULL, &metric,
				 NULL), 0);
	assert_true(metric == 7);
	/* wait(a): ext_run returns without waiting for the straggler, long
	 * before its 30 s, however slow the machine; bound 15 s. */
	assert_true(now() - t0 < 15);
	assert_no_children();
}

static void test_ext_stop(void **state)
{
	/* wait(c): a child that is killed at the stop moment (stop_after(0.2)). */
	char *const argv[] = { "sh", "-c", "sleep 30; echo late=1", NULL };
	double metric = -1, t0 = now();

	(void)state;
	stop_after(0.2);
	assert_int_equal(ext_run(argv, NULL, RE("late=([0-9]+)"), NULL, &stop, NULL, &metric,
				 NULL), -EINTR);
	/* wait(a): ext_run returns -EINTR; bound 15 s. */
	assert_true(now() - t0 < 15);
	assert_true(metric == -1);
	assert_no_children();
	stop = 0;
}

/* What a sweep checks before it writes: the regex and the COMMAND as execvp finds it. */
static void test_ext_check(void **state)
{
	char why[128] = "";
	char dir[] = "/tmp/pcpctl-extcheck-XXXXXX";
	char file[64], *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	int fd;

	(void)state;
	assert_int_equal(ext_check_metric(RE("result: ([0-9.]+)"), why, sizeof(why)), 0);
	assert_int_equal(ext_check_metric(RE("(["), why, sizeof(why)), -EINVAL);
	assert_true(why[0] != '\0');
	assert_int_equal(ext_check_metric(&(struct ext_metric){ 0 }, why, sizeof(why)), -EINVAL);
	assert_int_equal(ext_check_command("sh"), 0);
	assert_int_equal(ext_check_command("/bin/sh"), 0);
	assert_int_equal(ext_check_command("/nonexistent/bench"), -ENOENT);
	assert_int_equal(ext_check_command("pcpctl-no-such-workload"), -ENOENT);
	assert_int_equal(ext_check_command("/tmp"), -EISDIR);
	assert_int_equal(ext_check_command(""), -ENOENT);
	/* found on $PATH but not executable: execvp's EACCES */
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/bench", dir);
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ext_check_command(file), -EACCES);
	setenv("PATH", dir, 1);
	assert_int_equal(ext_check_command("bench"), -EACCES);
	chmod(file, 0755);
	assert_int_equal(ext_check_command("bench"), 0);
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	free(old);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pf1_tiny),
		cmocka_unit_test(test_pf1_enough),
		cmocka_unit_test(test_sysload_pf1),
		cmocka_unit_test(test_sysload_captured),
		cmocka_unit_test(test_stat_parse_ticks),
		cmocka_unit_test(test_pf1_stop),
		cmocka_unit_test(test_pf1_invalid),
		cmocka_unit_test(test_pf1_offline_cpu),
		cmocka_unit_test(test_ext_metric),
		cmocka_unit_test(test_ext_metric_lines),
		cmocka_unit_test(test_ext_metric_json),
		cmocka_unit_test(test_ext_status),
		cmocka_unit_test(test_ext_io),
		cmocka_unit_test(test_ext_straggler),
		cmocka_unit_test(test_ext_stop),
		cmocka_unit_test(test_ext_check),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
