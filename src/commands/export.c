/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "kernel.h"
#include "msg.h"
#include "openmetrics.h"
#include "zoneinfo.h"

/* The whole text in memory first: a file is written at once, or not at all. */
static int render(struct kernel *k, bool per_cpu, char **text, size_t *len)
{
	bool have[NSYSCTLS];
	long value[NSYSCTLS];
	struct zoneinfo zi;
	FILE *mem;
	int rc;

	if (kernel_load_zoneinfo(k, &zi))
		return EXIT_FAIL;
	if (kernel_read_settings(k, have, value)) {
		zoneinfo_free(&zi);
		return EXIT_FAIL;
	}
	mem = open_memstream(text, len);
	rc = mem ? openmetrics_write(mem, &zi, have, value, per_cpu) : -ENOMEM;
	if (mem && fclose(mem) != 0 && !rc)
		rc = -ENOMEM;
	zoneinfo_free(&zi);
	if (rc) {
		pcp_error("out of memory");
		if (mem)
			free(*text);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_export(const struct sysroot *root, const char *file, bool per_cpu)
{
	struct kernel *k;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (file && !file[0]) {
		pcp_error("--output: give a file name");
		return EXIT_USAGE;
	}
	k = kernel_open(root);
	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = render(k, per_cpu, &text, &len);
	k->ops->close(k);
	if (rc)
		return rc;
	if (file) {
		int err = atomic_write_file(file, text, len);

		if (err) {
			pcp_error("cannot write %s: %s", file, strerror(-err));
			rc = EXIT_FAIL;
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		pcp_error("cannot write the output: %s", strerror(errno));
		rc = EXIT_FAIL;
	}
	free(text);
	return rc;
}
