/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"

/* Deeper than any report nests (sweep: report, points, point, vmstat). */
#define DEPTH_MAX 8

static struct {
	bool json;
	int depth;
	bool started[DEPTH_MAX];	/* a member is printed in the open object or array */
} rep;

void new_json_obj(bool json)
{
	rep.json = json;
	rep.depth = 0;
	rep.started[0] = false;
	if (json)
		putchar('{');
}

int delete_json_obj(void)
{
	if (rep.json)
		fputs("}\n", stdout);
	rep.json = false;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	/* errno of the failed write, such as ENOSPC: "Input/output error" would hide it. */
	pcp_error("cannot write the report to standard output: %s",
		  strerror(errno ? errno : EIO));
	return -EIO;
}

bool is_json_context(void)
{
	return rep.json;
}

void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* Whether the call prints in JSON, after the separator and key it needs. */
static bool json_member(enum output_type t, const char *key)
{
	if (!rep.json || !(t & PRINT_JSON))
		return false;
	if (rep.started[rep.depth])
		putchar(',');
	rep.started[rep.depth] = true;
	if (key) {
		json_string(stdout, key);
		putchar(':');
	}
	return true;
}

static bool text(enum output_type t)
{
	return !rep.json && (t & PRINT_FP);
}

static void open_container(const char *key, char bracket)
{
	if (!json_member(PRINT_JSON, key))
		return;
	putchar(bracket);
	if (rep.depth + 1 < DEPTH_MAX)
		rep.started[++rep.depth] = false;
}

static void close_container(char bracket)
{
	if (!rep.json)
		return;
	putchar(bracket);
	if (rep.depth > 0)
		rep.depth--;
}

void open_json_object(const char *key)
{
	open_container(key, '{');
}

void close_json_object(void)
{
	close_container('}');
}

void open_json_array(const char *key)
{
	open_container(key, '[');
}

void close_json_array(void)
{
	close_container(']');
}

/* fmt comes from the caller, which the format attribute of each print_* checks. */
static void text_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void print_string(enum output_type t, const char *key, const char *fmt, const char *value)
{
	if (json_member(t, key))
		json_string(stdout, value);
	else if (text(t))
		text_out(fmt, value);
}

void print_long(enum output_type t, const char *key, const char *fmt, long value)
{
	if (json_member(t, key))
		printf("%ld", value);
	else if (text(t))
		text_out(fmt, value);
}

void print_u64(enum output_type t, const char *key, const char *fmt, unsigned long long value)
{
	if (json_member(t, key))
		printf("%llu", value);
	else if (text(t))
		text_out(fmt, value);
}

void print_double(enum output_type t, const char *key, const char *fmt, double value)
{
	if (json_member(t, key) || text(t))
		text_out(fmt, value);
}

void print_bool(enum output_type t, const char *key, const char *fmt, bool value)
{
	if (json_member(t, key))
		fputs(value ? "true" : "false", stdout);
	else if (text(t))
		text_out(fmt, value ? "true" : "false");
}

void print_null(enum output_type t, const char *key, const char *fmt, const char *text_value)
{
	if (json_member(t, key))
		fputs("null", stdout);
	else if (text(t))
		text_out(fmt, text_value);
}

void print_double_or_null(const char *key, const char *fmt, bool has, double value)
{
	if (has)
		print_double(PRINT_JSON, key, fmt, value);
	else
		print_null(PRINT_JSON, key, "%s", "");
}

void print_long_or_null(const char *key, const char *fmt, bool has, long value)
{
	if (has)
		print_long(PRINT_JSON, key, fmt, value);
	else
		print_null(PRINT_JSON, key, "%s", "");
}
