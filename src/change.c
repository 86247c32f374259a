#include "change.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "json.h"
#include "msg.h"
#include "numparse.h"
#include "sysroot.h"

static int parse_value(const char *option, const char *text, long *value)
{
	int rc = parse_long(text, LONG_MIN, LONG_MAX, value);

	if (rc == -ERANGE)
		pcp_error("%s \"%s\" is out of range", option, text);
	else if (rc)
		pcp_error("%s \"%s\" is not a whole number", option, text);
	return rc ? EXIT_USAGE : EXIT_OK;
}

static void print_settings_json(const char *key, const struct change_result *r, const long *v)
{
	printf("\"%s\":{", key);
	for (int s = 0; s < NSYSCTLS; s++) {
		printf("%s\"%s\":", s ? "," : "", sysctl_name(s));
		json_optional_long(stdout, r->have[s], v[s]);
	}
	putchar('}');
}

static void print_json(const struct change_result *r, bool dry_run)
{
	printf("{\"changed\":%s,\"dry_run\":%s,", r->changed ? "true" : "false",
	       dry_run ? "true" : "false");
	print_settings_json("before", r, r->before);
	putchar(',');
	print_settings_json("after", r, r->after);
	printf(",\"verified\":%s,\"rolled_back\":%s,\"persisted\":%s}\n",
	       r->verified ? "true" : "false", r->rolled_back ? "true" : "false",
	       r->persisted ? "true" : "false");
}

static void print_range(const char *label, int lo, int hi)
{
	if (lo == hi)
		printf(" %s %d", label, lo);
	else
		printf(" %s %d-%d", label, lo, hi);
}

/* One line per populated zone: each field's range before and, when changed, after. */
static void print_zones(const struct change_result *r)
{
	static const enum zi_field fields[] = { ZI_BATCH, ZI_HIGH, ZI_HIGH_MIN, ZI_HIGH_MAX };
	const struct zoneinfo *b = &r->zi_before, *a = &r->zi_after;

	for (size_t i = 0; i < b->nzones; i++) {
		const struct zi_zone *zb = &b->zones[i];
		const struct zi_zone *za = i < a->nzones ? &a->zones[i] : NULL;

		if (!zb->npagesets)
			continue;
		printf("  node %d zone %-7s", zb->node, zb->name);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			int blo, bhi, alo, ahi;

			if (!(b->pageset_fields & (1u << fields[f])))
				continue;
			zi_zone_range(zb, fields[f], &blo, &bhi);
			print_range(zi_field_name(fields[f]), blo, bhi);
			if (za && za->npagesets) {
				zi_zone_range(za, fields[f], &alo, &ahi);
				if (alo != blo || ahi != bhi)
					print_range("->", alo, ahi);
			}
			putchar(';');
		}
		putchar('\n');
	}
}

static void print_human(const struct change_result *r, bool dry_run, const char *root)
{
	for (int s = 0; s < NSYSCTLS; s++) {
		char label[48];

		if (!r->have[s])
			continue;
		snprintf(label, sizeof(label), "vm.%s:", sysctl_name(s));
		if (r->after[s] != r->before[s])
			printf("%-35s %ld -> %ld%s\n", label, r->before[s], r->after[s],
			       dry_run ? " (dry run: not written)" : "");
		else
			printf("%-35s %ld (unchanged)\n", label, r->before[s]);
	}
	if (dry_run) {
		puts("expected per zone (now -> after the change):");
		print_zones(r);
		puts("dry run: nothing was written");
		return;
	}
	print_zones(r);
	if (r->rolled_back)
		puts("failed: the old settings were restored and verified");
	else if (!r->changed)
		printf("unchanged: the kernel already has these settings%s\n",
		       r->verified ? "" : " (but zoneinfo disagrees, see above)");
	else
		puts("changed and verified in zoneinfo");
	if (r->high_unconfirmed && !r->rolled_back)
		puts("note: this kernel (6.7-6.12) sets high lazily and prints no high_min/high_max, "
		     "so zoneinfo cannot confirm a fraction; the sysctl reads back as set");
	if (r->persisted)
		printf("persisted in %s%s\n", root, PATH_PERSIST);
}

static int run(const char *root, const struct change_request *req, bool json)
{
	struct kernel *k = kernel_open(root);
	struct change_result r;
	int rc;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = change_apply(k, req, &r);
	k->ops->close(k);
	/* Exits 2-4 wrote nothing and have nothing to report beyond their message. */
	if (rc == EXIT_OK || rc == EXIT_FAIL || rc == EXIT_ROLLBACK) {
		if (json)
			print_json(&r, req->dry_run);
		else if (rc != EXIT_FAIL || r.rolled_back)
			print_human(&r, req->dry_run, root);
	}
	change_result_free(&r);
	return rc;
}

int cmd_set(const char *root, const struct change_opts *o)
{
	struct change_request req = {
		.dry_run = o->dry_run, .persist = o->persist ? PERSIST_SET : PERSIST_NONE,
	};
	int rc;

	if (!o->batch && !o->fraction) {
		pcp_error("set needs --batch N, --fraction N or both; see pcpctl --help");
		return EXIT_USAGE;
	}
	if (o->batch) {
		req.set_batch = true;
		if ((rc = parse_value("--batch", o->batch, &req.batch)) ||
		    (rc = validate_batch(req.batch, batch_limit(root))))
			return rc;
	}
	if (o->fraction) {
		req.set_fraction = true;
		if ((rc = parse_value("--fraction", o->fraction, &req.fraction)) ||
		    (rc = validate_fraction(req.fraction)))
			return rc;
	}
	return run(root, &req, o->json);
}

int cmd_reset(const char *root, const struct change_opts *o)
{
	struct change_request req = {
		.reset = true, .dry_run = o->dry_run,
		.persist = o->persist ? PERSIST_REMOVE : PERSIST_NONE,
	};

	if (o->batch || o->fraction) {
		pcp_error("reset takes no --batch or --fraction: it restores both defaults");
		return EXIT_USAGE;
	}
	return run(root, &req, o->json);
}

int cmd_rollback(const char *root, bool json)
{
	struct kernel *k = kernel_open(root);
	struct change_result r;
	int rc;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	rc = change_rollback(k, &r);
	k->ops->close(k);
	if (json && (rc == EXIT_OK || rc == EXIT_ROLLBACK))
		print_json(&r, false);
	else if (rc == EXIT_OK && !r.rolled_back)
		puts("nothing to roll back: no interrupted change was recorded");
	else if (rc == EXIT_OK) {
		for (size_t i = 0; i < r.nwrites; i++)
			printf("restored vm.%s = %ld (was %ld)\n", sysctl_name(r.writes[i].sysctl),
			       r.writes[i].from, r.writes[i].to);
		if (r.persisted)
			printf("restored %s%s as it was before the change\n", root, PATH_PERSIST);
	}
	change_result_free(&r);
	return rc;
}
