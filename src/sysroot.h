/*
 * Every path pcpctl reads or writes, taken relative to a root prefix
 * (--sysroot), so the same binary runs against fixture trees.
 */
#ifndef PCPCTL_SYSROOT_H
#define PCPCTL_SYSROOT_H

#include <stddef.h>

#define PATH_ZONEINFO		"/proc/zoneinfo"
#define PATH_OSRELEASE		"/proc/sys/kernel/osrelease"
#define PATH_SYSCTL_VM		"/proc/sys/vm/"
#define PATH_RUN_DIR		"/run/pcpctl"
#define PATH_LOCK		"/run/pcpctl/lock"
#define PATH_JOURNAL		"/run/pcpctl/journal"
#define PATH_JOURNAL_TMP	"/run/pcpctl/journal.tmp"
#define PATH_SYSCTL_D		"/etc/sysctl.d"
#define PATH_PERSIST		"/etc/sysctl.d/90-pcpctl.conf"

/* "" for the live system.  Returns a malloc'ed path, or NULL when out of memory. */
char *sysroot_path(const char *root, const char *path);

/*
 * Read a whole file, including /proc files that report size 0, into a
 * NUL-terminated buffer.  Returns 0 or a negative errno.
 */
int read_whole_file(const char *path, char **buf, size_t *len);

#endif
