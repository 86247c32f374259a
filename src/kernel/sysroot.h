/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every path pcpctl reads or writes, taken relative to a root prefix
 * (--sysroot), so the same binary runs against fixture trees.  As
 * util-linux's ul_path: the prefix is set once, in a struct sysroot that
 * every reader and writer gets, and paths are built, opened and named in
 * messages here only.
 */
#ifndef PCPCTL_SYSROOT_H
#define PCPCTL_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PATH_ZONEINFO		"/proc/zoneinfo"
#define PATH_VMSTAT		"/proc/vmstat"
#define PATH_MEMINFO		"/proc/meminfo"
#define PATH_STAT		"/proc/stat"
#define PATH_OSRELEASE		"/proc/sys/kernel/osrelease"
#define PATH_SELF_SMAPS		"/proc/self/smaps"
#define PATH_HOSTNAME		"/proc/sys/kernel/hostname"
#define PATH_CPUINFO		"/proc/cpuinfo"
#define PATH_CPU_ONLINE		"/sys/devices/system/cpu/online"
#define PATH_KALLSYMS		"/proc/kallsyms"
#define PATH_SYSCTL_VM		"/proc/sys/vm/"
#define PATH_NODES		"/sys/devices/system/node"
#define PATH_RUN		"/run"
#define PATH_NETNS		"/run/netns"	/* ip netns add NAME: the namespace at NAME */
#define PATH_RUN_DIR		"/run/pcpctl"
#define PATH_SYSCTL_D		"/etc/sysctl.d"
/* The files written, by name in their directory (opened with sysroot_open_dir()). */
#define NAME_RUN_DIR		"pcpctl"
#define NAME_LOCK		"lock"
#define NAME_JOURNAL		"journal"
#define NAME_JOURNAL_TMP	"journal.tmp"
#define NAME_PERSIST		"90-pcpctl.conf"
#define NAME_PERSIST_TMP	NAME_PERSIST ".tmp"
#define PATH_LOCK		PATH_RUN_DIR "/" NAME_LOCK
#define PATH_JOURNAL		PATH_RUN_DIR "/" NAME_JOURNAL
#define PATH_JOURNAL_TMP	PATH_RUN_DIR "/" NAME_JOURNAL_TMP
#define PATH_PERSIST		PATH_SYSCTL_D "/" NAME_PERSIST
#define PATH_PERSIST_TMP	PATH_SYSCTL_D "/" NAME_PERSIST_TMP
#define PATH_BOOT_CONFIG	"/boot/config-"	/* and the release */

struct idlist;

struct sysroot {
	char *prefix;		/* absolute, no trailing '/'; "" for the live system */
	int fd;			/* the tree's root, O_PATH; -1 for the live system or ... */
	int fd_err;		/* ... a tree that could not be opened, and why (-errno) */
};

/* dir NULL or "" is the live system; a relative dir is taken from the cwd.  NULL on ENOMEM. */
struct sysroot *sysroot_open(const char *dir);
void sysroot_free(struct sysroot *sr);
/* The running system itself, not a tree: what only the live system has may be read. */
bool sysroot_is_live(const struct sysroot *sr);

/* path (absolute, as PATH_*) under the root: malloc'ed, NULL when out of memory. */
char *sysroot_path(const struct sysroot *sr, const char *path);
/*
 * The same for a message: the absolute path in one of a few static
 * buffers, valid until a few more calls.
 */
const char *sysroot_name(const struct sysroot *sr, const char *path);
/*
 * A pcpctl command line for a message, as the admin would type it for this
 * root: "pcpctl ARGS", or "pcpctl --sysroot DIR ARGS" (DIR in double quotes
 * when a shell would split it).  Static buffers, as sysroot_name's.
 */
const char *sysroot_command(const struct sysroot *sr, const char *args);

/*
 * open(2) of path beneath the tree's root (openat2 RESOLVE_IN_ROOT) through
 * no symbolic link at all, last component included (O_NOFOLLOW, and
 * RESOLVE_NO_SYMLINKS), with O_CLOEXEC: an fd or a negative errno (-ELOOP
 * for a link on the way; a link at the end opened O_DIRECTORY may give -ENOTDIR).  For what is
 * written, and read where a link would be a trick.
 */
int sysroot_open_nofollow(const struct sysroot *sr, const char *path, int flags, mode_t mode);
/*
 * dir opened beneath the tree's root as sysroot_open_nofollow() opens
 * (O_RDONLY | O_DIRECTORY, so that it can be fsync'ed), and with mode,
 * created first (its last component) when missing.  Every file pcpctl
 * writes is opened, renamed and removed relative to such an fd (openat,
 * renameat, unlinkat with a name and no '/'), so that nothing on the way
 * is looked up twice: an fd or a negative errno.
 */
int sysroot_open_dir(const struct sysroot *sr, const char *dir, mode_t mode);
/*
 * A negative errno of the calls above for a message: -ELOOP is a link on
 * the way, which is refused.
 */
const char *sysroot_strerror(int err);
/* dir to list, beneath the tree's root (links followed inside it only): NULL with errno. */
DIR *sysroot_opendir(const struct sysroot *sr, const char *dir);
/*
 * readlink(2) of path's last component, its directory found beneath the
 * tree's root (links followed inside it only): the length (buf not
 * terminated) or a negative errno.
 */
ssize_t sysroot_readlink(const struct sysroot *sr, const char *path, char *buf, size_t size);
/*
 * path opened to read beneath the tree's root: links followed inside it
 * only, O_NONBLOCK, and only a regular file (else -EINVAL), so that a FIFO
 * cannot hang a reader nor a device feed it without end.
 */
int sysroot_open_read(const struct sysroot *sr, const char *path);
/*
 * Whether root may write beneath the tree on the way to dir (absolute, as
 * PATH_*): the tree's root and every directory on the way that exists must
 * be a directory, no link, owned by root and writable by no group or other
 * user, so that no one else can lead a write out of the tree or swap a
 * directory once checked.  0 (also for the live system), -EPERM with *bad
 * the path refused (as sysroot_name()) and why the reason, or another
 * negative errno.
 */
int sysroot_check_owned(const struct sysroot *sr, const char *dir, const char **bad,
			char *why, size_t len);
/*
 * Whether path exists (a dangling link does), without following a last
 * link: 1, 0 when it does not (ENOENT), or a negative errno when that
 * cannot be told (out of memory, a parent that is no directory, …).
 */
int sysroot_probe(const struct sysroot *sr, const char *path);
/* sysroot_probe() == 1: what cannot be told counts as missing. */
bool sysroot_exists(const struct sysroot *sr, const char *path);
/* The file as sysroot_open_read() opens it, NUL-terminated, at most 4 MiB (else -EFBIG): 0 or a negative errno. */
int sysroot_read_file(const struct sysroot *sr, const char *path, char **buf, size_t *len);
/* The file's first line, as sysroot_read_file() reads it, without its newline: 0 or a negative errno. */
int sysroot_read_line(const struct sysroot *sr, const char *path, char **line);
/* The running kernel's PATH_BOOT_CONFIG, its release read from PATH_OSRELEASE, as sysroot_read_file(). */
int sysroot_read_boot_config(const struct sysroot *sr, char **buf, size_t *len);
/*
 * As sysroot_read_file(), but a FIFO is read too, as a stream to its
 * writer's end, blocking until one comes: the counters of show --interval,
 * which waits between samples anyway, and which a test paces so.
 */
int sysroot_read_paced(const struct sysroot *sr, const char *path, char **buf, size_t *len);
/* A "0-3,8" list file, as sysfs cpulists (empty for none): 0, -EINVAL or -errno. */
int sysroot_read_cpulist(const struct sysroot *sr, const char *path, struct idlist *list);
/* s written to an existing file in one write(2), not through a link: 0 or a negative errno. */
int sysroot_write_string(const struct sysroot *sr, const char *path, const char *s);

/*
 * Read a whole regular file (else -EINVAL), including /proc files that
 * report size 0, into a NUL-terminated buffer; O_NONBLOCK, at most 256 MiB
 * (else -EFBIG).  Returns 0 or a negative errno.
 */
int read_whole_file(const char *path, char **buf, size_t *len);

#endif
