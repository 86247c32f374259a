/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcpctl export: the pcp lists and sysctls for Prometheus. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "command.h"
#include "journal.h"
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
	rc = mem ? openmetrics_write(mem, &zi, have, value, per_cpu, journal_exists(k->root)) :
		   -ENOMEM;
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

/* To file (replaced atomically) or, when NULL, stdout.  An exit code of msg.h. */
static int cmd_export(const struct sysroot *root, const char *file, bool per_cpu)
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
	if (file && strcmp(file, "-") == 0)
		file = NULL;
	if (file) {
		int err = atomic_write_file(file, text, len);

		if (err) {
			pcp_error("cannot write %s: %s", file, strerror(-err));
			rc = EXIT_FAIL;
		}
	} else {
		/* A short write leaves stdout's error flag set for the flush to report. */
		(void)fwrite(text, 1, len, stdout);
		if (msg_flush_stdout())
			rc = EXIT_FAIL;
	}
	free(text);
	return rc;
}

static struct {
	const char *file;
	int per_cpu;
} cli;

static const struct poptOption export_options[] = {
	{ "output", 'o', POPT_ARG_STRING, &cli.file, 0, NULL, NULL },
	{ "per-cpu", '\0', POPT_ARG_NONE, &cli.per_cpu, 0, NULL, NULL },
	POPT_TABLEEND
};

static int run(const struct sysroot *root, const struct command_args *a)
{
	(void)a;
	return cmd_export(root, cli.file, cli.per_cpu);
}

const struct command export_command = {
	.name = "export", .run = run, .no_json = "it writes the Prometheus text format",
	.summary = "the pcp lists and sysctls as Prometheus gauges",
	.usage = "[--per-cpu] [--output FILE] [options]",
	.options = export_options, .options_help =
	" -o, --output FILE    replace FILE atomically instead of writing to stdout\n"
	"                      (- is stdout)\n"
	"     --per-cpu        also a series per CPU (label cpu)\n",
};
