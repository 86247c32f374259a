/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sets of CPU or node ids given in the kernel's list syntax ("0-3,8"). */
#ifndef PCPCTL_IDLIST_H
#define PCPCTL_IDLIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The kernel's largest CONFIG_NR_CPUS is 8192 and MAX_NUMNODES 1024; allow
 * well past both so a list is never refused for a real machine, while
 * "0-4000000000" cannot make us allocate gigabytes.
 */
#define IDLIST_MAX_ID 65535

struct idlist {
	unsigned char *bits;
	size_t nbits;
};

/* Returns 0, -EINVAL (syntax) or -ERANGE (id above IDLIST_MAX_ID, reversed range). */
int idlist_parse(const char *text, struct idlist *out);
bool idlist_has(const struct idlist *set, long id);
void idlist_free(struct idlist *set);

#endif
