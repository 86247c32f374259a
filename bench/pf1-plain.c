/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pf1-plain - page_fault1 without pcpctl
 *
 * The same loop as pcpctl's built-in workload, kept deliberately
 * separate from it (no shared code, no sampling machinery), so that a
 * plain run can show whether pcpctl's measurement costs throughput:
 *
 *   pf1-plain [-d SECONDS] [-w WARMUP] [-m MIB] CPU...
 *
 * One task per CPU id given, each pinned, started together; after the
 * warmup it counts the pages touched during SECONDS and prints
 * "ops/s <total over all tasks>".
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* as in pcpctl: adjacent-line prefetch pairs 64-byte lines */
struct slot {
	_Alignas(128) _Atomic uint_least64_t ops;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	/* wait(c): the measured window (manual benchmark): warmup and duration. */
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void task(int cpu, struct slot *slot, int go, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint_least64_t ops = 0;
	cpu_set_t set;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr, "pf1-plain: CPU %d: %s\n", cpu, strerror(errno));
		_exit(1);
	}
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	for (;;) {
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		madvise((void *)p, len, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len; off += page) {
			p[off] = 1;
			atomic_store_explicit(&slot->ops, ++ops,
					      memory_order_relaxed);
		}
		munmap((void *)p, len);
	}
}

static uint_least64_t total(struct slot *slots, int n)
{
	uint_least64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += atomic_load_explicit(&slots[i].ops, memory_order_relaxed);
	return sum;
}

int main(int argc, char **argv)
{
	double duration = 5, warmup = 1, t0, t1;
	size_t len = (size_t)128 << 20;
	uint_least64_t ops0, ops1;
	struct slot *slots;
	int opt, n, go[2], rc = 0;
	pid_t *pids;

	while ((opt = getopt(argc, argv, "d:w:m:")) != -1) {
		switch (opt) {
		case 'd': duration = atof(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'm': len = (size_t)atol(optarg) << 20; break;
		default:
			fprintf(stderr, "usage: %s [-d SECONDS] [-w WARMUP] [-m MIB] CPU...\n",
				argv[0]);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1 || duration <= 0 || warmup < 0 || len == 0) {
		fprintf(stderr, "usage: %s [-d SECONDS] [-w WARMUP] [-m MIB] CPU...\n",
			argv[0]);
		return 2;
	}
	slots = mmap(NULL, (size_t)n * sizeof(*slots), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)n, sizeof(*pids));
	if (slots == MAP_FAILED || !pids || pipe(go) < 0) {
		perror("pf1-plain");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("pf1-plain: fork");
			rc = 1;
			n = i;
			break;
		}
		if (pids[i] == 0) {
			close(go[1]);
			task(atoi(argv[optind + i]), &slots[i], go[0], len);
		}
	}
	close(go[1]);
	if (rc == 0) {
		/* wait(c): the measured window: warmup, then duration. */
		sleep_s(warmup);
		t0 = now();
		ops0 = total(slots, n);
		sleep_s(duration);
		t1 = now();
		ops1 = total(slots, n);
		/* a task that failed to pin has exited: don't report a rate */
		for (int i = 0; i < n; i++) {
			if (waitpid(pids[i], NULL, WNOHANG) != 0) {
				pids[i] = 0;
				rc = 1;
			}
		}
		if (rc == 0)
			printf("ops/s %.0f\n", (double)(ops1 - ops0) / (t1 - t0));
	}
	for (int i = 0; i < n; i++) {
		if (pids[i]) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
	return rc;
}
