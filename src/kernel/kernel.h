/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The narrow interface through which pcpctl reads and changes the kernel:
 * zoneinfo, and the pcp sysctls.  The live kernel implements it over files
 * under the sysroot; the tests' simulated kernel implements it over a model
 * that recomputes batch and high as real kernels do.
 */
#ifndef PCPCTL_KERNEL_H
#define PCPCTL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

enum pcp_sysctl {
	SYSCTL_BATCH,		/* vm.percpu_pagelist_batch, from our kernel patch */
	SYSCTL_HIGH_FRACTION,	/* vm.percpu_pagelist_high_fraction, 5.14+ */
	SYSCTL_FRACTION,	/* vm.percpu_pagelist_fraction, up to 5.13 */
	NSYSCTLS
};

/* The counters of /proc/vmstat that the interval mode and the sweep read. */
enum vm_counter {
	VM_PGALLOC_DMA,
	VM_PGALLOC_DMA32,
	VM_PGALLOC_NORMAL,
	VM_PGALLOC_HIGH,	/* pgalloc_high: the HighMem zones */
	VM_PGALLOC_MOVABLE,
	VM_PGFREE,
	VM_PGFAULT,
	NVMCOUNTERS
};

struct vm_counters {
	unsigned long long value[NVMCOUNTERS];
	unsigned present;	/* bit (1 << enum vm_counter) per counter the kernel has */
};

struct kernel;

struct kernel_ops {
	/* /proc/zoneinfo opened for reading: an fd, or a negative errno. */
	int (*open_zoneinfo)(struct kernel *k);
	/* 0, -ENOENT when this kernel lacks the sysctl, or another negative errno. */
	int (*read_sysctl)(struct kernel *k, enum pcp_sysctl s, long *value);
	int (*write_sysctl)(struct kernel *k, enum pcp_sysctl s, long value);
	/* The vmstat counters: 0, or a negative errno (-ENOENT without the file). */
	int (*read_vmstat)(struct kernel *k, struct vm_counters *c);
	/*
	 * Called between the steps of a transaction, named for the step about
	 * to run.  Nothing for the live kernel; the simulated one can crash here.
	 */
	void (*checkpoint)(struct kernel *k, const char *step);
	void (*close)(struct kernel *k);
};

struct sysroot;

struct kernel {
	const struct kernel_ops *ops;
	const struct sysroot *root;	/* where its files are; the caller's */
	long page_size;			/* 0 until kernel_page_size() read it */
	bool page_size_assumed;
};

/* Provided by kernel_live.c in pcpctl, by the simulated kernel in pcpctl-sim. */
struct kernel *kernel_open(const struct sysroot *root);

/*
 * The pieces both implementations build on: a kernel whose close frees it,
 * zoneinfo opened from the tree, and a sysctl read from its file.
 */
struct kernel *kernel_new(const struct sysroot *root, const struct kernel_ops *ops);
void kernel_free(struct kernel *k);
int kernel_open_zoneinfo_file(struct kernel *k);
int kernel_read_sysctl_file(struct kernel *k, enum pcp_sysctl s, long *value);
int kernel_read_vmstat_file(struct kernel *k, struct vm_counters *c);

/* The name /proc/vmstat gives a counter ("pgalloc_normal"). */
const char *vm_counter_name(enum vm_counter v);
/* Parse /proc/vmstat text; counters it lacks stay out of c->present.  0 or -EINVAL. */
int vmstat_parse(const char *text, struct vm_counters *c);

const char *sysctl_name(enum pcp_sysctl s);
/* The sysctl named name (without "vm."), or -1. */
int sysctl_by_name(const char *name);
/* The path of a sysctl, as PATH_* of sysroot.h ("/proc/sys/vm/NAME"), in buf. */
const char *sysctl_file(enum pcp_sysctl s, char *buf, size_t size);
/* The full path of a sysctl under the kernel's root; malloc'ed. */
char *sysctl_path(const struct kernel *k, enum pcp_sysctl s);
/* Parse a sysctl file's content ("8\n"); 0 or -EINVAL. */
int sysctl_parse_value(const char *text, long *value);

/*
 * Read every pcp sysctl; have[s] is false for one this kernel lacks.
 * Prints each that cannot be read otherwise and returns -EIO then, else 0.
 */
int kernel_read_settings(struct kernel *k, bool have[NSYSCTLS], long value[NSYSCTLS]);

/* The kernel release from proc/sys/kernel/osrelease; malloc'ed, NULL on error (errno set). */
char *kernel_release(const struct kernel *k);

/*
 * The kernel's page size in bytes.  Live: sysconf(_SC_PAGESIZE).  Under a
 * sysroot: the first "KernelPageSize:" line of proc/self/smaps, which a
 * capture copies from the guest; a tree without that file gets 4096 and
 * *assumed (a warning, the first time k is asked, says how to record it).
 * A line that is no page size: -EINVAL after saying why.
 */
long kernel_page_size(struct kernel *k, bool *assumed);
/*
 * CONFIG_PCP_BATCH_SCALE_MAX of the running kernel, from the kernel's
 * /boot/config-RELEASE under root; -ENOENT when that file does not say.
 */
int kernel_scale_max(const struct sysroot *root);
/* Parse smaps text for its first KernelPageSize in bytes: 0 or -EINVAL (-ENOENT without one). */
int smaps_page_size(const char *text, long *bytes);

struct zoneinfo;
/*
 * Read and parse the kernel's zoneinfo.  On failure prints why, naming the
 * file and line, and returns a negative errno.
 */
int kernel_load_zoneinfo(struct kernel *k, struct zoneinfo *zi);

/*
 * MemFree of the running system in KiB, from /proc/meminfo; -1 under a
 * sysroot, or when it cannot be had.  Live only: a tree's free memory says
 * nothing about the pcp lists of the zoneinfo beside it, captured at
 * another moment.
 */
long long kernel_memfree_kib(const struct kernel *k);
/* MemFree in KiB from /proc/meminfo text, or -1 when it has none. */
long long meminfo_memfree_kib(const char *text);

#endif
