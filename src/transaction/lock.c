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
 * journal inside cannot be planted or swapped: its fd, or a negative errno
 * after printing why.
 */
static int run_dir_open(const struct sysroot *root)
{
	const char *dir = sysroot_name(root, PATH_RUN_DIR);
	struct stat st;
	int run, fd, rc = 0;

	run = sysroot_open_dir(root, PATH_RUN, 0755);
	if (run < 0) {
		pcp_error("cannot create %s: %s", sysroot_name(root, PATH_RUN), sysroot_strerror(run));
		return run;
	}
	/*
	 * Searchable by all (its files are private): so a user without
	 * privilege can tell that no journal is left, and needs none to hear
	 * "nothing to roll back", or to be warned of one that is.
	 */
	if (mkdirat(run, NAME_RUN_DIR, 0755) < 0 && errno != EEXIST) {
		rc = -errno;
		pcp_error("cannot create %s: %s", dir, strerror(errno));
		close(run);
		return rc;
	}
	fd = openat(run, NAME_RUN_DIR,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		rc = -errno;
	close(run);
	if (rc && rc != -ENOTDIR && rc != -ELOOP) {
		pcp_error("cannot inspect %s: %s", dir, strerror(-rc));
		return rc;
	}
	if (!rc && fstat(fd, &st) < 0) {
		rc = -errno;
		pcp_error("cannot inspect %s: %s", dir, strerror(errno));
	} else if (rc || st.st_uid != geteuid() || (st.st_mode & 022)) {
		/* a link there, or a file, fails the open (ELOOP, ENOTDIR) */
		rc = -EPERM;
		pcp_error("refusing to use %s: not a directory owned by uid %u and writable only by it; remove it",
			  dir, (unsigned)geteuid());
	} else if ((st.st_mode & 0755) != 0755 && fchmod(fd, 0755) < 0) {
		/* an older pcpctl made it 0700 */
		rc = -errno;
		pcp_error("cannot make %s searchable: %s", dir, strerror(errno));
	}
	if (rc) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	return fd;
}

bool run_file_is_private(int fd, char *why, size_t whylen)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		snprintf(why, whylen, "cannot inspect it: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(why, whylen, "not a regular file");
	else if (st.st_uid != geteuid())
		snprintf(why, whylen, "owned by uid %u, not by uid %u", (unsigned)st.st_uid,
			 (unsigned)geteuid());
	else if (st.st_nlink != 1)
		snprintf(why, whylen, "%lu hard links to it, not 1", (unsigned long)st.st_nlink);
	else if (st.st_mode & 077)
		snprintf(why, whylen, "mode %04o, where only its owner may read or write it (0600)",
			 (unsigned)(st.st_mode & 07777));
	else
		return true;
	return false;
}

int lock_acquire(const struct sysroot *root)
{
	const char *path = sysroot_name(root, PATH_LOCK);
	char why[128];
	int dir, fd, rc = 0;

	dir = run_dir_open(root);
	if (dir < 0)
		return dir;
	fd = openat(dir, NAME_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	fd = fd < 0 ? -errno : fd;
	close(dir);
	if (fd < 0) {
		pcp_error("cannot open the lock %s: %s", path,
			  fd == -ELOOP ? "it is a symbolic link; remove it" : strerror(-fd));
		return fd;
	}
	if (!run_file_is_private(fd, why, sizeof(why))) {
		pcp_error("refusing the lock %s: %s; remove it", path, why);
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
