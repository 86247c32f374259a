/* The kernel interface over the real files under the sysroot. */
#include "kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysroot.h"

static int live_open_zoneinfo(struct kernel *k)
{
	char *path = sysroot_path(k->root, PATH_ZONEINFO);
	int fd;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	return fd < 0 ? -errno : fd;
}

static int live_read_sysctl(struct kernel *k, enum pcp_sysctl s, long *value)
{
	char *path = sysctl_path(k, s);
	char *text;
	size_t len;
	int rc;

	if (!path)
		return -ENOMEM;
	rc = read_whole_file(path, &text, &len);
	free(path);
	if (rc)
		return rc;
	rc = sysctl_parse_value(text, value);
	free(text);
	return rc;
}

static int live_write_sysctl(struct kernel *k, enum pcp_sysctl s, long value)
{
	char *path = sysctl_path(k, s);
	char buf[32];
	int fd, len, rc = 0;

	if (!path)
		return -ENOMEM;
	/* O_NOFOLLOW: under a sysroot, a planted link must not redirect the write. */
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_TRUNC);
	free(path);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%ld\n", value);
	/* procfs takes a sysctl value in one write; a short write is a failure. */
	ssize_t n = write(fd, buf, (size_t)len);
	if (n < 0)
		rc = -errno;
	else if (n != len)
		rc = -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

static void live_close(struct kernel *k)
{
	free(k);
}

static const struct kernel_ops live_ops = {
	.open_zoneinfo = live_open_zoneinfo,
	.read_sysctl = live_read_sysctl,
	.write_sysctl = live_write_sysctl,
	.close = live_close,
};

struct kernel *kernel_open(const char *root)
{
	struct kernel *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->ops = &live_ops;
	k->root = root;
	return k;
}
