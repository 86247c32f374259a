/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many random names are tried before giving up, as mkstemp's EEXIST. */
#define TMP_TRIES 100

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file tmp in dir, written 0600 for now: an fd or a negative errno. */
static int create_temp(int dir, const char *name, const char *fixed, char *tmp, size_t size)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd;

	if (fixed) {
		snprintf(tmp, size, "%s", fixed);
		if (unlinkat(dir, tmp, 0) < 0 && errno != ENOENT)
			return -errno;
		fd = openat(dir, tmp, flags, 0600);
		return fd < 0 ? -errno : fd;
	}
	if ((size_t)snprintf(tmp, size, ".%s.XXXXXX", name) >= size)
		return -ENAMETOOLONG;
	for (int i = 0; i < TMP_TRIES; i++) {
		unsigned char r[6];
		char *x = tmp + strlen(tmp) - sizeof(r);

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EAGAIN;
		for (size_t k = 0; k < sizeof(r); k++)
			x[k] = chars[r[k] % (sizeof(chars) - 1)];
		fd = openat(dir, tmp, flags, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int atomic_write_at(int dir, const char *name, const char *tmp, mode_t mode, const char *data,
		    size_t len)
{
	char made[NAME_MAX + 1];
	int fd = create_temp(dir, name, tmp, made, sizeof(made)), rc;

	if (fd < 0)
		return fd;
	/* The reader may be another user (the exporter's); the umask does not choose. */
	rc = write_all(fd, data, len);
	if (!rc && fchmod(fd, mode) < 0)
		rc = -errno;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && renameat(dir, made, dir, name) < 0)
		rc = -errno;
	if (rc)
		unlinkat(dir, made, 0);
	else if (fsync(dir) < 0)
		rc = -errno;
	return rc;
}

int open_parent_dir(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	if (slash && (size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	/* "x" lies in ".", "/x" in "/" */
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*base = slash ? slash + 1 : path;
	return fd < 0 ? -errno : fd;
}

int atomic_write_file(const char *path, const char *data, size_t len)
{
	const char *base;
	int dir = open_parent_dir(path, &base), rc;

	if (dir < 0)
		return dir;
	rc = atomic_write_at(dir, base, NULL, 0644, data, len);
	close(dir);
	return rc;
}

int atomic_stream_open(struct atomic_stream *s)
{
	s->text = NULL;
	s->len = 0;
	s->f = open_memstream(&s->text, &s->len);
	return s->f ? 0 : -ENOMEM;
}

int atomic_stream_commit(struct atomic_stream *s, const char *path)
{
	int err = fclose(s->f) ? -ENOMEM : atomic_write_file(path, s->text, s->len);

	free(s->text);
	s->f = NULL;
	s->text = NULL;
	return err;
}
