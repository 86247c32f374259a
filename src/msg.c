/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

static void say(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "pcpctl: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pcp_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void pcp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void pcp_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("note: ", fmt, ap);
	va_end(ap);
}
