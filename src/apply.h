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
	/*
	 * The caller holds the lock and a journal of the original values
	 * (change_session_begin): take neither, the session's journal covers
	 * a crash.
	 */
	bool in_session;
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

/*
 * A session of several changes (a sweep): lock, and journal every pcp
 * sysctl's original value until change_session_end puts them back, so that
 * after a crash 'pcpctl rollback' restores the state before the session.
 */
struct change_session {
	int lock;
	struct change_result original;
};

int change_session_begin(struct kernel *k, struct change_session *s);
/* Restore and verify the original values; the exit code of that change. */
int change_session_end(struct kernel *k, struct change_session *s);

/* For messages and validation: the exit code of a value check, 0 if valid. */
int validate_batch(long batch, long max);
/* vm.percpu_pagelist_batch_max under root, or PCP_BATCH_MAX without it. */
long batch_limit(const char *root);
int validate_fraction(long fraction);

#endif
