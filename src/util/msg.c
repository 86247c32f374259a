/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Few messages reach a report, so a fixed table does: recording must not
 * fail where the message it keeps may be about running out of memory.
 */
#define RECORD_MAX 64

static struct {
	bool on;
	size_t n;
	const char *text[RECORD_MAX];
	bool owned[RECORD_MAX];
} record;

static const char lost[] = "warning: a message is missing here: out of memory";
static const char full[] = "warning: more messages than this list holds; see standard error";

static void keep(const char *prefix, const char *fmt, va_list ap)
{
	char *body = NULL, *text = NULL;

	if (record.n == RECORD_MAX)
		return;
	if (record.n == RECORD_MAX - 1) {
		record.text[record.n++] = full;
		return;
	}
	if (vasprintf(&body, fmt, ap) < 0)
		body = NULL;
	if (body && asprintf(&text, "%s%s", prefix, body) < 0)
		text = NULL;
	free(body);
	record.owned[record.n] = text != NULL;
	record.text[record.n++] = text ? text : lost;
}

/* Errors go to stderr only: a report's "warnings" are what did not stop the command. */
static void print_message(const char *prefix, bool kept, const char *fmt, va_list ap)
{
	if (kept && record.on) {
		va_list copy;

		va_copy(copy, ap);
		keep(prefix, fmt, copy);
		va_end(copy);
	}
	fflush(stdout);
	fprintf(stderr, "pcpctl: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pcp_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_message("", false, fmt, ap);
	va_end(ap);
}

void pcp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_message("warning: ", true, fmt, ap);
	va_end(ap);
}

void pcp_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_message("note: ", true, fmt, ap);
	va_end(ap);
}

void msg_stdout_failed(int err)
{
	pcp_error("cannot write to standard output: %s", strerror(err));
}

int msg_flush_stdout(void)
{
	/* An earlier write that failed left its errno, a failing flush sets its own. */
	int err = errno;

	if (fflush(stdout) != 0)
		err = errno;
	else if (!ferror(stdout))
		return 0;
	/* errno of the failed write, such as ENOSPC: "Input/output error" would hide it. */
	if (!err)
		err = EIO;
	msg_stdout_failed(err);
	return -err;
}

void msg_record(bool on)
{
	for (size_t i = 0; i < record.n; i++)
		if (record.owned[i])
			free((char *)record.text[i]);
	memset(&record, 0, sizeof(record));
	record.on = on;
}

size_t msg_recorded(const char *const **list)
{
	*list = record.text;
	return record.n;
}
