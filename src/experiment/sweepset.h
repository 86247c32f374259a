/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepset.h - the sweep files of compare and plot: read, labelled, and
 * checked to be one experiment
 */
#ifndef PCPCTL_SWEEPSET_H
#define PCPCTL_SWEEPSET_H

#include <stddef.h>

#include "sweepfile.h"

struct sweep_input {
	const char *path;
	/*
	 * --label, else "host kernel", else the host, else the file's name;
	 * one that another file's shares gets its file's name after it
	 */
	char *label;
	struct sweepfile f;
};

/*
 * Read every file of the NULL-terminated files, at least min of them, with
 * labels (NULL-terminated, none or one per file).  cmd names the command in
 * messages.  On success *in holds *nin inputs of one parameter and one
 * workload and the result is EXIT_OK; else a message is printed, *in is
 * NULL, and the result is EXIT_USAGE (a wrong count, a file of another
 * experiment) or EXIT_FAIL (unreadable, not a sweep's JSON, no memory).
 */
int sweepset_load(const char *cmd, size_t min, char *const *files, const char **labels,
		  struct sweep_input **in, size_t *nin);

void sweepset_free(struct sweep_input *in, size_t nin);

/* A file as messages name it: "-" is standard input. */
const char *sweepset_name(const char *path);

#endif
