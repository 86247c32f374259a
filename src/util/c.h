/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers every file may use, as util-linux keeps them in include/c.h.
 */
#ifndef PCPCTL_C_H
#define PCPCTL_C_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
