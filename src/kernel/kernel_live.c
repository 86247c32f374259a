/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel interface over the real files under the sysroot. */
#include <stdio.h>

#include "kernel.h"
#include "sysroot.h"

static int live_write_sysctl(struct kernel *k, enum pcp_sysctl s, long value)
{
	char file[64], text[32];

	snprintf(text, sizeof(text), "%ld\n", value);
	/* Not through a link: under a sysroot, a planted one must not redirect the write. */
	return sysroot_write_string(k->root, sysctl_file(s, file, sizeof(file)), text);
}

static const struct kernel_ops live_ops = {
	.open_zoneinfo = kernel_open_zoneinfo_file,
	.read_sysctl = kernel_read_sysctl_file,
	.read_vmstat = kernel_read_vmstat_file,
	.write_sysctl = live_write_sysctl,
	.close = kernel_free,
};

struct kernel *kernel_open(const struct sysroot *root)
{
	return kernel_new(root, &live_ops);
}
