// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the sysctl.d reader (persist_read), which reads
 * /etc/sysctl.d/90-pcpctl.conf as an administrator or another package may
 * have left it.  Each input is that file in a private sysroot.  A file is
 * managed (0) or refused (-EPERM); what is read is in range, and written
 * back to a second sysroot, reads the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c.h"
#include "check.h"
#include "persist.h"
#include "sysroot.h"

static char root[64], again[64], file[128];
static struct sysroot *root_sr, *again_sr;

static void cleanup(void)
{
	static const char *const parts[] = { "/etc/sysctl.d/90-pcpctl.conf", "/etc/sysctl.d",
					     "/etc", "" };
	char path[128];

	for (int i = 0; i < 2; i++)
		for (size_t p = 0; p < ARRAY_SIZE(parts); p++) {
			snprintf(path, sizeof(path), "%s%s", i ? again : root, parts[p]);
			remove(path);
		}
}

/* Two sysroots with etc/sysctl.d, removed at exit. */
static void setup(void)
{
	char dir[128];

	for (int i = 0; i < 2; i++) {
		char *r = i ? again : root;

		snprintf(r, sizeof(root), "%s/persist_fuzz.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		CHECK(mkdtemp(r));
		snprintf(dir, sizeof(dir), "%s/etc", r);
		CHECK(mkdir(dir, 0755) == 0);
		snprintf(dir, sizeof(dir), "%s/etc/sysctl.d", r);
		CHECK(mkdir(dir, 0755) == 0);
	}
	snprintf(file, sizeof(file), "%s/etc/sysctl.d/90-pcpctl.conf", root);
	root_sr = sysroot_open(root);
	again_sr = sysroot_open(again);
	CHECK(root_sr && again_sr);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct persisted p, back;
	int fd, rc;

	if (!root[0])
		setup();
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	CHECK(write(fd, data, size) == (ssize_t)size);
	close(fd);

	rc = persist_read(root_sr, &p);
	CHECK(rc == 0 || rc == -EPERM);
	if (rc)
		return 0;
	for (int s = 0; s < NSYSCTLS; s++)
		CHECK(!p.have[s] || (p.value[s] >= 0 && p.value[s] <= INT_MAX));
	CHECK(persist_write(again_sr, &p) >= 0);
	CHECK(persist_read(again_sr, &back) == 0);
	CHECK(persist_same(&p, &back));
	return 0;
}
