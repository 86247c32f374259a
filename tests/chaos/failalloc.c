// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An LD_PRELOAD shim for allocation-failure tests: the FAILALLOC_NTH-th
 * call of malloc, calloc, realloc, reallocarray, posix_memalign or
 * aligned_alloc in the process returns NULL with errno ENOMEM, as a
 * kernel out of memory would make it.  glibc's own allocations (strdup,
 * asprintf, fopen, getline...) go through these, so they fail too.
 * FAILALLOC_NTH=0 fails none; either way the number of calls is written
 * to the file FAILALLOC_COUNT at exit.  Only the process that loaded the
 * shim counts: the simulated kernel's children are the kernel, not pcpctl.
 * The calls are passed on to the next definition, libc's or the
 * sanitizer's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static unsigned long calls, nth;
static pid_t owner;
static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void *(*next_reallocarray)(void *, size_t, size_t);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);
static void (*next_free)(void *);

/* dlsym may allocate before the real calloc is known: serve it from here. */
static char early[4096];
static size_t early_used;
static int resolving;

static void *early_alloc(size_t size)
{
	void *p = early + early_used;

	size = (size + 15) & ~(size_t)15;
	if (early_used + size > sizeof(early))
		return NULL;
	early_used += size;
	return p;
}

static void resolve(void)
{
	if (next_malloc || resolving)
		return;
	resolving = 1;
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_reallocarray = (void *(*)(void *, size_t, size_t))dlsym(RTLD_NEXT, "reallocarray");
	next_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	next_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	resolving = 0;
}

/* A place for a debugger's breakpoint: "break failalloc_failed" shows who failed. */
__attribute__((noinline)) void failalloc_failed(void);
__attribute__((noinline)) void failalloc_failed(void)
{
	__asm__ volatile("");
}

/*
 * Whether this call is the one to fail.  Calls before libc has set up the
 * environment (a sanitizer runtime starts first) are neither counted nor
 * failed: FAILALLOC_NTH cannot be read yet.
 */
static int failing(void)
{
	static int started;

	if (resolving || !environ)
		return 0;
	if (!started) {
		const char *n = getenv("FAILALLOC_NTH");

		nth = n ? strtoul(n, NULL, 10) : 0;
		owner = getpid();
		started = 1;
	}
	if (getpid() != owner)
		return 0;
	if (++calls != nth)
		return 0;
	failalloc_failed();
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t size)
{
	resolve();
	if (!next_malloc)
		return early_alloc(size);
	return failing() ? NULL : next_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!next_calloc)
		return early_alloc(n * size);	/* static, so already zero */
	return failing() ? NULL : next_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	resolve();
	return failing() ? NULL : next_realloc(p, size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	resolve();
	return failing() ? NULL : next_reallocarray(p, n, size);
}

int posix_memalign(void **p, size_t align, size_t size)
{
	resolve();
	return failing() ? ENOMEM : next_posix_memalign(p, align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	resolve();
	return failing() ? NULL : next_aligned_alloc(align, size);
}

void free(void *p)
{
	if ((char *)p >= early && (char *)p < early + sizeof(early))
		return;
	resolve();
	/* dlsym frees its error strings while free itself is being looked up: kept. */
	if (next_free)
		next_free(p);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILALLOC_COUNT");
	unsigned long counted = calls;
	FILE *f;

	if (!path || getpid() != owner)
		return;
	nth = 0;	/* fopen allocates */
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lu\n", counted);
		fclose(f);
	}
}
