/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages to stderr, exit codes: the contract documented in pcpctl(8). */
#ifndef PCPCTL_MSG_H
#define PCPCTL_MSG_H

#include <stdbool.h>
#include <stddef.h>

enum pcpctl_exit {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* runtime failure; for set: failed, rolled back */
	EXIT_USAGE = 2,		/* bad usage or value; nothing written */
	EXIT_NOIFACE = 3,	/* the interface is missing on this kernel */
	EXIT_NOPRIV = 4,	/* insufficient privilege; nothing written */
	EXIT_ROLLBACK = 5,	/* rollback failed; journal kept */
	EXIT_FOREIGN = 6,	/* rolled back but for another writer's values, left as they are */
};

void pcp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pcp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Something done or seen that needs no action. */
void pcp_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A report's "warnings": from msg_record(true) on, every warning and note
 * is also kept as printed, without the "pcpctl: " prefix, until
 * msg_record(false) forgets them.  msg_recorded gives them in order.
 */
void msg_record(bool on);
size_t msg_recorded(const char *const **list);

#endif
