#include "apply.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "msg.h"
#include "pcprules.h"
#include "persist.h"
#include "privs.h"
#include "sysroot.h"
#include "topology.h"

int validate_batch(long batch, long max)
{
	if (batch < 0 || batch > max) {
		pcp_error("--batch %ld is out of range: give 0 (the kernel's default) or 1..%ld",
			  batch, max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

long batch_limit(const char *root)
{
	char *path = sysroot_path(root, PATH_SYSCTL_VM "percpu_pagelist_batch_max");
	char *text = NULL;
	size_t len;
	long max;

	/* Patch v1 and unpatched kernels have no such file: the limit of Debian's configs. */
	if (!path || read_whole_file(path, &text, &len) || sysctl_parse_value(text, &max) ||
	    max < 1)
		max = PCP_BATCH_MAX;
	free(text);
	free(path);
	return max;
}

int validate_fraction(long fraction)
{
	if (fraction != 0 && (fraction < PCP_FRACTION_MIN || fraction > INT32_MAX)) {
		pcp_error("--fraction %ld is out of range: give 0 (the kernel's default) or %d..%d",
			  fraction, PCP_FRACTION_MIN, INT32_MAX);
		return EXIT_USAGE;
	}
	return EXIT_OK;
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
static int zone_input(const char *root, enum pcp_era era, const struct expectation *ex,
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
		snprintf(why, whylen, "cannot tell the CPUs of node %d from %s/sys: %s", z->node,
			 root, strerror(-rc));
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
static int check_zone(const char *root, enum pcp_era era, const struct expectation *ex,
		      const struct zi_zone *z, uint64_t low, char *why, size_t whylen)
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
static int verify_zone(const char *root, enum pcp_era era, const struct expectation *ex,
		       const struct zi_zone *z, const struct zi_zone *before, char *why,
		       size_t whylen)
{
	uint64_t boost = z->field[ZI_BOOST] <= z->field[ZI_LOW] ? z->field[ZI_BOOST] : 0;
	uint64_t base = z->field[ZI_LOW] - boost;
	const uint64_t lows[] = { base + boost, base + (before ? before->field[ZI_BOOST] : 0), base };
	char other[200];
	int rc = check_zone(root, era, ex, z, lows[0], why, whylen);

	for (size_t i = 1; i < sizeof(lows) / sizeof(lows[0]) && rc == -EPROTO; i++)
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

/*
 * For --dry-run: zoneinfo as it is, with each populated zone's batch and
 * the high values this kernel sets eagerly replaced by what the change
 * would give them.
 */
static int expect_zones(struct kernel *k, enum pcp_era era, const struct expectation *ex,
			struct zoneinfo *zi)
{
	char why[200];
	int rc = kernel_load_zoneinfo(k, zi);

	for (size_t i = 0; !rc && i < zi->nzones; i++) {
		struct zi_zone *z = &zi->zones[i];
		struct pcp_zone_input in;
		int want_batch;

		if (!z->npagesets)
			continue;
		rc = zone_input(k->root, era, ex, z, z->field[ZI_LOW], &in, &want_batch, why,
				sizeof(why));
		if (rc) {
			pcp_error("%s", why);
			break;
		}
		for (size_t p = 0; p < z->npagesets; p++) {
			struct zi_pageset *ps = &z->pagesets[p];
			struct pcp_expect want;

			if (want_batch >= 0)
				ps->value[ZI_BATCH] = want_batch;
			in.batch = ps->value[ZI_BATCH];
			pcp_expected(&in, &want);
			if (want.check_high)
				ps->value[ZI_HIGH] = want.high;
			if (want.check_minmax && zi_has(ps, ZI_HIGH_MIN)) {
				ps->value[ZI_HIGH_MIN] = want.high_min;
				ps->value[ZI_HIGH_MAX] = want.high_max;
			}
		}
	}
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
 * Write the old values back in reverse order and verify them, and with
 * file, put the sysctl.d file back as it was.  Returns EXIT_FAIL when all
 * is back where it was (journal removed), or EXIT_ROLLBACK when it is not
 * (journal kept).
 */
static int roll_back(struct kernel *k, enum pcp_era era, const struct planned_write *w,
		     size_t n, const struct expectation *old, const struct persisted *file,
		     bool own_journal)
{
	struct expectation ex = *old;
	struct zoneinfo zi;
	int rc, failed = 0;

	memset(ex.targeted, 0, sizeof(ex.targeted));
	for (size_t i = n; i-- > 0;) {
		checkpoint_sysctl(k, "rollback", w[i].sysctl);
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
		    (!persist_same(&now, file) && persist_write(k->root, file)))
			failed = 1;
	}
	if (failed) {
		pcp_error("rollback failed; %s%s keeps the old values: fix the cause, then run "
			  "'pcpctl rollback'", k->root, PATH_JOURNAL);
		return EXIT_ROLLBACK;
	}
	rc = own_journal ? journal_remove(k->root) : 0;
	if (rc)
		pcp_warn("settings restored, but %s%s could not be removed: %s", k->root,
			 PATH_JOURNAL, strerror(-rc));
	return EXIT_FAIL;
}

static int kernel_era(struct kernel *k, enum pcp_era *era)
{
	char *release = kernel_release(k);
	int rc;

	if (!release) {
		pcp_error("cannot read the kernel release from %s/proc/sys/kernel/osrelease: %s",
			  k->root, strerror(errno));
		return EXIT_FAIL;
	}
	rc = pcp_era_of_release(release, era);
	if (rc)
		pcp_error("cannot tell the kernel version from its release \"%s\"", release);
	free(release);
	return rc ? EXIT_FAIL : EXIT_OK;
}

static int read_settings(struct kernel *k, struct change_result *res)
{
	if (kernel_read_settings(k, res->have, res->before))
		return EXIT_FAIL;
	memcpy(res->after, res->before, sizeof(res->after));
	return EXIT_OK;
}

/* Decide the writes: batch first, then the fraction this kernel has. */
static int plan(const struct change_request *req, struct change_result *res,
		struct expectation *want)
{
	enum pcp_sysctl fs = fraction_sysctl(res->have);
	bool set_batch = req->set_batch || (req->reset && res->have[SYSCTL_BATCH]);
	bool set_fraction = req->set_fraction || req->reset;

	memcpy(want->have, res->have, sizeof(want->have));
	memcpy(want->value, res->before, sizeof(want->value));
	memset(want->targeted, 0, sizeof(want->targeted));

	if (set_batch && !res->have[SYSCTL_BATCH]) {
		pcp_error("this kernel has no vm.percpu_pagelist_batch: apply pcpctl's kernel patch "
			  "(patches/linux-*/0001-mm-page_alloc-add-percpu_pagelist_batch-sysctl.patch) "
			  "or change only --fraction");
		return EXIT_NOIFACE;
	}
	if (set_fraction && !res->have[fs]) {
		pcp_error("this kernel has neither vm.percpu_pagelist_high_fraction nor "
			  "vm.percpu_pagelist_fraction");
		return EXIT_NOIFACE;
	}
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
	return EXIT_OK;
}

static int persist(const struct kernel *k, const struct change_request *req,
		   const struct expectation *want, const struct persisted *was)
{
	struct persisted p = *was;

	for (int s = 0; s < NSYSCTLS; s++) {
		if (!want->targeted[s])
			continue;
		p.have[s] = req->persist == PERSIST_SET;
		p.value[s] = want->value[s];
	}
	return persist_write(k->root, &p);
}

/* The steps after the lock is held. */
static int transact(struct kernel *k, enum pcp_era era, const struct change_request *req,
		    struct change_result *res)
{
	struct expectation want, old = { 0 };
	struct journal j = { 0 };
	/* The sysctl.d file as it was, once the change may have rewritten it. */
	const struct persisted *file = NULL;
	char why[200];
	size_t done;
	int rc;

	if (!req->in_session && journal_exists(k->root)) {
		pcp_error("an interrupted pcpctl change left %s%s; run 'pcpctl rollback' first",
			  k->root, PATH_JOURNAL);
		return EXIT_FAIL;
	}
	rc = read_settings(k, res);
	if (rc)
		return rc;
	rc = plan(req, res, &want);
	if (rc)
		return rc;
	if (kernel_load_zoneinfo(k, &res->zi_before))
		return EXIT_FAIL;
	res->high_unconfirmed = era == ERA_LAZY_HIGH;
	if (req->dry_run)
		return expect_zones(k, era, &want, &res->zi_after) ? EXIT_FAIL : EXIT_OK;
	/* Read first: a file pcpctl may not manage stops the change before any write. */
	if (req->persist != PERSIST_NONE) {
		if (persist_read(k->root, &j.persisted))
			return EXIT_FAIL;
		j.persist = true;
	}

	if (res->nwrites == 0) {
		/* Writing the value already set recomputes nothing: leave the kernel alone. */
		rc = verify(k, era, &want, &res->zi_before, &res->zi_after, why, sizeof(why));
		res->verified = rc == 0;
		if (rc)
			pcp_warn("already set, but zoneinfo disagrees: %s", why);
	} else {
		old = want;
		memcpy(old.value, res->before, sizeof(old.value));
		for (size_t i = 0; i < res->nwrites; i++) {
			j.sysctl[j.n] = res->writes[i].sysctl;
			j.old[j.n++] = res->writes[i].from;
		}
		checkpoint(k, "journal");
		if (!req->in_session && journal_write(k->root, &j))
			return EXIT_FAIL;

		for (done = 0; done < res->nwrites; done++) {
			const struct planned_write *w = &res->writes[done];

			checkpoint_sysctl(k, "write", w->sysctl);
			rc = k->ops->write_sysctl(k, w->sysctl, w->to);
			if (rc) {
				write_failed(w->sysctl, w->to, rc);
				/* A failed write may still have half-happened: restore it too. */
				done++;
				goto undo;
			}
		}
		checkpoint(k, "verify");
		rc = verify(k, era, &want, &res->zi_before, &res->zi_after, why, sizeof(why));
		if (rc) {
			pcp_error("verification failed: %s", why);
			goto undo;
		}
		res->verified = true;
		res->changed = true;
	}
	if (req->persist != PERSIST_NONE) {
		checkpoint(k, "persist");
		if (persist(k, req, &want, &j.persisted)) {
			/* Without writes the file holds the old values or the live ones: both true. */
			if (res->nwrites == 0)
				return EXIT_FAIL;
			/* The rename may have happened before the failure: put the file back too. */
			file = &j.persisted;
			done = res->nwrites;
			zoneinfo_free(&res->zi_after);
			goto undo;
		}
		res->persisted = true;
	}
	if (res->nwrites && !req->in_session) {
		checkpoint(k, "commit");
		rc = journal_remove(k->root);
		if (rc)
			pcp_warn("change verified, but %s%s could not be removed: %s", k->root,
				 PATH_JOURNAL, strerror(-rc));
	}
	return EXIT_OK;

undo:
	res->changed = false;
	res->verified = false;
	res->rolled_back = true;
	memcpy(res->after, res->before, sizeof(res->after));
	return roll_back(k, era, res->writes, done, &old, file, !req->in_session);
}

int change_apply(struct kernel *k, const struct change_request *req, struct change_result *res)
{
	struct expectation want;
	enum pcp_era era;
	int rc, lock = -1;

	memset(res, 0, sizeof(*res));
	rc = kernel_era(k, &era);
	if (rc)
		return rc;
	/*
	 * A missing interface or privilege is reported before the lock is
	 * taken (creating it needs privilege too); transact() plans again
	 * under the lock, with what is current then.
	 */
	rc = read_settings(k, res);
	if (!rc)
		rc = plan(req, res, &want);
	if (rc)
		return rc;
	if (req->set_batch && validate_batch(req->batch, batch_limit(k->root)))
		return EXIT_USAGE;
	if (!req->dry_run) {
		for (int s = 0; s < NSYSCTLS; s++)
			if (want.targeted[s] && check_write_access(k, s))
				return EXIT_NOPRIV;
	}
	if (!req->dry_run && !req->in_session) {
		lock = lock_acquire(k->root);
		if (lock < 0)
			return EXIT_FAIL;
	}
	rc = transact(k, era, req, res);
	lock_release(lock);
	return rc;
}

int change_rollback(struct kernel *k, struct change_result *res)
{
	struct expectation old;
	struct journal j;
	enum pcp_era era;
	char why[160];
	int rc, lock;

	memset(res, 0, sizeof(*res));
	rc = kernel_era(k, &era);
	if (!rc)
		rc = read_settings(k, res);
	if (rc)
		return rc;
	for (int s = 0; s < NSYSCTLS; s++)
		if (res->have[s] && check_write_access(k, s))
			return EXIT_NOPRIV;
	lock = lock_acquire(k->root);
	if (lock < 0)
		return EXIT_FAIL;
	rc = journal_read(k->root, &j, why, sizeof(why));
	if (rc == -ENOENT) {
		lock_release(lock);
		return EXIT_OK;
	}
	if (rc) {
		if (rc == -EBADMSG)
			pcp_error("refusing %s%s: %s; nothing was changed. Inspect it, set the values "
				  "by hand, then remove it", k->root, PATH_JOURNAL, why);
		else
			pcp_error("cannot read %s%s: %s", k->root, PATH_JOURNAL, strerror(-rc));
		lock_release(lock);
		return EXIT_FAIL;
	}
	memcpy(old.have, res->have, sizeof(old.have));
	memcpy(old.value, res->before, sizeof(old.value));
	for (size_t i = 0; i < j.n; i++) {
		if (!res->have[j.sysctl[i]]) {
			pcp_error("%s%s records vm.%s, which this kernel lacks; was it written on another "
				  "kernel? Remove it once the settings are right", k->root, PATH_JOURNAL,
				  sysctl_name(j.sysctl[i]));
			lock_release(lock);
			return EXIT_NOIFACE;
		}
		res->writes[i] = (struct planned_write){
			.sysctl = j.sysctl[i], .from = j.old[i], .to = res->before[j.sysctl[i]],
		};
		old.value[j.sysctl[i]] = j.old[i];
		res->after[j.sysctl[i]] = j.old[i];
	}
	res->nwrites = j.n;
	rc = roll_back(k, era, res->writes, j.n, &old, j.persist ? &j.persisted : NULL, true);
	lock_release(lock);
	res->persisted = j.persist && rc == EXIT_FAIL;
	res->rolled_back = rc == EXIT_FAIL;
	res->verified = res->rolled_back;
	res->changed = res->rolled_back;
	return rc == EXIT_FAIL ? EXIT_OK : rc;
}

int change_session_begin(struct kernel *k, struct change_session *s)
{
	struct journal j = { 0 };
	int rc;

	memset(s, 0, sizeof(*s));
	s->lock = lock_acquire(k->root);
	if (s->lock < 0)
		return EXIT_FAIL;
	if (journal_exists(k->root)) {
		pcp_error("an interrupted pcpctl change left %s%s; run 'pcpctl rollback' first",
			  k->root, PATH_JOURNAL);
		rc = EXIT_FAIL;
		goto fail;
	}
	rc = read_settings(k, &s->original);
	if (rc)
		goto fail;
	for (int i = 0; i < NSYSCTLS; i++) {
		if (!s->original.have[i])
			continue;
		if (check_write_access(k, i)) {
			rc = EXIT_NOPRIV;
			goto fail;
		}
		j.sysctl[j.n] = i;
		j.old[j.n++] = s->original.before[i];
	}
	if (journal_write(k->root, &j)) {
		rc = EXIT_FAIL;
		goto fail;
	}
	return EXIT_OK;
fail:
	lock_release(s->lock);
	s->lock = -1;
	return rc;
}

int change_session_end(struct kernel *k, struct change_session *s)
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
	int rc = change_apply(k, &req, &res);

	change_result_free(&res);
	if (rc == EXIT_OK) {
		int err = journal_remove(k->root);

		if (err)
			pcp_warn("settings restored, but %s%s could not be removed: %s", k->root,
				 PATH_JOURNAL, strerror(-err));
	} else {
		pcp_error("could not restore the settings from before; %s%s keeps them: run "
			  "'pcpctl rollback'", k->root, PATH_JOURNAL);
		rc = EXIT_ROLLBACK;
	}
	lock_release(s->lock);
	s->lock = -1;
	return rc;
}

void change_result_free(struct change_result *res)
{
	zoneinfo_free(&res->zi_before);
	zoneinfo_free(&res->zi_after);
}
