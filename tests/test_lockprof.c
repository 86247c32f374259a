/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lockprof.c - the slowpaths located in kallsyms text, as the kernel
 * prints it to root (addresses) and to others (zeros)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lockprof.h"

/* Lines as a 6.1 x86_64 guest prints them, out of address order as module
 * symbols come last. */
static const char guest[] =
	"ffffffff81000000 T startup_64\n"
	"ffffffff82203af0 T native_queued_spin_lock_slowpath\n"
	"ffffffff82203df0 T __pv_queued_spin_lock_slowpath\n"
	"ffffffff82204150 t __raw_callee_save___pv_queued_spin_unlock_slowpath\n"
	"ffffffff82203d00 T queued_read_lock_slowpath\n"
	"ffffffffc0a01000 t nft_do_chain\t[nf_tables]\n";

static void test_find_both(void **state)
{
	struct lockprof_range r;

	(void)state;
	assert_int_equal(lockprof_find(guest, &r), 0);
	assert_true(r.lo[0] == 0xffffffff82203af0ULL);
	/* ends at the next address, queued_read_lock_slowpath, not the next line */
	assert_true(r.hi[0] == 0xffffffff82203d00ULL);
	assert_true(r.lo[1] == 0xffffffff82203df0ULL);
	assert_true(r.hi[1] == 0xffffffff82204150ULL);
}

static void test_find_native_only(void **state)
{
	static const char text[] =
		"ffffffff8112a000 T do_page_fault\n"
		"ffffffff8112b230 T native_queued_spin_lock_slowpath\n"
		"ffffffff8112b4e0 T rmqueue_bulk\n";
	struct lockprof_range r;

	(void)state;
	assert_int_equal(lockprof_find(text, &r), 0);
	assert_true(r.lo[0] == 0xffffffff8112b230ULL && r.hi[0] == 0xffffffff8112b4e0ULL);
	assert_true(r.lo[1] == 0 && r.hi[1] == 0);
}

static void test_find_refused(void **state)
{
	static const char hidden[] =
		"0000000000000000 T startup_64\n"
		"0000000000000000 T native_queued_spin_lock_slowpath\n";
	static const char none[] = "ffffffff81000000 T startup_64\n";
	/* a data symbol of that name is no function */
	static const char data[] = "ffffffff81000000 D native_queued_spin_lock_slowpath\n";
	struct lockprof_range r;

	(void)state;
	assert_int_equal(lockprof_find(hidden, &r), -EPERM);
	assert_int_equal(lockprof_find(none, &r), -ENOENT);
	assert_int_equal(lockprof_find(data, &r), -ENOENT);
	assert_int_equal(lockprof_find("", &r), -ENOENT);
}

/*
 * Without capabilities, on a kernel that keeps kernel samples and kallsyms
 * from the unprivileged (perf_event_paranoid >= 2, as Debian's), the
 * sampling is refused with a reason, not opened half.
 */
static void test_open_unprivileged(void **state)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = -1, status;
	pid_t pid;

	(void)state;
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = -1;
		fclose(f);
	}
	if (paranoid < 2)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		cap_t none = cap_init();
		char why[256] = "";
		struct lockprof *lp;

		if (!none || cap_set_proc(none) < 0)
			_exit(2);
		lp = lockprof_open(why, sizeof(why));
		_exit(!lp && (strstr(why, "perf_event_paranoid is") || strstr(why, "hides its addresses")) ?
		      0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_both),
		cmocka_unit_test(test_find_native_only),
		cmocka_unit_test(test_find_refused),
		cmocka_unit_test(test_open_unprivileged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
