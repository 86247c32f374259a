/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runas.h - the user a sweep's workload runs as
 *
 * pcpctl runs as root to write /proc/sys/vm, but what it measures need not:
 * a uid 0 process without capabilities still owns /etc, /proc/sys and every
 * root-owned file.  Each workload process becomes an ordinary user after
 * fork, before it runs anything: page_fault1's tasks before their first
 * fault, a COMMAND before exec.
 */
#ifndef PCPCTL_RUNAS_H
#define PCPCTL_RUNAS_H

#include <stdbool.h>
#include <sys/types.h>

struct runas {
	uid_t uid;
	gid_t gid;
	gid_t *groups;		/* the supplementary groups, malloc'ed */
	int ngroups;
	char name[64];		/* for messages: the user's name, or its number */
};

/*
 * Find the user: a name or a number (--user), or, for NULL, the one who ran
 * sudo (SUDO_UID and SUDO_GID) and else "nobody".  Root is refused: it is
 * what the workload must not be.
 * Returns 0, -ENOENT (no such user), -EPERM (root), -EINVAL (a SUDO_UID or
 * SUDO_GID that is no id) or -ENOMEM.
 */
int runas_find(const char *user, struct runas *ra);
void runas_free(struct runas *ra);

/*
 * In a child after fork, before it runs the workload: become ra's user
 * for good (supplementary groups, real, effective and saved ids), with the
 * secure bits that stop a uid 0 from meaning capabilities locked.  The
 * parent must have kept CAP_SETUID, CAP_SETGID and CAP_SETPCAP permitted.
 * Returns 0 or a negative errno; -EPERM also when root could be regained.
 */
int runas_enter(const struct runas *ra);

#endif /* PCPCTL_RUNAS_H */
