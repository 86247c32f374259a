/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "change.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "c.h"
#include "command.h"
#include "journal.h"
#include "msg.h"
#include "numparse.h"
#include "pcprules.h"
#include "persist_report.h"
#include "report.h"
#include "status.h"
#include "sysroot.h"

static void say_out_of_range(struct kernel *k, bool batch, const char *value)
{
	if (batch)
		pcp_error("--batch %s is out of range: give 0 (the kernel's default) or 1..%ld", value,
			  batch_limit(k));
	else
		pcp_error("--fraction %s is out of range: give 0 (the kernel's default) or %d..%d",
			  value, PCP_FRACTION_MIN, INT32_MAX);
}

static int parse_value(struct kernel *k, bool batch, const char *text, long *value)
{
	int rc = parse_long(text, LONG_MIN, LONG_MAX, value);

	if (rc == -ERANGE)
		say_out_of_range(k, batch, text);
	else if (rc)
		pcp_error("%s \"%s\" is not a whole number", batch ? "--batch" : "--fraction", text);
	return rc ? EXIT_USAGE : EXIT_OK;
}

int change_value_usage(struct kernel *k, bool batch, long value)
{
	char text[24];

	if (batch ? batch_valid(value, batch_limit(k)) : fraction_valid(value))
		return EXIT_OK;
	snprintf(text, sizeof(text), "%ld", value);
	say_out_of_range(k, batch, text);
	return EXIT_USAGE;
}

int change_exit(const struct sysroot *root, enum change_status st)
{
	switch (st) {
	case CHANGE_DONE:
		return EXIT_OK;
	case CHANGE_FAILED:
		return EXIT_FAIL;
	case CHANGE_NO_BATCH:
		pcp_error("this kernel has no vm.percpu_pagelist_batch: apply pcpctl's kernel patch "
			  "from %s/ or change only --fraction", patch_dir());
		return EXIT_NOIFACE;
	case CHANGE_NO_FRACTION:
		pcp_error("this kernel has neither vm.percpu_pagelist_high_fraction nor "
			  "vm.percpu_pagelist_fraction");
		return EXIT_NOIFACE;
	case CHANGE_NO_SYSCTL:
		return EXIT_NOIFACE;
	case CHANGE_NO_ACCESS:
		return EXIT_NOPRIV;
	case CHANGE_JOURNAL_LEFT:
		journal_say_leftover(root, true);
		return EXIT_FAIL;
	case CHANGE_ROLLBACK_FAILED:
		return EXIT_ROLLBACK;
	case CHANGE_FOREIGN:
		return EXIT_FOREIGN;
	}
	return EXIT_FAIL;
}



/* Why pcpctl cannot know the kernel's rules to be its era's, in words; "" when it can. */
static void doubt_text(const struct kernel_rules *r, char *buf, size_t len)
{
	const struct rules_doubt *d = &r->doubt;

	switch (d->kind) {
	case DOUBT_NONE:
		snprintf(buf, len, "%s", "");
		break;
	case DOUBT_RELEASE:
		snprintf(buf, len, "%s", d->release);
		break;
	case DOUBT_MINMAX:
		snprintf(buf, len, "its zoneinfo %s high_min/high_max, which its release's "
			 "generation does not", d->minmax ? "prints" : "does not print");
		break;
	case DOUBT_SYSCTL:
		snprintf(buf, len, "it has vm.%s, which its release's generation does not",
			 sysctl_name(d->sysctl));
		break;
	case DOUBT_PAGE_SIZE:
		snprintf(buf, len, "its page size, %ld bytes, is none of those pcpctl was checked "
			 "with (4, 16 and 64 KiB)", r->page_size);
		break;
	}
}


static void print_range(const char *label, int lo, int hi)
{
	print_string(PRINT_FP, NULL, " %s", label);
	print_long(PRINT_FP, NULL, " %ld", lo);
	if (lo != hi)
		print_long(PRINT_FP, NULL, "-%ld", hi);
}

/*
 * Whether a rolled-back change had moved s, and to what (*to): the undo
 * reads each value before it writes the old one back, into "to".
 */
static bool undone(const struct change_result *r, int s, long *to)
{
	for (size_t i = 0; r->rolled_back && i < r->nundone; i++)
		if ((int)r->writes[i].sysctl == s && r->writes[i].to != r->writes[i].from) {
			*to = r->writes[i].to;
			return true;
		}
	return false;
}

/*
 * One line per populated zone: each field's range before and, when changed,
 * after; where the kernel sets high lazily, the limits it is set within.
 */
static void print_zones(const struct change_result *r)
{
	static const enum zi_field fields[] = { ZI_BATCH, ZI_HIGH, ZI_HIGH_MIN, ZI_HIGH_MAX };
	const struct zoneinfo *b = &r->zi_before, *a = &r->zi_after;
	size_t populated = 0;

	for (size_t i = 0; i < b->nzones; i++) {
		const struct zi_zone *zb = &b->zones[i];
		const struct zi_zone *za = i < a->nzones ? &a->zones[i] : NULL;
		const char *sep = "";

		if (!zb->npagesets)
			continue;
		print_long(PRINT_FP, NULL, "  node %ld", zb->node);
		print_string(PRINT_FP, NULL, " zone %-7s", zb->name);
		for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
			int blo, bhi, alo, ahi;

			if (!(b->pageset_fields & (1u << fields[f])))
				continue;
			zi_zone_range(zb, fields[f], &blo, &bhi);
			print_string(PRINT_FP, NULL, "%s", sep);
			sep = ";";
			print_range(zi_field_name(fields[f]), blo, bhi);
			if (za && za->npagesets) {
				zi_zone_range(za, fields[f], &alo, &ahi);
				if (alo != blo || ahi != bhi)
					print_range("->", alo, ahi);
			}
		}
		if (populated < r->nexpected && r->expected[populated].lazy &&
		    r->expected[populated].high_min >= 0) {
			const struct zone_expect *e = &r->expected[populated];

			if (e->high_min == e->high_max) {
				print_long(PRINT_FP, NULL, " (each CPU sets its high to %ld lazily)",
					   e->high_min);
			} else {
				print_range("(each CPU sets its high lazily, within", e->high_min,
					    e->high_max);
				print_string(PRINT_FP, NULL, "%s", ")");
			}
		}
		populated++;
		print_string(PRINT_FP, NULL, "%s", "\n");
	}
}

/* Each populated zone's batch and high limits after the change, from pcprules. */
static void print_expected(const struct change_result *r)
{
	open_json_array("expected");
	for (size_t i = 0; i < r->nexpected; i++) {
		const struct zone_expect *e = &r->expected[i];

		open_json_object(NULL);
		print_long(PRINT_JSON, "node", "%ld", e->node);
		print_string(PRINT_JSON, "zone", "%s", e->zone);
		print_long_or_null("batch", "%ld", e->batch >= 0, e->batch);
		print_long_or_null("high_min", "%ld", e->high_min >= 0, e->high_min);
		print_long_or_null("high_max", "%ld", e->high_max >= 0, e->high_max);
		close_json_object();
	}
	close_json_array();
}

static const char *const generations[] = {
	[ERA_FRACTION_512K] = "up to 4.18", [ERA_FRACTION] = "4.19-5.13",
	[ERA_HIGH_FRACTION] = "5.14-6.6", [ERA_LAZY_HIGH] = "6.7-6.12", [ERA_HIGH_MINMAX] = "6.13+",
};

/* The rules the change was verified by, and the checks made (JSON). */
static void print_checks_json(const struct change_result *r)
{
	char doubt[200], unexpected[200];

	doubt_text(&r->rules, doubt, sizeof(doubt));
	apply_why_text(&r->unexpected, unexpected, sizeof(unexpected));
	/* --persist-only reads no rules: the kernel is not changed or verified. */
	if (!r->rules.page_size) {
		print_null(PRINT_JSON, "rules", "%s", NULL);
	} else {
		open_json_object("rules");
		print_string(PRINT_JSON, "generation", "%s", generations[r->rules.era]);
		print_long(PRINT_JSON, "page_size", "%ld", r->rules.page_size);
		print_bool(PRINT_JSON, "exact", "%s", !r->rules.doubt.kind);
		print_string_or_null("doubt", r->rules.doubt.kind ? doubt : NULL);
		close_json_object();
	}
	open_json_array("checks");
	for (int c = 0; c < NCHECKS; c++)
		if (r->checks & (1u << c))
			print_string(PRINT_JSON, NULL, "%s", verify_check_name(c));
	close_json_array();
	print_string_or_null("unexpected", r->unexpected.kind ? unexpected : NULL);
}

/* What each check (enum verify_check) checked, by its bit. */
static const char *const check_texts[NCHECKS] = {
	"the sysctls read back as written",
	"every pageset as this kernel's rules give it",
	"every CPU of a zone shows one batch",
	"no batch moved, as the write cannot move it",
	"every batch that moved is within the one written",
	"high is managed pages / the fraction on every CPU",
	"high_min = high_max on every CPU, as a fraction sets them",
	"every pageset shows the values observed before the change",
};

/* "checked: A, B and C" in text. */
static void print_checks_text(const struct change_result *r)
{
	const char *sep = "checked: ";

	for (int c = 0; c < NCHECKS; c++)
		if (r->checks & (1u << c)) {
			printf("%s%s", sep, check_texts[c]);
			sep = "; ";
		}
	if (*sep == ';')
		puts("");
}

/* Every warning and note this run printed on stderr, recorded since msg_record(true). */
static void print_warnings(void)
{
	const char *const *w;
	size_t n = msg_recorded(&w);

	open_json_array("warnings");
	for (size_t i = 0; i < n; i++)
		print_string(PRINT_JSON, NULL, "%s", w[i]);
	close_json_array();
}

/* Settings another writer changed during the change: not restored.  Whether any. */
static bool print_foreign(const struct change_result *r)
{
	bool any = false;

	for (int s = 0; s < NSYSCTLS; s++)
		if (r->foreign[s]) {
			printf("left vm.%s = %ld as another writer set it\n", sysctl_name(s),
			       r->after[s]);
			any = true;
		}
	return any;
}

/*
 * The report of set and reset (req and pr) and rollback (NULL), in text or
 * JSON; rc is the exit code it goes with.
 */
static void print_report(const struct change_result *r, const struct change_request *req,
			 const struct sysroot *root, int rc, const struct persist_report *pr)
{
	static const struct persist_report none;
	bool dry_run = req && req->dry_run;
	char doubt[200], unexpected[200];
	bool foreign;
	long to;

	doubt_text(&r->rules, doubt, sizeof(doubt));
	apply_why_text(&r->unexpected, unexpected, sizeof(unexpected));

	print_bool(PRINT_JSON, "changed", "%s", r->changed);
	print_bool(PRINT_JSON, "dry_run", "%s", dry_run);
	print_settings("before", r->have, r->before);
	print_settings("after", r->have, r->after);
	for (int s = 0; s < NSYSCTLS; s++) {
		if (!r->have[s])
			continue;
		print_sysctl_label(sysctl_name(s));
		if (r->after[s] != r->before[s]) {
			print_long(PRINT_FP, NULL, "%ld", r->before[s]);
			print_long(PRINT_FP, NULL, " -> %ld", r->after[s]);
			print_string(PRINT_FP, NULL, "%s\n", dry_run ? " (dry run: not written)" : "");
		} else if (undone(r, s, &to)) {
			/* written and put back: not "unchanged" */
			print_long(PRINT_FP, NULL, "%ld", r->before[s]);
			print_long(PRINT_FP, NULL, " (restored: the change to %ld was undone)\n", to);
		} else {
			print_long(PRINT_FP, NULL, "%ld (unchanged)\n", r->before[s]);
		}
	}
	print_expected(r);
	print_checks_json(r);
	print_bool(PRINT_JSON, "verified", "%s", r->verified);
	print_bool(PRINT_JSON, "rolled_back", "%s", r->rolled_back);
	print_bool(PRINT_JSON, "persisted", "%s", r->persisted);
	print_persist_json(root, pr ? pr : &none);
	print_warnings();
	if (is_json_context())
		return;
	if (req && req->persist_only) {
		if (!dry_run)
			puts("the kernel was left as it is: --persist-only writes the sysctl.d file "
			     "only");
		print_persist_text(root, req, r, pr);
		if (dry_run)
			puts("dry run: nothing was written");
		return;
	}
	if (dry_run) {
		puts("expected per zone (now -> after the change):");
		print_zones(r);
		if (r->rules.doubt.kind)
			printf("(by the rules of %s with %ld KiB pages, which pcpctl cannot know to be "
			       "this kernel's: %s)\n", generations[r->rules.era],
			       r->rules.page_size / 1024, doubt);
		print_persist_text(root, req, r, pr);
		puts("dry run: nothing was written");
		return;
	}
	print_zones(r);
	foreign = print_foreign(r);
	if (rc == EXIT_ROLLBACK)
		printf("failed, and so did the rollback: the values above are in force now; fix the "
		       "cause, then run '%s'\n", sysroot_command(root, "rollback"));
	else if (foreign && r->rolled_back)
		puts("failed: the old settings were restored and verified, but for the values "
		     "another writer set");
	else if (r->rolled_back && r->unexpected.kind && (r->checks & CHECK_OBSERVED))
		printf("failed: the kernel did not do what pcpctl expected (%s); restored and "
		       "verified against the values before\n", unexpected);
	else if (r->rolled_back)
		puts("failed: the old settings were restored and verified");
	else if (!r->changed)
		printf("unchanged: the kernel already has these settings%s\n",
		       r->verified ? "" : " (but zoneinfo disagrees, see above)");
	else if (r->rules.doubt.kind) {
		printf("changed; pcpctl cannot know this kernel's rules exactly (%s), so it checked "
		       "only what holds in every generation\n", doubt);
		print_checks_text(r);
	} else if (r->high_unconfirmed)
		puts("changed; the sysctls read back as set (this kernel, 6.7-6.12, sets high lazily "
		     "and prints no high_min/high_max, so zoneinfo cannot confirm a fraction)");
	else
		puts("changed and verified in zoneinfo");
	if (r->high_unconfirmed && !r->rolled_back && !r->changed && rc != EXIT_ROLLBACK)
		puts("note: this kernel (6.7-6.12) sets high lazily and prints no high_min/high_max, "
		     "so zoneinfo cannot confirm a fraction; the sysctl reads back as set");
	if (req)
		print_persist_text(root, req, r, pr);
}

/* set or reset, as prepared. */
static int cmd_change(const struct sysroot *root, const struct change_prep *p, bool json)
{
	const struct change_request *req = &p->req;
	struct persist_report pr;
	struct change_result r;
	int rc;

	persist_report_begin(root, req, &pr);
	rc = change_exit(root, apply_change(p->k, req, &p->plan, &r));
	persist_report_end(root, req, &r, rc == EXIT_OK, &pr);
	/* Exits 2-4 wrote nothing and have nothing to report beyond their message. */
	if ((rc == EXIT_OK || rc == EXIT_FAIL || rc == EXIT_ROLLBACK || rc == EXIT_FOREIGN) &&
	    (json || rc != EXIT_FAIL || r.rolled_back)) {
		new_json_obj(json);
		print_report(&r, req, root, rc, &pr);
		if (delete_json_obj() && !rc)
			rc = EXIT_FAIL;
	}
	persist_report_free(&pr);
	apply_result_free(&r);
	return rc;
}

static int persist_usage(const struct change_opts *o)
{
	if (!o->persist || !o->persist_only)
		return EXIT_OK;
	pcp_error("--persist and --persist-only are mutually exclusive: --persist changes the "
		  "kernel and the sysctl.d file, --persist-only the file alone");
	return EXIT_USAGE;
}

/* The request of set's options: EXIT_OK, or EXIT_USAGE after saying why. */
static int set_request(struct kernel *k, const struct change_opts *o,
		       struct change_request *req_out)
{
	struct change_request req = {
		.dry_run = o->dry_run, .persist_only = o->persist_only,
		.persist = o->persist || o->persist_only ? PERSIST_SET : PERSIST_NONE,
	};
	int rc;

	*req_out = req;
	if ((rc = persist_usage(o)))
		return rc;
	if (!o->batch && !o->fraction) {
		pcp_error("set needs --batch N, --fraction N or both; see pcpctl set --help");
		return EXIT_USAGE;
	}
	if (o->batch) {
		req.set_batch = true;
		if ((rc = parse_value(k, true, o->batch, &req.batch)) ||
		    (rc = change_value_usage(k, true, req.batch)))
			return rc;
	}
	if (o->fraction) {
		req.set_fraction = true;
		if ((rc = parse_value(k, false, o->fraction, &req.fraction)) ||
		    (rc = change_value_usage(k, false, req.fraction)))
			return rc;
	}
	*req_out = req;
	return EXIT_OK;
}

static int reset_request(const struct change_opts *o, struct change_request *req)
{
	int rc = persist_usage(o);

	*req = (struct change_request){
		.reset = true, .dry_run = o->dry_run, .persist_only = o->persist_only,
		.persist = o->persist || o->persist_only ? PERSIST_REMOVE : PERSIST_NONE,
	};
	if (rc)
		return rc;
	if (o->batch || o->fraction) {
		pcp_error("reset takes no --batch or --fraction: it restores both defaults");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The kernel, opened once for all the command does; warnings recorded from here on. */
static int prep_open(const struct sysroot *root, struct change_prep *p)
{
	memset(p, 0, sizeof(*p));
	msg_record(true);
	p->k = kernel_open(root);
	if (!p->k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * set (or with reset, reset) and rollback: EXIT_OK, or an exit code after
 * the command's usage and interface checks (exits 2 and 3 come first).
 */
static int change_prepare(const struct sysroot *root, const struct change_opts *o, bool reset,
		   struct change_prep *p)
{
	int rc = prep_open(root, p);

	if (!rc)
		rc = reset ? reset_request(o, &p->req) : set_request(p->k, o, &p->req);
	if (!rc)
		rc = change_exit(root, apply_targets(p->k, &p->req, &p->plan));
	return rc;
}

static int rollback_prepare(const struct sysroot *root, bool discard, struct change_prep *p)
{
	int rc = prep_open(root, p);

	if (!rc)
		rc = change_exit(root, apply_rollback_targets(p->k, discard, p->plan.write));
	return rc;
}

void change_prep_free(struct change_prep *p)
{
	if (p->k)
		p->k->ops->close(p->k);
	p->k = NULL;
	msg_record(false);
}

/* What a discarded journal recorded, in text or JSON. */
static void print_discarded(const struct sysroot *root, const struct journal *j, bool found,
			    const char *why)
{
	print_bool(PRINT_JSON, "discarded", "%s", found);
	print_string(PRINT_JSON, "journal", "%s", sysroot_name(root, PATH_JOURNAL));
	if (*why)
		print_string(PRINT_JSON, "damaged", "%s", why);
	else
		print_null(PRINT_JSON, "damaged", "%s", NULL);
	if (!found) {
		print_string(PRINT_FP, NULL, "%s\n", "nothing to discard: no interrupted change was "
			     "recorded");
	} else if (*why) {
		print_string(PRINT_FP, NULL, "discarded %s, ", sysroot_name(root, PATH_JOURNAL));
		print_string(PRINT_FP, NULL, "which could not be read: %s\n", why);
	} else {
		print_string(PRINT_FP, NULL, "discarded %s, which recorded:\n",
			     sysroot_name(root, PATH_JOURNAL));
	}
	open_json_array("recorded");
	for (size_t i = 0; i < j->n; i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "sysctl", "  vm.%s:", sysctl_name(j->sysctl[i]));
		print_long(PRINT_ANY, "old", " was %ld", j->old[i]);
		if (j->have_wrote)
			print_long(PRINT_ANY, "wrote", ", the change wrote %ld", j->wrote[i]);
		else
			print_null(PRINT_JSON, "wrote", "%s", NULL);
		print_string(PRINT_FP, NULL, "%s", "\n");
		close_json_object();
	}
	close_json_array();
	if (j->persist) {
		print_settings("persist_before", j->persisted.have, j->persisted.value);
		print_string(PRINT_FP, NULL, "  %s before the change:",
			     sysroot_name(root, PATH_PERSIST));
		bool any = false;

		for (int s = 0; s < NSYSCTLS; s++)
			any |= j->persisted.have[s];
		if (!any)
			print_string(PRINT_FP, NULL, "%s", " no pcp setting (no file)");
		for (int s = 0; s < NSYSCTLS; s++)
			if (j->persisted.have[s]) {
				print_string(PRINT_FP, NULL, " vm.%s", sysctl_name(s));
				print_long(PRINT_FP, NULL, " = %ld", j->persisted.value[s]);
			}
		print_string(PRINT_FP, NULL, "%s\n", "");
	} else {
		print_null(PRINT_JSON, "persist_before", "%s", NULL);
	}
	if (found)
		print_string(PRINT_FP, NULL, "%s\n", "nothing was restored: the settings are as "
			     "they are now; set them by hand if they are not right");
	print_warnings();
}

static int cmd_discard(const struct sysroot *root, const struct change_prep *p, bool json)
{
	char why[160];
	struct journal j;
	bool found;
	int rc;

	rc = change_exit(root, apply_discard(p->k, &j, &found, why, sizeof(why)));
	if (!rc) {
		new_json_obj(json);
		print_discarded(root, &j, found, why);
		rc = delete_json_obj() ? EXIT_FAIL : EXIT_OK;
	}
	return rc;
}

/* discard: rollback --discard, remove a journal that can never be applied. */
static int cmd_rollback(const struct sysroot *root, const struct change_prep *p, bool json,
			bool discard)
{
	struct change_result r;
	int rc;

	if (discard)
		return cmd_discard(root, p, json);
	rc = change_exit(root, apply_rollback(p->k, &r));
	if (json && (rc == EXIT_OK || rc == EXIT_ROLLBACK || rc == EXIT_FOREIGN)) {
		new_json_obj(true);
		print_report(&r, NULL, root, rc, NULL);
		if (delete_json_obj() && !rc)
			rc = EXIT_FAIL;
	} else if (rc == EXIT_OK && !r.rolled_back)
		puts("nothing to roll back: no interrupted change was recorded");
	else if (rc == EXIT_OK || rc == EXIT_FOREIGN) {
		for (size_t i = 0; i < r.nwrites; i++) {
			const struct planned_write *w = &r.writes[i];

			if (r.foreign[w->sysctl])
				continue;
			/*
			 * A change killed before this write left it as it was, or a
			 * rollback that failed on another value restored it already.
			 */
			if (r.before[w->sysctl] == w->from)
				printf("vm.%s = %ld, as before the change: it had not been written, "
				       "or an earlier rollback restored it\n",
				       sysctl_name(w->sysctl), w->from);
			else
				printf("restored vm.%s = %ld (was %ld)\n", sysctl_name(w->sysctl),
				       w->from, r.before[w->sysctl]);
		}
		print_foreign(&r);
		if (r.persisted)
			printf("restored %s as it was before the change\n", sysroot_name(root, PATH_PERSIST));
	}
	apply_result_free(&r);
	return rc;
}

/* What the command line says; set, reset and rollback hand it on. */
static struct {
	struct change_opts change;
	int dry_run, persist, persist_only, discard;
} cli;
/* What the command prepared: the dispatcher checks the privilege on it, then run() runs it. */
static struct change_prep prep;

static const struct poptOption set_options[] = {
	{ "batch", '\0', POPT_ARG_STRING, &cli.change.batch, 0, NULL, NULL },
	{ "fraction", '\0', POPT_ARG_STRING, &cli.change.fraction, 0, NULL, NULL },
	{ "dry-run", '\0', POPT_ARG_NONE, &cli.dry_run, 0, NULL, NULL },
	{ "persist", '\0', POPT_ARG_NONE, &cli.persist, 0, NULL, NULL },
	{ "persist-only", '\0', POPT_ARG_NONE, &cli.persist_only, 0, NULL, NULL },
	POPT_TABLEEND
};

static const struct poptOption reset_options[] = {
	{ "dry-run", '\0', POPT_ARG_NONE, &cli.dry_run, 0, NULL, NULL },
	{ "persist", '\0', POPT_ARG_NONE, &cli.persist, 0, NULL, NULL },
	{ "persist-only", '\0', POPT_ARG_NONE, &cli.persist_only, 0, NULL, NULL },
	POPT_TABLEEND
};

static const struct poptOption rollback_options[] = {
	{ "discard", '\0', POPT_ARG_NONE, &cli.discard, 0, NULL, NULL },
	POPT_TABLEEND
};

static int prepare_change(const struct sysroot *root, const struct command_args *a, bool reset,
			  struct change_prep **p)
{
	cli.change.json = a->common->json;
	cli.change.dry_run = cli.dry_run;
	cli.change.persist = cli.persist;
	cli.change.persist_only = cli.persist_only;
	*p = &prep;
	return change_prepare(root, &cli.change, reset, &prep);
}

static int prepare_set(const struct sysroot *root, const struct command_args *a,
		       struct change_prep **p)
{
	return prepare_change(root, a, false, p);
}

static int prepare_reset(const struct sysroot *root, const struct command_args *a,
			 struct change_prep **p)
{
	return prepare_change(root, a, true, p);
}

static int run_change(const struct sysroot *root, const struct command_args *a)
{
	return cmd_change(root, &prep, a->common->json);
}

static int prepare_rollback(const struct sysroot *root, const struct command_args *a,
			    struct change_prep **p)
{
	(void)a;
	*p = &prep;
	return rollback_prepare(root, cli.discard, &prep);
}

static int run_rollback(const struct sysroot *root, const struct command_args *a)
{
	return cmd_rollback(root, &prep, a->common->json, cli.discard);
}

static void done(void)
{
	change_prep_free(&prep);
}

/* set and reset differ only in what they prepare. */
#define CHANGE_HANDLERS .run = run_change, .done = done, .dry_run = &cli.dry_run

#define DRY_RUN_HELP \
	"     --dry-run        check all the change needs (access, lock, journal, the\n" \
	"                      --persist file) and print what it would give each zone;\n" \
	"                      write nothing\n"

const struct command set_command = {
	.name = "set", .prepare = prepare_set, CHANGE_HANDLERS,
	.summary = "change batch and/or fraction, verified, or nothing changes",
	.usage = "[--batch N] [--fraction N] [--dry-run] [--persist[-only]] [options]",
	.options = set_options, .options_help =
	"     --batch N        pages moved per refill or drain: 0 (default) or 1 to the\n"
	"                      default batch << CONFIG_PCP_BATCH_SCALE_MAX (2016 with\n"
	"                      4 KiB pages and 5); needs the vm.percpu_pagelist_batch\n"
	"                      kernel patch\n"
	"     --fraction N     high = managed pages / N: 0 (default) or 8 and up\n"
	DRY_RUN_HELP
	"     --persist        also record the settings in /etc/sysctl.d/90-pcpctl.conf\n"
	"     --persist-only   only record them there, for the next boot; the kernel is\n"
	"                      left as it is and need not have the sysctls\n"
	" -J, --json           print the report as JSON\n",
};

const struct command reset_command = {
	.name = "reset", .prepare = prepare_reset, CHANGE_HANDLERS,
	.summary = "put batch and fraction back to the kernel's defaults",
	.usage = "[--dry-run] [--persist[-only]] [options]",
	.options = reset_options, .options_help =
	DRY_RUN_HELP
	"     --persist        also remove the settings from /etc/sysctl.d/90-pcpctl.conf\n"
	"     --persist-only   only remove them there; the kernel is left as it is\n"
	" -J, --json           print the report as JSON\n",
};

const struct command rollback_command = {
	.name = "rollback", .prepare = prepare_rollback, .run = run_rollback, .done = done,
	.summary = "restore what an interrupted set, reset or sweep recorded",
	.usage = "[--discard] [options]",
	.options = rollback_options, .options_help =
	"     --discard        remove a journal that can never be applied (the kernel\n"
	"                      was replaced, or the rollback fails); print what it held\n"
	" -J, --json           print the report as JSON\n",
};
