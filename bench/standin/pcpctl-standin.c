/*
 * A stand-in for pcpctl's read-only commands, used to develop bench/run
 * before the real binary existed.  It links the project's own parser
 * (src/zoneinfo.c, src/sysroot.c) and prints plain stdio output, so its
 * timings show roughly what parsing costs, not what libsmartcols costs.
 *
 *   cc -O2 -std=c11 -Isrc bench/standin/pcpctl-standin.c src/zoneinfo.c \
 *      src/sysroot.c -o /tmp/pcpctl-standin
 *
 * Usage: pcpctl-standin [--sysroot DIR] show [--json|--summary] | status
 */
#include "sysroot.h"
#include "zoneinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int load(const char *root, struct zoneinfo *zi)
{
	struct zi_error err = { 0 };
	char *path = sysroot_path(root, PATH_ZONEINFO), *text;
	size_t len;
	int rc = read_whole_file(path, &text, &len);

	if (rc) {
		fprintf(stderr, "pcpctl-standin: %s: %s\n", path, strerror(-rc));
		exit(1);
	}
	rc = zoneinfo_parse(text, len, zi, &err);
	if (rc) {
		fprintf(stderr, "pcpctl-standin: %s:%zu: %s\n", path, err.line, err.message);
		exit(1);
	}
	free(text);
	free(path);
	return 0;
}

static void show(const struct zoneinfo *zi, int json, int summary)
{
	size_t z, i;
	int f;

	if (json)
		fputs("{\"pagesets\":[", stdout);
	else if (!summary)
		puts("NODE ZONE       CPU   COUNT    HIGH  BATCH HIGH_MIN HIGH_MAX");
	else
		puts("NODE ZONE       CPUS    COUNT_SUM  HIGH_MIN..MAX   BATCH");
	for (z = 0; z < zi->nzones; z++) {
		const struct zi_zone *zn = &zi->zones[z];
		long long sum = 0;
		int lo = 0, hi = 0;

		for (i = 0; i < zn->npagesets; i++) {
			const struct zi_pageset *ps = &zn->pagesets[i];

			if (json) {
				printf("%s{\"node\":%d,\"zone\":\"%s\",\"cpu\":%d",
				       z || i ? "," : "", zn->node, zn->name, ps->cpu);
				for (f = 0; f < ZI_NFIELDS; f++)
					if (zi_has(ps, f))
						printf(",\"%s\":%d", zi_field_name(f), ps->value[f]);
				putchar('}');
			} else if (!summary) {
				printf("%4d %-8s %5d %7d %7d %6d %8d %8d\n", zn->node, zn->name,
				       ps->cpu, ps->value[ZI_COUNT], ps->value[ZI_HIGH],
				       ps->value[ZI_BATCH], ps->value[ZI_HIGH_MIN],
				       ps->value[ZI_HIGH_MAX]);
			}
			sum += ps->value[ZI_COUNT];
			if (!i || ps->value[ZI_HIGH] < lo)
				lo = ps->value[ZI_HIGH];
			if (!i || ps->value[ZI_HIGH] > hi)
				hi = ps->value[ZI_HIGH];
		}
		if (summary && zn->npagesets)
			printf("%4d %-8s %5zu %12lld %7d..%-7d %5d\n", zn->node, zn->name,
			       zn->npagesets, sum, lo, hi, zn->pagesets[0].value[ZI_BATCH]);
	}
	if (json)
		puts("]}");
}

int main(int argc, char **argv)
{
	const char *root = "";
	struct zoneinfo zi;
	int a = 1, json = 0, summary = 0;

	if (a + 1 < argc && !strcmp(argv[a], "--sysroot")) {
		root = argv[a + 1];
		a += 2;
	}
	if (a >= argc) {
		fputs("usage: pcpctl-standin [--sysroot DIR] show [--json|--summary] | status\n", stderr);
		return 2;
	}
	for (int k = a + 1; k < argc; k++) {
		json |= !strcmp(argv[k], "--json");
		summary |= !strcmp(argv[k], "--summary");
	}
	load(root, &zi);
	if (!strcmp(argv[a], "show")) {
		show(&zi, json, summary);
	} else if (!strcmp(argv[a], "status")) {
		printf("zones %zu pagesets %zu\n", zi.nzones, zi.npagesets);
	} else {
		return 2;
	}
	zoneinfo_free(&zi);
	return 0;
}
