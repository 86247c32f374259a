/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c.h"
#include "journal.h"
#include "lock.h"
#include "msg.h"
#include "pcprules.h"
#include "persist.h"
#include "sysroot.h"
#include "topology.h"

bool batch_valid(long batch, long max)
{
	return batch >= 0 && batch <= max;
}

int batch_scale_max(const struct sysroot *root)
{
	int scale = kernel_scale_max(root);

	return scale >= 0 && scale <= PCP_SCALE_MAX_LIMIT ? scale : -ENOENT;
}

long batch_limit(struct kernel *k)
{
	const struct sysroot *root = k->root;
	char *text = NULL;
	bool assumed;
	size_t len;
	long max, page_size;
	int shift, scale;

	/* Patch v2 said its maximum in a file; v3 documents it instead. */
	if (!sysroot_read_file(root, PATH_SYSCTL_VM "percpu_pagelist_batch_max", &text, &len) &&
	    !sysctl_parse_value(text, &max) && max >= 1) {
		free(text);
		return max;
	}
	free(text);
	page_size = kernel_page_size(k, &assumed);
	shift = pcp_page_shift(page_size);
	scale = batch_scale_max(root);
	/* Without the kernel's config, the largest any config allows; the kernel refuses the rest. */
	return pcp_hold_bound(shift < 0 ? 12 : (unsigned)shift,
			      scale < 0 ? PCP_SCALE_MAX_LIMIT : scale);
}

bool fraction_valid(long fraction)
{
	return fraction == 0 || (fraction >= PCP_FRACTION_MIN && fraction <= INT32_MAX);
}

static const char *const check_names[NCHECKS] = {
	"sysctls", "rules", "one_batch", "batch_kept", "batch_within", "fraction_high",
	"minmax_equal", "observed",
};

const char *verify_check_name(int bit)
{
	return check_names[bit];
}

/* A zone whose value the kernel clamps: value, and what it is instead of (or the managed pages). */
struct apply_zone_clamp {
	int node;
	char zone[ZI_ZONE_NAME_MAX];
	long value;
	unsigned long long instead;
};

void apply_why_text(const struct apply_why *w, char *buf, size_t len)
{
	const char *name = sysctl_name(w->sysctl);
	int n = 0;

	switch (w->kind) {
	case WHY_NONE:
		n = snprintf(buf, len, "%s", "");
		break;
	case WHY_PAGESET:
		n = snprintf(buf, len, "node %d zone %s cpu %d shows %s %ld, expected %ld", w->node,
			     w->zone, w->cpu, zi_field_name(w->field), w->seen, w->expected);
		break;
	case WHY_CPUS_UNKNOWN:
		n = snprintf(buf, len, "cannot tell the CPUs of node %d from %s: %s", w->node,
			     w->path, strerror(w->err));
		break;
	case WHY_BATCHES_DIFFER:
		n = snprintf(buf, len, "node %d zone %s shows different batches on its CPUs",
			     w->node, w->zone);
		break;
	case WHY_BATCH_FIXED:
		n = snprintf(buf, len, "node %d zone %s shows batch %ld, which vm.%s cannot "
			     "change (it was %ld)", w->node, w->zone, w->seen, name, w->expected);
		break;
	case WHY_BATCH_ABOVE:
		n = snprintf(buf, len, "node %d zone %s shows batch %ld, more than the %ld written",
			     w->node, w->zone, w->seen, w->expected);
		break;
	case WHY_READ_BACK_FAILED:
		n = snprintf(buf, len, "cannot read vm.%s back: %s", name, strerror(w->err));
		break;
	case WHY_READ_BACK:
		n = snprintf(buf, len, "vm.%s reads back %ld, expected %ld", name, w->seen,
			     w->expected);
		break;
	case WHY_ZONEINFO_UNREADABLE:
		n = snprintf(buf, len, "cannot read zoneinfo");
		break;
	case WHY_ZONE_GONE:
		n = snprintf(buf, len, "node %d zone %s, observed before the change, has no "
			     "pagesets now", w->node, w->zone);
		break;
	}
	/* A sentence cut short is not added to. */
	if (w->as_before && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " as before the change");
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

/* A reason about zone z. */
static void why_zone(struct apply_why *why, enum apply_why_kind kind, const struct zi_zone *z)
{
	*why = (struct apply_why){ .kind = kind, .node = z->node };
	snprintf(why->zone, sizeof(why->zone), "%s", z->name);
}

/*
 * What the kernel derives a zone's limits from, as zoneinfo prints them:
 * memory hotplug, balloons, watermark writes and CPU hotplug move these
 * without any setting changing, and the kernel recomputes the limits.
 */
struct zone_inputs {
	uint64_t managed;
	uint64_t low, boost;	/* low: the low watermark without kswapd's boost */
	unsigned split;		/* the CPUs high is split over */
};

static int inputs_of(const struct sysroot *root, const struct zi_zone *z, struct zone_inputs *in,
		     struct apply_why *why)
{
	int rc = zone_split_cpus(root, z, &in->split);

	if (rc) {
		*why = (struct apply_why){ .kind = WHY_CPUS_UNKNOWN, .node = z->node, .err = -rc };
		snprintf(why->path, sizeof(why->path), "%s", sysroot_name(root, "/sys"));
		return rc;
	}
	in->managed = z->field[ZI_MANAGED];
	in->boost = z->field[ZI_BOOST] <= z->field[ZI_LOW] ? z->field[ZI_BOOST] : 0;
	in->low = z->field[ZI_LOW] - in->boost;
	return 0;
}

/* The boost comes and goes without a recompute: it is no input that moved. */
/* "managed pages grew by 32768", "the low watermark went from 60 to 70", ... joined by ", ". */
static void moved_text(const struct zone_inputs *was, const struct zone_inputs *now, char *buf,
		       size_t size)
{
	unsigned long long managed = now->managed, managed_was = was->managed;
	size_t len = 0;
	int n;

	buf[0] = '\0';
	if (managed != managed_was) {
		n = snprintf(buf, size, "managed pages %s by %llu",
			     managed > managed_was ? "grew" : "shrank",
			     managed > managed_was ? managed - managed_was : managed_was - managed);
		len = n < 0 ? size : (size_t)n;
	}
	if (now->low != was->low && len < size) {
		n = snprintf(buf + len, size - len, "%sthe low watermark went from %llu to %llu",
			     len ? ", " : "", (unsigned long long)was->low,
			     (unsigned long long)now->low);
		len = n < 0 ? size : len + (size_t)n;
	}
	if (now->split != was->split && len < size)
		snprintf(buf + len, size - len, "%sthe CPUs its high is split over went from %u to %u",
			 len ? ", " : "", was->split, now->split);
}

static bool inputs_same(const struct zone_inputs *a, const struct zone_inputs *b)
{
	return a->managed == b->managed && a->low == b->low && a->split == b->split;
}

/*
 * What the kernel computes for a zone from the settings ex and the inputs
 * managed, low (boost included) and split; *want_batch is -1 when the
 * change leaves the batch alone.
 */
static void rules_input(const struct kernel_rules *r, const struct expectation *ex,
			uint64_t managed, uint64_t low, unsigned split, struct pcp_zone_input *in,
			int *want_batch)
{
	enum pcp_sysctl fs = fraction_sysctl(ex->have);

	*in = (struct pcp_zone_input){
		.era = r->era, .page_shift = r->page_shift, .managed = managed, .low = low,
		.split = split, .fraction = ex->have[fs] ? ex->value[fs] : 0,
	};
	*want_batch = -1;
	/* The patch holds its batch to a quarter of high_min: a fraction write moves it too. */
	if (ex->targeted[SYSCTL_BATCH] || (ex->have[SYSCTL_BATCH] && ex->value[SYSCTL_BATCH]))
		*want_batch = pcp_patched_batch(in, ex->value[SYSCTL_BATCH]);
	else if (ex->targeted[SYSCTL_FRACTION])
		*want_batch = pcp_fraction_batch(in);
}

static int check_pageset(const struct zi_zone *z, const struct zi_pageset *ps, enum zi_field f,
			 int want, struct apply_why *why)
{
	if (ps->value[f] == want)
		return 0;
	why_zone(why, WHY_PAGESET, z);
	why->cpu = ps->cpu;
	why->field = f;
	why->seen = ps->value[f];
	why->expected = want;
	return -EPROTO;
}

/* The zone's pagesets against what the kernel computes from these inputs. */
static int check_zone(const struct kernel_rules *r, const struct expectation *ex,
		      const struct zi_zone *z, uint64_t managed, uint64_t low, unsigned split,
		      struct apply_why *why)
{
	struct pcp_zone_input in;
	struct pcp_expect want;
	int want_batch;

	rules_input(r, ex, managed, low, split, &in, &want_batch);
	pcp_expected(&in, &want);
	for (size_t i = 0; i < z->npagesets; i++) {
		const struct zi_pageset *ps = &z->pagesets[i];
		int rc;

		if (want_batch >= 0 &&
		    (rc = check_pageset(z, ps, ZI_BATCH, want_batch, why)))
			return rc;
		if (want.check_high && (rc = check_pageset(z, ps, ZI_HIGH, want.high, why)))
			return rc;
		if (want.check_minmax && zi_has(ps, ZI_HIGH_MIN) &&
		    ((rc = check_pageset(z, ps, ZI_HIGH_MIN, want.high_min, why)) ||
		     (rc = check_pageset(z, ps, ZI_HIGH_MAX, want.high_max, why))))
			return rc;
	}
	return 0;
}

/*
 * The kernel computes the limits from its inputs as they are when it
 * recomputes: at the write, and again whenever memory, a watermark or a
 * CPU comes or goes.  zoneinfo prints the inputs as they are now, and
 * kswapd raises and clears the boost without a recompute.  So the zone is
 * right if it matches the rules for its inputs now or for those before the
 * write (was, or NULL), each low with or without either boost, and the
 * CPUs as they are or as a CPU's onlining counts them.  A mismatch is
 * described for the inputs now.
 */
static int verify_zone(const struct kernel_rules *r, const struct expectation *ex,
		       const struct zi_zone *z, const struct zone_inputs *now,
		       const struct zone_inputs *was, struct apply_why *why)
{
	const struct zone_inputs *b = was ? was : now;
	const uint64_t managed[] = { now->managed, b->managed };
	/*
	 * A CPU coming online recomputes with one CPU more than its node has
	 * (zone_pcp_update(zone, 1): the node's mask, already holding it, and
	 * the CPU again), which stands until the next recompute.
	 */
	const unsigned split[] = { now->split, b->split, now->split + 1, b->split + 1 };
	const uint64_t lows[] = { now->low + now->boost, now->low + b->boost, now->low,
				  b->low + b->boost, b->low };
	struct apply_why other;
	int rc = check_zone(r, ex, z, managed[0], lows[0], split[0], why);

	for (size_t m = 0; m < ARRAY_SIZE(managed) && rc == -EPROTO; m++)
		for (size_t s = 0; s < ARRAY_SIZE(split) && rc == -EPROTO; s++)
			for (size_t l = 0; l < ARRAY_SIZE(lows) && rc == -EPROTO; l++)
				if ((m || s || l) && check_zone(r, ex, z, managed[m], lows[l],
								split[s], &other) == 0)
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

/* The batch of every CPU of the zone, or -1 when they differ. */
static int zone_batch(const struct zi_zone *z)
{
	int lo, hi;

	zi_zone_range(z, ZI_BATCH, &lo, &hi);
	return lo == hi ? lo : -1;
}

/*
 * What holds in every generation and at every page size, for a kernel whose
 * rules pcpctl cannot know exactly, or for a zone whose inputs would not
 * hold still: the write's recompute reaches every CPU of the zone, and batch
 * and high moved (or not) as the write implies.  before: the same zone
 * before the change, or NULL; was: its inputs then.
 */
static int check_zone_certain(const struct expectation *ex, const struct zi_zone *z,
			      const struct zi_zone *before, const struct zone_inputs *now,
			      const struct zone_inputs *was, unsigned *checks,
			      struct apply_why *why)
{
	enum pcp_sysctl fs = fraction_sysctl(ex->have);
	int batch = zone_batch(z), was_batch = before ? zone_batch(before) : -1;
	long fraction = ex->value[fs];

	if (batch < 0) {
		why_zone(why, WHY_BATCHES_DIFFER, z);
		return -EPROTO;
	}
	*checks |= CHECK_ONE_BATCH;
	/*
	 * Only our patch's sysctl and the fraction of 5.13 and before set a
	 * batch; with the patch's batch set, a high fraction moves it too; and
	 * the default batch follows the managed pages.
	 */
	if (was_batch >= 0 && !ex->targeted[SYSCTL_BATCH] && !ex->targeted[SYSCTL_FRACTION] &&
	    !(ex->have[SYSCTL_BATCH] && ex->value[SYSCTL_BATCH]) &&
	    (!was || was->managed == now->managed)) {
		if (batch != was_batch) {
			why_zone(why, WHY_BATCH_FIXED, z);
			why->seen = batch;
			why->sysctl = fs;
			why->expected = was_batch;
			return -EPROTO;
		}
		*checks |= CHECK_BATCH_KEPT;
	}
	if (was_batch >= 0 && ex->targeted[SYSCTL_BATCH] && ex->value[SYSCTL_BATCH] &&
	    batch != was_batch) {
		if (batch > ex->value[SYSCTL_BATCH]) {
			why_zone(why, WHY_BATCH_ABOVE, z);
			why->seen = batch;
			why->expected = ex->value[SYSCTL_BATCH];
			return -EPROTO;
		}
		*checks |= CHECK_BATCH_WITHIN;
	}
	for (size_t i = 0; i < z->npagesets; i++) {
		const struct zi_pageset *ps = &z->pagesets[i];
		int rc;

		if (fs == SYSCTL_FRACTION && ex->targeted[fs] && fraction > 0) {
			rc = check_pageset(z, ps, ZI_HIGH,
					   (int)(now->managed / (uint64_t)fraction), why);
			if (rc && was &&
			    ps->value[ZI_HIGH] == (int)(was->managed / (uint64_t)fraction))
				rc = 0;
			if (rc)
				return rc;
			*checks |= CHECK_FRACTION_HIGH;
		}
		if (fs == SYSCTL_HIGH_FRACTION && fraction > 0 && zi_has(ps, ZI_HIGH_MIN)) {
			rc = check_pageset(z, ps, ZI_HIGH_MAX, ps->value[ZI_HIGH_MIN], why);
			if (rc)
				return rc;
			*checks |= CHECK_MINMAX_EQUAL;
		}
	}
	return 0;
}

static const struct journal_zone *observed_zone(const struct journal *j, const struct zi_zone *z)
{
	for (size_t i = 0; j && i < j->nzones; i++)
		if (j->zones[i].node == z->node && strcmp(j->zones[i].name, z->name) == 0)
			return &j->zones[i];
	return NULL;
}

/* The inputs an observation was made under, where the journal has them (v3). */
static bool observed_inputs(const struct journal_zone *o, struct zone_inputs *in)
{
	if (!o || !o->have_inputs)
		return false;
	*in = (struct zone_inputs){ .managed = o->managed, .low = o->low, .split = o->cpus };
	return true;
}

/*
 * A restored zone against what it showed before the change, made under the
 * inputs it has now.  At fraction 0 high (and, from 6.7, high_min) derive
 * from the low watermark as it was at the last recompute, which kswapd's
 * boost moves between recomputes: where they differ from the observation,
 * they are checked by the rules instead, when those are known exactly, and
 * else not at all.
 */
static int check_zone_observed(const struct kernel_rules *r, const struct expectation *ex,
			       const struct zi_zone *z, const struct journal_zone *o,
			       const struct zone_inputs *now, struct apply_why *why)
{
	bool from_watermark = ex->value[fraction_sysctl(ex->have)] == 0 &&
			      !pcp_era_fraction_sets_batch(r->era);
	bool moved = false;
	struct apply_why other;
	int rc = 0;

	for (size_t i = 0; i < z->npagesets && !rc; i++) {
		const struct zi_pageset *ps = &z->pagesets[i];

		rc = check_pageset(z, ps, ZI_BATCH, o->batch, why);
		if (!rc && o->high_max >= 0 && zi_has(ps, ZI_HIGH_MAX))
			rc = check_pageset(z, ps, ZI_HIGH_MAX, o->high_max, why);
		if (!rc && o->high >= 0 && check_pageset(z, ps, ZI_HIGH, o->high, &other))
			moved = true;
		if (!rc && o->high_min >= 0 && zi_has(ps, ZI_HIGH_MIN) &&
		    check_pageset(z, ps, ZI_HIGH_MIN, o->high_min, &other))
			moved = true;
	}
	if (rc || (moved && !from_watermark)) {
		if (!rc)
			*why = other;
		why->as_before = true;
		return -EPROTO;
	}
	return moved && !r->doubt.kind ? verify_zone(r, ex, z, now, NULL, why) : 0;
}

/*
 * zoneinfo's format or the sysctls this kernel has disagree with the era of
 * its release: a vendor's kernel with backports, or a release string that
 * lies.  Notes it in r->doubt.
 */
static void doubt_format(struct kernel_rules *r, const bool have[NSYSCTLS],
			 const struct zoneinfo *zi)
{
	bool minmax = false, fraction_era = pcp_era_fraction_sets_batch(r->era);

	if (r->doubt.kind)
		return;
	for (size_t i = 0; i < zi->nzones && !minmax; i++)
		for (size_t p = 0; p < zi->zones[i].npagesets && !minmax; p++)
			minmax = zi_has(&zi->zones[i].pagesets[p], ZI_HIGH_MIN);
	if (minmax != (r->era == ERA_HIGH_MINMAX))
		r->doubt = (struct rules_doubt){ .kind = DOUBT_MINMAX, .minmax = minmax };
	else if ((have[SYSCTL_FRACTION] && !fraction_era) ||
		 (have[SYSCTL_HIGH_FRACTION] && fraction_era))
		r->doubt = (struct rules_doubt){
			.kind = DOUBT_SYSCTL,
			.sysctl = fraction_era ? SYSCTL_HIGH_FRACTION : SYSCTL_FRACTION,
		};
}

/* What a verification compares one zone with. */
struct zone_check {
	const struct zi_zone *z, *before;
	const struct journal_zone *o;
	/* was: a restore's observation's inputs (a v3 journal), else those of the read before. */
	struct zone_inputs now, was;
	bool have_was;
	/* The inputs just before the writes (of the change, or of the restore), or was. */
	struct zone_inputs at_write;
	bool have_at_write;
};

/*
 * One populated zone: against the observation o when given (a restore);
 * where that does not hold (the inputs moved since, or the observation
 * itself was made of limits the kernel recomputed a moment later, as after
 * a CPU came online), and for a change, against what this kernel computes
 * from the settings and the inputs at the write or now, when its rules are
 * known exactly; else for what holds in every generation.
 */
static int check_one(const struct kernel_rules *r, const struct expectation *ex,
		     const struct zone_check *zc, unsigned *checks, struct apply_why *why)
{
	const struct zone_inputs *at_write = zc->have_at_write ? &zc->at_write : NULL;
	struct apply_why first;
	int rc;

	if (zc->o) {
		rc = check_zone_observed(r, ex, zc->z, zc->o, &zc->now, why);
		if (rc == 0) {
			*checks |= CHECK_OBSERVED;
			return 0;
		}
		first = *why;
	}
	if (!r->doubt.kind) {
		rc = verify_zone(r, ex, zc->z, &zc->now, at_write, why);
		if (rc == 0)
			*checks |= CHECK_RULES;
	} else {
		rc = check_zone_certain(ex, zc->z, zc->o ? NULL : zc->before, &zc->now, at_write,
					checks, why);
	}
	/* A restore that fits nothing is described against what was observed. */
	if (rc && zc->o)
		*why = first;
	return rc;
}

static int zone_check_init(const struct sysroot *root, const struct zi_zone *z,
			   const struct zoneinfo *before, const struct journal *observed,
			   struct zone_check *zc, struct apply_why *why)
{
	const struct zi_zone *b = same_zone(before, z);
	struct apply_why ignored;
	int rc;

	*zc = (struct zone_check){ .z = z, .before = b, .o = observed_zone(observed, z) };
	rc = inputs_of(root, z, &zc->now, why);
	if (rc)
		return rc;
	if (b && b->npagesets && inputs_of(root, b, &zc->at_write, &ignored) == 0) {
		zc->have_at_write = zc->have_was = true;
		zc->was = zc->at_write;
	}
	if (observed_inputs(zc->o, &zc->was)) {
		zc->have_was = true;
		if (!zc->have_at_write) {
			zc->at_write = zc->was;
			zc->have_at_write = true;
		}
	}
	return 0;
}

/* A zone that moved during a change: what moved, and whether the rules held. */
static void say_moved(const struct zone_check *zc, bool settled, bool restore)
{
	char moved[200];

	if (zc->have_was)
		moved_text(&zc->was, &zc->now, moved, sizeof(moved));
	else
		snprintf(moved, sizeof(moved), "memory came online in it (it had none)");
	if (settled)
		pcp_note("node %d zone %s: %s %s; the kernel recomputed its limits, and they "
			 "verify for the new inputs", zc->z->node, zc->z->name, moved,
			 restore ? "since the change began" : "during the change");
	else
		pcp_note("node %d zone %s: %s %s, and it kept moving: only what holds for "
			 "any inputs was checked (the sysctls read back, every CPU shows the "
			 "same batch)", zc->z->node, zc->z->name, moved,
			 restore ? "since the change began" : "during the change");
}

/*
 * Reads of zoneinfo a verification makes while a zone's inputs move under
 * it, each after a longer pause (0.75 s in all): memory onlined between
 * zoneinfo's lines, or between the read and the recompute, shows limits
 * that fit neither the inputs before nor those printed.
 */
#define VERIFY_READS 5
#define VERIFY_FIRST_PAUSE_NS 50000000L

/*
 * Every populated zone of zi, a fresh read of zoneinfo.  1 when a zone
 * failed and its inputs had moved (from before, the observation, or the
 * previous read prev), so that another read may settle it; with last, such
 * a zone is checked only for what holds in every generation instead.
 */
static int check_zones(struct kernel *k, struct kernel_rules *r,
		       const struct expectation *ex, const struct zoneinfo *before,
		       const struct journal *observed, const struct zoneinfo *zi,
		       const struct zoneinfo *prev, bool last, unsigned *checks,
		       struct apply_why *why)
{
	int rc = 0;

	for (size_t i = 0; i < zi->nzones && !rc; i++) {
		const struct zi_zone *z = &zi->zones[i], *p = same_zone(prev, z);
		struct zone_inputs then;
		struct zone_check zc;
		struct apply_why ignored;
		bool moved;

		if (!z->npagesets)
			continue;
		rc = zone_check_init(k->root, z, before, observed, &zc, why);
		if (rc)
			break;
		/*
		 * A zone with no pages when the change began has filled since:
		 * memory came online in it, and its pagesets keep the batch of 1
		 * they were set up with until the onlining recomputes them.
		 */
		moved = !zc.have_was || !inputs_same(&zc.was, &zc.now);
		rc = check_one(r, ex, &zc, checks, why);
		if (rc == -EPROTO) {
			if (p && inputs_of(k->root, p, &then, &ignored) == 0 &&
			    !inputs_same(&then, &zc.now))
				moved = true;
			if (!moved)
				break;
			if (!last)
				return 1;
			rc = check_zone_certain(ex, z, zc.o ? NULL : zc.before, &zc.now,
						zc.have_at_write ? &zc.at_write : NULL, checks, why);
			if (rc == 0)
				say_moved(&zc, false, observed != NULL);
		} else if (rc == 0 && moved) {
			say_moved(&zc, true, observed != NULL);
		}
	}
	return rc;
}

/*
 * Read the targeted sysctls back and check every populated zone's pagesets
 * (check_one()), reading zoneinfo again while a zone whose inputs move
 * does not fit them.  before: zoneinfo just before the writes, or NULL;
 * observed: with zones, a restore's observations.  On a mismatch notes why.
 * *checks gets the checks made.
 */
static int verify(struct kernel *k, struct kernel_rules *r,
		  const struct expectation *ex, const struct zoneinfo *before,
		  const struct journal *observed, struct zoneinfo *zi, unsigned *checks,
		  struct apply_why *why)
{
	struct zoneinfo prev = { .nzones = 0 };
	long pause = VERIFY_FIRST_PAUSE_NS;
	int rc;

	*checks = 0;
	for (int s = 0; s < NSYSCTLS; s++) {
		long now;

		if (!ex->targeted[s])
			continue;
		rc = k->ops->read_sysctl(k, s, &now);
		if (rc) {
			*why = (struct apply_why){ .kind = WHY_READ_BACK_FAILED, .sysctl = s,
						   .err = -rc };
			return rc;
		}
		if (now != ex->value[s]) {
			*why = (struct apply_why){ .kind = WHY_READ_BACK, .sysctl = s, .seen = now,
						   .expected = ex->value[s] };
			return -EPROTO;
		}
		*checks |= CHECK_SYSCTLS;
	}
	if (observed && !observed->nzones)
		observed = NULL;
	for (int read = 1;; read++) {
		rc = kernel_load_zoneinfo(k, zi);
		if (rc) {
			/* zi holds nothing to free: the load failed before it or freed it. */
			*why = (struct apply_why){ .kind = WHY_ZONEINFO_UNREADABLE };
			zoneinfo_free(&prev);
			return rc;
		}
		doubt_format(r, ex->have, zi);
		*checks &= CHECK_SYSCTLS;
		rc = check_zones(k, r, ex, before, observed, zi, read > 1 ? &prev : NULL,
				 read == VERIFY_READS, checks, why);
		if (rc != 1)
			break;
		zoneinfo_free(&prev);
		prev = *zi;
		memset(zi, 0, sizeof(*zi));
		nanosleep(&(struct timespec){ .tv_nsec = pause }, NULL);
		pause *= 2;
	}
	zoneinfo_free(&prev);
	/* A zone observed before the change must still be there. */
	for (size_t i = 0; !rc && observed && i < observed->nzones; i++) {
		const struct journal_zone *o = &observed->zones[i];
		bool found = false;

		for (size_t z = 0; z < zi->nzones && !found; z++)
			found = zi->zones[z].node == o->node && zi->zones[z].npagesets &&
				strcmp(zi->zones[z].name, o->name) == 0;
		if (!found) {
			*why = (struct apply_why){ .kind = WHY_ZONE_GONE, .node = o->node };
			snprintf(why->zone, sizeof(why->zone), "%s", o->name);
			rc = -EPROTO;
		}
	}
	if (rc)
		zoneinfo_free(zi);
	return rc;
}

/* Zones whose value the kernel clamps, for one warning that names them all. */
struct clamped {
	struct apply_zone_clamp *zones;	/* room for every zone */
	size_t n;
};

static void clamped_add(struct clamped *c, const struct zi_zone *z, long value, uint64_t instead)
{
	struct apply_zone_clamp *e = &c->zones[c->n++];

	*e = (struct apply_zone_clamp){ .node = z->node, .value = value,
					.instead = (unsigned long long)instead };
	snprintf(e->zone, sizeof(e->zone), "%s", z->name);
}

/*
 * Clamped zones, "node N zone Z ..." joined by ", ": as much of the list as
 * fits size - 1 bytes.  pages: the managed pages, else the value and what
 * it is instead of.
 */
static void zones_text(const struct clamped *c, bool pages, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n && len < size; i++) {
		const struct apply_zone_clamp *z = &c->zones[i];
		int n;

		if (pages)
			n = snprintf(buf + len, size - len, "%snode %d zone %s (%llu pages)",
				     len ? ", " : "", z->node, z->zone, z->instead);
		else
			n = snprintf(buf + len, size - len, "%snode %d zone %s %ld (not %llu)",
				     len ? ", " : "", z->node, z->zone, z->value, z->instead);
		len = n < 0 ? size : len + (size_t)n;
	}
}

/*
 * What the change gives each populated zone of zi, zoneinfo as it is now,
 * from pcprules, into res->expected, with a warning for each kind of value
 * the kernel clamps.  With fill, zi's batch and the high values this kernel
 * sets eagerly become what the change would give them.
 */
static int predict(struct kernel *k, const struct kernel_rules *r,
		   const struct expectation *ex, struct change_result *res, struct zoneinfo *zi,
		   bool fill)
{
	enum pcp_sysctl fs = fraction_sysctl(ex->have);
	size_t room = zi->nzones ? zi->nzones : 1;
	char zones[512];
	struct clamped floored = { .n = 0 }, capped = { .n = 0 }, zeroed = { .n = 0 };
	struct apply_why why;
	int rc = 0;

	floored.zones = calloc(room, sizeof(*floored.zones));
	capped.zones = calloc(room, sizeof(*capped.zones));
	zeroed.zones = calloc(room, sizeof(*zeroed.zones));
	if (!floored.zones || !capped.zones || !zeroed.zones ||
	    !(res->expected = calloc(room, sizeof(*res->expected)))) {
		pcp_error("out of memory");
		rc = -ENOMEM;
	}
	for (size_t i = 0; !rc && i < zi->nzones; i++) {
		struct zi_zone *z = &zi->zones[i];
		struct zone_expect *e = &res->expected[res->nexpected];
		struct pcp_zone_input in;
		struct pcp_expect want = { .floored = false };
		struct zone_inputs now;
		int want_batch;

		if (!z->npagesets)
			continue;
		rc = inputs_of(k->root, z, &now, &why);
		if (rc) {
			char text[200];

			apply_why_text(&why, text, sizeof(text));
			pcp_error("%s", text);
			break;
		}
		rules_input(r, ex, now.managed, z->field[ZI_LOW], now.split, &in, &want_batch);
		e->node = z->node;
		snprintf(e->zone, sizeof(e->zone), "%s", z->name);
		e->batch = want_batch >= 0 ? want_batch : zone_batch(z);
		e->lazy = r->era == ERA_LAZY_HIGH;
		for (size_t p = 0; p < z->npagesets; p++) {
			struct zi_pageset *ps = &z->pagesets[p];

			pcp_expected(&in, &want);
			if (!fill)
				continue;
			if (want_batch >= 0)
				ps->value[ZI_BATCH] = want_batch;
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
		if (want.zero_high)
			clamped_add(&zeroed, z, 0, in.managed);
		if (ex->targeted[SYSCTL_BATCH] && want_batch < ex->value[SYSCTL_BATCH] &&
		    pcp_default_batch(&in) == pcp_batch_cap(r->page_shift))
			clamped_add(&capped, z, want_batch, (uint64_t)ex->value[SYSCTL_BATCH]);
	}
	if (!rc && floored.n) {
		zones_text(&floored, false, zones, sizeof(zones));
		pcp_warn("vm.%s = %ld puts high at its floor of 4 * batch where managed pages / %ld "
			 "/ CPUs is less: %s", sysctl_name(fs), ex->value[fs], ex->value[fs], zones);
	}
	if (!rc && zeroed.n) {
		zones_text(&zeroed, true, zones, sizeof(zones));
		pcp_warn("vm.%s = %ld puts high at 0 where managed pages / %ld is less than 1 "
			 "(kernels before 5.14 have no floor): those lists keep no page, each free "
			 "goes back to the zone: %s", sysctl_name(fs), ex->value[fs], ex->value[fs],
			 zones);
	}
	if (!rc && capped.n) {
		zones_text(&capped, false, zones, sizeof(zones));
		pcp_warn("vm.percpu_pagelist_batch = %ld is more than some zones take; the kernel "
			 "caps their batch at a quarter of high_min (of high before 6.7), which a "
			 "smaller vm.percpu_pagelist_high_fraction raises: %s",
			 ex->value[SYSCTL_BATCH], zones);
	}
	free(floored.zones);
	free(capped.zones);
	free(zeroed.zones);
	return rc;
}

static void write_failed(enum pcp_sysctl s, long value, int rc)
{
	if (rc == -EINVAL && s == SYSCTL_BATCH)
		pcp_error("the kernel refused vm.%s = %ld (EINVAL): the patch accepts 0 to the "
			  "largest default batch << CONFIG_PCP_BATCH_SCALE_MAX (with 4 KiB pages "
			  "63 << 5 = 2016 at Kconfig's default; 63 at 0), and this kernel's "
			  "config allows less than %ld", sysctl_name(s), value, value);
	else if (rc == -EINVAL)
		pcp_error("the kernel refused vm.%s = %ld (EINVAL): the value is outside what "
			  "this kernel accepts", sysctl_name(s), value);
	else
		pcp_error("cannot write vm.%s = %ld: %s", sysctl_name(s), value, strerror(-rc));
}

/*
 * Another writer's value of a setting the change wrote: neither the value
 * pcpctl wrote nor the old one (a failed write may have left that).  It is
 * left as it is, and named.  Returns whether the setting is to be restored;
 * w's "to" (what pcpctl wrote) becomes the value it has now.
 */
static bool ours_to_restore(struct kernel *k, struct planned_write *w,
			    struct change_result *res)
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
 * changed since, and verify them (against observed, the zones as they were
 * before the change, where the journal has them), and with file, put the sysctl.d file
 * back as it was.  Returns CHANGE_FAILED when all is back where it was, or
 * CHANGE_FOREIGN when all but another writer's values are (journal removed
 * when own is given), or CHANGE_ROLLBACK_FAILED when it is not (journal kept).
 */
static enum change_status roll_back(struct kernel *k, struct change_result *res, size_t n,
				    const struct expectation *old, const struct journal *observed,
				    const struct persisted *file, const struct journal_files *own)
{
	struct planned_write *w = res->writes;
	struct expectation ex = *old;
	struct zoneinfo zi, before = { .nzones = 0 };
	int rc, failed = 0, foreign = 0;

	memset(ex.targeted, 0, sizeof(ex.targeted));
	/* The inputs at the restore's writes, should the machine move before its verification. */
	if (kernel_load_zoneinfo(k, &before))
		memset(&before, 0, sizeof(before));
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
		struct apply_why why;

		/* What another writer set makes the values before no longer the ones to expect. */
		rc = verify(k, &res->rules, &ex, &before, foreign ? NULL : observed, &zi,
			    &res->checks, &why);
		if (rc == 0)
			zoneinfo_free(&zi);
		else {
			char text[200];

			apply_why_text(&why, text, sizeof(text));
			pcp_error("the restored settings do not verify: %s", text);
			failed = 1;
		}
	}
	zoneinfo_free(&before);
	if (file) {
		struct persisted now;

		checkpoint(k, "rollback-persist");
		if (persist_read(k->root, &now) ||
		    (!persist_same(&now, file) && persist_write(k->root, file) < 0))
			failed = 1;
	}
	if (failed) {
		pcp_error("rollback failed; %s keeps the old values: fix the cause, then run "
			  "'%s'", sysroot_name(k->root, PATH_JOURNAL),
			  sysroot_command(k->root, "rollback"));
		return CHANGE_ROLLBACK_FAILED;
	}
	rc = own ? journal_remove_at(own) : 0;
	if (rc)
		pcp_warn("settings restored, but %s could not be removed: %s", own->path,
			 strerror(-rc));
	return foreign ? CHANGE_FOREIGN : CHANGE_FAILED;
}

/*
 * The era of the kernel's release and its page size, and whether pcpctl can
 * know its rules exactly (doubt_format() looks at zoneinfo for more).
 */
static enum change_status kernel_rules(struct kernel *k, struct kernel_rules *r)
{
	char *release = kernel_release(k);
	const char *doubt;
	bool assumed;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!release) {
		pcp_error("cannot read the kernel release from %s: %s",
			  sysroot_name(k->root, PATH_OSRELEASE), strerror(errno));
		return CHANGE_FAILED;
	}
	rc = pcp_era_of_release(release, &r->era);
	if (rc)
		pcp_error("cannot tell the kernel version from its release \"%s\"", release);
	doubt = rc ? NULL : pcp_release_doubt(release);
	if (doubt)
		r->doubt = (struct rules_doubt){ .kind = DOUBT_RELEASE, .release = doubt };
	free(release);
	if (rc)
		return CHANGE_FAILED;
	r->page_size = kernel_page_size(k, &assumed);
	if (r->page_size < 0)
		return CHANGE_FAILED;
	/* A tree that does not say has been warned of, and is taken at its 4 KiB. */
	(void)assumed;
	rc = pcp_page_shift(r->page_size);
	if (rc != 12 && rc != 14 && rc != 16) {
		if (!r->doubt.kind)
			r->doubt.kind = DOUBT_PAGE_SIZE;
		rc = rc < 0 ? 12 : rc;
	}
	r->page_shift = (unsigned)rc;
	return CHANGE_DONE;
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
	doubt_format(&res->rules, res->have, &res->zi_before);
	res->high_unconfirmed = res->rules.era == ERA_LAZY_HIGH && !res->rules.doubt.kind;
	/*
	 * A dry run reports the prediction as its "after", made on a copy of
	 * "before"; a real run reads zoneinfo back.
	 */
	if (t->req->dry_run) {
		if (zoneinfo_copy(&res->zi_after, &res->zi_before)) {
			pcp_error("out of memory");
			return CHANGE_FAILED;
		}
		rc = predict(t->k, &res->rules, &t->want, res, &res->zi_after, true);
	} else {
		rc = predict(t->k, &res->rules, &t->want, res, &res->zi_before, false);
	}
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
	struct apply_why why;
	int rc = verify(t->k, &t->res->rules, &t->want, &t->res->zi_before, NULL,
			&t->res->zi_after, &t->res->checks, &why);

	t->res->verified = rc == 0;
	if (rc) {
		char text[200];

		apply_why_text(&why, text, sizeof(text));
		pcp_warn("already set, but zoneinfo disagrees: %s", text);
	}
}

/*
 * What the populated zones show before the first write, for the restore to
 * be checked against, and the inputs they were computed from: batch; high
 * where the kernel sets it on every CPU at once (up to 6.6); high_min and
 * high_max where printed.  A value that differs between the CPUs of a zone
 * is not recorded; a machine with more zones than a journal holds records
 * none (its restore is checked by the rules).
 */
static void observe(const struct sysroot *root, const struct kernel_rules *r,
		    const struct zoneinfo *zi, struct journal *j)
{
	j->nzones = 0;
	for (size_t i = 0; i < zi->nzones; i++) {
		const struct zi_zone *z = &zi->zones[i];
		struct journal_zone *o = &j->zones[j->nzones];
		struct zone_inputs in;
		struct apply_why ignored;
		int lo, hi, lo2, hi2;

		if (!z->npagesets || zone_batch(z) < 0)
			continue;
		if (j->nzones == JOURNAL_ZONES_MAX) {
			j->nzones = 0;
			return;
		}
		*o = (struct journal_zone){ .node = z->node, .batch = zone_batch(z), .high = -1,
					    .high_min = -1, .high_max = -1 };
		snprintf(o->name, sizeof(o->name), "%s", z->name);
		zi_zone_range(z, ZI_HIGH, &lo, &hi);
		if (!r->doubt.kind && r->era <= ERA_HIGH_FRACTION && lo == hi)
			o->high = lo;
		if (zi_has(&z->pagesets[0], ZI_HIGH_MIN)) {
			zi_zone_range(z, ZI_HIGH_MIN, &lo, &hi);
			zi_zone_range(z, ZI_HIGH_MAX, &lo2, &hi2);
			if (lo == hi && lo2 == hi2 && lo >= 0 && lo2 >= 0) {
				o->high_min = lo;
				o->high_max = lo2;
			}
		}
		if (inputs_of(root, z, &in, &ignored) == 0) {
			o->have_inputs = true;
			o->managed = in.managed;
			o->low = in.low;
			o->cpus = in.split;
		}
		j->nzones++;
	}
}

/* Journal the old values and the zones as they are, then write the new ones in order. */
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
	observe(t->k->root, &res->rules, &res->zi_before, &t->j);
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
	struct apply_why why;

	checkpoint(t->k, "verify");
	if (verify(t->k, &t->res->rules, &t->want, &t->res->zi_before, t->req->observed,
		   &t->res->zi_after, &t->res->checks, &why)) {
		char text[200];

		apply_why_text(&why, text, sizeof(text));
		pcp_error("verification failed: %s", text);
		t->res->unexpected = why;
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
	st = roll_back(t->k, res, t->done, &t->old, &t->j, t->file,
		       t->req->in_session ? NULL : t->files);
	res->rolled_back = st != CHANGE_ROLLBACK_FAILED;
	if (!res->rolled_back)
		res->unexpected.kind = WHY_NONE;
	res->nundone = t->done;
	return st;
}

/* The steps after the lock is held. */
static enum change_status transact(struct kernel *k, const struct change_request *req,
				   const struct journal_files *files, struct change_result *res)
{
	struct txn t = { .k = k, .req = req, .res = res, .files = files };
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
static enum change_status sysctl_d_access(struct kernel *k)
{
	const struct sysroot *root = k->root;
	const char *dir = sysroot_exists(root, PATH_SYSCTL_D) ? PATH_SYSCTL_D : "/etc";
	int fd = sysroot_open_dir(root, dir, 0), rc;

	rc = fd < 0 ? -fd : faccessat(fd, ".", W_OK, AT_EACCESS) < 0 ? errno : 0;
	if (rc)
		pcp_error("cannot write to %s: %s%s", sysroot_name(root, dir),
			  rc == ELOOP ? sysroot_strerror(-ELOOP) : strerror(rc),
			  rc == EACCES && geteuid() != 0 ? "; run pcpctl as root" : "");
	if (fd >= 0)
		close(fd);
	/* a link beneath the tree is no question of privilege */
	return rc == ELOOP ? CHANGE_FAILED : rc ? CHANGE_NO_ACCESS : CHANGE_DONE;
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
	if (!req->dry_run && ((st = sysctl_d_access(k)) ||
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

/*
 * Whether the kernel's release can be read and told.  A change reads it
 * before it looks at the interface (kernel_rules, then plan): where it
 * cannot, the change itself says so and exits as it always has, so there is
 * nothing for the command table to check before.
 */
static bool release_known(struct kernel *k)
{
	char *release = kernel_release(k);
	enum pcp_era era;
	bool known = release && pcp_era_of_release(release, &era) == 0;

	free(release);
	return known;
}

enum change_status apply_targets(struct kernel *k, const struct change_request *req,
				 struct apply_plan *p)
{
	struct expectation want;
	enum change_status st;

	memset(p, 0, sizeof(*p));
	if (req->persist_only || !release_known(k))
		return CHANGE_DONE;
	if ((st = read_settings(k, &p->res)) || (st = plan(req, &p->res, &want)))
		return st;
	memcpy(p->write, want.targeted, sizeof(want.targeted));
	p->planned = true;
	return CHANGE_DONE;
}

enum change_status apply_rollback_targets(struct kernel *k, bool discard, bool write[NSYSCTLS])
{
	struct change_result now = { .have = { false } };
	enum change_status st;

	memset(write, 0, NSYSCTLS * sizeof(*write));
	/*
	 * With nothing to restore or tidy (a killed change's temporary files),
	 * there is nothing to need privilege for.  Only ENOENT says a file is
	 * not there: a directory this user may not search hides nothing.
	 */
	if (sysroot_probe(k->root, PATH_JOURNAL) == 0 &&
	    (discard || (sysroot_probe(k->root, PATH_JOURNAL_TMP) == 0 &&
			 sysroot_probe(k->root, PATH_PERSIST ".tmp") == 0)))
		return CHANGE_DONE;
	/* Every setting the kernel has may be restored; who may not roll back may not discard. */
	if ((st = read_settings(k, &now)))
		return st;
	memcpy(write, now.have, sizeof(now.have));
	return CHANGE_DONE;
}

enum change_status apply_change(struct kernel *k, const struct change_request *req,
				const struct apply_plan *p, struct change_result *res)
{
	struct journal_files files = { 0 };
	struct expectation want;
	enum change_status st;
	int lock = -1;

	memset(res, 0, sizeof(*res));
	if (req->persist_only)
		return persist_only(k, req, res);
	/*
	 * A missing interface is reported before the lock is taken (the
	 * command table checked the privilege on p, see apply_targets);
	 * transact() plans again under the lock, with what is current then.
	 */
	if (p && p->planned)
		*res = p->res;
	if ((st = kernel_rules(k, &res->rules)))
		return st;
	if ((!p || !p->planned) && ((st = read_settings(k, res)) || (st = plan(req, res, &want))))
		return st;
	/*
	 * A dry run checks all a change would need: the lock, the journal, and
	 * as --persist-only does, a file that cannot be written stops the change
	 * before it starts.
	 */
	if (req->persist != PERSIST_NONE && (st = sysctl_d_access(k)))
		return st;
	if (!req->in_session) {
		lock = lock_acquire(k->root);
		if (lock < 0)
			return CHANGE_FAILED;
		if (journal_files_init(k->root, &files)) {
			lock_release(lock);
			return CHANGE_FAILED;
		}
	}
	st = transact(k, req, &files, res);
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
static enum change_status rollback_journal(struct kernel *k, struct journal *j,
					   bool *found)
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
		pcp_error("refusing %s: %s; nothing was changed. Set the values by hand, then "
			  "run '%s', which removes it and prints what it held",
			  sysroot_name(k->root, PATH_JOURNAL), why,
			  sysroot_command(k->root, "rollback --discard"));
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
			pcp_error("%s records vm.%s, which this kernel lacks; was it written on "
				  "another kernel? Once the settings are right, '%s' removes it",
				  sysroot_name(k->root, PATH_JOURNAL), sysctl_name(j->sysctl[i]),
				  sysroot_command(k->root, "rollback --discard"));
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
	bool found;
	int lock = -1;

	memset(res, 0, sizeof(*res));
	if ((st = kernel_rules(k, &res->rules)) || (st = read_settings(k, res)))
		return st;
	/* Nothing to restore or tidy: see apply_rollback_targets. */
	if (sysroot_probe(k->root, PATH_JOURNAL) == 0 &&
	    sysroot_probe(k->root, PATH_JOURNAL_TMP) == 0 &&
	    sysroot_probe(k->root, PATH_PERSIST ".tmp") == 0)
		return CHANGE_DONE;
	if ((lock = lock_acquire(k->root)) < 0 || journal_files_init(k->root, &files)) {
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
	st = roll_back(k, res, j.n, &old, &j, j.persist ? &j.persisted : NULL, &files);
	if (st == CHANGE_ROLLBACK_FAILED)
		pcp_note("if it can never be applied (the kernel was replaced, a value is refused), "
			 "set the values by hand and run '%s'",
			 sysroot_command(k->root, "rollback --discard"));
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
	if ((lock = lock_acquire(k->root)) < 0 || journal_files_init(k->root, &files)) {
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
	struct journal *j;
	enum change_status st;

	memset(s, 0, sizeof(*s));
	j = s->journal = calloc(1, sizeof(*s->journal));
	if (!j) {
		pcp_error("out of memory");
		return CHANGE_FAILED;
	}
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
		j->sysctl[j->n] = i;
		j->old[j->n++] = s->original.before[i];
	}
	/* What the end of the session, or a rollback after a crash, is to find again. */
	if (!st && (kernel_rules(k, &s->original.rules) ||
		    kernel_load_zoneinfo(k, &s->original.zi_before)))
		st = CHANGE_FAILED;
	if (!st) {
		doubt_format(&s->original.rules, s->original.have, &s->original.zi_before);
		observe(k->root, &s->original.rules, &s->original.zi_before, j);
	}
	if (!st && journal_write(k->root, j))
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
		.in_session = true, .observed = s->journal,
	};
	struct change_result res;
	enum change_status st = apply_change(k, &req, NULL, &res);

	apply_result_free(&res);
	if (st == CHANGE_DONE) {
		int err = journal_remove(k->root);

		if (err)
			pcp_warn("settings restored, but %s could not be removed: %s",
				 sysroot_name(k->root, PATH_JOURNAL), strerror(-err));
	} else {
		pcp_error("could not restore the settings from before; %s keeps them: run '%s'",
			  sysroot_name(k->root, PATH_JOURNAL), sysroot_command(k->root, "rollback"));
		st = CHANGE_ROLLBACK_FAILED;
	}
	lock_release(s->lock);
	s->lock = -1;
	return st;
}

void apply_session_free(struct change_session *s)
{
	apply_result_free(&s->original);
	free(s->journal);
	s->journal = NULL;
}

void apply_result_free(struct change_result *res)
{
	zoneinfo_free(&res->zi_before);
	zoneinfo_free(&res->zi_after);
	free(res->expected);
	res->expected = NULL;
}
