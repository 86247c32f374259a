/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "sysroot.h"

/*
 * Create root/run/pcpctl (and root/run under a sysroot) and make sure it is
 * a real directory of ours that nobody else can write, so that the lock and
 * journal inside cannot be planted or swapped.
 */
static int run_dir(const struct sysroot *root)
{
	char *run = sysroot_path(root, PATH_RUN);
	char *dir = sysroot_path(root, PATH_RUN_DIR);
	struct stat st;
	int rc = 0;

	if (!run || !dir) {
		rc = -ENOMEM;
		pcp_error("out of memory");
		goto out;
	}
	if (mkdir(run, 0755) < 0 && errno != EEXIST) {
		rc = -errno;
		pcp_error("cannot create %s: %s", run, strerror(errno));
		goto out;
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		pcp_error("cannot create %s: %s", dir, strerror(errno));
		goto out;
	}
	if (lstat(dir, &st) < 0) {
		rc = -errno;
		pcp_error("cannot inspect %s: %s", dir, strerror(errno));
	} else if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		rc = -EPERM;
		pcp_error("refusing to use %s: not a directory owned by uid %u and writable only by it; remove it",
			  dir, (unsigned)geteuid());
	}
out:
	free(run);
	free(dir);
	return rc;
}

/* A file we own, regular, not linked elsewhere: anything else was planted. */
bool run_file_is_private(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	       st.st_nlink == 1 && !(st.st_mode & 077);
}

int lock_acquire(const struct sysroot *root)
{
	const char *path = sysroot_name(root, PATH_LOCK);
	int fd, rc;

	rc = run_dir(root);
	if (rc)
		return rc;
	fd = sysroot_open_nofollow(root, PATH_LOCK, O_RDWR | O_CREAT, 0600);
	if (fd < 0) {
		pcp_error("cannot open the lock %s: %s", path,
			  fd == -ELOOP ? "it is a symbolic link; remove it" : strerror(-fd));
		return fd;
	}
	if (!run_file_is_private(fd)) {
		pcp_error("refusing the lock %s: not a private regular file of uid %u; remove it",
			  path, (unsigned)geteuid());
		close(fd);
		return -EPERM;
	}
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; tries++) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			rc = -errno;
			pcp_error("cannot lock %s: %s", path, strerror(errno));
			break;
		}
		if (tries == LOCK_WAIT_SECONDS * 10) {
			rc = -EBUSY;
			pcp_error("another pcpctl is changing the pcp settings (it holds %s); "
				  "try again when it has finished", path);
			break;
		}
		if (tries == 0)
			fprintf(stderr, "pcpctl: waiting up to %d s for another pcpctl to finish\n",
				LOCK_WAIT_SECONDS);
		nanosleep(&(struct timespec){ .tv_nsec = 100L * 1000 * 1000 }, NULL);
	}
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
