/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockprof.c - cpu-clock samples on every CPU, counted in and out of the
 * spinlock slowpath, and in it by the pcp path that took the lock
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
/* 128 KiB per CPU, drained every 50 ms: 50 samples with callchains of up to
 * 300 addresses a time */
#define RING_PAGES	32
#define DRAIN_NS	50000000L

static const char *const names[LOCKPROF_NSYMS] = {
	[LOCKPROF_NATIVE] = "native_queued_spin_lock_slowpath",
	[LOCKPROF_PV] = "__pv_queued_spin_lock_slowpath",
	[LOCKPROF_REFILL] = "rmqueue_bulk",
	[LOCKPROF_DRAIN] = "free_pcppages_bulk",
	[LOCKPROF_REFILL_CALLER] = "__rmqueue_pcplist",
	[LOCKPROF_PLAIN] = "queued_spin_lock_slowpath",
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

/*
 * Whether a symbol is the function: its name, or a clone GCC made of it
 * (NAME.constprop.0, NAME.isra.0), but not its cold part (NAME.cold),
 * which lies elsewhere: the function would be taken to start there.
 */
static bool is_function(const struct symbol *sym, const char *name)
{
	size_t len = strlen(name);

	if ((sym->type != 't' && sym->type != 'T') || strncmp(sym->name, name, len) != 0)
		return false;
	return !sym->name[len] || (sym->name[len] == '.' && !strstr(sym->name + len, ".cold"));
}

int lockprof_find(const char *text, struct lockprof_range *r)
{
	bool found = false, zero = false;
	struct symbol sym;

	memset(r, 0, sizeof(*r));
	for (const char *l = text; next_symbol(&l, &sym);)
		for (int i = 0; i < LOCKPROF_NSYMS; i++)
			if (!r->lo[i] && is_function(&sym, names[i])) {
				r->lo[i] = sym.addr;
				found |= i == LOCKPROF_NATIVE || i == LOCKPROF_PV || i == LOCKPROF_PLAIN;
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
	if (!r->lo[LOCKPROF_REFILL]) {
		r->lo[LOCKPROF_REFILL] = r->lo[LOCKPROF_REFILL_CALLER];
		r->hi[LOCKPROF_REFILL] = r->hi[LOCKPROF_REFILL_CALLER];
	}
	return 0;
}

struct lockprof {
	struct lockprof_range range;
	bool chains;		/* the samples carry kernel callchains */
	char callers_why[160];	/* why a refill or drain share is null; "" when none is */
	int *fds;
	void **rings;
	size_t ncpus;
	long page;
	pthread_t drainer;
	bool draining;
	atomic_bool stop;
	struct lockprof_counts counts;
	unsigned char rec[65536];	/* a record put together across the ring's end */
};

static bool in(const struct lockprof_range *r, enum lockprof_sym s, uint64_t ip)
{
	return ip >= r->lo[s] && ip < r->hi[s];
}

int lockprof_count(const struct lockprof_range *r, const void *body, size_t len, bool chains,
		   struct lockprof_counts *c)
{
	const unsigned char *b = body;
	uint64_t ip, nr = 0;

	if (len < sizeof(ip) || (chains && len < 2 * sizeof(ip)))
		return -EBADMSG;
	memcpy(&ip, b, sizeof(ip));
	if (chains) {
		memcpy(&nr, b + sizeof(ip), sizeof(nr));
		if (nr > (len - 2 * sizeof(ip)) / sizeof(ip))
			return -EBADMSG;
	}
	c->total++;
	if (!in(r, LOCKPROF_NATIVE, ip) && !in(r, LOCKPROF_PV, ip) && !in(r, LOCKPROF_PLAIN, ip))
		return 0;
	c->lock++;
	/* innermost first; the context markers (PERF_CONTEXT_KERNEL...) lie in no function */
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t at;

		memcpy(&at, b + (2 + i) * sizeof(at), sizeof(at));
		if (in(r, LOCKPROF_REFILL, at)) {
			c->refill++;
			break;
		}
		if (in(r, LOCKPROF_DRAIN, at)) {
			c->drain++;
			break;
		}
	}
	return 0;
}

int lockprof_share(const struct lockprof_range *r, const struct lockprof_counts *c, bool chains,
		   struct lockprof_share *s)
{
	if (!c->total)
		return -ENODATA;
	s->lock_pct = 100.0 * (double)c->lock / (double)c->total;
	s->has_refill = chains && r->lo[LOCKPROF_REFILL];
	s->has_drain = chains && r->lo[LOCKPROF_DRAIN];
	s->refill_pct = 100.0 * (double)c->refill / (double)c->total;
	s->drain_pct = 100.0 * (double)c->drain / (double)c->total;
	return 0;
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

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			for (size_t i = 0; i < h.size; i++)
				lp->rec[i] = data[(tail + i) % size];
			/* a record the kernel wrote is whole: nothing to do about a bad one */
			(void)lockprof_count(&lp->range, lp->rec + sizeof(h), h.size - sizeof(h),
					     lp->chains, &lp->counts);
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

static int open_cpu(int cpu, bool chains)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = SAMPLE_HZ,
		.freq = 1,
		.sample_type = PERF_SAMPLE_IP | (chains ? PERF_SAMPLE_CALLCHAIN : 0),
		/* the callers that matter are the kernel's */
		.exclude_callchain_user = chains,
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
	lp->chains = true;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = open_cpu(cpu, lp->chains);
		void *ring;

		/* a kernel without callchains for software events: the shares by caller are null */
		if (fd < 0 && lp->chains && !lp->ncpus && (errno == EINVAL || errno == EOPNOTSUPP)) {
			snprintf(lp->callers_why, sizeof(lp->callers_why),
				 "the kernel gives no callchains: %s", strerror(errno));
			lp->chains = false;
			fd = open_cpu(cpu, false);
		}

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
	if (lp->chains && !lp->range.lo[LOCKPROF_REFILL])
		snprintf(lp->callers_why, sizeof(lp->callers_why),
			 "neither %s nor its caller %s is in %s (inlined)%s",
			 names[LOCKPROF_REFILL], names[LOCKPROF_REFILL_CALLER], PATH_KALLSYMS,
			 lp->range.lo[LOCKPROF_DRAIN] ? "" : ", nor free_pcppages_bulk");
	else if (lp->chains && !lp->range.lo[LOCKPROF_DRAIN])
		snprintf(lp->callers_why, sizeof(lp->callers_why), "%s is not in %s (inlined)",
			 names[LOCKPROF_DRAIN], PATH_KALLSYMS);
	return lp;
fail:
	lockprof_close(lp);
	return NULL;
}

int lockprof_start(struct lockprof *lp)
{
	int rc;

	drain_all(lp);
	memset(&lp->counts, 0, sizeof(lp->counts));
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

int lockprof_stop(struct lockprof *lp, struct lockprof_share *s)
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
	return lockprof_share(&lp->range, &lp->counts, lp->chains, s);
}

const char *lockprof_callers_why(const struct lockprof *lp)
{
	return lp->callers_why[0] ? lp->callers_why : NULL;
}

void lockprof_close(struct lockprof *lp)
{
	if (!lp)
		return;
	if (lp->draining) {
		struct lockprof_share s;

		lockprof_stop(lp, &s);
	}
	for (size_t c = 0; lp->rings && lp->fds && c < lp->ncpus; c++) {
		munmap(lp->rings[c], (size_t)(RING_PAGES + 1) * (size_t)lp->page);
		close(lp->fds[c]);
	}
	free(lp->fds);
	free(lp->rings);
	free(lp);
}
