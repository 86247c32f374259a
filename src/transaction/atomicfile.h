/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replace a file so that a reader sees the old content or the new, never
 * a part: a temporary file in the same directory, synced, then renamed
 * over it.  node_exporter's textfile collector may read at any moment.
 */
#ifndef PCPCTL_ATOMICFILE_H
#define PCPCTL_ATOMICFILE_H

#include <stddef.h>

/*
 * Write len bytes of data to path, mode 0644.  The temporary file is
 * ".NAME.XXXXXX" beside it (a name the textfile collector, which reads
 * only *.prom, skips) and is removed on failure.  0 or a negative errno;
 * path is left as it was on failure.
 */
int atomic_write_file(const char *path, const char *data, size_t len);

/*
 * fsync(2) the directory dir: a rename or unlink in it is durable only once
 * its entry is on disk too.  0 or a negative errno.
 */
int sync_dir(const char *dir);

#endif
