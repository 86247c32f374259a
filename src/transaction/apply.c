/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c.h"
#include "journal.h"
#include "lock.h"
#include "msg.h"
#include "pcprules.h"
#include "persist.h"
#include "privs.h"
#include "sysroot.h"
#include "topology.h"

bool batch_valid(long batch, long max)
{
	return batch >= 0 && batch <= max;
}

long batch_limit(const struct sysroot *root)
{
	char *text = NULL;
	size_t len;
	long max;

	/* Patch v1 and unpatched kernels have no such file: the limit of Debian's configs. */
	if (sysroot_read_file(root, PATH_SYSCTL_VM "percpu_pagelist_batch_max", &text, &len) ||
	    sysctl_parse_value(text, &max) || max < 1)
		max = PCP_BATCH_MAX;
	free(text);
	return max;
}

bool fraction_valid(long fraction)
{
	return fraction == 0 || (fraction >= PCP_FRACTION_MIN && fraction <= INT32_MAX);
}

static void checkpoint(struct kernel *k, const char *step)
{
	if (k->ops->checkpoint)
		k->ops->checkpoint(k, step);
}

static void checkpoint_sysctl(struct kernel *k, const char *what, enum pcp_sysctl s)
{
	char step[64];

	snprintf(step, sizeof(step), "%s:%s", what, sysctl_name(s));
	checkpoint(k, step);
}

/* The settings verification expects, and which of them were written. */
struct expectation {
	bool have[NSYSCTLS];
	long value[NSYSCTLS];
	bool targeted[NSYSCTLS];
};

static enum pcp_sysctl fraction_sysctl(const bool have[NSYSCTLS])
{
	return have[SYSCTL_HIGH_FRACTION] || !have[SYSCTL_FRACTION] ? SYSCTL_HIGH_FRACTION :
								     SYSCTL_FRACTION;
}

static int check_pageset(const struct zi_zone *z, const struct zi_pageset *ps, enum zi_field f,
			 int want, char *why, size_t whylen)
{
	if (ps->value[f] == want)
		return 0;
	snprintf(why, whylen, "node %d zone %s cpu %d shows %s %d, expected %d", z->node, z->name,
		 ps->cpu, zi_field_name(f), ps->value[f], want);
	return -EPROTO;
}

/*
 * What the kernel computes for the zone from the settings ex with low
 * watermark low; *want_batch is -1 when the change leaves the batch alone.
 */
static int zone_input(const struct sysroot *root, enum pcp_era era, const struct expectation *ex,
		      const struct zi_zone *z, uint64_t low, struct pcp_zone_input *in,
		      int *want_batch, char *why, size_t whylen)
{
	enum pcp_sysctl fs = fraction_sysctl(ex->have);
	int rc;

	*in = (struct pcp_zone_input){
		.era = era, .managed = z->field[ZI_MANAGED], .low = low,
		.fraction = ex->have[fs] ? ex->value[fs] : 0,
	};
	rc = zone_split_cpus(root, z, &in->split);
	if (rc) {
		snprintf(why, whylen, "cannot tell the CPUs of node %d from %s: %s", z->node,
			 sysroot_name(root, "/sys"), strerror(-rc));
		return rc;
	}
	*want_batch = -1;
	if (ex->targeted[SYSCTL_BATCH])
		*want_batch = pcp_patched_batch(in, ex->value[SYSCTL_BATCH]);
	else if (ex->targeted[SYSCTL_FRACTION])
		*want_batch = pcp_fraction_batch(in);
	return 0;
}

/* The zone's pagesets against what the kernel computes with low watermark low. */
static int check_zone(const struct sysroot *root, enum pcp_era era,
		      const struct expectation *ex, const struct zi_zone *z, uint64_t low, char *why,
		      size_t whylen)
{
	struct pcp_zone_input in;
	int want_batch;
	int rc;

	rc = zone_input(root, era, ex, z, low, &in, &want_batch, why, whylen);
	if (rc)
		return rc;

	for (size_t i = 0; i < z->npagesets; i++) {
		const struct zi_pageset *ps = &z->pagesets[i];
		struct pcp_expect want;

		if (want_batch >= 0 &&
		    (rc = check_pageset(z, ps, ZI_BATCH, want_batch, why, whylen)))
			return rc;
		in.batch = ps->value[ZI_BATCH];
		pcp_expected(&in, &want);
		if (want.check_high && (rc = check_pageset(z, ps, ZI_HIGH, want.high, why, whylen)))
			return rc;
		if (want.check_minmax && zi_has(ps, ZI_HIGH_MIN) &&
		    ((rc = check_pageset(z, ps, ZI_HIGH_MIN, want.high_min, why, whylen)) ||
		     (rc = check_pageset(z, ps, ZI_HIGH_MAX, want.high_max, why, whylen))))
			return rc;
	}
	return 0;
}

/*
 * The kernel computes high from the low watermark as it is when the sysctl
 * is written, boost included; zoneinfo prints the watermark and the boost
 * as they are now, and kswapd raises and clears the boost at any time.  So
 * the zone is right if it matches the watermark with the boost it has now,
 * with the boost it had before the change (before: the same zone then, or
 * NULL), or with none.  A mismatch is described for the boost it has now.
 */
static int verify_zone(const struct sysroot *root, enum pcp_era era, const struct expectation *ex,
		       const struct zi_zone *z, const struct zi_zone *before, char *why,
		       size_t whylen)
{
	uint64_t boost = z->field[ZI_BOOST] <= z->field[ZI_LOW] ? z->field[ZI_BOOST] : 0;
	uint64_t base = z->field[ZI_LOW] - boost;
	const uint64_t lows[] = { base + boost, base + (before ? before->field[ZI_BOOST] : 0), base };
	char other[200];
	int rc = check_zone(root, era, ex, z, lows[0], why, whylen);

	for (size_t i = 1; i < ARRAY_SIZE(lows) && rc == -EPROTO; i++)
		if (lows[i] != lows[0] && check_zone(root, era, ex, z, lows[i], other,
						     sizeof(other)) == 0)
			rc = 0;
	return rc;
}

static const struct zi_zone *same_zone(const struct zoneinfo *zi, const struct zi_zone *z)
{
	for (size_t i = 0; zi && i < zi->nzones; i++)
		if (zi->zones[i].node == z->node && strcmp(zi->zones[i].name, z->name) == 0)
			return &zi->zones[i];
	return NULL;
}

/*
 * Read the targeted sysctls back and check every populated zone's pagesets
 * against what this kernel computes from them.  On a mismatch says why.
 */
static int verify(struct kernel *k, enum pcp_era era, const struct expectation *ex,
		  const struct zoneinfo *before, struct zoneinfo *zi, char *why, size_t whylen)
{
	int rc;

	for (int s = 0; s < NSYSCTLS; s++) {
		long now;

		if (!ex->targeted[s])
			continue;
		rc = k->ops->read_sysctl(k, s, &now);
		if (rc) {
			snprintf(why, whylen, "cannot read vm.%s back: %s", sysctl_name(s),
				 strerror(-rc));
			return rc;
		}
		if (now != ex->value[s]) {
			snprintf(why, whylen, "vm.%s reads back %ld, expected %ld", sysctl_name(s), now,
				 ex->value[s]);
			return -EPROTO;
		}
	}
	rc = kernel_load_zoneinfo(k, zi);
	if (rc) {
		snprintf(why, whylen, "cannot read zoneinfo");
		return rc;
	}
	for (size_t i = 0; i < zi->nzones; i++) {
		if (!zi->zones[i].npagesets)
			continue;
		rc = verify_zone(k->root, era, ex, &zi->zones[i], same_zone(before, &zi->zones[i]),
				 why, whylen);
		if (rc) {
			zoneinfo_free(zi);
			return rc;
		}
	}
	return 0;
}

/* Zones whose value the kernel clamps, for one warning that names them all. */
struct clamped {
	char list[512];
	size_t len;
};

static void clamped_add(struct clamped *c, const struct zi_zone *z, long got, uint64_t instead)
{
	int n;

	if (c->len >= sizeof(c->list))
		return;
	n = snprintf(c->list + c->len, sizeof(c->list) - c->len, "%snode %d zone %s %ld (not %llu)",
		     c->len ? ", " : "", z->node, z->name, got, (unsigned long long)instead);
	c->len = n < 0 ? sizeof(c->list) : c->len + (size_t)n;
}

/* The batch of every CPU of the zone, or -1 when they differ. */
static int zone_batch(const struct zi_zone *z)
{
	int lo, hi;

	zi_zone_range(z, ZI_BATCH, &lo, &hi);
	return lo == hi ? lo : -1;
}

/*
 * What the change gives each populated zone of zi, zoneinfo as it is now,
 * from pcprules, into res->expected, with a warning for each kind of value
 * the kernel clamps.  With fill, zi's batch and the high values this kernel
 * sets eagerly become what the change would give them.
 */
static int predict(const struct kernel *k, enum pcp_era era, const struct expectation *ex,
		   struct change_result *res, struct zoneinfo *zi, bool fill)
{
	enum pcp_sysctl fs = fraction_sysctl(ex->have);
	struct clamped floored = { .len = 0 }, capped = { .len = 0 };
	char why[200];
	int rc = 0;

	if (!(res->expected = calloc(zi->nzones ? zi->nzones : 1, sizeof(*res->expected)))) {
		pcp_error("out of memory");
		rc = -ENOMEM;
	}
	for (size_t i = 0; !rc && i < zi->nzones; i++) {
		struct zi_zone *z = &zi->zones[i];
		struct zone_expect *e = &res->expected[res->nexpected];
		struct pcp_zone_input in;
		struct pcp_expect want = { .floored = false };
		int want_batch;

		if (!z->npagesets)
			continue;
		rc = zone_input(k->root, era, ex, z, z->field[ZI_LOW], &in, &want_batch, why,
				sizeof(why));
		if (rc) {
			pcp_error("%s", why);
			break;
		}
		e->node = z->node;
		snprintf(e->zone, sizeof(e->zone), "%s", z->name);
		e->batch = want_batch >= 0 ? want_batch : zone_batch(z);
		e->lazy = era == ERA_LAZY_HIGH;
		for (size_t p = 0; p < z->npagesets; p++) {
			struct zi_pageset *ps = &z->pagesets[p];

			in.batch = want_batch >= 0 ? want_batch : ps->value[ZI_BATCH];
			pcp_expected(&in, &want);
			if (!fill)
				continue;
			ps->value[ZI_BATCH] = in.batch;
			if (want.check_high)
				ps->value[ZI_HIGH] = want.high;
			if (want.check_minmax && zi_has(ps, ZI_HIGH_MIN)) {
				ps->value[ZI_HIGH_MIN] = want.high_min;
				ps->value[ZI_HIGH_MAX] = want.high_max;
			}
		}
		/* With CPUs of differing batches, each has its own high: no one figure. */
		e->high_min = e->batch >= 0 ? want.high_min : -1;
		e->high_max = e->batch >= 0 ? want.high_max : -1;
		res->nexpected++;
		if (want.floored)
			clamped_add(&floored, z, want.high_min, want.share);
		if (ex->targeted[SYSCTL_BATCH] && want_batch < ex->value[SYSCTL_BATCH] &&
		    pcp_default_batch(era, in.managed) == PCP_BATCH_CAP)
			clamped_add(&capped, z, want_batch, (uint64_t)ex->value[SYSCTL_BATCH]);
	}
	if (!rc && floored.len)
		pcp_warn("vm.%s = %ld puts high at its floor of 4 * batch where managed pages / %ld "
			 "/ CPUs is less: %s", sysctl_name(fs), ex->value[fs], ex->value[fs],
			 floored.list);
	if (!rc && capped.len)
		pcp_warn("vm.percpu_pagelist_batch = %ld is more than some zones take; the kernel "
			 "caps their batch at a quarter of a CPU's share at fraction %d: %s",
			 ex->value[SYSCTL_BATCH], PCP_FRACTION_MIN, capped.list);
	return rc;
}

static void write_failed(enum pcp_sysctl s, long value, int rc)
{
	if (rc == -EINVAL)
		pcp_error("the kernel refused vm.%s = %ld (EINVAL): the value is outside what this "
			  "kernel accepts", sysctl_name(s), value);
	else
		pcp_error("cannot write vm.%s = %ld: %s", sysctl_name(s), value, strerror(-rc));
}

/*
 * Another writer's value of a setting the change wrote: neither the value
 * pcpctl wrote nor the old one (a failed write may have left that).  It is
 * left as it is, and named.  Returns whether the setting is to be restored;
 * w's "to" (what pcpctl wrote) becomes the value it has now.
 */
static bool ours_to_restore(struct kernel *k, struct planned_write *w, struct change_result *res)
{
	long now, wrote = w->to;

	if (k->ops->read_sysctl(k, w->sysctl, &now))
		return true;
	w->to = now;
	if (now == wrote || now == w->from)
		return true;
	pcp_warn("vm.%s is %ld, which pcpctl did not write (it wrote %ld): another writer "
		 "changed it; left as it is", sysctl_name(w->sysctl), now, wrote);
	res->foreign[w->sysctl] = true;
	res->after[w->sysctl] = now;
	return false;
}

/*
 * Write the old values back in reverse order, except those another writer
 * changed since, and verify them, and with file, put the sysctl.d file
 * back as it was.  Returns CHANGE_FAILED when all is back where it was, or
 * CHANGE_FOREIGN when all but another writer's values are (journal removed
 * when own is given), or CHANGE_ROLLBACK_FAILED when it is not (journal kept).
 */
static enum change_status roll_back(struct kernel *k, enum pcp_era era,
				    struct change_result *res, size_t n,
				    const struct expectation *old, const struct persisted *file,
				    const struct journal_files *own)
{
	struct planned_write *w = res->writes;
	struct expectation ex = *old;
	struct zoneinfo zi;
	int rc, failed = 0, foreign = 0;

	memset(ex.targeted, 0, sizeof(ex.targeted));
	for (size_t i = n; i-- > 0;) {
		checkpoint_sysctl(k, "rollback", w[i].sysctl);
		if (!ours_to_restore(k, &w[i], res)) {
			ex.value[w[i].sysctl] = w[i].to;
			foreign = 1;
			continue;
		}
		rc = k->ops->write_sysctl(k, w[i].sysctl, w[i].from);
		if (rc) {
			write_failed(w[i].sysctl, w[i].from, rc);
			failed = 1;
		}
		ex.targeted[w[i].sysctl] = true;
	}
	checkpoint(k, "rollback-verify");
	if (!failed) {
		char why[200];

		rc = verify(k, era, &ex, NULL, &zi, why, sizeof(why));
		if (rc == 0)
			zoneinfo_free(&zi);
		else {
			pcp_error("the restored settings do not verify: %s", why);
			failed = 1;
		}
	}
	if (file) {
		struct persisted now;

		checkpoint(k, "rollback-persist");
		if (persist_read(k->root, &now) ||
		    (!persist_same(&now, file) && persist_write(k->root, file) < 0))
			failed = 1;
	}
	if (failed) {
		pcp_error("rollback failed; %s keeps the old values: fix the cause, then run "
			  "'pcpctl rollback'", sysroot_name(k->root, PATH_JOURNAL));
		return CHANGE_ROLLBACK_FAILED;
	}
	rc = own ? journal_remove_at(own) : 0;
	if (rc)
		pcp_warn("settings restored, but %s could not be removed: %s", own->path,
			 strerror(-rc));
	return foreign ? CHANGE_FOREIGN : CHANGE_FAILED;
}

/* CHANGE_NO_ACCESS when s is not writable; running out of memory to tell is no such thing. */
static enum change_status write_access(const struct kernel *k, enum pcp_sysctl s)
{
	int rc = check_write_access(k, s);

	if (rc == -ENOMEM) {
		pcp_error("out of memory");
		return CHANGE_FAILED;
	}
	return rc ? CHANGE_NO_ACCESS : CHANGE_DONE;
}

static enum change_status kernel_era(struct kernel *k, enum pcp_era *era)
{
	char *release = kernel_release(k);
	int rc;

	if (!release) {
		pcp_error("cannot read the kernel release from %s: %s",
			  sysroot_name(k->root, PATH_OSRELEASE), strerror(errno));
		return CHANGE_FAILED;
	}
	rc = pcp_era_of_release(release, era);
	if (rc)
		pcp_error("cannot tell the kernel version from its release \"%s\"", release);
	free(release);
	return rc ? CHANGE_FAILED : CHANGE_DONE;
}

static enum change_status read_settings(struct kernel *k, struct change_result *res)
{
	if (kernel_read_settings(k, res->have, res->before))
		return CHANGE_FAILED;
	memcpy(res->after, res->before, sizeof(res->after));
	return CHANGE_DONE;
}

/* Decide the writes: batch first, then the fraction this kernel has. */
static enum change_status plan(const struct change_request *req, struct change_result *res,
			       struct expectation *want)
{
	enum pcp_sysctl fs = fraction_sysctl(res->have);
	bool set_batch = req->set_batch || (req->reset && res->have[SYSCTL_BATCH]);
	bool set_fraction = req->set_fraction || req->reset;

	memcpy(want->have, res->have, sizeof(want->have));
	memcpy(want->value, res->before, sizeof(want->value));
	memset(want->targeted, 0, sizeof(want->targeted));

	if (set_batch && !res->have[SYSCTL_BATCH])
		return CHANGE_NO_BATCH;
	if (set_fraction && !res->have[fs])
		return CHANGE_NO_FRACTION;
	if (set_batch) {
		want->value[SYSCTL_BATCH] = req->reset ? 0 : req->batch;
		want->targeted[SYSCTL_BATCH] = true;
	}
	if (set_fraction) {
		want->value[fs] = req->reset ? 0 : req->fraction;
		want->targeted[fs] = true;
	}
	res->nwrites = 0;
	for (int s = 0; s < NSYSCTLS; s++) {
		if (!want->targeted[s])
			continue;
		res->after[s] = want->value[s];
		if (want->value[s] != res->before[s])
			res->writes[res->nwrites++] = (struct planned_write){
				.sysctl = s, .from = res->before[s], .to = want->value[s],
			};
	}
	return CHANGE_DONE;
}

/* What the sysctl.d file is to hold: was, with the targeted settings set or removed. */
static void plan_persist(const struct change_request *req, const bool targeted[NSYSCTLS],
			 const long value[NSYSCTLS], const struct persisted *was,
			 struct change_result *res)
{
	res->persist_to = *was;
	for (int s = 0; s < NSYSCTLS; s++) {
		if (!targeted[s])
			continue;
		res->persist_to.have[s] = req->persist == PERSIST_SET;
		res->persist_to.value[s] = value[s];
		res->persist_keys[s] = true;
	}
	res->persist_planned = true;
}

/* 0, or a negative errno after saying why; a file already so is left alone. */
static int persist(const struct kernel *k, struct change_result *res)
{
	int rc = persist_write(k->root, &res->persist_to);

	res->persisted = rc == 0;
	res->persist_kept = rc == 1;
	return rc < 0 ? rc : 0;
}

/* What the steps of transact() hand on to each other. */
struct txn {
	struct kernel *k;
	enum pcp_era era;
	const struct change_request *req;
	struct change_result *res;
	/* Made before the lock is taken, so that committing needs no memory. */
	const struct journal_files *files;
	struct expectation want, old;
	struct journal j;
	/* The sysctl.d file as it was, once the change may have rewritten it. */
	const struct persisted *file;
	size_t done;		/* writes that may have happened, to undo */
};

/* Read and plan again under the lock, and read what a failure would restore. */
static enum change_status prepare(struct txn *t)
{
	struct change_result *res = t->res;
	enum change_status st;
	int rc;

	if (!t->req->in_session) {
		/* A dry run removes nothing: it says what the change would remove. */
		rc = t->req->dry_run ? journal_pending(t->k->root) : journal_tidy(t->k->root);
		if (rc)
			return rc > 0 ? CHANGE_JOURNAL_LEFT : CHANGE_FAILED;
	}
	if ((st = read_settings(t->k, res)) || (st = plan(t->req, res, &t->want)))
		return st;
	if (kernel_load_zoneinfo(t->k, &res->zi_before))
		return CHANGE_FAILED;
	res->high_unconfirmed = t->era == ERA_LAZY_HIGH;
	/* A dry run reports the prediction as its "after"; a real run reads zoneinfo back. */
	if (t->req->dry_run)
		rc = kernel_load_zoneinfo(t->k, &res->zi_after) ||
		     predict(t->k, t->era, &t->want, res, &res->zi_after, true);
	else
		rc = predict(t->k, t->era, &t->want, res, &res->zi_before, false);
	if (rc)
		return CHANGE_FAILED;
	/*
	 * Read first: a file pcpctl may not manage stops the change (and the
	 * dry run) before any write.
	 */
	if (t->req->persist != PERSIST_NONE) {
		if (persist_read(t->k->root, &t->j.persisted))
			return CHANGE_FAILED;
		t->j.persist = true;
		plan_persist(t->req, t->want.targeted, t->want.value, &t->j.persisted, res);
	}
	return CHANGE_DONE;
}

/* Writing the value already set recomputes nothing: leave the kernel alone. */
static void confirm_unchanged(struct txn *t)
{
	char why[200];
	int rc = verify(t->k, t->era, &t->want, &t->res->zi_before, &t->res->zi_after, why,
			sizeof(why));

	t->res->verified = rc == 0;
	if (rc)
		pcp_warn("already set, but zoneinfo disagrees: %s", why);
}

/* Journal the old values, then write the new ones in order. */
static enum change_status write_all(struct txn *t)
{
	struct change_result *res = t->res;

	t->old = t->want;
	memcpy(t->old.value, res->before, sizeof(t->old.value));
	for (size_t i = 0; i < res->nwrites; i++) {
		t->j.sysctl[t->j.n] = res->writes[i].sysctl;
		t->j.wrote[t->j.n] = res->writes[i].to;
		t->j.old[t->j.n++] = res->writes[i].from;
	}
	t->j.have_wrote = true;
	checkpoint(t->k, "journal");
	if (!t->req->in_session && journal_write_at(t->files, &t->j))
		return CHANGE_FAILED;
	for (t->done = 0; t->done < res->nwrites; t->done++) {
		const struct planned_write *w = &res->writes[t->done];
		int rc;

		checkpoint_sysctl(t->k, "write", w->sysctl);
		rc = t->k->ops->write_sysctl(t->k, w->sysctl, w->to);
		if (rc) {
			write_failed(w->sysctl, w->to, rc);
			/* A failed write may still have half-happened: restore it too. */
			t->done++;
			return CHANGE_FAILED;
		}
	}
	return CHANGE_DONE;
}

static enum change_status verify_writes(struct txn *t)
{
	char why[200];

	checkpoint(t->k, "verify");
	if (verify(t->k, t->era, &t->want, &t->res->zi_before, &t->res->zi_after, why,
		   sizeof(why))) {
		pcp_error("verification failed: %s", why);
		return CHANGE_FAILED;
	}
	t->res->verified = true;
	t->res->changed = true;
	return CHANGE_DONE;
}

static enum change_status persist_settings(struct txn *t)
{
	checkpoint(t->k, "persist");
	if (persist(t->k, t->res)) {
		/* The rename may have happened before the failure: put the file back too. */
		t->file = &t->j.persisted;
		t->done = t->res->nwrites;
		zoneinfo_free(&t->res->zi_after);
		return CHANGE_FAILED;
	}
	return CHANGE_DONE;
}

/*
 * Record the commit, then remove the journal: without the record, a journal
 * left now would undo a finished change.  Fails only when the record cannot
 * be written, and then the change is to be undone.
 */
static enum change_status commit(struct txn *t)
{
	int rc;

	if (!t->res->nwrites || t->req->in_session)
		return CHANGE_DONE;
	checkpoint(t->k, "commit");
	t->j.committed = true;
	if (journal_write_at(t->files, &t->j)) {
		t->file = t->j.persist ? &t->j.persisted : NULL;
		t->done = t->res->nwrites;
		zoneinfo_free(&t->res->zi_after);
		return CHANGE_FAILED;
	}
	checkpoint(t->k, "committed");
	rc = journal_remove_at(t->files);
	if (rc)
		pcp_warn("change verified and committed, but %s could not be removed: %s; the "
			 "next pcpctl change removes it", t->files->path, strerror(-rc));
	return CHANGE_DONE;
}

static enum change_status undo(struct txn *t)
{
	struct change_result *res = t->res;
	enum change_status st;

	res->changed = false;
	res->verified = false;
	res->persisted = false;
	res->persist_kept = false;
	st = roll_back(t->k, t->era, res, t->done, &t->old, t->file,
		       t->req->in_session ? NULL : t->files);
	res->rolled_back = st != CHANGE_ROLLBACK_FAILED;
	return st;
}

/* The steps after the lock is held. */
static enum change_status transact(struct kernel *k, enum pcp_era era,
				   const struct change_request *req,
				   const struct journal_files *files, struct change_result *res)
{
	struct txn t = { .k = k, .era = era, .req = req, .res = res, .files = files };
	enum change_status st = prepare(&t);

	if (st != CHANGE_DONE || req->dry_run)
		return st;
	if (res->nwrites == 0)
		confirm_unchanged(&t);
	else if ((st = write_all(&t)) != CHANGE_DONE)
		return t.done ? undo(&t) : st;
	else if (verify_writes(&t) != CHANGE_DONE)
		return undo(&t);
	/* Without writes the file holds the old values or the live ones: both true. */
	if (req->persist != PERSIST_NONE && persist_settings(&t) != CHANGE_DONE)
		return res->nwrites ? undo(&t) : CHANGE_FAILED;
	return commit(&t) == CHANGE_DONE ? CHANGE_DONE : undo(&t);
}

/*
 * What a report calls "after": the values in force now, read back, never the
 * ones intended (a change refused or not undone leaves others).
 */
static void read_back(struct kernel *k, struct change_result *res)
{
	for (int s = 0; s < NSYSCTLS; s++) {
		int rc;

		if (!res->have[s])
			continue;
		rc = k->ops->read_sysctl(k, s, &res->after[s]);
		if (rc)
			pcp_warn("cannot read vm.%s back: %s; the value reported after is the one "
				 "meant", sysctl_name(s), strerror(-rc));
	}
}

/* Whether this process may replace files in /etc/sysctl.d (or create it): 0 or CHANGE_NO_ACCESS. */
static enum change_status sysctl_d_access(const struct sysroot *root)
{
	const char *dir = sysroot_exists(root, PATH_SYSCTL_D) ? PATH_SYSCTL_D : "/etc";
	char *path = sysroot_path(root, dir);
	int rc;

	if (!path) {
		pcp_error("out of memory");
		return CHANGE_FAILED;
	}
	rc = faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) < 0 ? errno : 0;
	if (rc)
		pcp_error("cannot write to %s: %s%s", path, strerror(rc),
			  rc == EACCES && geteuid() != 0 ? "; run pcpctl as root" : "");
	free(path);
	return rc ? CHANGE_NO_ACCESS : CHANGE_DONE;
}

/*
 * --persist-only: the sysctl.d file alone, under the lock.  The kernel's
 * settings are read for the report, never written; a setting this kernel
 * lacks may still be persisted for the kernel it boots next.
 */
static enum change_status persist_only(struct kernel *k, const struct change_request *req,
				       struct change_result *res)
{
	bool targeted[NSYSCTLS] = { false };
	long value[NSYSCTLS] = { 0 };
	enum pcp_sysctl fs;
	struct persisted was;
	enum change_status st;
	int lock = -1, rc;

	if ((st = read_settings(k, res)))
		return st;
	fs = fraction_sysctl(res->have);
	/* A reset removes every pcp setting from the file, as it holds nothing else. */
	for (int s = 0; s < NSYSCTLS; s++)
		targeted[s] = req->reset;
	if (req->set_batch) {
		targeted[SYSCTL_BATCH] = true;
		value[SYSCTL_BATCH] = req->batch;
	}
	if (req->set_fraction) {
		targeted[fs] = true;
		value[fs] = req->fraction;
	}
	for (int s = 0; s < NSYSCTLS && !req->reset; s++)
		if (targeted[s] && !res->have[s])
			pcp_warn("this kernel has no vm.%s: the setting takes effect when a kernel "
				 "that has it boots", sysctl_name(s));
	if (!req->dry_run && ((st = sysctl_d_access(k->root)) ||
			      (lock = lock_acquire(k->root)) < 0))
		return st ? st : CHANGE_FAILED;
	/* A change left half done would put the file back when it is rolled back. */
	rc = req->dry_run ? journal_exists(k->root) : journal_tidy(k->root);
	if (rc)
		st = rc > 0 ? CHANGE_JOURNAL_LEFT : CHANGE_FAILED;
	else if (persist_read(k->root, &was))
		st = CHANGE_FAILED;
	if (!st) {
		plan_persist(req, targeted, value, &was, res);
		if (!req->dry_run && persist(k, res))
			st = CHANGE_FAILED;
	}
	lock_release(lock);
	return st;
}

enum change_status apply_change(struct kernel *k, const struct change_request *req,
				struct change_result *res)
{
	struct journal_files files = { 0 };
	struct expectation want;
	enum change_status st;
	enum pcp_era era;
	int lock = -1;

	memset(res, 0, sizeof(*res));
	if (req->persist_only)
		return persist_only(k, req, res);
	/*
	 * A missing interface or privilege is reported before the lock is
	 * taken (creating it needs privilege too); transact() plans again
	 * under the lock, with what is current then.
	 */
	if ((st = kernel_era(k, &era)) || (st = read_settings(k, res)) ||
	    (st = plan(req, res, &want)))
		return st;
	/* A dry run checks all a change would need: the access, the lock, the journal. */
	for (int s = 0; s < NSYSCTLS; s++)
		if (want.targeted[s] && (st = write_access(k, s)))
			return st;
	if (!req->in_session) {
		if (journal_files_init(k->root, &files))
			return CHANGE_FAILED;
		lock = lock_acquire(k->root);
		if (lock < 0) {
			journal_files_free(&files);
			return CHANGE_FAILED;
		}
	}
	st = transact(k, era, req, &files, res);
	lock_release(lock);
	journal_files_free(&files);
	/* A dry run that could go ahead reports what it would write. */
	if (!req->dry_run || st != CHANGE_DONE)
		read_back(k, res);
	return st;
}

/*
 * The journal to roll back, under the lock: CHANGE_DONE with *found, or
 * without when there is none.  A change killed while persisting left the
 * sysctl.d temporary file, with a journal or (when it wrote no sysctl)
 * without.
 */
static enum change_status rollback_journal(struct kernel *k, struct journal *j, bool *found)
{
	char why[160];
	int rc = persist_remove_temp(k->root) ? -1 : journal_tidy(k->root);

	*found = false;
	if (rc < 0)
		return CHANGE_FAILED;
	if (rc == 0)
		return CHANGE_DONE;
	rc = journal_read(k->root, j, why, sizeof(why));
	if (rc == -ENOENT)
		return CHANGE_DONE;
	if (rc == -EBADMSG)
		pcp_error("refusing %s: %s; nothing was changed. Inspect it, set the values "
			  "by hand, then remove it", sysroot_name(k->root, PATH_JOURNAL), why);
	else if (rc)
		pcp_error("cannot read %s: %s", sysroot_name(k->root, PATH_JOURNAL), strerror(-rc));
	if (rc)
		return CHANGE_FAILED;
	*found = true;
	return CHANGE_DONE;
}

/* The journal's old values as writes back from the current ones. */
static enum change_status plan_rollback(struct kernel *k, const struct journal *j,
					struct change_result *res, struct expectation *old)
{
	memcpy(old->have, res->have, sizeof(old->have));
	memcpy(old->value, res->before, sizeof(old->value));
	for (size_t i = 0; i < j->n; i++) {
		if (!res->have[j->sysctl[i]]) {
			pcp_error("%s records vm.%s, which this kernel lacks; was it written on another "
				  "kernel? Once the settings are right, 'pcpctl rollback --discard' removes it",
				  sysroot_name(k->root, PATH_JOURNAL), sysctl_name(j->sysctl[i]));
			return CHANGE_NO_SYSCTL;
		}
		/* A journal without what was written (a sweep's) compares with the value now. */
		res->writes[i] = (struct planned_write){
			.sysctl = j->sysctl[i], .from = j->old[i],
			.to = j->have_wrote ? j->wrote[i] : res->before[j->sysctl[i]],
		};
		old->value[j->sysctl[i]] = j->old[i];
		res->after[j->sysctl[i]] = j->old[i];
	}
	res->nwrites = j->n;
	return CHANGE_DONE;
}

enum change_status apply_rollback(struct kernel *k, struct change_result *res)
{
	struct journal_files files = { 0 };
	struct expectation old;
	enum change_status st;
	struct journal j;
	enum pcp_era era;
	bool found;
	int lock = -1;

	memset(res, 0, sizeof(*res));
	if ((st = kernel_era(k, &era)) || (st = read_settings(k, res)))
		return st;
	/*
	 * With nothing to restore or tidy (a killed change's temporary files),
	 * there is nothing to need privilege for.  Only ENOENT says a file is
	 * not there: a directory this user may not search hides nothing.
	 */
	if (sysroot_probe(k->root, PATH_JOURNAL) == 0 &&
	    sysroot_probe(k->root, PATH_JOURNAL_TMP) == 0 &&
	    sysroot_probe(k->root, PATH_PERSIST ".tmp") == 0)
		return CHANGE_DONE;
	for (int s = 0; s < NSYSCTLS; s++)
		if (res->have[s] && (st = write_access(k, s)))
			return st;
	if (journal_files_init(k->root, &files) || (lock = lock_acquire(k->root)) < 0) {
		st = CHANGE_FAILED;
		goto out;
	}
	st = rollback_journal(k, &j, &found);
	if (st || !found)
		goto out;
	/* Read again under the lock: the holder we waited for may have written since. */
	if ((st = read_settings(k, res)) || (st = plan_rollback(k, &j, res, &old)))
		goto out;
	/* roll_back() calls a change it undid completely a failed one. */
	st = roll_back(k, era, res, j.n, &old, j.persist ? &j.persisted : NULL, &files);
	if (st == CHANGE_ROLLBACK_FAILED)
		pcp_note("if it can never be applied (the kernel was replaced, a value is refused), "
			 "set the values by hand and run 'pcpctl rollback --discard'");
	res->rolled_back = st == CHANGE_FAILED || st == CHANGE_FOREIGN;
	res->persisted = j.persist && res->rolled_back;
	res->verified = res->rolled_back;
	res->changed = res->rolled_back;
	if (st == CHANGE_FAILED)
		st = CHANGE_DONE;
out:
	lock_release(lock);
	read_back(k, res);
	journal_files_free(&files);
	return st;
}

enum change_status apply_discard(struct kernel *k, struct journal *j, bool *found,
				 char *why, size_t whylen)
{
	struct journal_files files = { 0 };
	struct change_result now;
	enum change_status st;
	int lock = -1, rc;

	*found = false;
	*why = '\0';
	memset(j, 0, sizeof(*j));
	if (sysroot_probe(k->root, PATH_JOURNAL) == 0)
		return CHANGE_DONE;
	memset(&now, 0, sizeof(now));
	if ((st = read_settings(k, &now)))
		return st;
	/* As for the rollback it stands in for: who may not roll back may not discard. */
	for (int s = 0; s < NSYSCTLS; s++)
		if (now.have[s] && (st = write_access(k, s)))
			return st;
	if (journal_files_init(k->root, &files) || (lock = lock_acquire(k->root)) < 0) {
		st = CHANGE_FAILED;
		goto out;
	}
	rc = journal_tidy(k->root);
	if (rc <= 0) {
		st = rc ? CHANGE_FAILED : CHANGE_DONE;
		goto out;
	}
	/* A damaged journal is discarded too: it could never be applied either. */
	rc = journal_read(k->root, j, why, whylen);
	if (rc && rc != -EBADMSG && rc != -ENOENT) {
		pcp_error("cannot read %s: %s", files.path, strerror(-rc));
		st = CHANGE_FAILED;
		goto out;
	}
	if (rc != -EBADMSG)
		*why = '\0';
	if (rc == -ENOENT)
		goto out;
	rc = journal_remove_at(&files);
	if (rc) {
		pcp_error("cannot remove %s: %s", files.path, strerror(-rc));
		st = CHANGE_FAILED;
		goto out;
	}
	*found = true;
out:
	lock_release(lock);
	journal_files_free(&files);
	return st;
}

enum change_status apply_session_begin(struct kernel *k, struct change_session *s)
{
	struct journal j = { 0 };
	enum change_status st;

	memset(s, 0, sizeof(*s));
	s->lock = lock_acquire(k->root);
	if (s->lock < 0)
		return CHANGE_FAILED;
	switch (journal_tidy(k->root)) {
	case 0:
		st = read_settings(k, &s->original);
		break;
	case 1:
		st = CHANGE_JOURNAL_LEFT;
		break;
	default:
		st = CHANGE_FAILED;
	}
	for (int i = 0; i < NSYSCTLS && !st; i++) {
		if (!s->original.have[i])
			continue;
		st = write_access(k, i);
		if (st)
			break;
		j.sysctl[j.n] = i;
		j.old[j.n++] = s->original.before[i];
	}
	if (!st && journal_write(k->root, &j))
		st = CHANGE_FAILED;
	if (st) {
		lock_release(s->lock);
		s->lock = -1;
	}
	return st;
}

enum change_status apply_session_end(struct kernel *k, struct change_session *s)
{
	const struct change_result *o = &s->original;
	struct change_request req = {
		.set_batch = o->have[SYSCTL_BATCH], .batch = o->before[SYSCTL_BATCH],
		.set_fraction = o->have[SYSCTL_HIGH_FRACTION] || o->have[SYSCTL_FRACTION],
		.fraction = o->have[SYSCTL_HIGH_FRACTION] ? o->before[SYSCTL_HIGH_FRACTION] :
							     o->before[SYSCTL_FRACTION],
		.in_session = true,
	};
	struct change_result res;
	enum change_status st = apply_change(k, &req, &res);

	apply_result_free(&res);
	if (st == CHANGE_DONE) {
		int err = journal_remove(k->root);

		if (err)
			pcp_warn("settings restored, but %s could not be removed: %s",
				 sysroot_name(k->root, PATH_JOURNAL), strerror(-err));
	} else {
		pcp_error("could not restore the settings from before; %s keeps them: run "
			  "'pcpctl rollback'", sysroot_name(k->root, PATH_JOURNAL));
		st = CHANGE_ROLLBACK_FAILED;
	}
	lock_release(s->lock);
	s->lock = -1;
	return st;
}

void apply_result_free(struct change_result *res)
{
	zoneinfo_free(&res->zi_before);
	zoneinfo_free(&res->zi_after);
	free(res->expected);
	res->expected = NULL;
}
