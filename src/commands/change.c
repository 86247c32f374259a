/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "change.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "c.h"
#include "journal.h"
#include "msg.h"
#include "numparse.h"
#include "pcprules.h"
#include "persist_report.h"
#include "report.h"
#include "status.h"
#include "sysroot.h"

static void say_out_of_range(const struct sysroot *root, bool batch, const char *value)
{
	if (batch)
		pcp_error("--batch %s is out of range: give 0 (the kernel's default) or 1..%ld", value,
			  batch_limit(root));
	else
		pcp_error("--fraction %s is out of range: give 0 (the kernel's default) or %d..%d",
			  value, PCP_FRACTION_MIN, INT32_MAX);
}

static int parse_value(const struct sysroot *root, bool batch, const char *text, long *value)
{
	int rc = parse_long(text, LONG_MIN, LONG_MAX, value);

	if (rc == -ERANGE)
		say_out_of_range(root, batch, text);
	else if (rc)
		pcp_error("%s \"%s\" is not a whole number", batch ? "--batch" : "--fraction", text);
	return rc ? EXIT_USAGE : EXIT_OK;
}

int change_value_usage(const struct sysroot *root, bool batch, long value)
{
	char text[24];

	if (batch ? batch_valid(value, batch_limit(root)) : fraction_valid(value))
		return EXIT_OK;
	snprintf(text, sizeof(text), "%ld", value);
	say_out_of_range(root, batch, text);
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
			  "from " PCPCTL_PATCHDIR "/ or change only --fraction");
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

static void print_range(const char *label, int lo, int hi)
{
	print_string(PRINT_FP, NULL, " %s", label);
	print_long(PRINT_FP, NULL, " %ld", lo);
	if (lo != hi)
		print_long(PRINT_FP, NULL, "-%ld", hi);
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
	bool foreign;

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
		} else {
			print_long(PRINT_FP, NULL, "%ld (unchanged)\n", r->before[s]);
		}
	}
	print_expected(r);
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
		print_persist_text(root, req, r, pr);
		puts("dry run: nothing was written");
		return;
	}
	print_zones(r);
	foreign = print_foreign(r);
	if (rc == EXIT_ROLLBACK)
		puts("failed, and so did the rollback: the values above are in force now; fix the "
		     "cause, then run 'pcpctl rollback'");
	else if (foreign && r->rolled_back)
		puts("failed: the old settings were restored and verified, but for the values "
		     "another writer set");
	else if (r->rolled_back)
		puts("failed: the old settings were restored and verified");
	else if (!r->changed)
		printf("unchanged: the kernel already has these settings%s\n",
		       r->verified ? "" : " (but zoneinfo disagrees, see above)");
	else if (r->high_unconfirmed)
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

static int run(const struct sysroot *root, const struct change_request *req, bool json)
{
	struct kernel *k = kernel_open(root);
	struct persist_report pr;
	struct change_result r;
	int rc;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	msg_record(true);
	persist_report_begin(root, req, &pr);
	rc = change_exit(root, apply_change(k, req, &r));
	k->ops->close(k);
	persist_report_end(root, req, &r, rc == EXIT_OK, &pr);
	/* Exits 2-4 wrote nothing and have nothing to report beyond their message. */
	if ((rc == EXIT_OK || rc == EXIT_FAIL || rc == EXIT_ROLLBACK || rc == EXIT_FOREIGN) &&
	    (json || rc != EXIT_FAIL || r.rolled_back)) {
		new_json_obj(json);
		print_report(&r, req, root, rc, &pr);
		if (delete_json_obj() && !rc)
			rc = EXIT_FAIL;
	}
	msg_record(false);
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

int cmd_set(const struct sysroot *root, const struct change_opts *o)
{
	struct change_request req = {
		.dry_run = o->dry_run, .persist_only = o->persist_only,
		.persist = o->persist || o->persist_only ? PERSIST_SET : PERSIST_NONE,
	};
	int rc;

	if ((rc = persist_usage(o)))
		return rc;
	if (!o->batch && !o->fraction) {
		pcp_error("set needs --batch N, --fraction N or both; see pcpctl --help");
		return EXIT_USAGE;
	}
	if (o->batch) {
		req.set_batch = true;
		if ((rc = parse_value(root, true, o->batch, &req.batch)) ||
		    (rc = change_value_usage(root, true, req.batch)))
			return rc;
	}
	if (o->fraction) {
		req.set_fraction = true;
		if ((rc = parse_value(root, false, o->fraction, &req.fraction)) ||
		    (rc = change_value_usage(root, false, req.fraction)))
			return rc;
	}
	return run(root, &req, o->json);
}

int cmd_reset(const struct sysroot *root, const struct change_opts *o)
{
	struct change_request req = {
		.reset = true, .dry_run = o->dry_run, .persist_only = o->persist_only,
		.persist = o->persist || o->persist_only ? PERSIST_REMOVE : PERSIST_NONE,
	};
	int rc = persist_usage(o);

	if (rc)
		return rc;
	if (o->batch || o->fraction) {
		pcp_error("reset takes no --batch or --fraction: it restores both defaults");
		return EXIT_USAGE;
	}
	return run(root, &req, o->json);
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

static int cmd_discard(const struct sysroot *root, bool json)
{
	struct kernel *k = kernel_open(root);
	char why[160];
	struct journal j;
	bool found;
	int rc;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	msg_record(true);
	rc = change_exit(root, apply_discard(k, &j, &found, why, sizeof(why)));
	k->ops->close(k);
	if (!rc) {
		new_json_obj(json);
		print_discarded(root, &j, found, why);
		rc = delete_json_obj() ? EXIT_FAIL : EXIT_OK;
	}
	msg_record(false);
	return rc;
}

int cmd_rollback(const struct sysroot *root, bool json, bool discard)
{
	struct kernel *k;
	struct change_result r;
	int rc;

	if (discard)
		return cmd_discard(root, json);
	k = kernel_open(root);
	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	msg_record(true);
	rc = change_exit(root, apply_rollback(k, &r));
	k->ops->close(k);
	if (json && (rc == EXIT_OK || rc == EXIT_ROLLBACK || rc == EXIT_FOREIGN)) {
		new_json_obj(true);
		print_report(&r, NULL, root, rc, NULL);
		if (delete_json_obj() && !rc)
			rc = EXIT_FAIL;
	} else if (rc == EXIT_OK && !r.rolled_back)
		puts("nothing to roll back: no interrupted change was recorded");
	else if (rc == EXIT_OK || rc == EXIT_FOREIGN) {
		for (size_t i = 0; i < r.nwrites; i++)
			if (!r.foreign[r.writes[i].sysctl])
				printf("restored vm.%s = %ld (was %ld)\n",
				       sysctl_name(r.writes[i].sysctl), r.writes[i].from,
				       r.writes[i].to);
		print_foreign(&r);
		if (r.persisted)
			printf("restored %s as it was before the change\n", sysroot_name(root, PATH_PERSIST));
	}
	msg_record(false);
	apply_result_free(&r);
	return rc;
}
