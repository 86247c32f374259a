/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lockprof.c - the slowpaths and the pcp refill and drain located in
 * kallsyms text, as the kernel prints it to root (addresses) and to others
 * (zeros); samples put down to them by their callchains
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

#include <linux/perf_event.h>

#include <cmocka.h>

#include "lockprof.h"
#include "sysroot.h"

static char *fixture(const char *name)
{
	char path[512];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/kallsyms/%s", FIXTURE_DIR, name);
	assert_int_equal(read_whole_file(path, &text, &len), 0);
	return text;
}

/*
 * Real kernels: Debian's 6.1.0-57-cloud-amd64 under QEMU, where every
 * function is there, and this machine's 6.18, where rmqueue_bulk is inlined
 * and its caller stands for it, and __pfx_ padding symbols end functions.
 */
static void test_find_fixtures(void **state)
{
	static const struct {
		const char *file;
		uint64_t lo[4], hi[4];	/* native, pv, refill, drain */
	} kernels[] = {
		{ "debian-6.1-4cpu-2node.kallsyms",
		  { 0xffffffff88c186e0ULL, 0xffffffff88c18980ULL, 0xffffffff884e4b90ULL, 0xffffffff884e2700ULL },
		  { 0xffffffff88c18980ULL, 0xffffffff88c18cf0ULL, 0xffffffff884e5160ULL, 0xffffffff884e29e0ULL } },
		{ "live-6.18-2cpu.kallsyms",
		  { 0xffffffff82203af0ULL, 0xffffffff82203df0ULL, 0xffffffff8161c5f0ULL, 0xffffffff81618530ULL },
		  { 0xffffffff82203de0ULL, 0xffffffff82204170ULL, 0xffffffff8161d0d0ULL, 0xffffffff816187d0ULL } },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		char *text = fixture(kernels[k].file);
		struct lockprof_range r;

		assert_int_equal(lockprof_find(text, &r), 0);
		for (int i = LOCKPROF_NATIVE; i <= LOCKPROF_DRAIN; i++) {
			if (r.lo[i] != kernels[k].lo[i] || r.hi[i] != kernels[k].hi[i])
				fail_msg("%s: function %d at [%#llx, %#llx), not [%#llx, %#llx)",
					 kernels[k].file, i, (unsigned long long)r.lo[i],
					 (unsigned long long)r.hi[i], (unsigned long long)kernels[k].lo[i],
					 (unsigned long long)kernels[k].hi[i]);
		}
		free(text);
	}
}

/*
 * Which symbol is the refill: a clone stands for rmqueue_bulk, its cold
 * part (listed first) does not; rmqueue_bulk wins over its caller, which
 * stands for it alone.
 */
static void test_find_refill(void **state)
{
	static const struct {
		const char *text;
		uint64_t lo, hi;
	} cases[] = {
		{ "ffffffff81000100 t rmqueue_bulk.cold\n"
		  "ffffffff81000200 t rmqueue_bulk_stats\n"
		  "ffffffff81000300 t rmqueue_bulk.constprop.0\n"
		  "ffffffff81000400 t rmqueue\n"
		  "ffffffff81000500 T native_queued_spin_lock_slowpath\n",
		  0xffffffff81000300ULL, 0xffffffff81000400ULL },
		{ "ffffffff81000100 t __rmqueue_pcplist\n"
		  "ffffffff81000200 t rmqueue_bulk\n"
		  "ffffffff81000300 T native_queued_spin_lock_slowpath\n",
		  0xffffffff81000200ULL, 0xffffffff81000300ULL },
		{ "ffffffff81000100 t __rmqueue_pcplist\n"
		  "ffffffff81000200 t rmqueue_bulk_stats\n"
		  "ffffffff81000300 T native_queued_spin_lock_slowpath\n",
		  0xffffffff81000100ULL, 0xffffffff81000200ULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lockprof_range r;

		assert_int_equal(lockprof_find(cases[i].text, &r), 0);
		assert_true(r.lo[LOCKPROF_REFILL] == cases[i].lo && r.hi[LOCKPROF_REFILL] == cases[i].hi);
		assert_true(r.lo[LOCKPROF_DRAIN] == 0);
	}
}

/* A sample record's body: the IP, then nr and the callchain. */
struct body {
	uint64_t w[8];
	size_t len;
};

static struct body sample(uint64_t ip, size_t n, const uint64_t *chain)
{
	struct body b = { .w = { ip, n }, .len = (2 + n) * sizeof(uint64_t) };

	assert_true(n <= 6);
	memcpy(&b.w[2], chain, n * sizeof(*chain));
	return b;
}

/* Samples as a 6.1 guest's kernel would take them, against the Debian 6.1 fixture. */
static void test_attribute(void **state)
{
	const uint64_t kernel = (uint64_t)PERF_CONTEXT_KERNEL;
	const uint64_t native = 0xffffffff88c186e0ULL, pv = 0xffffffff88c18980ULL;
	const uint64_t refill = 0xffffffff884e4b90ULL, drain = 0xffffffff884e2700ULL;
	const uint64_t spin_lock = 0xffffffff88c17000ULL;	/* _raw_spin_lock: outside all */
	const uint64_t drain_zone_pages = 0xffffffff884e5160ULL;	/* where rmqueue_bulk ends */
	char *text = fixture("debian-6.1-4cpu-2node.kallsyms");
	struct lockprof_counts c = { 0 };
	struct lockprof_share s;
	struct lockprof_range r;
	const struct {
		uint64_t ip;
		size_t n;
		uint64_t chain[6];
	} samples[] = {
		/* contention under a refill, in either slowpath */
		{ native + 0x40, 5, { kernel, native + 0x40, spin_lock + 0x10, refill + 0x1a3, 0xffffffff884e6000ULL } },
		{ pv + 0x10, 4, { kernel, pv + 0x10, spin_lock, refill } },
		/* under a drain, reached through a refill's caller: the nearer counts */
		{ native + 0x80, 5, { kernel, native + 0x80, drain + 0x2d0, refill + 8, 0xffffffff884e6000ULL } },
		{ native + 0x80, 3, { kernel, native + 0x80, drain + 0x2df } },
		/* contention elsewhere: right after rmqueue_bulk, before free_pcppages_bulk */
		{ native, 3, { kernel, native, drain_zone_pages } },
		{ native, 3, { kernel, native, drain - 1 } },
		/* no contention, although under a refill and right after a slowpath */
		{ refill + 0x20, 3, { kernel, refill + 0x20, 0xffffffff884e6000ULL } },
		{ 0xffffffff88c18cf0ULL, 3, { kernel, 0xffffffff88c18cf0ULL, refill } },
		/* a user-space sample: no kernel callchain */
		{ 0x55d0c0de1234ULL, 0, { 0 } },
		{ 0x55d0c0de1234ULL, 1, { (uint64_t)PERF_CONTEXT_USER } },
	};

	(void)state;
	assert_int_equal(lockprof_find(text, &r), 0);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct body b = sample(samples[i].ip, samples[i].n, samples[i].chain);

		assert_int_equal(lockprof_count(&r, b.w, b.len, true, &c), 0);
	}
	assert_true(c.total == 10 && c.lock == 6 && c.refill == 2 && c.drain == 2);
	assert_int_equal(lockprof_share(&r, &c, true, &s), 0);
	assert_true(s.lock_pct == 60.0 && s.refill_pct == 20.0 && s.drain_pct == 20.0);
	assert_true(s.has_refill && s.has_drain);
	free(text);
}

/* Without callchains the lock share stands, the shares by caller are null. */
static void test_attribute_no_chains(void **state)
{
	char *text = fixture("live-6.18-2cpu.kallsyms");
	struct lockprof_counts c = { 0 };
	struct lockprof_share s;
	struct lockprof_range r;
	const uint64_t ips[] = { 0xffffffff82203af0ULL, 0xffffffff81618530ULL, 0xffffffff82203de0ULL,
				 0xffffffff82203ddfULL };

	(void)state;
	assert_int_equal(lockprof_find(text, &r), 0);
	assert_int_equal(lockprof_share(&r, &c, false, &s), -ENODATA);
	for (size_t i = 0; i < sizeof(ips) / sizeof(ips[0]); i++)
		assert_int_equal(lockprof_count(&r, &ips[i], sizeof(ips[i]), false, &c), 0);
	assert_true(c.total == 4 && c.lock == 2 && c.refill == 0 && c.drain == 0);
	assert_int_equal(lockprof_share(&r, &c, false, &s), 0);
	assert_true(s.lock_pct == 50.0 && !s.has_refill && !s.has_drain);
	/* with chains, both are there */
	assert_int_equal(lockprof_share(&r, &c, true, &s), 0);
	assert_true(s.has_refill && s.has_drain);
	free(text);
	/* a kernel with the whole refill inlined has no refill share */
	assert_int_equal(lockprof_find("ffffffff81000100 t free_pcppages_bulk\n"
				       "ffffffff81000200 t __rmqueue_smallest\n"
				       "ffffffff81000300 T native_queued_spin_lock_slowpath\n", &r), 0);
	assert_int_equal(lockprof_share(&r, &c, true, &s), 0);
	assert_true(!s.has_refill && s.has_drain);
}

/* A body shorter than it says counts nothing. */
static void test_count_short(void **state)
{
	static const char text[] = "ffffffff81000500 T native_queued_spin_lock_slowpath\n"
				   "ffffffff81000600 T queued_read_lock_slowpath\n";
	const uint64_t chain[2] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000500ULL };
	struct lockprof_counts c = { 0 };
	struct lockprof_range r;
	struct body b = sample(0xffffffff81000500ULL, 2, chain);

	(void)state;
	assert_int_equal(lockprof_find(text, &r), 0);
	assert_int_equal(lockprof_count(&r, b.w, b.len - 1, true, &c), -EBADMSG);
	assert_int_equal(lockprof_count(&r, b.w, sizeof(uint64_t), true, &c), -EBADMSG);
	assert_int_equal(lockprof_count(&r, b.w, 4, false, &c), -EBADMSG);
	b.w[1] = UINT64_MAX;
	assert_int_equal(lockprof_count(&r, b.w, b.len, true, &c), -EBADMSG);
	assert_true(c.total == 0 && c.lock == 0);
}

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

/* A kernel without paravirt spinlocks: the patched 6.1 guest of tests/kernel (its System.map) */
static void test_find_plain(void **state)
{
	static const char text[] =
		"ffffffff812d3034 T _raw_spin_lock_irqsave\n"
		"ffffffff812d3129 T queued_spin_lock_slowpath\n"
		"ffffffff812d3317 T queued_read_lock_slowpath\n";
	const uint64_t ip = 0xffffffff812d3130ULL;
	struct lockprof_counts c = { 0 };
	struct lockprof_range r;

	(void)state;
	assert_int_equal(lockprof_find(text, &r), 0);
	assert_true(r.lo[LOCKPROF_NATIVE] == 0 && r.lo[LOCKPROF_PV] == 0);
	assert_true(r.hi[LOCKPROF_PLAIN] == 0xffffffff812d3317ULL);
	assert_int_equal(lockprof_count(&r, &ip, sizeof(ip), false, &c), 0);
	assert_true(c.total == 1 && c.lock == 1);
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
		cmocka_unit_test(test_find_plain),
		cmocka_unit_test(test_find_refused),
		cmocka_unit_test(test_find_fixtures),
		cmocka_unit_test(test_find_refill),
		cmocka_unit_test(test_attribute),
		cmocka_unit_test(test_attribute_no_chains),
		cmocka_unit_test(test_count_short),
		cmocka_unit_test(test_open_unprivileged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
