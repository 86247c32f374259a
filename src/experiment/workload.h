/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.h - the workloads that pcpctl sweep measures
 *
 * page_fault1 is our own implementation of the will-it-scale test of that
 * name: every task maps a private anonymous region, writes one byte per
 * page, unmaps it and starts over, so each page costs one allocation and
 * one free through the per-CPU page lists.  One op is one page touched.
 *
 * Both runners fork; they reap every child they start before returning, on
 * success and on every error path, and never call exit().
 */
#ifndef PCPCTL_WORKLOAD_H
#define PCPCTL_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct runas;

/* will-it-scale's MEMSIZE: large enough that each loop frees pages in
 * bulk, small enough to run one task per CPU on modest machines */
#define PF1_DEFAULT_MAP_BYTES	((size_t)128 << 20)
#define PF1_DEFAULT_INTERVAL_S	1.0

struct pf1_config {
	const int *cpus;	/* one task pinned to each of these CPU ids */
	size_t ncpus;
	double duration_s;	/* measured time, after the warmup */
	double warmup_s;	/* run but discarded, >= 0 */
	double interval_s;	/* sampling period; 0 means PF1_DEFAULT_INTERVAL_S */
	size_t map_bytes;	/* region per loop; 0 means PF1_DEFAULT_MAP_BYTES */
	/*
	 * Optional.  When it becomes non-zero the run ends early with -EINTR.
	 * It is checked at every sampling tick and whenever a signal
	 * interrupts the sampler's sleep, so setting it from a signal handler
	 * ends the run at once (with or without SA_RESTART).
	 */
	volatile sig_atomic_t *stop;
	/*
	 * Optional: sample on past duration_s, up to max_duration_s, until
	 * enough(samples so far, their number, arg) returns true.  It is asked
	 * after each sample from duration_s on.
	 */
	bool (*enough)(const double *samples, size_t n, void *arg);
	void *enough_arg;
	double max_duration_s;	/* >= duration_s when enough is set */
	/* Optional: each task becomes this user before it starts (runas_enter()). */
	const struct runas *user;
};

/*
 * Run page_fault1 and return the throughput of each interval after the
 * warmup in ops/s (all tasks together), in a malloc()ed array the caller
 * frees.  Rates are computed from CLOCK_MONOTONIC time actually elapsed
 * between two samples, not from the nominal interval.  The number of
 * samples is duration_s / interval_s rounded to nearest, at least 1 (with
 * enough, up to max_duration_s / interval_s likewise).
 *
 * Returns 0, or a negative errno:
 *   -EINVAL  bad configuration (no CPUs, negative CPU id, non-positive
 *            duration, negative interval or warmup, duration + warmup over
 *            2^31 s, map smaller than a page)
 *   -EINTR   *stop became non-zero
 *   -ECHILD  a task died without reporting an error (e.g. the OOM killer)
 *   other    a task's own failure (sched_setaffinity: -EINVAL for an
 *            offline CPU; mmap: -ENOMEM), or fork/pipe/mmap in the parent
 * On error *samples and *nsamples are left unchanged.
 */
int pf1_run(const struct pf1_config *cfg, double **samples, size_t *nsamples);

/* The longest last line of a workload's stderr kept for a message. */
#define EXT_LAST_LINE 256

/*
 * Where an external workload's output goes, and what is kept of it.
 * pcpctl's stdout is its report (a table, JSON): the workload never writes
 * there.  log_fd receives the workload's stdout (unless --metric captures
 * it, and then a copy) and its stderr; last_err is the last non-empty line
 * of its stderr, "" when there was none.
 */
struct ext_io {
	int log_fd;
	char last_err[EXT_LAST_LINE];
};

/*
 * Which number of a workload's standard output is its result.  With regex,
 * a POSIX extended regex matched line by line (^ and $ anchor at each
 * line, . matches no newline): its first group if it has one and that
 * group took part in the match, the whole match otherwise, of the first
 * matching line, or with last of the last.  With json_path, the output is
 * one JSON value and the number is at that path: keys joined by dots, a
 * part of digits indexing an array ("end.sum_received.bits_per_second" of
 * iperf3 -J, "intervals.0.sum.bits_per_second").  One of the two is set.
 */
struct ext_metric {
	const char *regex;
	bool last;
	const char *json_path;
};

/*
 * Run an external workload: fork, execvp(argv[0], argv), wait for it.
 * With user, the child becomes that user first (runas_enter()), and a
 * failure to is reported as exec's would be.
 * The child gets its own process group and /dev/null as stdin, so a
 * terminal's ^C reaches only pcpctl, which then ends the whole group.
 *
 * io: NULL sends the workload's output to pcpctl's stderr; see struct
 *   ext_io.  Output lost on a failing log_fd does not fail the run.
 * wall_s: CLOCK_MONOTONIC time from fork to exit (optional, may be NULL).
 * exit_status: as a shell reports it: the exit code, or 128 + the signal
 *   number when it was killed (optional).
 * metric: NULL for no metric; otherwise the number it names (struct
 *   ext_metric) is parsed as a double (C locale) into *value: a regex's
 *   text must be a number and nothing else, a JSON path's value a number.
 * stop: optional, as in struct pf1_config; when set the process group is
 *   killed and -EINTR returned.
 *
 * Whatever the workload's exit status, the process group is killed once
 * its leader exits, so stragglers cannot disturb the next measurement.
 *
 * Returns 0, or a negative errno:
 *   -EINVAL  empty argv, or a metric that ext_check_metric() refuses
 *   -EINTR   *stop became non-zero
 *   -ENOMSG  the regex did not match the output, or the JSON has nothing
 *            at the path (wall_s and exit_status are still filled in)
 *   -EBADMSG the matched text or the value at the path is not a number,
 *            or the output is not JSON (likewise)
 *   -ENOSYS  the kernel lacks pidfd_open (Linux < 5.3)
 *   other    exec failed (e.g. -ENOENT, -EACCES), or fork/pipe/read
 */
int ext_run(char *const argv[], const struct runas *user, const struct ext_metric *metric,
	    struct ext_io *io, volatile sig_atomic_t *stop,
	    double *wall_s, double *value, int *exit_status);

/*
 * What ext_run() would refuse, found before a sweep writes anything.
 * ext_check_metric: 0 when ext_run() can use the metric: its regex
 *   compiles (else regerror()'s words in why), its JSON path has no empty
 *   part; else -EINVAL.
 * ext_check_command: 0 when execvp() would find name as an executable
 *   file (a name with a '/' as it is, else through $PATH as execvp reads
 *   it), else -ENOENT, -EACCES (found, not executable) or -EISDIR.
 */
int ext_check_metric(const struct ext_metric *metric, char *why, size_t len);
int ext_check_command(const char *name);

#endif /* PCPCTL_WORKLOAD_H */
