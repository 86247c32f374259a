/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simulated kernel without pcpctl: boot a tree, or write one sysctl as
 * `echo N > /proc/sys/vm/NAME` would, so that tests can check the
 * simulator's own numbers against real captures and set up trees.
 * Usage: simctl DIR boot
 *        simctl DIR write NAME VALUE
 *        simctl DIR move WHAT...   (memory, a watermark or a CPU; see sim_move())
 * Exit 0, or 1 with the errno of the failure on stderr; 2 on bad usage.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "numparse.h"
#include "simkernel.h"
#include "sysroot.h"

int main(int argc, char **argv)
{
	struct sysroot *root;
	struct kernel *k;
	long value = 0;
	int s = -1, rc;

	bool boot = argc == 3 && strcmp(argv[2], "boot") == 0;
	bool move = argc >= 4 && strcmp(argv[2], "move") == 0;

	if (!boot && !move && argc == 5 && strcmp(argv[2], "write") == 0 &&
	    parse_long(argv[4], LONG_MIN, LONG_MAX, &value) == 0)
		s = sysctl_by_name(argv[3]);
	if (!boot && !move && s < 0) {
		fprintf(stderr, "usage: simctl DIR boot | simctl DIR write NAME VALUE | "
			"simctl DIR move WHAT...\n");
		return 2;
	}
	root = sysroot_open(argv[1]);
	k = root ? kernel_open(root) : NULL;
	if (!k) {
		fprintf(stderr, "simctl: %s\n", strerror(ENOMEM));
		sysroot_free(root);
		return 1;
	}
	if (boot)
		rc = sim_boot(k);
	else if (move)
		rc = sim_move(k, argc - 3, argv + 3);
	else
		rc = k->ops->write_sysctl(k, (enum pcp_sysctl)s, value);
	if (rc)
		fprintf(stderr, "simctl: %s %s: %s\n", argv[1], argv[2], strerror(-rc));
	k->ops->close(k);
	sysroot_free(root);
	return rc ? 1 : 0;
}
