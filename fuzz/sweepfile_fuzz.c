/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: sweepfile_parse, the reader of sweep JSON that compare
 * and plot trust with files from other machines.  The input is the file's
 * bytes.  A text it takes holds at least one point, each with samples that
 * are finite and not negative, a min and max around its Hmean, a lock share
 * from 0 to 100 if any, a parameter of batch or fraction, and no
 * (tasks, value) pair twice; a text it refuses says why and holds nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "sweepfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweepfile f;
	char why[256] = "";
	int rc = sweepfile_parse((const char *)data, size, &f, why, sizeof(why));

	CHECK(rc == 0 || rc == -EBADMSG || rc == -ENOMEM);
	if (rc) {
		CHECK(rc != -EBADMSG || why[0]);
		CHECK(f.points == NULL && f.npoints == 0 && f.parameter == NULL);
		return 0;
	}
	CHECK(strcmp(f.parameter, "batch") == 0 || strcmp(f.parameter, "fraction") == 0);
	CHECK(f.workload != NULL && f.npoints > 0);
	for (size_t i = 0; i < f.npoints; i++) {
		const struct sweepfile_point *p = &f.points[i];

		CHECK(p->tasks >= 1 && p->value >= 0 && p->nsamples > 0);
		CHECK(isfinite(p->hmean) && p->hmean >= 0);
		CHECK(p->min <= p->hmean && p->hmean <= p->max && isfinite(p->max));
		CHECK(!p->has_lock || (p->lock_pct >= 0 && p->lock_pct <= 100));
		for (size_t s = 0; s < p->nsamples; s++)
			CHECK(isfinite(p->samples[s]) && p->samples[s] >= 0);
		for (size_t j = 0; j < i; j++)
			CHECK(f.points[j].tasks != p->tasks || f.points[j].value != p->value);
	}
	sweepfile_free(&f);
	CHECK(f.points == NULL && f.parameter == NULL);
	return 0;
}
