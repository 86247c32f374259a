/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlist.h"

struct sysroot *sysroot_open(const char *dir)
{
	struct sysroot *sr = calloc(1, sizeof(*sr));
	char cwd[PATH_MAX];
	size_t n;
	int rc;

	if (!sr)
		return NULL;
	if (!dir || !dir[0])
		rc = (sr->prefix = strdup("")) ? 0 : -1;
	else if (dir[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		rc = (sr->prefix = strdup(dir)) ? 0 : -1;
	else
		rc = asprintf(&sr->prefix, "%s/%s", strcmp(cwd, "/") ? cwd : "", dir);
	if (rc < 0) {
		free(sr);
		return NULL;
	}
	/* "/" is the live system too; "tree/" and "tree" are one tree. */
	for (n = strlen(sr->prefix); n > 0 && sr->prefix[n - 1] == '/'; n--)
		sr->prefix[n - 1] = '\0';
	return sr;
}

void sysroot_free(struct sysroot *sr)
{
	if (!sr)
		return;
	free(sr->prefix);
	free(sr);
}

bool sysroot_is_live(const struct sysroot *sr)
{
	return sr->prefix[0] == '\0';
}

char *sysroot_path(const struct sysroot *sr, const char *path)
{
	char *full;

	if (asprintf(&full, "%s%s", sr->prefix, path) < 0)
		return NULL;
	return full;
}

const char *sysroot_name(const struct sysroot *sr, const char *path)
{
	/* A message names at most a few paths. */
	static char names[4][PATH_MAX];
	static unsigned next;
	char *name = names[next++ % 4];

	snprintf(name, PATH_MAX, "%s%s", sr->prefix, path);
	return name;
}

int sysroot_open_nofollow(const struct sysroot *sr, const char *path, int flags, mode_t mode)
{
	char *full = sysroot_path(sr, path);
	int fd;

	if (!full)
		return -ENOMEM;
	fd = open(full, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	free(full);
	return fd < 0 ? -errno : fd;
}

int sysroot_probe(const struct sysroot *sr, const char *path)
{
	char *full = sysroot_path(sr, path);
	struct stat st;
	int rc;

	if (!full)
		return -ENOMEM;
	rc = lstat(full, &st) == 0 ? 1 : errno == ENOENT ? 0 : -errno;
	free(full);
	return rc;
}

bool sysroot_exists(const struct sysroot *sr, const char *path)
{
	return sysroot_probe(sr, path) == 1;
}

int sysroot_read_file(const struct sysroot *sr, const char *path, char **buf, size_t *len)
{
	char *full = sysroot_path(sr, path);
	int rc;

	if (!full)
		return -ENOMEM;
	rc = read_whole_file(full, buf, len);
	free(full);
	return rc;
}

int sysroot_read_cpulist(const struct sysroot *sr, const char *path, struct idlist *list)
{
	char *text;
	size_t len;
	int rc = sysroot_read_file(sr, path, &text, &len);

	if (rc)
		return rc;
	/* read_whole_file() sets text whenever it returns 0 (the analyzer takes errno for 0). */
	/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
	text[strcspn(text, "\n")] = '\0';
	if (text[0])
		rc = idlist_parse(text, list);
	else
		memset(list, 0, sizeof(*list));
	free(text);
	return rc;
}

int sysroot_write_string(const struct sysroot *sr, const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = sysroot_open_nofollow(sr, path, O_WRONLY | O_TRUNC, 0);
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return fd;
	/* procfs takes a sysctl value in one write; a short write is a failure. */
	n = write(fd, s, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

int read_whole_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, used = 0;
	char *data;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* procfs reports 0; a regular file's size saves the regrowing. */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	data = malloc(cap);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (cap - used < 2) {
			char *bigger = realloc(data, cap * 2);

			if (!bigger) {
				rc = -ENOMEM;
				break;
			}
			data = bigger;
			cap *= 2;
		}
		n = read(fd, data + used, cap - used - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	if (rc) {
		free(data);
		return rc;
	}
	data[used] = '\0';
	*buf = data;
	*len = used;
	return 0;
}
