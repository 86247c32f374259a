/* pcpctl set, reset and rollback: requests in, reports out. */
#ifndef PCPCTL_CHANGE_H
#define PCPCTL_CHANGE_H

#include <stdbool.h>

struct change_opts {
	const char *batch, *fraction;	/* as given on the command line */
	bool dry_run, persist, json;
};

int cmd_set(const char *root, const struct change_opts *o);
int cmd_reset(const char *root, const struct change_opts *o);
int cmd_rollback(const char *root, bool json);

#endif
