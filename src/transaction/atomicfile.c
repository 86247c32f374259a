/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int atomic_write_file(const char *path, const char *data, size_t len)
{
	char *dir_copy = strdup(path), *base_copy = strdup(path);
	char *tmp = NULL;
	const char *dir, *base;
	int fd = -1, rc = 0;

	if (!dir_copy || !base_copy) {
		rc = -ENOMEM;
		goto out;
	}
	dir = dirname(dir_copy);
	base = basename(base_copy);
	if (asprintf(&tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		tmp = NULL;
		rc = -ENOMEM;
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	/* mkostemp makes it 0600; the exporter runs as another user. */
	rc = write_all(fd, data, len);
	if (!rc && fchmod(fd, 0644) < 0)
		rc = -errno;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	else
		rc = sync_dir(dir);
out:
	free(tmp);
	free(dir_copy);
	free(base_copy);
	return rc;
}
