/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the sysctl.d files set for the pcp keys at boot, read the way
 * systemd-sysctl (systemd 252, Debian 12) reads them: the *.conf files of
 * /etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d and
 * /usr/lib/sysctl.d, a name taken by the first of those directories that
 * has it (so /etc masks the others, and a link to /dev/null masks with
 * nothing), all sorted by name across the directories, the assignments read
 * in that order, the last one that changes a key's value winning.  A key
 * named without a glob beats any glob that matches it; among globs the last
 * wins.  /etc/sysctl.conf counts only through a link to it, such as
 * Debian's /etc/sysctl.d/99-sysctl.conf.
 */
#ifndef PCPCTL_SYSCTLD_H
#define PCPCTL_SYSCTLD_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"

struct sysroot;
struct persisted;

/* A line of a sysctl.d file that applies to a pcp key. */
struct sysctld_line {
	char *file;		/* the sysctl.d entry, absolute (with the sysroot) */
	char *target;		/* what the entry links to, or NULL when it is no link */
	char *key;		/* as written, without a leading '-' */
	char *value;		/* NULL for "-key" without "=": not set, not even by a glob */
	bool glob;
};

struct sysctld_key {
	struct sysctld_line *lines;	/* in the order systemd-sysctl reads them */
	size_t n;
	long winner;		/* the line in force at boot, or -1 when no line is */
};

struct sysctld {
	struct sysctld_key key[NSYSCTLS];
};

/*
 * Read the files under root.  With ours, etc/sysctl.d/90-pcpctl.conf is
 * taken to hold ours instead of what it holds now (for a dry run).  A file
 * that cannot be read is warned about and left out.  0 or -ENOMEM after
 * saying so.
 */
int sysctld_read(const struct sysroot *root, const struct persisted *ours, struct sysctld *d);
void sysctld_free(struct sysctld *d);

#endif
