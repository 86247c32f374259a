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

#include "atomicfile.h"
#include "msg.h"
#include "numparse.h"
#include "sysroot.h"

/*
 * The first line marks the file as ours; we never rewrite one without it.
 * It names no option: --persist and --persist-only both write the file.
 * Files of versions before it have the old line, which names --persist.
 */
#define PERSIST_HEADER "# Written by pcpctl; pcpctl reset --persist removes it.\n"
#define PERSIST_HEADER_OLD "# Written by pcpctl set --persist; pcpctl reset --persist removes it.\n"

/* The length of the header text starts with, 0 when it has none. */
static size_t header_len(const char *text)
{
	if (strncmp(text, PERSIST_HEADER, strlen(PERSIST_HEADER)) == 0)
		return strlen(PERSIST_HEADER);
	if (strncmp(text, PERSIST_HEADER_OLD, strlen(PERSIST_HEADER_OLD)) == 0)
		return strlen(PERSIST_HEADER_OLD);
	return 0;
}

int persist_read(const struct sysroot *root, struct persisted *p)
{
	const char *path = sysroot_name(root, PATH_PERSIST);
	char buf[PERSIST_MAX + 1], *line, *save;
	size_t head = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = persist_file_text(root, buf);
	if (rc == 0)
		return 0;
	if (rc == -ELOOP) {
		pcp_error("cannot read %s: it is a symbolic link, or one leads to it; remove it", path);
		return rc;
	}
	if (rc < 0 && rc != -EPERM) {
		pcp_error("cannot read %s: %s", path, strerror(-rc));
		return rc;
	}
	if (rc > 0)
		head = header_len(buf);
	if (!head) {
		pcp_error("refusing to manage %s: it was not written by pcpctl; move it away", path);
		return -EPERM;
	}
	for (line = strtok_r(buf + head, "\n", &save); line;
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

int persist_write(const struct sysroot *root, const struct persisted *p)
{
	const char *path = sysroot_name(root, PATH_PERSIST);
	char text[PERSIST_MAX + 1], now[PERSIST_MAX + 1];
	bool any = persist_text(p, text);
	int rc, dir;

	/* Rewriting what is there would change nothing but its time and inode. */
	rc = persist_file_text(root, now);
	if (rc >= 0 && rc == any && (!any || strcmp(text, now) == 0))
		return 1;
	/* A system without systemd has no sysctl.d yet; it reads one that is there. */
	dir = sysroot_open_dir(root, PATH_SYSCTL_D, any ? 0755 : 0);
	if (dir < 0) {
		pcp_error("cannot write %s: %s", path, sysroot_strerror(dir));
		return dir;
	}
	/* A temp file left by a crash is ours to replace; a link there is not followed. */
	if (any)
		rc = atomic_write_at(dir, NAME_PERSIST, NAME_PERSIST_TMP, 0644, text, strlen(text));
	else if (unlinkat(dir, NAME_PERSIST, 0) < 0 && errno != ENOENT)
		rc = -errno;
	else
		rc = fsync(dir) < 0 ? -errno : 0;
	close(dir);
	if (rc)
		pcp_error("cannot write %s: %s", path, strerror(-rc));
	return rc;
}

int persist_remove_temp(const struct sysroot *root)
{
	struct stat st;
	int dir = sysroot_open_dir(root, PATH_SYSCTL_D, 0), rc = 0;

	/* No directory holds no temp file; one that cannot be opened, persist_write reports. */
	if (dir < 0)
		return 0;
	/* Only a file there is ours; persist_write reports anything else. */
	if (fstatat(dir, NAME_PERSIST_TMP, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	    unlinkat(dir, NAME_PERSIST_TMP, 0) < 0) {
		rc = -errno;
		pcp_error("cannot remove %s: %s", sysroot_name(root, PATH_PERSIST_TMP),
			  strerror(errno));
	}
	close(dir);
	return rc;
}
