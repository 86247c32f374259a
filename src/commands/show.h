/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl show: pagesets and per-zone summaries. */
#ifndef PCPCTL_SHOW_H
#define PCPCTL_SHOW_H

#include <stdbool.h>

#include "columns.h"

struct sysroot;

struct show_opts {
	struct out_opts out;
	const char *nodes;	/* --node LIST */
	const char *zones;	/* --zone NAME[,NAME] */
	const char *cpus;	/* --cpu LIST */
	bool summary;
	bool per_cpu;		/* --per-cpu: one row per CPU, also with --interval */
	const char *interval;	/* --interval SEC: sample until stopped or --count */
	const char *count;	/* --count N */
};

int cmd_show(const struct sysroot *root, const struct show_opts *opts);

/* For --help: the column tables. */
void show_columns_help(FILE *out);

#endif
