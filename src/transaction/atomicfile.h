/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replace a file so that a reader sees the old content or the new, never
 * a part: a temporary file in the same directory, synced, then renamed
 * over it.  node_exporter's textfile collector may read at any moment.
 */
#ifndef PCPCTL_ATOMICFILE_H
#define PCPCTL_ATOMICFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Write len bytes of data as name (no '/') in the directory open as dir,
 * mode whatever the umask, and sync the directory: every step relative to
 * dir, so the file lands in the directory opened, and a link there is
 * replaced, never written through.  tmp is the temporary file's name, a
 * fixed one whose leftover from a crash is ours to remove first, or NULL
 * for ".NAME.XXXXXX" (a name the textfile collector, which reads only
 * *.prom, skips).  Allocates nothing, so that a journal's commit record
 * cannot fail for lack of memory.  0 or a negative errno; name is left as
 * it was and the temporary file removed on failure.
 */
int atomic_write_at(int dir, const char *name, const char *tmp, mode_t mode, const char *data,
		    size_t len);

/*
 * The directory path names its last component in (*base), opened
 * O_RDONLY | O_DIRECTORY as the admin gave it, for the *at calls on that
 * name: an fd or a negative errno.
 */
int open_parent_dir(const char *path, const char **base);

/* atomic_write_at() of path's last component in its directory, mode 0644. */
int atomic_write_file(const char *path, const char *data, size_t len);

/*
 * A file built through stdio and then written whole: atomic_stream_open()
 * gives f, a stream on memory (0, or -ENOMEM with nothing to free);
 * atomic_stream_commit() closes it, replaces path with what was written
 * (atomic_write_file()) and frees it: 0 or a negative errno.
 */
struct atomic_stream {
	FILE *f;
	char *text;
	size_t len;
};
int atomic_stream_open(struct atomic_stream *s);
int atomic_stream_commit(struct atomic_stream *s, const char *path);

#endif
