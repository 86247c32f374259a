/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sampling loop of show --interval.  Samples are due at fixed times
 * from the first, so a slow read does not push every later one back.
 * SIGINT and SIGTERM stay blocked and are waited for with the remaining
 * time as the timeout: a signal that arrives while a sample is read is
 * taken at the next wait instead of being lost between a check and a
 * sleep, and the loop ends after a whole sample, never inside one.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interval.h"
#include "msg.h"
#include "numparse.h"
#include "output.h"
#include "sysroot.h"

#define INTERVAL_MIN 0.01
#define INTERVAL_MAX 86400.0

int interval_opts_parse(const char *interval, const char *count, struct interval_opts *o)
{
	if (parse_seconds(interval, INTERVAL_MIN, INTERVAL_MAX, &o->interval)) {
		pcp_error("--interval: invalid \"%s\": give seconds from 0.01 to 86400, such as 1 or 0.5",
			  interval);
		return -EINVAL;
	}
	o->count = 0;
	if (count && parse_long(count, 1, LONG_MAX, &o->count)) {
		pcp_error("--count: invalid \"%s\": give a number of samples from 1 to %ld", count,
			  LONG_MAX);
		return -EINVAL;
	}
	return 0;
}

static void timespec_add(struct timespec *t, double seconds)
{
	long long ns = t->tv_nsec + (long long)(seconds * 1e9);

	t->tv_sec += (time_t)(ns / 1000000000);
	t->tv_nsec = (long)(ns % 1000000000);
}

/* Wait until the monotonic time due; true when a stop signal came first. */
static bool wait_until(const struct timespec *due, const sigset_t *stop)
{
	for (;;) {
		struct timespec now, left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = due->tv_sec - now.tv_sec;
		left.tv_nsec = due->tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000;
		}
		if (left.tv_sec < 0)
			return false;
		if (sigtimedwait(stop, NULL, &left) >= 0)
			return true;
		if (errno != EAGAIN && errno != EINTR)
			return false;
	}
}

/* Read zoneinfo and vmstat into cur; an exit code. */
static int take_sample(struct kernel *k, const struct interval_opts *o,
		       const struct watch_select *sel, bool *vm_warned, struct watch_sample *cur)
{
	struct zoneinfo zi;
	int rc = kernel_load_zoneinfo(k, &zi);

	if (rc)
		return EXIT_FAIL;
	clock_gettime(CLOCK_MONOTONIC, &cur->mono);
	clock_gettime(CLOCK_REALTIME, &cur->wall);
	rc = k->ops->read_vmstat(k, &cur->vm);
	if (rc) {
		memset(&cur->vm, 0, sizeof(cur->vm));
		if (!*vm_warned)
			pcp_warn("cannot read %s: %s; no pgalloc/pgfree rates",
				 sysroot_name(k->root, PATH_VMSTAT), strerror(-rc));
		*vm_warned = true;
	}
	rc = watch_sample_build(&zi, sel, o->per_cpu, cur);
	zoneinfo_free(&zi);
	if (rc) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The table sized by the first sample, and a note of the columns a terminal left out. */
/*
 * A sample whose zones' managed pages moved since the last one: its batch
 * and high may have moved with them, and not by any setting.  On stderr,
 * so that the rows stay a table; JSON Lines carry managed_change.
 */
static void note_moved(const struct watch_sample *prev, const struct watch_sample *cur)
{
	for (size_t i = 0; prev && i < cur->nzones; i++) {
		const struct watch_zone *z = &cur->zones[i];
		long long change;

		if (watch_managed_change(prev, cur, i, &change) && change)
			pcp_note("node %d zone %s: managed pages %s by %lld since the last sample; "
				 "its limits follow them", z->node, z->name,
				 change > 0 ? "grew" : "shrank", change > 0 ? change : -change);
	}
}

static int fit_table(struct interval_table *t, const struct watch_sample *first, bool per_cpu)
{
	int width = terminal_width();
	char *left;

	if (interval_table_fit(t, first, per_cpu, width)) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	left = interval_table_left_out(t);
	if (left)
		pcp_note("left out for a terminal of %d columns: %s (--json has them all)", width,
			 left);
	free(left);
	return EXIT_OK;
}

int interval_run(const struct sysroot *root, const struct interval_opts *o,
	      const struct watch_select *sel)
{
	struct watch_sample samples[2] = { 0 };
	struct interval_table table = { 0 };
	struct watch_sample *prev = NULL, *cur = &samples[0];
	struct timespec due;
	bool vm_warned = false;
	sigset_t stop;
	struct kernel *k;
	int rc = EXIT_OK;

	k = kernel_open(root);
	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	clock_gettime(CLOCK_MONOTONIC, &due);
	for (long n = 0; o->count == 0 || n < o->count; n++) {
		if (n > 0) {
			timespec_add(&due, o->interval);
			if (wait_until(&due, &stop))
				break;
		}
		rc = take_sample(k, o, sel, &vm_warned, cur);
		if (rc)
			break;
		if (n == 0 && !o->json && (rc = fit_table(&table, cur, o->per_cpu)))
			break;
		if (o->json) {
			interval_print_json(stdout, prev, cur, o->per_cpu);
		} else {
			int err = n == 0 && !o->noheadings ? interval_print_header(stdout, &table) : 0;

			err = err ? err : interval_print_rows(stdout, &table, prev, cur);
			if (err) {
				rc = rows_print_failed(err);
				break;
			}
		}
		/* Each sample goes out whole, to a pipe or a file as well. */
		if (msg_flush_stdout()) {
			rc = EXIT_FAIL;
			break;
		}
		if (!o->json)
			note_moved(prev, cur);
		if (prev)
			watch_sample_free(prev);
		prev = cur;
		cur = cur == &samples[0] ? &samples[1] : &samples[0];
	}
	watch_sample_free(&samples[0]);
	watch_sample_free(&samples[1]);
	interval_table_free(&table);
	k->ops->close(k);
	/*
	 * The signals stay blocked: main returns next, and a second Ctrl-C
	 * pressed meanwhile must not kill the process half-way out.
	 */
	return rc;
}
