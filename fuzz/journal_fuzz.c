/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the journal parser, the gate between a file in
 * /run/pcpctl and sysctl writes.  The first byte's low bit says whether to
 * seal the rest with its checksum line (without it, mutations would almost
 * never get past the checksum to the lines); the rest is the journal text.
 * A journal that parses must hold what pcpctl could have written, and read
 * the same after being written again.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "journal.h"

static void check_journal(const struct journal *j)
{
	CHECK(j->n >= 1 && j->n <= NSYSCTLS);
	for (size_t i = 0; i < j->n; i++) {
		CHECK((int)j->sysctl[i] >= 0 && (int)j->sysctl[i] < NSYSCTLS);
		CHECK(j->old[i] >= 0 && j->old[i] <= INT_MAX);
		CHECK(!j->have_wrote || (j->wrote[i] >= 0 && j->wrote[i] <= INT_MAX));
		for (size_t k = 0; k < i; k++)
			CHECK(j->sysctl[k] != j->sysctl[i]);
	}
	CHECK(j->nzones <= JOURNAL_ZONES_MAX);
	for (size_t i = 0; i < j->nzones; i++) {
		const struct journal_zone *z = &j->zones[i];

		CHECK(z->node >= 0 && z->batch >= 0 && z->high >= -1);
		CHECK(z->name[0] && strlen(z->name) < sizeof(z->name));
		CHECK((z->high_min < 0) == (z->high_max < 0));
		CHECK(z->have_inputs || (!z->managed && !z->low && !z->cpus));
	}
	for (int s = 0; s < NSYSCTLS; s++) {
		CHECK(!j->persisted.have[s] || j->persist);
		CHECK(!j->persisted.have[s] ||
		      (j->persisted.value[s] >= 0 && j->persisted.value[s] <= INT_MAX));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[2 * JOURNAL_MAX], again[JOURNAL_MAX + 1], why[160] = "";
	/* A journal holds JOURNAL_ZONES_MAX zones: too large for the stack of a fuzzer. */
	static struct journal j, back;
	size_t len;
	int rc;

	if (size < 1 || size - 1 > JOURNAL_MAX + 1)
		return 0;
	len = size - 1;
	memcpy(text, data + 1, len);
	if (data[0] & 1)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "sum %016llx\n",
					(unsigned long long)journal_checksum(text, len));
	text[len] = '\0';

	rc = journal_parse(text, len, &j, why, sizeof(why));
	CHECK(rc == 0 || rc == -EBADMSG);
	if (rc) {
		CHECK(why[0] != '\0');
		return 0;
	}
	check_journal(&j);
	len = journal_format(&j, again, sizeof(again));
	CHECK(len > 0 && len <= JOURNAL_MAX);
	CHECK(journal_parse(again, len, &back, why, sizeof(why)) == 0);
	CHECK(back.n == j.n && back.persist == j.persist &&
	      persist_same(&back.persisted, &j.persisted) && back.have_wrote == j.have_wrote &&
	      back.committed == j.committed && back.nzones == j.nzones);
	for (size_t i = 0; i < j.nzones; i++)
		CHECK(memcmp(&back.zones[i], &j.zones[i], sizeof(j.zones[i])) == 0);
	for (size_t i = 0; i < j.n; i++)
		CHECK(back.sysctl[i] == j.sysctl[i] && back.old[i] == j.old[i] &&
		      (!j.have_wrote || back.wrote[i] == j.wrote[i]));
	return 0;
}
