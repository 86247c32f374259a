/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockprof.c - cpu-clock samples on every CPU, counted in and out of the
 * spinlock slowpath
 */
#include "lockprof.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "sysroot.h"

/* 1 kHz: a 10 s point gives 10,000 samples per CPU, overhead stays low */
#define SAMPLE_HZ	1000
/* 64 KiB per CPU, drained every 50 ms: 50 samples of 16 bytes a time */
#define RING_PAGES	16
#define DRAIN_NS	50000000L

static const char *const slowpaths[LOCKPROF_NSYMS] = {
	"native_queued_spin_lock_slowpath",
	"__pv_queued_spin_lock_slowpath",
};

/* A line of kallsyms: "ADDRESS TYPE NAME", NAME up to the line's end. */
struct symbol {
	char line[256];
	uint64_t addr;
	char type;
	const char *name;
};

/*
 * Read the symbol on the line at *at into sym and step *at past the line;
 * false at the end of text.  A line that is no symbol reads as type '?'.
 * (sscanf on the whole 5 MB text would measure its length at every line.)
 */
static bool next_symbol(const char **at, struct symbol *sym)
{
	const char *l = *at;
	size_t len = strcspn(l, "\n");
	char *end;

	if (!*l)
		return false;
	snprintf(sym->line, sizeof(sym->line), "%.*s",
		 (int)(len < sizeof(sym->line) ? len : sizeof(sym->line) - 1), l);
	*at = l[len] ? l + len + 1 : l + len;
	errno = 0;
	sym->addr = strtoull(sym->line, &end, 16);
	sym->type = '?';
	sym->name = "";
	if (end != sym->line && !errno && end[0] == ' ' && end[1] && end[2] == ' ') {
		sym->type = end[1];
		sym->name = end + 3;
	}
	return true;
}

int lockprof_find(const char *text, struct lockprof_range *r)
{
	bool found = false, zero = false;
	struct symbol sym;

	memset(r, 0, sizeof(*r));
	for (const char *l = text; next_symbol(&l, &sym);)
		for (int i = 0; i < LOCKPROF_NSYMS; i++)
			if ((sym.type == 't' || sym.type == 'T') &&
			    strcmp(sym.name, slowpaths[i]) == 0) {
				r->lo[i] = sym.addr;
				found = true;
				zero |= sym.addr == 0;
			}
	if (!found)
		return -ENOENT;
	if (zero)
		return -EPERM;
	/* a function ends where the next symbol starts */
	for (const char *l = text; next_symbol(&l, &sym);)
		for (int i = 0; i < LOCKPROF_NSYMS; i++)
			if (sym.type != '?' && r->lo[i] && sym.addr > r->lo[i] &&
			    (!r->hi[i] || sym.addr < r->hi[i]))
				r->hi[i] = sym.addr;
	for (int i = 0; i < LOCKPROF_NSYMS; i++)
		if (r->lo[i] && !r->hi[i])
			r->hi[i] = r->lo[i] + 1;
	return 0;
}

struct lockprof {
	struct lockprof_range range;
	int *fds;
	void **rings;
	size_t ncpus;
	long page;
	pthread_t drainer;
	bool draining;
	atomic_bool stop;
	uint64_t total, inlock;
};

static bool in_slowpath(const struct lockprof_range *r, uint64_t ip)
{
	for (int i = 0; i < LOCKPROF_NSYMS; i++)
		if (ip >= r->lo[i] && ip < r->hi[i])
			return true;
	return false;
}

/* Count the samples a ring holds and hand its space back to the kernel. */
static void drain_ring(struct lockprof *lp, void *ring)
{
	struct perf_event_mmap_page *meta = ring;
	unsigned char *data = (unsigned char *)ring + lp->page;
	uint64_t size = (uint64_t)RING_PAGES * (uint64_t)lp->page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		unsigned char rec[64];

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + sizeof(uint64_t) &&
		    h.size <= sizeof(rec)) {
			uint64_t ip;

			for (size_t i = 0; i < h.size; i++)
				rec[i] = data[(tail + i) % size];
			memcpy(&ip, rec + sizeof(h), sizeof(ip));
			lp->total++;
			lp->inlock += in_slowpath(&lp->range, ip);
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain_all(struct lockprof *lp)
{
	for (size_t c = 0; c < lp->ncpus; c++)
		drain_ring(lp, lp->rings[c]);
}

static void *drainer(void *arg)
{
	struct lockprof *lp = arg;
	const struct timespec tick = { .tv_nsec = DRAIN_NS };

	while (!atomic_load(&lp->stop)) {
		nanosleep(&tick, NULL);
		drain_all(lp);
	}
	return NULL;
}

static int open_cpu(int cpu)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = SAMPLE_HZ,
		.freq = 1,
		.sample_type = PERF_SAMPLE_IP,
		.disabled = 1,
	};

	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int paranoid(void)
{
	char *text = NULL;
	size_t len;
	int v = -100;

	if (read_whole_file("/proc/sys/kernel/perf_event_paranoid", &text, &len) == 0)
		v = (int)strtol(text, NULL, 10);
	free(text);
	return v;
}

struct lockprof *lockprof_open(char *why, size_t why_len)
{
	struct lockprof *lp = calloc(1, sizeof(*lp));
	char *syms = NULL;
	size_t len;
	int rc, ncpus = get_nprocs_conf();

	if (!lp) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	lp->page = sysconf(_SC_PAGESIZE);
	rc = read_whole_file(PATH_KALLSYMS, &syms, &len);
	if (rc) {
		snprintf(why, why_len, "cannot read %s: %s", PATH_KALLSYMS, strerror(-rc));
		goto fail;
	}
	rc = lockprof_find(syms, &lp->range);
	free(syms);
	if (rc == -ENOENT) {
		snprintf(why, why_len, "%s has no queued spinlock slowpath", PATH_KALLSYMS);
		goto fail;
	}
	if (rc == -EPERM) {
		snprintf(why, why_len, "%s hides its addresses (kptr_restrict; run as root)",
			 PATH_KALLSYMS);
		goto fail;
	}
	lp->fds = calloc((size_t)ncpus, sizeof(*lp->fds));
	lp->rings = calloc((size_t)ncpus, sizeof(*lp->rings));
	if (!lp->fds || !lp->rings) {
		snprintf(why, why_len, "out of memory");
		goto fail;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = open_cpu(cpu);
		void *ring;

		/* an offline CPU has nothing to sample */
		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0) {
			if (errno == EACCES || errno == EPERM)
				snprintf(why, why_len, "perf_event_open is not allowed "
					 "(kernel.perf_event_paranoid is %d; run as root)", paranoid());
			else
				snprintf(why, why_len, "perf_event_open on CPU %d: %s", cpu,
					 strerror(errno));
			goto fail;
		}
		ring = mmap(NULL, (size_t)(RING_PAGES + 1) * (size_t)lp->page,
			    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (ring == MAP_FAILED) {
			snprintf(why, why_len, "cannot map the samples of CPU %d: %s", cpu,
				 strerror(errno));
			close(fd);
			goto fail;
		}
		lp->fds[lp->ncpus] = fd;
		lp->rings[lp->ncpus++] = ring;
	}
	if (!lp->ncpus) {
		snprintf(why, why_len, "no CPU to sample");
		goto fail;
	}
	return lp;
fail:
	lockprof_close(lp);
	return NULL;
}

int lockprof_start(struct lockprof *lp)
{
	int rc;

	drain_all(lp);
	lp->total = lp->inlock = 0;
	for (size_t c = 0; c < lp->ncpus; c++)
		if (ioctl(lp->fds[c], PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	atomic_store(&lp->stop, false);
	rc = pthread_create(&lp->drainer, NULL, drainer, lp);
	if (rc)
		return -rc;
	lp->draining = true;
	return 0;
}

int lockprof_stop(struct lockprof *lp, double *pct)
{
	int rc = 0;

	for (size_t c = 0; c < lp->ncpus; c++)
		if (ioctl(lp->fds[c], PERF_EVENT_IOC_DISABLE, 0) < 0 && !rc)
			rc = -errno;
	if (lp->draining) {
		atomic_store(&lp->stop, true);
		pthread_join(lp->drainer, NULL);
		lp->draining = false;
	}
	drain_all(lp);
	if (rc)
		return rc;
	if (!lp->total)
		return -ENODATA;
	*pct = 100.0 * (double)lp->inlock / (double)lp->total;
	return 0;
}

void lockprof_close(struct lockprof *lp)
{
	if (!lp)
		return;
	if (lp->draining) {
		double pct;

		lockprof_stop(lp, &pct);
	}
	for (size_t c = 0; lp->rings && lp->fds && c < lp->ncpus; c++) {
		munmap(lp->rings[c], (size_t)(RING_PAGES + 1) * (size_t)lp->page);
		close(lp->fds[c]);
	}
	free(lp->fds);
	free(lp->rings);
	free(lp);
}
