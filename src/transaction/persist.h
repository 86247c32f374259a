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
bool persist_same(const struct persisted *a, const struct persisted *b);
/* The largest file pcpctl reads as its own. */
#define PERSIST_MAX 4096

/*
 * The file's text for p's settings, in text: whether p holds any (without,
 * there is to be no file).
 */
bool persist_text(const struct persisted *p, char text[PERSIST_MAX + 1]);
/*
 * The file's text as it is now, in text: 1, or 0 when there is no file;
 * -EPERM for something pcpctl does not manage (a link, a large or special
 * file), else a negative errno.
 */
int persist_file_text(const struct sysroot *root, char text[PERSIST_MAX + 1]);
/*
 * Replace the file with p's settings, atomically (temp file, fsync, rename,
 * fsync the directory); with none left, remove it.  1 when the file
 * already is so (it is left alone), 0 when written, or a negative errno
 * after printing why.
 */
int persist_write(const struct sysroot *root, const struct persisted *p);
/* Remove the temporary file of a persist_write that was killed: 0 or a negative errno after printing why. */
int persist_remove_temp(const struct sysroot *root);

#endif
