/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel interface over the real files under the sysroot. */
#include <errno.h>
#include <stdio.h>

#include <libproc2/vmstat.h>

#include "kernel.h"
#include "sysroot.h"

static int live_write_sysctl(struct kernel *k, enum pcp_sysctl s, long value)
{
	char file[64], text[32];

	snprintf(text, sizeof(text), "%ld\n", value);
	/* Not through a link: under a sysroot, a planted one must not redirect the write. */
	return sysroot_write_string(k->root, sysctl_file(s, file, sizeof(file)), text);
}

/*
 * libproc2 for the live system, as vmstat(8) reads it; select rather than
 * get, since get re-reads the file at most once a second and the interval
 * may be shorter.  Under a sysroot, the tree's file.
 */
static int live_read_vmstat(struct kernel *k, struct vm_counters *c)
{
	static enum vmstat_item items[NVMCOUNTERS] = {
		[VM_PGALLOC_DMA] = VMSTAT_PGALLOC_DMA,
		[VM_PGALLOC_DMA32] = VMSTAT_PGALLOC_DMA32,
		[VM_PGALLOC_NORMAL] = VMSTAT_PGALLOC_NORMAL,
		[VM_PGALLOC_HIGH] = VMSTAT_PGALLOC_HIGH,
		[VM_PGALLOC_MOVABLE] = VMSTAT_PGALLOC_MOVABLE,
		[VM_PGFREE] = VMSTAT_PGFREE,
	};
	struct vmstat_info *info = NULL;
	struct vmstat_stack *stack;
	int rc;

	if (!sysroot_is_live(k->root))
		return kernel_read_vmstat_file(k, c);
	rc = procps_vmstat_new(&info);
	if (rc < 0)
		return rc;
	stack = procps_vmstat_select(info, items, NVMCOUNTERS);
	if (!stack) {
		rc = errno ? -errno : -EIO;
		procps_vmstat_unref(&info);
		return rc;
	}
	/* libproc2 reports 0 for a counter this kernel lacks; so be it. */
	for (int v = 0; v < NVMCOUNTERS; v++)
		c->value[v] = stack->head[v].result.ul_int;
	c->present = (1u << NVMCOUNTERS) - 1;
	procps_vmstat_unref(&info);
	return 0;
}

static const struct kernel_ops live_ops = {
	.open_zoneinfo = kernel_open_zoneinfo_file,
	.read_sysctl = kernel_read_sysctl_file,
	.read_vmstat = live_read_vmstat,
	.write_sysctl = live_write_sysctl,
	.close = kernel_free,
};

struct kernel *kernel_open(const struct sysroot *root)
{
	return kernel_new(root, &live_ops);
}
