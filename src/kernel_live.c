/* The kernel interface over the real files under the sysroot. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel.h"

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

static const struct kernel_ops live_ops = {
	.open_zoneinfo = kernel_open_zoneinfo_file,
	.read_sysctl = kernel_read_sysctl_file,
	.write_sysctl = live_write_sysctl,
	.close = kernel_free,
};

struct kernel *kernel_open(const char *root)
{
	return kernel_new(root, &live_ops);
}
