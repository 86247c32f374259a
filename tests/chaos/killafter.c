// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An LD_PRELOAD shim that kills the process with SIGKILL right after its
 * first successful write(2) to the file KILLAFTER_PATH names: a change
 * interrupted between a sysctl's write and its verification, at the one
 * moment a kill at random hits only now and then.
 */
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*next)(int, const void *, size_t);
	const char *want = getenv("KILLAFTER_PATH");
	char link[64], path[PATH_MAX];
	ssize_t n, len;

	if (!next)
		next = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	n = next(fd, buf, count);
	if (n <= 0 || !want)
		return n;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len > 0) {
		path[len] = '\0';
		if (strcmp(path, want) == 0)
			raise(SIGKILL);
	}
	return n;
}
