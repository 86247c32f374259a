/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One header, HEADER ("kernel.h" or <popt.h>), included by a file compiled
 * as a file of one part: tests/layering/CMakeLists.txt expects it to compile
 * or to fail for want of that header.
 */
#include HEADER

int layering_included;
