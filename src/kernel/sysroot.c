/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "idlist.h"

/* What a read through the root may hold, so /dev/zero in a tree ends as an error. */
#define SYSROOT_READ_MAX	((size_t)4 << 20)
/* read_whole_file()'s, for the live /proc/kallsyms of a kernel with many modules */
#define READ_WHOLE_MAX		((size_t)256 << 20)

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
	/*
	 * Opened once: every path of a tree is resolved beneath this, so a
	 * link or a renamed directory cannot take pcpctl out of it.  A tree
	 * that cannot be opened fails each read and write with the reason.
	 */
	sr->fd = -1;
	if (sr->prefix[0]) {
		sr->fd = open(sr->prefix, O_PATH | O_DIRECTORY | O_CLOEXEC);
		sr->fd_err = sr->fd < 0 ? -errno : 0;
	}
	return sr;
}

void sysroot_free(struct sysroot *sr)
{
	if (!sr)
		return;
	if (sr->fd >= 0)
		close(sr->fd);
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

const char *sysroot_command(const struct sysroot *sr, const char *args)
{
	static char cmds[2][PATH_MAX + 64];
	static unsigned next;
	char *cmd = cmds[next++ % 2];
	const char *p = sr->prefix;
	size_t n;

	if (!*p) {
		snprintf(cmd, PATH_MAX + 64, "pcpctl %s", args);
		return cmd;
	}
	if (!p[strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+,:@%-")]) {
		snprintf(cmd, PATH_MAX + 64, "pcpctl --sysroot %s %s", p, args);
		return cmd;
	}
	n = (size_t)snprintf(cmd, PATH_MAX + 64, "pcpctl --sysroot \"");
	for (; *p && n + 2 < PATH_MAX; p++) {
		if (strchr("\"\\$`", *p))
			cmd[n++] = '\\';
		cmd[n++] = *p;
	}
	snprintf(cmd + n, PATH_MAX + 64 - n, "\" %s", args);
	return cmd;
}

/*
 * Kernels before 5.6 have no openat2: each directory opened in turn from
 * the root without following a link, which refuses every link, not only
 * those that lead out.
 */
/* err, or -ELOOP where err is the ENOTDIR that O_DIRECTORY|O_NOFOLLOW gives name, a link in dir */
static int link_or(int dir, const char *name, int err)
{
	struct stat st;

	if (err == -ENOTDIR && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return err;
}

static int walk_nofollow(int rootfd, const char *rel, int flags, mode_t mode)
{
	int dir = rootfd, fd;

	for (;;) {
		size_t n = strcspn(rel, "/");
		char name[NAME_MAX + 1];

		if (n > NAME_MAX) {
			fd = -ENAMETOOLONG;
			break;
		}
		memcpy(name, rel, n);
		name[n] = '\0';
		if (!rel[n]) {
			/* "dir/" ends in the directory itself */
			fd = openat(dir, n ? name : ".", flags | O_NOFOLLOW | O_CLOEXEC, mode);
			fd = fd < 0 ? link_or(dir, name, -errno) : fd;
			break;
		}
		fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fd = link_or(dir, name, -errno);
			break;
		}
		if (dir != rootfd)
			close(dir);
		dir = fd;
		rel += n + strspn(rel + n, "/");
	}
	if (dir != rootfd)
		close(dir);
	return fd;
}

/*
 * path (absolute, as PATH_*) opened beneath the tree's root: links are
 * followed only inside the tree (an absolute one from the tree's root), and
 * with no_links not at all.  The live system is opened as it is.
 */
static int open_beneath(const struct sysroot *sr, const char *path, int flags, mode_t mode,
			bool no_links)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | (no_links ? O_NOFOLLOW : 0)),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			   (no_links ? RESOLVE_NO_SYMLINKS : 0),
	};
	int fd;

	if (!sr->prefix[0]) {
		fd = open(path, flags | O_CLOEXEC | (no_links ? O_NOFOLLOW : 0), mode);
		return fd < 0 ? -errno : fd;
	}
	if (sr->fd < 0)
		return sr->fd_err;
	path += strspn(path, "/");
	if (!*path)
		path = ".";
	/* The kernel's number: glibc before 2.32 (bullseye) has no SYS_openat2. */
	fd = (int)syscall(__NR_openat2, sr->fd, path, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		return walk_nofollow(sr->fd, path, flags, mode);
	return fd < 0 ? -errno : fd;
}

int sysroot_open_nofollow(const struct sysroot *sr, const char *path, int flags, mode_t mode)
{
	return open_beneath(sr, path, flags, mode, true);
}

/*
 * The directory that holds path (absolute, as PATH_*), opened beneath the
 * tree's root as open_beneath() opens: an O_PATH fd, or a negative errno;
 * *base is path's last component.
 */
static int open_parent(const struct sysroot *sr, const char *path, bool no_links,
		       const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	*base = slash + 1;
	return open_beneath(sr, dir[0] ? dir : "/", O_PATH | O_DIRECTORY, 0, no_links);
}

int sysroot_open_dir(const struct sysroot *sr, const char *dir, mode_t mode)
{
	const char *base;
	int fd = sysroot_open_nofollow(sr, dir, O_RDONLY | O_DIRECTORY, 0), parent;
	struct stat st;

	if (fd == -ENOTDIR) {
		/* O_DIRECTORY meets a link at the end before O_NOFOLLOW does: tell which it is. */
		parent = sysroot_open_nofollow(sr, dir, O_PATH, 0);
		if (parent >= 0 && fstat(parent, &st) == 0 && S_ISLNK(st.st_mode))
			fd = -ELOOP;
		if (parent >= 0)
			close(parent);
	}
	if (fd != -ENOENT || !mode)
		return fd;
	/* Created in its parent, opened as the parent holds it: no path is walked twice. */
	parent = open_parent(sr, dir, true, &base);
	if (parent < 0)
		return parent;
	if (mkdirat(parent, base, mode) < 0 && errno != EEXIST)
		fd = -errno;
	else
		fd = openat(parent, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		fd = -errno;
	close(parent);
	return fd;
}

const char *sysroot_strerror(int err)
{
	if (err == -ELOOP)
		return "a symbolic link on the way, which pcpctl does not follow; remove it";
	return strerror(-err);
}

DIR *sysroot_opendir(const struct sysroot *sr, const char *dir)
{
	int fd = open_beneath(sr, dir, O_RDONLY | O_DIRECTORY, 0, false);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return d;
}

ssize_t sysroot_readlink(const struct sysroot *sr, const char *path, char *buf, size_t size)
{
	const char *base;
	int parent = open_parent(sr, path, false, &base);
	ssize_t n;

	if (parent < 0)
		return parent;
	n = readlinkat(parent, base, buf, size);
	if (n < 0)
		n = -errno;
	close(parent);
	return n;
}

/* fd when it is a regular file; else closed, and -EINVAL or fstat's error. */
static int regular_or_close(int fd)
{
	struct stat st;
	int rc = fstat(fd, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;

	if (!rc)
		return fd;
	close(fd);
	return rc;
}

int sysroot_open_read(const struct sysroot *sr, const char *path)
{
	int fd = open_beneath(sr, path, O_RDONLY | O_NONBLOCK, 0, false);

	if (fd < 0)
		return fd;
	/* a FIFO would hang the read, a device (/dev/zero) never end it */
	return regular_or_close(fd);
}

/* Why another user could change dir, as st says it is; NULL when none could. */
static const char *not_roots(const struct stat *st, char *why, size_t len)
{
	if (S_ISLNK(st->st_mode))
		return "a symbolic link";
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid != 0) {
		snprintf(why, len, "owned by uid %lu, not root", (unsigned long)st->st_uid);
		return why;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "writable by %s (mode %04o)",
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return why;
	}
	return NULL;
}

int sysroot_check_owned(const struct sysroot *sr, const char *dir, const char **bad,
			char *why, size_t len)
{
	char sofar[PATH_MAX] = "";
	const char *reason;
	struct stat st;
	int cur, rc = 0;

	if (sr->fd < 0)
		return sr->prefix[0] ? sr->fd_err : 0;
	if (fstat(sr->fd, &st) < 0)
		return -errno;
	cur = sr->fd;
	reason = not_roots(&st, why, len);
	for (dir += strspn(dir, "/"); !reason && *dir; dir += strspn(dir, "/")) {
		size_t n = strcspn(dir, "/"), used = strlen(sofar);
		int next;

		if (used + n + 2 > sizeof(sofar)) {
			rc = -ENAMETOOLONG;
			break;
		}
		snprintf(sofar + used, sizeof(sofar) - used, "/%.*s", (int)n, dir);
		dir += n;
		/* what is missing pcpctl creates, as root, in a directory checked here */
		if (fstatat(cur, sofar + used + 1, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = errno == ENOENT ? 0 : -errno;
			break;
		}
		reason = not_roots(&st, why, len);
		if (reason)
			break;
		next = openat(cur, sofar + used + 1, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			rc = -errno;
			break;
		}
		if (cur != sr->fd)
			close(cur);
		cur = next;
	}
	if (cur != sr->fd)
		close(cur);
	if (reason) {
		*bad = sysroot_name(sr, sofar);
		if (reason != why)
			snprintf(why, len, "%s", reason);
		return -EPERM;
	}
	return rc;
}

int sysroot_probe(const struct sysroot *sr, const char *path)
{
	int fd = open_beneath(sr, path, O_PATH | O_NOFOLLOW, 0, false);

	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	close(fd);
	return 1;
}

bool sysroot_exists(const struct sysroot *sr, const char *path)
{
	return sysroot_probe(sr, path) == 1;
}

/* fd read to its end and closed: at most max bytes, else -EFBIG. */
static int read_whole_fd(int fd, size_t max, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, used = 0;
	char *data;
	int rc = 0;

	/* procfs reports 0; a regular file's size saves the regrowing. */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 && (size_t)st.st_size < max ?
		(size_t)st.st_size + 1 : 65536;
	data = malloc(cap);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (cap - used < 2) {
			char *bigger;

			if (cap >= max) {
				rc = -EFBIG;
				break;
			}
			bigger = realloc(data, cap * 2);
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

int sysroot_read_file(const struct sysroot *sr, const char *path, char **buf, size_t *len)
{
	int fd = sysroot_open_read(sr, path);

	if (fd < 0)
		return fd;
	return read_whole_fd(fd, SYSROOT_READ_MAX, buf, len);
}

int sysroot_read_line(const struct sysroot *sr, const char *path, char **line)
{
	size_t len;
	int rc = sysroot_read_file(sr, path, line, &len);

	if (!rc)
		(*line)[strcspn(*line, "\n")] = '\0';
	return rc;
}

int sysroot_read_boot_config(const struct sysroot *sr, char **buf, size_t *len)
{
	char path[PATH_MAX], *release = NULL;
	int rc = sysroot_read_line(sr, PATH_OSRELEASE, &release);

	if (rc)
		return rc;
	rc = snprintf(path, sizeof(path), PATH_BOOT_CONFIG "%s", release) >= (int)sizeof(path) ?
	     -ENAMETOOLONG : sysroot_read_file(sr, path, buf, len);
	free(release);
	return rc;
}

int sysroot_read_paced(const struct sysroot *sr, const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open_beneath(sr, path, O_RDONLY, 0, false), rc;

	if (fd < 0)
		return fd;
	rc = fstat(fd, &st) < 0 ? -errno : S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) ? 0 : -EINVAL;
	if (rc) {
		close(fd);
		return rc;
	}
	return read_whole_fd(fd, SYSROOT_READ_MAX, buf, len);
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
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	fd = regular_or_close(fd);
	if (fd < 0)
		return fd;
	return read_whole_fd(fd, READ_WHOLE_MAX, buf, len);
}
