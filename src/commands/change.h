/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl set, reset and rollback: requests in, reports out. */
#ifndef PCPCTL_CHANGE_H
#define PCPCTL_CHANGE_H

#include <stdbool.h>

#include "apply.h"

struct kernel;
struct sysroot;

struct change_opts {
	const char *batch, *fraction;	/* as given on the command line */
	bool dry_run, persist, persist_only, json;
};

/*
 * What set, reset and rollback are to do, worked out once before they run:
 * the command table checks this process may write plan.write (for rollback
 * the only part filled besides k), then the command runs what was prepared.
 * Every warning from the start of prepare on is recorded for the report.
 */
struct change_prep {
	struct kernel *k;
	struct change_request req;
	struct apply_plan plan;
};

/* What a prepared change_prep holds, whatever came of it. */
void change_prep_free(struct change_prep *p);

/*
 * The exit code (enum pcpctl_exit) of what came of a change, after saying
 * what the transaction left for the command layer to say.
 */
int change_exit(const struct sysroot *root, enum change_status st);
/*
 * EXIT_OK, or EXIT_USAGE after saying that value is out of range for --batch
 * (up to this kernel's maximum, batch_limit()) or --fraction.
 */
int change_value_usage(struct kernel *k, bool batch, long value);

#endif
