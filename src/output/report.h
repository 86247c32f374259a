/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report writer of status, set, reset, rollback, sweep, compare and
 * show --interval --json, in the style of iproute2's json_print: one call
 * per field, print_*(PRINT_ANY, key, fmt, value), prints "key":value in a
 * JSON report and fmt with the value in text; PRINT_FP and PRINT_JSON limit
 * a call to one of the two.
 * A JSON report is one object, its keys in call order after "version",
 * pretty-printed as show's tables are (output.h), or for JSON Lines on one
 * line.
 */
#ifndef PCPCTL_REPORT_H
#define PCPCTL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

enum output_type {
	PRINT_FP = 1,		/* text only */
	PRINT_JSON = 2,		/* JSON only */
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

/*
 * The top-level "version" of every JSON document pcpctl prints: raised when
 * a key is removed or changes its meaning, not when one is added.
 */
#define PCPCTL_JSON_VERSION 1

/* Start a report on stdout, JSON or text; end it (and flush): 0 or -EIO. */
void new_json_obj(bool json);
int delete_json_obj(void);
/* One JSON document on one line of out; ended without a flush, which is the caller's. */
void new_json_line(FILE *out);
void end_json_line(void);
bool is_json_context(void);

/* JSON only: a member (key) or, inside an array, an element (NULL) that holds more. */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type t, const char *key, const char *fmt, const char *value)
	__attribute__((format(printf, 3, 0)));
void print_long(enum output_type t, const char *key, const char *fmt, long value)
	__attribute__((format(printf, 3, 0)));
void print_u64(enum output_type t, const char *key, const char *fmt, unsigned long long value)
	__attribute__((format(printf, 3, 0)));
/* fmt formats the number in JSON too (its precision: "%.3f"). */
void print_double(enum output_type t, const char *key, const char *fmt, double value)
	__attribute__((format(printf, 3, 0)));
/* true or false in JSON; in text, fmt gets "true" or "false". */
void print_bool(enum output_type t, const char *key, const char *fmt, bool value)
	__attribute__((format(printf, 3, 0)));
/* null in JSON; in text, fmt gets the text that stands for no value. */
void print_null(enum output_type t, const char *key, const char *fmt, const char *text)
	__attribute__((format(printf, 3, 0)));

/* JSON only: the value when there is one, else null. */
void print_double_or_null(const char *key, const char *fmt, bool has, double value)
	__attribute__((format(printf, 2, 0)));
void print_long_or_null(const char *key, const char *fmt, bool has, long value)
	__attribute__((format(printf, 2, 0)));
/* JSON only: s, or null without one. */
void print_string_or_null(const char *key, const char *s);

#endif
