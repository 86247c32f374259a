/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "utf8.h"

/* Deeper than any report nests (sweep: report, points, point, vmstat). */
#define DEPTH_MAX 8

static struct {
	FILE *out;
	bool json;
	bool line;		/* one document on one line (JSON Lines), not pretty-printed */
	int depth;		/* containers open inside the document's object */
	struct {
		bool started;	/* a member is printed in this object or array */
		bool closed;	/* and the last one was an object or array */
	} level[DEPTH_MAX];
} rep;

static void indent(int levels)
{
	for (int i = 0; i < levels; i++)
		fputs("   ", rep.out);
}

static void begin(FILE *out, bool json, bool line, long version)
{
	rep.out = out;
	rep.json = json;
	rep.line = line;
	rep.depth = 0;
	rep.level[0].started = false;
	rep.level[0].closed = false;
	if (!json)
		return;
	fputc('{', out);
	print_long(PRINT_JSON, "version", "%ld", version);
}

/* Close the document's object; the caller flushes. */
static void end(void)
{
	if (rep.json)
		fputs(rep.line ? "}\n" : "\n}\n", rep.out);
	rep.json = false;
}

void new_json_obj(bool json)
{
	begin(stdout, json, false, PCPCTL_JSON_VERSION);
}

int delete_json_obj(void)
{
	end();
	return msg_flush_stdout() ? -EIO : 0;
}

void new_report_line(FILE *out, bool json, long version)
{
	begin(out, json, true, version);
}

void end_report_line(void)
{
	end();
}

bool is_json_context(void)
{
	return rep.json;
}

/*
 * s as a JSON string, quoted and escaped; a byte that starts no UTF-8
 * character (a file name in Latin-1) is U+FFFD, as JSON must be UTF-8.
 */
static void json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', out);
	while (n) {
		char c[UTF8_JSON_MAX];
		size_t used, len = utf8_json_char(p, n, c, &used);

		fwrite(c, 1, len, out);
		p += used;
		n -= used;
	}
	fputc('"', out);
}

/*
 * Whether the call prints in JSON, after the separator and key it needs.
 * Pretty-printed as libsmartcols prints show's tables (and lsblk --json):
 * each member on its own line, three spaces deeper per level, and objects
 * in an array joined as "},{".
 */
static bool json_member(enum output_type t, const char *key)
{
	if (!rep.json || !(t & PRINT_JSON))
		return false;
	if (rep.line) {
		if (rep.level[rep.depth].started)
			fputc(',', rep.out);
	} else if (!key && rep.level[rep.depth].closed) {
		fputc(',', rep.out);
	} else {
		/* The newline after an opening bracket waits for a member: empty is [] or {}. */
		fputs(rep.level[rep.depth].started ? ",\n" : "\n", rep.out);
		indent(rep.depth + 1);
	}
	rep.level[rep.depth].started = true;
	rep.level[rep.depth].closed = false;
	if (key) {
		json_string(rep.out, key);
		fputs(rep.line ? ":" : ": ", rep.out);
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
	fputc(bracket, rep.out);
	if (rep.depth + 1 < DEPTH_MAX) {
		rep.depth++;
		rep.level[rep.depth].started = false;
		rep.level[rep.depth].closed = false;
	}
}

static void close_container(char bracket)
{
	if (!rep.json)
		return;
	if (!rep.line && rep.level[rep.depth].started) {
		fputc('\n', rep.out);
		indent(rep.depth);
	}
	fputc(bracket, rep.out);
	if (rep.depth > 0)
		rep.depth--;
	rep.level[rep.depth].closed = true;
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
	/* Text may be printed before any report began: it goes to stdout then. */
	vfprintf(rep.out ? rep.out : stdout, fmt, ap);
	va_end(ap);
}

void print_string(enum output_type t, const char *key, const char *fmt, const char *value)
{
	if (json_member(t, key))
		json_string(rep.out, value);
	else if (text(t))
		text_out(fmt, value);
}

void print_long(enum output_type t, const char *key, const char *fmt, long value)
{
	if (json_member(t, key))
		fprintf(rep.out, "%ld", value);
	else if (text(t))
		text_out(fmt, value);
}

void print_u64(enum output_type t, const char *key, const char *fmt, unsigned long long value)
{
	if (json_member(t, key))
		fprintf(rep.out, "%llu", value);
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
		fputs(value ? "true" : "false", rep.out);
	else if (text(t))
		text_out(fmt, value ? "true" : "false");
}

void print_null(enum output_type t, const char *key, const char *fmt, const char *text_value)
{
	if (json_member(t, key))
		fputs("null", rep.out);
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

void print_string_or_null(const char *key, const char *s)
{
	if (s)
		print_string(PRINT_JSON, key, "%s", s);
	else
		print_null(PRINT_JSON, key, "%s", NULL);
}
