/*
 * The change transaction behind set, reset and rollback: validate, lock,
 * journal, write, verify against zoneinfo, and on any failure restore the
 * old values and verify those.  It knows nothing of options or output.
 */
#ifndef PCPCTL_APPLY_H
#define PCPCTL_APPLY_H

#include <stdbool.h>

#include "kernel.h"
#include "zoneinfo.h"

enum persist_mode { PERSIST_NONE, PERSIST_SET, PERSIST_REMOVE };

struct change_request {
	bool set_batch, set_fraction;
	long batch, fraction;	/* 0 = the kernel's default */
	bool reset;		/* batch (where the kernel has it) and fraction to 0 */
	bool dry_run;
	enum persist_mode persist;
};

struct planned_write {
	enum pcp_sysctl sysctl;
	long from, to;
};

struct change_result {
	bool have[NSYSCTLS];
	long before[NSYSCTLS], after[NSYSCTLS];
	struct planned_write writes[NSYSCTLS];
	size_t nwrites;
	bool changed, verified, rolled_back, persisted;
	/* 6.7-6.12 print no high_min/high_max and set high lazily. */
	bool high_unconfirmed;
	struct zoneinfo zi_before, zi_after;
};

/* Returns the exit code (enum pcpctl_exit); messages go to stderr. */
int change_apply(struct kernel *k, const struct change_request *req, struct change_result *res);
/* Restore what an interrupted change's journal recorded. */
int change_rollback(struct kernel *k, struct change_result *res);
void change_result_free(struct change_result *res);

/* For messages and validation: the exit code of a value check, 0 if valid. */
int validate_batch(long batch);
int validate_fraction(long fraction);

#endif
