#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *sysroot_path(const char *root, const char *path)
{
	char *full;

	if (asprintf(&full, "%s%s", root ? root : "", path) < 0)
		return NULL;
	return full;
}

int read_whole_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, used = 0;
	char *data;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* procfs reports 0; a regular file's size saves the regrowing. */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	data = malloc(cap);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (cap - used < 2) {
			char *bigger = realloc(data, cap * 2);

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
