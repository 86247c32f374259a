/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl set, reset and rollback: requests in, reports out. */
#ifndef PCPCTL_CHANGE_H
#define PCPCTL_CHANGE_H

#include <stdbool.h>

#include "apply.h"

struct sysroot;

struct change_opts {
	const char *batch, *fraction;	/* as given on the command line */
	bool dry_run, persist, persist_only, json;
};

/*
 * What set (or with reset, reset) and rollback would write, into write[],
 * for the command table to check this process may before the command runs:
 * an exit code, after the command's usage and interface checks (exits 2
 * and 3 come first).
 */
int change_writes(const struct sysroot *root, const struct change_opts *o, bool reset,
		  bool write[NSYSCTLS]);
int rollback_writes(const struct sysroot *root, bool discard, bool write[NSYSCTLS]);

int cmd_set(const struct sysroot *root, const struct change_opts *o);
int cmd_reset(const struct sysroot *root, const struct change_opts *o);
/* discard: rollback --discard, remove a journal that can never be applied. */
int cmd_rollback(const struct sysroot *root, bool json, bool discard);

/* The listener that says what the transaction tells (apply.h), as pcpctl words it. */
struct apply_listener change_listener(const struct sysroot *root);

/*
 * The exit code (enum pcpctl_exit) of what came of a change, after saying
 * what the transaction left for the command layer to say.
 */
int change_exit(const struct sysroot *root, enum change_status st);
/*
 * EXIT_OK, or EXIT_USAGE after saying that value is out of range for --batch
 * (up to this kernel's maximum, batch_limit()) or --fraction.
 */
int change_value_usage(const struct sysroot *root, bool batch, long value);

#endif
