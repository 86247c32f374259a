/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_procattr.c - the CPU time of a sweep point put down to other tasks,
 * from two snapshots; and the live snapshot of this test's own process
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "c.h"
#include "procattr.h"
#include "sysload.h"

#define T(p, pp, c, b, t, name) { .pid = (p), .ppid = (pp), .cpu = (c), .began = (b), \
				  .ticks = (t), .comm = name }

/* A point on a 100 Hz machine, pcpctl being pid 500. */
static void test_diff(void **state)
{
	struct procattr_task b[] = {
		T(1, 0, 0, 1, 50, "init"),
		T(88, 2, 1, 30, 1000, "kworker/u4:2"),
		T(500, 1, 0, 900, 70, "pcpctl"),
		T(4211, 1, 1, 950, 20, "apt-get"),
		T(4300, 1, 0, 960, 5, "old"),		/* ends, and its pid is reused */
		T(4400, 1, 0, 970, 9, "idle"),
	};
	struct procattr_task e[] = {
		T(4211, 1, 0, 950, 55, "apt-get"),	/* 35 ticks, moved CPU 1 -> 0 */
		T(88, 2, 1, 30, 1012, "kworker/u4:2"),	/* 12 ticks */
		T(1, 0, 0, 1, 50, "init"),		/* none */
		T(500, 1, 1, 900, 400, "pcpctl"),	/* self */
		T(501, 500, 0, 990, 300, "pcpctl"),	/* the workload */
		T(502, 501, 1, 991, 300, "pcpctl"),	/* and its child */
		T(4300, 1, 1, 995, 7, "new"),		/* began during the point: all 7 */
		T(4400, 1, 0, 970, 9, "idle"),
		T(4500, 4500, 1, 996, 12, "loop"),	/* its own parent: no loop forever */
	};
	struct procattr_snap sb = { b, ARRAY_SIZE(b) }, se = { e, ARRAY_SIZE(e) };
	struct procattr_user top[PROCATTR_TOP];
	size_t n = 99;

	(void)state;
	assert_int_equal(procattr_diff(&sb, &se, 500, 100, top, ARRAY_SIZE(top), &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(top[0].pid, 4211);
	assert_string_equal(top[0].comm, "apt-get");
	assert_true(top[0].cpu_s > 0.3499 && top[0].cpu_s < 0.3501);
	assert_int_equal(top[0].ncpus, 2);
	assert_int_equal(top[0].cpus[0], 1);
	assert_int_equal(top[0].cpus[1], 0);
	/* equal times by pid */
	assert_int_equal(top[1].pid, 88);
	assert_int_equal(top[1].ncpus, 1);
	assert_int_equal(top[2].pid, 4500);
	assert_int_equal(top[3].pid, 4300);
	assert_string_equal(top[3].comm, "new");
	assert_true(top[3].cpu_s > 0.0699 && top[3].cpu_s < 0.0701);
	assert_int_equal(top[3].ncpus, 1);
	assert_int_equal(top[3].cpus[0], 1);

	/* the largest two only */
	assert_int_equal(procattr_diff(&sb, &se, 500, 100, top, 2, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(top[1].pid, 88);
	/* nothing before: everything of end counts, but never self's */
	sb.n = 0;
	assert_int_equal(procattr_diff(&sb, &se, 500, 100, top, ARRAY_SIZE(top), &n), 0);
	assert_int_equal(n, PROCATTR_TOP);
	for (size_t i = 0; i < n; i++)
		assert_true(top[i].pid != 500 && top[i].pid != 501 && top[i].pid != 502);
	assert_int_equal(procattr_diff(&sb, &se, 500, 0, top, ARRAY_SIZE(top), &n), -EINVAL);
}

/* The library's snapshot of the live system holds this process and its parent. */
static void test_snap_live(void **state)
{
	struct procattr_snap s;
	int self = 0, parent = 0;
	char comm[PROCATTR_COMM_MAX] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	(void)state;
	/* the kernel's name, which valgrind's is not "test_procattr" */
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	assert_int_equal(procattr_snap(&s), 0);
	for (size_t i = 0; i < s.n; i++) {
		if (s.task[i].pid == getpid()) {
			self++;
			assert_int_equal(s.task[i].ppid, getppid());
			assert_string_equal(s.task[i].comm, comm);
		}
		parent += s.task[i].pid == getppid();
	}
	assert_int_equal(self, 1);
	assert_int_equal(parent, 1);
	procattr_snap_free(&s);
}

static void test_words(void **state)
{
	struct procattr_user u[] = {
		{ .pid = 4211, .comm = "apt-get" }, { .pid = 88, .comm = "kworker/u4:2" },
		{ .pid = 7, .comm = "\033[31mred" }, { .pid = 9, .comm = "fourth" },
	};
	char buf[256];

	(void)state;
	sysload_disturbed_words(buf, sizeof(buf), 0.35, 0, true, u, 2);
	assert_string_equal(buf, "disturbed, 0.35 CPU by apt-get (pid 4211), kworker/u4:2 (pid 88)");
	/* SYSLOAD_NAMED of them, escaped */
	sysload_disturbed_words(buf, sizeof(buf), 0.35, 0, true, u, 4);
	assert_string_equal(buf, "disturbed, 0.35 CPU by apt-get (pid 4211), kworker/u4:2 (pid 88), "
			    "\\x1b[31mred (pid 7)");
	sysload_disturbed_words(buf, sizeof(buf), 0.35, 0, false, NULL, 0);
	assert_string_equal(buf, "disturbed, 0.35 CPU by other processes");
	sysload_disturbed_words(buf, sizeof(buf), 0.35, 0, true, u, 0);
	assert_string_equal(buf, "disturbed, 0.35 CPU by processes that ended during the point");
	sysload_disturbed_words(buf, sizeof(buf), 0.02, 0.4, true, u, 0);
	assert_string_equal(buf, "disturbed, 0.40 CPU taken by the hypervisor");
	sysload_disturbed_words(buf, sizeof(buf), 0.2, 0.4, true, u, 1);
	assert_string_equal(buf, "disturbed, 0.20 CPU by apt-get (pid 4211); 0.40 CPU taken by the hypervisor");
	/* cut, never past the buffer */
	sysload_disturbed_words(buf, 20, 0.35, 0, true, u, 2);
	assert_string_equal(buf, "disturbed, 0.35 CPU");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_snap_live),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
