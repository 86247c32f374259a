/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The change transaction behind set, reset and rollback: validate, lock,
 * journal, write, verify against zoneinfo, and on any failure restore the
 * old values and verify those.  It knows nothing of options or output
 * formats: it says what goes wrong as it goes, as the lock and the journal
 * do, and returns what came of a change, which the command layer (change.c,
 * sweep.c) reports and maps to an exit code.
 */
#ifndef PCPCTL_APPLY_H
#define PCPCTL_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel.h"
#include "pcprules.h"
#include "persist.h"
#include "zoneinfo.h"

enum persist_mode { PERSIST_NONE, PERSIST_SET, PERSIST_REMOVE };

/*
 * What came of a change.  Runtime failures (a write refused, a file not
 * readable) have been said by the time they are returned; the statuses
 * marked "unsaid" have not.
 */
enum change_status {
	CHANGE_DONE,		/* applied and verified, already so, or nothing to do */
	CHANGE_FAILED,		/* failed; whatever was written is restored and verified */
	CHANGE_NO_BATCH,	/* unsaid: the kernel has no vm.percpu_pagelist_batch */
	CHANGE_NO_FRACTION,	/* unsaid: nor either fraction sysctl */
	CHANGE_NO_SYSCTL,	/* the journal records a sysctl this kernel lacks */
	CHANGE_NO_ACCESS,	/* this process may not write the sysctl.d file (the sysctls: privs.h) */
	CHANGE_JOURNAL_LEFT,	/* unsaid: an interrupted change's journal is there */
	CHANGE_ROLLBACK_FAILED,	/* the restore failed too: the journal is kept */
	CHANGE_FOREIGN,		/* undone but for values another writer set, left as they are */
};

/*
 * Why a verification failed, or why a zone's CPUs cannot be told, as data:
 * said in apply_why_text's words, and kept in a report.  Which fields a
 * kind fills is noted.
 */
enum apply_why_kind {
	WHY_NONE,
	WHY_PAGESET,		/* node, zone, cpu, field, seen, expected */
	WHY_CPUS_UNKNOWN,	/* node, path (the sysfs tree read), err */
	WHY_BATCHES_DIFFER,	/* node, zone */
	WHY_BATCH_FIXED,	/* node, zone, seen, sysctl (which cannot move it), expected (was) */
	WHY_BATCH_ABOVE,	/* node, zone, seen, expected (the batch written) */
	WHY_READ_BACK_FAILED,	/* sysctl, err */
	WHY_READ_BACK,		/* sysctl, seen, expected */
	WHY_ZONEINFO_UNREADABLE,	/* none */
	WHY_ZONE_GONE,		/* node, zone: observed before the change, no pagesets now */
};

struct apply_why {
	enum apply_why_kind kind;
	/* A restored pageset checked against what it showed before the change. */
	bool as_before;
	enum pcp_sysctl sysctl;
	int node, cpu;
	char zone[ZI_ZONE_NAME_MAX];
	enum zi_field field;
	long seen, expected;
	int err;		/* a positive errno */
	/* Longer than any one reason pcpctl words (200 bytes): nothing it says is cut. */
	char path[200];
};

/* w in words: a sentence of at most len - 1 bytes (change.c reports it too). */
void apply_why_text(const struct apply_why *w, char *buf, size_t len);

struct change_request {
	bool set_batch, set_fraction;
	long batch, fraction;	/* 0 = the kernel's default */
	bool reset;		/* batch (where the kernel has it) and fraction to 0 */
	bool dry_run;
	enum persist_mode persist;
	/*
	 * Only the sysctl.d file: the kernel is read, never written, and need
	 * not have the sysctls (it may be the kernel before a reboot).
	 */
	bool persist_only;
	/*
	 * The caller holds the lock and a journal of the original values
	 * (apply_session_begin): take neither, the session's journal covers
	 * a crash.
	 */
	bool in_session;
	/*
	 * The zones as observed before the session, when this change restores
	 * its original values: verify against them, not against the rules.
	 */
	const struct journal *observed;
};

struct planned_write {
	enum pcp_sysctl sysctl;
	long from, to;
};

/* What a change gives a populated zone, from pcprules. */
struct zone_expect {
	int node;
	char zone[ZI_ZONE_NAME_MAX];
	int batch;		/* -1 when unknown: the change leaves it and the CPUs differ */
	int high_min, high_max;	/* equal where one high holds for every CPU */
	bool lazy;		/* 6.7-6.12: each CPU sets high within them when it next needs to */
};

/* Why the era's rules may not be a kernel's, as data: the command layer words it. */
enum rules_doubt_kind {
	DOUBT_NONE,		/* they are its rules */
	DOUBT_RELEASE,		/* release: pcprules's reason, from the release string */
	DOUBT_MINMAX,		/* minmax: zoneinfo prints high_min/high_max, unlike the era */
	DOUBT_SYSCTL,		/* sysctl: the kernel has it, unlike the era */
	DOUBT_PAGE_SIZE,	/* the page size (kernel_rules.page_size) is not 4, 16 or 64 KiB */
};

struct rules_doubt {
	enum rules_doubt_kind kind;
	const char *release;	/* static text */
	bool minmax;
	enum pcp_sysctl sysctl;
};

/* What pcprules needs of a kernel, and how far its rules are known for it. */
struct kernel_rules {
	enum pcp_era era;
	long page_size;
	unsigned page_shift;
	/*
	 * Why the era's rules may not be this kernel's, DOUBT_NONE when they
	 * are: then only what holds in every generation is checked (see enum
	 * verify_check).
	 */
	struct rules_doubt doubt;
};

/* The checks a verification made (change_result.checks). */
enum verify_check {
	CHECK_SYSCTLS = 1 << 0,		/* the sysctls read back as written */
	CHECK_RULES = 1 << 1,		/* every pageset as this generation's rules give it */
	CHECK_ONE_BATCH = 1 << 2,	/* every CPU of a zone shows the same batch */
	CHECK_BATCH_KEPT = 1 << 3,	/* a write that cannot move batch left it */
	CHECK_BATCH_WITHIN = 1 << 4,	/* a batch that moved is within vm.percpu_pagelist_batch */
	CHECK_FRACTION_HIGH = 1 << 5,	/* up to 5.13: high = managed / vm.percpu_pagelist_fraction */
	CHECK_MINMAX_EQUAL = 1 << 6,	/* at a high fraction, high_min = high_max where printed */
	CHECK_OBSERVED = 1 << 7,	/* a restore: the values observed before the change */
	NCHECKS = 8
};

/* The check's name in JSON ("sysctls", "rules", ...). */
const char *verify_check_name(int bit);

struct change_result {
	bool have[NSYSCTLS];
	long before[NSYSCTLS], after[NSYSCTLS];
	struct planned_write writes[NSYSCTLS];
	size_t nwrites;
	/* With rolled_back: the writes[] that may have happened before it (and were undone). */
	size_t nundone;
	bool changed, verified, rolled_back, persisted;
	/* With persist: the settings the sysctl.d file is to hold, once read. */
	bool persist_planned;
	struct persisted persist_to;
	/* The keys the change sets or removes there. */
	bool persist_keys[NSYSCTLS];
	/* The file already held persist_to: left alone (persisted is false). */
	bool persist_kept;
	/* Left at the value another writer set (after[] holds it) instead of restored. */
	bool foreign[NSYSCTLS];
	/* 6.7-6.12 print no high_min/high_max and set high lazily. */
	bool high_unconfirmed;
	struct kernel_rules rules;
	/* The verification of the change (or of the restore, when rolled back): CHECK_* bits. */
	unsigned checks;
	/*
	 * The change's verification failed, and the restore verified against
	 * the values before: what the kernel did that pcpctl did not expect.
	 */
	struct apply_why unexpected;
	struct zoneinfo zi_before, zi_after;
	/* Every populated zone, dry run or not; nexpected is 0 when the change stopped before. */
	struct zone_expect *expected;
	size_t nexpected;
};

/*
 * A change planned on the settings as they are before the lock, once per
 * command: write[] for the command table to check this process may write
 * them before anything runs (none for --persist-only, or where the release
 * is unknown and the change itself says so), and the settings read and the
 * writes planned (res), which the change reports where it stops before it
 * plans again under the lock.
 */
struct apply_plan {
	bool planned;
	bool write[NSYSCTLS];
	struct change_result res;
};

/* plan: what apply_targets made of req, or NULL to plan here. */
enum change_status apply_change(struct kernel *k, const struct change_request *req,
				const struct apply_plan *plan, struct change_result *res);
/* Restore what an interrupted change's journal recorded; CHANGE_DONE when none was. */
enum change_status apply_rollback(struct kernel *k, struct change_result *res);
/*
 * Plan req (see struct apply_plan).  CHANGE_NO_BATCH or CHANGE_NO_FRACTION
 * when the kernel lacks one the change sets; CHANGE_FAILED when the
 * settings cannot be read.
 */
enum change_status apply_targets(struct kernel *k, const struct change_request *req,
				 struct apply_plan *plan);
/*
 * The sysctls a rollback (with discard, rollback --discard) would write,
 * into write[], for the command table to check likewise: none when there is
 * no journal.
 */
enum change_status apply_rollback_targets(struct kernel *k, bool discard, bool write[NSYSCTLS]);
void apply_result_free(struct change_result *res);

struct journal;
/*
 * rollback --discard: remove, under the lock, an interrupted change's
 * journal that can never be applied, leaving the settings as they are.
 * *found when there was one; j holds what it recorded, or, when it was
 * damaged, nothing and why says how.
 */
enum change_status apply_discard(struct kernel *k, struct journal *j, bool *found, char *why,
				 size_t whylen);

/*
 * A session of several changes (a sweep): lock, and journal every pcp
 * sysctl's original value until apply_session_end puts them back, so that
 * after a crash 'pcpctl rollback' restores the state before the session.
 */
struct change_session {
	int lock;
	struct change_result original;
	/* The original values and the zones as they were (JOURNAL_ZONES_MAX of them): allocated. */
	struct journal *journal;
};

enum change_status apply_session_begin(struct kernel *k, struct change_session *s);
/*
 * Restore the original values and verify them against the zones as they
 * were before the session: CHANGE_DONE or CHANGE_ROLLBACK_FAILED.
 */
enum change_status apply_session_end(struct kernel *k, struct change_session *s);
/* What begin allocated, whatever came of it. */
void apply_session_free(struct change_session *s);

/*
 * Whether the kernel takes the value: 0 (its default) or 1..max (see
 * batch_limit), and 0 or PCP_FRACTION_MIN and up.
 */
bool batch_valid(long batch, long max);
/*
 * The largest vm.percpu_pagelist_batch: patch v2's percpu_pagelist_batch_max
 * where the kernel has it, else patch v3's documented bound, the largest
 * default batch of the page size << CONFIG_PCP_BATCH_SCALE_MAX, that shift
 * read from /boot/config-RELEASE, or its Kconfig limit (6) when that does not
 * say; the kernel's own EINVAL then decides.
 */
long batch_limit(struct kernel *k);
/* CONFIG_PCP_BATCH_SCALE_MAX from the kernel's config, or -ENOENT. */
int batch_scale_max(const struct sysroot *root);
bool fraction_valid(long fraction);

#endif
