/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What set and reset say of the sysctl.d file: its text before and after,
 * what became of it, and the files that sort later and so override it at
 * boot (each also warned about).  Nothing here can make a change that went
 * through fail: what cannot be told is said and reported as unknown.
 */
#ifndef PCPCTL_PERSIST_REPORT_H
#define PCPCTL_PERSIST_REPORT_H

#include <stdbool.h>

#include "apply.h"
#include "persist.h"
#include "sysctld.h"

struct sysroot;

struct persist_report {
	bool asked;			/* --persist or --persist-only */
	bool has_before, has_after;	/* whether there is (or would be) a file */
	char before[PERSIST_MAX + 1], after[PERSIST_MAX + 1];
	bool boot_known;		/* the sysctl.d files were read */
	bool boot_unknown;		/* they could not be: boot_overrides is null */
	struct sysctld boot;
	enum pcp_sysctl overridden[NSYSCTLS];	/* the keys whose boot line is not ours */
	size_t n;
};

/* Before the change: whether it persists, and the file's text. */
void persist_report_begin(const struct sysroot *root, const struct change_request *req,
			  struct persist_report *pr);
/*
 * After it: the file's text (for a dry run, the text it would get) and,
 * when the change went through (ok), the lines that override it at boot,
 * each warned about.
 */
void persist_report_end(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, bool ok, struct persist_report *pr);
/* JSON "persist" and "boot_overrides" (null and [] without --persist). */
void print_persist_json(const struct sysroot *root, const struct persist_report *pr);
/* Text: what became of the file. */
void print_persist_text(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, const struct persist_report *pr);
void persist_report_free(struct persist_report *pr);

#endif
