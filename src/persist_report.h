/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What set and reset say of the sysctl.d file: its text before and after,
 * what became of it, and the files that sort later and so override it at
 * boot (each also warned about).
 */
#ifndef PCPCTL_PERSIST_REPORT_H
#define PCPCTL_PERSIST_REPORT_H

#include <stdbool.h>

#include "apply.h"

struct sysroot;

struct persist_report {
	bool asked;			/* --persist or --persist-only */
	char *before, *after;		/* the file's text, NULL for no file */
	struct sysctld_line *overrides;	/* the lines in force at boot instead */
	enum pcp_sysctl *keys;		/* the key of each */
	size_t n;
};

/* Before the change: whether it persists, and the file's text. 0 or -ENOMEM after saying so. */
int persist_report_begin(const struct sysroot *root, const struct change_request *req,
			 struct persist_report *pr);
/*
 * After it: the file's text (for a dry run, the text it would get) and,
 * when the change went through (ok), the lines that override it at boot,
 * each warned about.  0 or -ENOMEM after saying so.
 */
int persist_report_end(const struct sysroot *root, const struct change_request *req,
		       const struct change_result *r, bool ok, struct persist_report *pr);
/* JSON "persist" and "boot_overrides" (null and [] without --persist). */
void print_persist_json(const struct sysroot *root, const struct persist_report *pr);
/* Text: what became of the file. */
void print_persist_text(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, const struct persist_report *pr);
void persist_report_free(struct persist_report *pr);

#endif
