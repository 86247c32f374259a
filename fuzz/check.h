/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fuzz targets share: an invariant that fails loudly, as a crash. */
#ifndef PCPCTL_FUZZ_CHECK_H
#define PCPCTL_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
				__LINE__, #cond);                               \
			abort();                                                \
		}                                                               \
	} while (0)

#endif
