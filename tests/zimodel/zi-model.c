/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Print the zoneinfo model that the parser builds from each FILE, every
 * number of it, one line per zone and per pageset; or, with --path, which
 * twin of the fast path this build has.  Built twice (the SSE2 path and
 * the portable one) so that tests/zimodel/run can diff the two models.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoneinfo.h"

static int dump(const char *path)
{
	static char buf[1 << 16];
	struct zi_error err = { 0 };
	struct zoneinfo zi;
	struct zi_parser *p = zi_parser_begin(&zi, &err);
	FILE *f = fopen(path, "r");
	size_t n;
	int rc = 0;

	if (!f || !p) {
		perror(path);
		if (f)
			fclose(f);
		return 1;
	}
	/* Small chunks: lines span chunk borders, as in a large live read. */
	while (rc == 0 && (n = fread(buf, 1, 4093, f)) > 0)
		rc = zi_parser_feed(p, buf, n);
	fclose(f);
	rc = zi_parser_finish(p);
	printf("file %s rc %d", path, rc);
	if (rc) {
		printf(" line %zu: %s\n", err.line, err.message);
		return 0;
	}
	printf(" zones %zu pagesets %zu fields %#x\n", zi.nzones, zi.npagesets, zi.pageset_fields);
	for (size_t z = 0; z < zi.nzones; z++) {
		const struct zi_zone *zone = &zi.zones[z];

		printf("node %d zone %s", zone->node, zone->name);
		for (int i = 0; i < ZI_NZONE_FIELDS; i++)
			printf(" %llu", (unsigned long long)zone->field[i]);
		printf(" pagesets %zu\n", zone->npagesets);
		for (size_t c = 0; c < zone->npagesets; c++) {
			const struct zi_pageset *ps = &zone->pagesets[c];

			printf("  cpu %d present %#x", ps->cpu, ps->present);
			for (int i = 0; i < ZI_NFIELDS; i++)
				printf(" %d", ps->value[i]);
			putchar('\n');
		}
	}
	zoneinfo_free(&zi);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc == 2 && strcmp(argv[1], "--path") == 0) {
		puts(zi_fast_path());
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: zi-model --path | FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		rc |= dump(argv[i]);
	return rc;
}
