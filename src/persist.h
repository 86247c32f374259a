/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --persist: the pcp settings in etc/sysctl.d/90-pcpctl.conf, so that
 * systemd-sysctl applies them at boot.  The file holds only our keys.
 */
#ifndef PCPCTL_PERSIST_H
#define PCPCTL_PERSIST_H

#include <stdbool.h>

#include "kernel.h"

struct sysroot;

struct persisted {
	bool have[NSYSCTLS];
	long value[NSYSCTLS];
};

/* 0 (an absent file reads as nothing persisted) or a negative errno after printing why. */
int persist_read(const struct sysroot *root, struct persisted *p);
/* As persist_read, and with text the file's text (NULL for no file), to free. */
int persist_read_text(const struct sysroot *root, struct persisted *p, char **text);
/* The text persist_write writes for p, to free, or NULL when it removes the file: 0 or -ENOMEM. */
int persist_text(const struct persisted *p, char **text);
bool persist_same(const struct persisted *a, const struct persisted *b);
/*
 * Replace the file with p's settings, atomically (temp file, fsync, rename,
 * fsync the directory); with none left, remove it.  0 or a negative errno
 * after printing why.
 */
int persist_write(const struct sysroot *root, const struct persisted *p);
/* Remove the temporary file of a persist_write that was killed: 0 or a negative errno after printing why. */
int persist_remove_temp(const struct sysroot *root);

#endif
