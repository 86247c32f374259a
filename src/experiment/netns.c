/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netns.c - entering the network namespace of --netns
 */
#include "netns.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysroot.h"

bool netns_name_ok(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

int netns_enter(const struct sysroot *sr, const char *name)
{
	char path[sizeof(PATH_NETNS) + 256];
	int fd, rc = 0;

	if (!netns_name_ok(name) ||
	    snprintf(path, sizeof(path), "%s/%s", PATH_NETNS, name) >= (int)sizeof(path))
		return -ENOENT;
	fd = sysroot_open_read(sr, path);
	if (fd < 0)
		return fd;
	if (setns(fd, CLONE_NEWNET) < 0)
		rc = -errno;
	close(fd);
	return rc;
}
