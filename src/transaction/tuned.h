/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether tuned, installed, re-applies the sysctl.d files: with
 * reapply_sysctl (its default) tuned applies the system's sysctl.d settings
 * again after each profile it applies, so a value set at run time and
 * written nowhere is replaced at the next profile switch or restart.
 */
#ifndef PCPCTL_TUNED_H
#define PCPCTL_TUNED_H

#include <stdbool.h>

struct sysroot;

#define PATH_TUNED_MAIN_CONF	"/etc/tuned/tuned-main.conf"

struct tuned {
	bool installed;		/* its daemon or its configuration is there */
	bool reapply_sysctl;	/* as tuned-main.conf has it, else tuned's default */
};

/*
 * Read tuned's configuration under root.  0, or a negative errno when it
 * is there but cannot be read (said by the caller).
 */
int tuned_read(const struct sysroot *root, struct tuned *t);

/* reapply_sysctl in the text of a tuned-main.conf, or dflt when it sets none. */
bool tuned_reapply_sysctl(const char *conf, bool dflt);

#endif
