/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "persist.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "numparse.h"
#include "sysroot.h"

/* The first line marks the file as ours; we never rewrite one without it. */
#define PERSIST_HEADER "# Written by pcpctl set --persist; pcpctl reset --persist removes it.\n"

int persist_read(const struct sysroot *root, struct persisted *p)
{
	char *path = sysroot_path(root, PATH_PERSIST);
	char buf[PERSIST_MAX + 1], *line, *save;
	struct stat st;
	ssize_t n;
	int fd;

	memset(p, 0, sizeof(*p));
	if (!path) {
		pcp_error("out of memory");
		return -ENOMEM;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int err = errno;

		if (err == ENOENT) {
			free(path);
			return 0;
		}
		pcp_error("cannot read %s: %s", path,
			  err == ELOOP ? "it is a symbolic link; remove it" : strerror(err));
		free(path);
		return -err;
	}
	n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf)) : -1;
	close(fd);
	if (n < 0 || n > PERSIST_MAX || strncmp(buf, PERSIST_HEADER, strlen(PERSIST_HEADER)) != 0) {
		pcp_error("refusing to manage %s: it was not written by pcpctl; move it away", path);
		free(path);
		return -EPERM;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf + strlen(PERSIST_HEADER), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[64];
		char value[32];
		int s;

		if (sscanf(line, "vm.%63s = %31s", key, value) != 2)
			continue;
		s = sysctl_by_name(key);
		if (s >= 0 && parse_long(value, 0, INT_MAX, &p->value[s]) == 0)
			p->have[s] = true;
	}
	free(path);
	return 0;
}

bool persist_same(const struct persisted *a, const struct persisted *b)
{
	for (int s = 0; s < NSYSCTLS; s++)
		if (a->have[s] != b->have[s] || (a->have[s] && a->value[s] != b->value[s]))
			return false;
	return true;
}

bool persist_text(const struct persisted *p, char text[PERSIST_MAX + 1])
{
	size_t len = strlen(PERSIST_HEADER);
	bool any = false;

	memcpy(text, PERSIST_HEADER, len + 1);
	for (int s = 0; s < NSYSCTLS; s++)
		if (p->have[s]) {
			len += (size_t)snprintf(text + len, PERSIST_MAX + 1 - len, "vm.%s = %ld\n",
						sysctl_name(s), p->value[s]);
			any = true;
		}
	return any;
}

int persist_file_text(const struct sysroot *root, char text[PERSIST_MAX + 1])
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = sysroot_open_nofollow(root, PATH_PERSIST, O_RDONLY | O_NONBLOCK, 0);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, text, PERSIST_MAX + 1) : -1;
	close(fd);
	/* Not a file pcpctl wrote: persist_read says why when it matters. */
	if (n < 0 || n > PERSIST_MAX)
		return -EPERM;
	text[n] = '\0';
	return 1;
}

static int write_temp(const char *tmp, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, rc = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -ENOSPC;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

int persist_write(const struct sysroot *root, const struct persisted *p)
{
	char *dir = sysroot_path(root, PATH_SYSCTL_D);
	char *path = sysroot_path(root, PATH_PERSIST);
	char *tmp = sysroot_path(root, PATH_PERSIST ".tmp");
	char text[PERSIST_MAX + 1], now[PERSIST_MAX + 1];
	bool any = persist_text(p, text);
	int rc = 0, dfd;

	if (!dir || !path || !tmp) {
		pcp_error("cannot write %s: out of memory", sysroot_name(root, PATH_PERSIST));
		rc = -ENOMEM;
		goto out;
	}
	/* Rewriting what is there would change nothing but its time and inode. */
	rc = persist_file_text(root, now);
	if (rc >= 0 && rc == any && (!any || strcmp(text, now) == 0)) {
		rc = 1;
		goto out;
	}
	rc = 0;
	if (any) {
		/* A system without systemd has no sysctl.d yet; it reads one that is there. */
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			pcp_error("cannot create %s: %s", dir, strerror(errno));
			goto out;
		}
		/* A temp file left by a crash is ours to replace; a link there is not followed. */
		if (unlink(tmp) < 0 && errno != ENOENT) {
			rc = -errno;
			goto fail;
		}
		rc = write_temp(tmp, text);
		if (!rc && rename(tmp, path) < 0)
			rc = -errno;
		if (rc) {
			unlink(tmp);
			goto fail;
		}
	} else if (unlink(path) < 0 && errno != ENOENT) {
		rc = -errno;
		goto fail;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0)
		rc = -errno;
	if (dfd >= 0)
		close(dfd);
	if (!rc)
		goto out;
fail:
	pcp_error("cannot write %s: %s", path, strerror(-rc));
out:
	free(dir);
	free(path);
	free(tmp);
	return rc;
}

int persist_remove_temp(const struct sysroot *root)
{
	char *tmp = sysroot_path(root, PATH_PERSIST ".tmp");
	struct stat st;
	int rc = 0;

	if (!tmp) {
		pcp_error("out of memory");
		return -ENOMEM;
	}
	/* Only a file there is ours; persist_write reports anything else. */
	if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode) && unlink(tmp) < 0) {
		rc = -errno;
		pcp_error("cannot remove %s: %s", tmp, strerror(errno));
	}
	free(tmp);
	return rc;
}
