/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfile.c - sweep JSON read back with json-c, every field checked
 */
#include "sweepfile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report.h"

static int bad(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static bool get_long(struct json_object *o, const char *key, long min, long max, long *out)
{
	struct json_object *v = member(o, key, json_type_int);
	int64_t x;

	if (!v)
		return false;
	errno = 0;
	x = json_object_get_int64(v);
	/* json-c saturates out-of-range integers and says so in errno */
	if (errno || x < min || x > max)
		return false;
	*out = (long)x;
	return true;
}

/* A throughput: a JSON number, finite and not negative. */
static bool as_rate(struct json_object *v, double *out)
{
	double d;

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	d = json_object_get_double(v);
	if (!isfinite(d) || d < 0)
		return false;
	*out = d;
	return true;
}

static int dup_string(struct json_object *o, const char *key, bool required, char **out,
		      char *why, size_t why_len)
{
	struct json_object *v = member(o, key, json_type_string);

	*out = NULL;
	if (!v)
		return required ? bad(why, why_len, "no \"%s\" string", key) : 0;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

static int read_point(struct json_object *p, size_t i, long tasks, struct sweepfile_point *pt,
		      char *why, size_t why_len)
{
	struct json_object *samples, *hmean, *v;
	size_t n;

	if (!json_object_is_type(p, json_type_object))
		return bad(why, why_len, "point %zu is not an object", i + 1);
	pt->tasks = tasks;
	if (json_object_object_get_ex(p, "tasks", NULL) &&
	    !get_long(p, "tasks", 1, INT_MAX, &pt->tasks))
		return bad(why, why_len, "point %zu: \"tasks\" is not a whole number from 1", i + 1);
	if (!get_long(p, "value", 0, INT_MAX, &pt->value))
		return bad(why, why_len, "point %zu: no \"value\" from 0 to %d", i + 1, INT_MAX);
	if (!json_object_object_get_ex(p, "hmean", &hmean) || !as_rate(hmean, &pt->hmean))
		return bad(why, why_len, "point %zu: no \"hmean\" number of at least 0", i + 1);
	samples = member(p, "samples", json_type_array);
	if (!samples || (n = json_object_array_length(samples)) == 0)
		return bad(why, why_len, "point %zu: no \"samples\" array of numbers", i + 1);
	pt->samples = calloc(n, sizeof(*pt->samples));
	if (!pt->samples)
		return -ENOMEM;
	for (size_t s = 0; s < n; s++)
		if (!as_rate(json_object_array_get_idx(samples, s), &pt->samples[s]))
			return bad(why, why_len, "point %zu: sample %zu is not a number of at least 0",
				   i + 1, s + 1);
	pt->nsamples = n;
	if (stats_mean(pt->samples, n, &pt->mean))
		return bad(why, why_len, "point %zu: the samples have no mean", i + 1);
	if (json_object_object_get_ex(p, "mean", &v) && !as_rate(v, &pt->mean))
		return bad(why, why_len, "point %zu: \"mean\" is not a number of at least 0", i + 1);
	pt->min = pt->max = pt->samples[0];
	for (size_t s = 1; s < n; s++) {
		pt->min = fmin(pt->min, pt->samples[s]);
		pt->max = fmax(pt->max, pt->samples[s]);
	}
	if ((json_object_object_get_ex(p, "min", &v) && !as_rate(v, &pt->min)) ||
	    (json_object_object_get_ex(p, "max", &v) && !as_rate(v, &pt->max)) ||
	    !(pt->min <= pt->hmean && pt->hmean <= pt->max) ||
	    !(pt->min <= pt->mean && pt->mean <= pt->max))
		return bad(why, why_len,
			   "point %zu: \"min\" and \"max\" are not numbers around \"hmean\" and \"mean\"",
			   i + 1);
	if (json_object_object_get_ex(p, "lock_pct", &v) && !json_object_is_type(v, json_type_null)) {
		if (!as_rate(v, &pt->lock_pct) || pt->lock_pct > 100)
			return bad(why, why_len, "point %zu: \"lock_pct\" is not null or a number from 0 to 100",
				   i + 1);
		pt->has_lock = true;
	}
	return 0;
}

/*
 * One verdict of "best" or "best_by_tasks": null, or an object whose
 * "significant" true marks its (tasks, value) point.  A verdict that names
 * no point of the file is an error, not a mark left out.
 */
static int read_best(struct json_object *b, long tasks, struct sweepfile *f, char *why,
		     size_t why_len)
{
	struct json_object *sig;
	long value;

	if (json_object_is_type(b, json_type_null))
		return 0;
	if (!json_object_is_type(b, json_type_object))
		return bad(why, why_len, "a best is neither null nor an object");
	if (json_object_object_get_ex(b, "tasks", NULL) && !get_long(b, "tasks", 1, INT_MAX, &tasks))
		return bad(why, why_len, "a best's \"tasks\" is not a whole number from 1");
	sig = member(b, "significant", json_type_boolean);
	if (!get_long(b, "value", 0, INT_MAX, &value) || !sig)
		return bad(why, why_len, "a best without a \"value\" or a \"significant\" true or false");
	for (size_t i = 0; i < f->npoints; i++)
		if (f->points[i].tasks == tasks && f->points[i].value == value) {
			f->points[i].best = json_object_get_boolean(sig);
			return 0;
		}
	return bad(why, why_len, "the best %s %ld with %ld task%s is none of the points",
		   f->parameter, value, tasks, tasks == 1 ? "" : "s");
}

/* Today's sweeps give a verdict per task count; older ones one "best". */
static int read_bests(struct json_object *root, long tasks, struct sweepfile *f, char *why,
		      size_t why_len)
{
	struct json_object *v;

	if (json_object_object_get_ex(root, "best_by_tasks", &v)) {
		if (!json_object_is_type(v, json_type_array))
			return bad(why, why_len, "\"best_by_tasks\" is not an array");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			int rc = read_best(json_object_array_get_idx(v, i), tasks, f, why, why_len);

			if (rc)
				return rc;
		}
		return 0;
	}
	if (json_object_object_get_ex(root, "best", &v))
		return read_best(v, tasks, f, why, why_len);
	return 0;
}

/* By (tasks, value), and of equals in the file's order. */
static int point_order(const void *a, const void *b)
{
	const struct sweepfile_point *x = *(const struct sweepfile_point *const *)a;
	const struct sweepfile_point *y = *(const struct sweepfile_point *const *)b;

	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x > y) - (x < y);
}

const struct sweepfile_point **sweepfile_sorted(const struct sweepfile *f)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers to points */
	const struct sweepfile_point **by = calloc(f->npoints, sizeof(*by));

	if (!by)
		return NULL;
	for (size_t i = 0; i < f->npoints; i++)
		by[i] = &f->points[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): likewise */
	qsort(by, f->npoints, sizeof(*by), point_order);
	return by;
}

/*
 * Whether two points are one (tasks, value): 1 with *second the earliest
 * point that repeats one before it and *first that one, 0, or -ENOMEM.
 * Sorted, not each against all before it: 40,000 points took seconds.
 */
static int find_twins(const struct sweepfile *f, size_t *first, size_t *second)
{
	const struct sweepfile_point **by = sweepfile_sorted(f);
	bool found = false;

	if (!by)
		return -ENOMEM;
	*first = *second = 0;
	for (size_t i = 1; i < f->npoints; i++) {
		size_t b = (size_t)(by[i] - f->points);

		/* by[i - 1] is the first of its kind only where by[i - 2] differs */
		if (by[i]->tasks != by[i - 1]->tasks || by[i]->value != by[i - 1]->value ||
		    (i >= 2 && by[i - 2]->tasks == by[i]->tasks && by[i - 2]->value == by[i]->value))
			continue;
		if (!found || b < *second) {
			*first = (size_t)(by[i - 1] - f->points);
			*second = b;
			found = true;
		}
	}
	free(by);
	return found;
}

static int read_better(struct json_object *root, struct sweepfile *f, char *why, size_t why_len)
{
	struct json_object *v;

	f->better = BETTER_HIGHER;
	if (!json_object_object_get_ex(root, "better", &v))
		return 0;
	if (json_object_is_type(v, json_type_string) &&
	    strcmp(json_object_get_string(v), "lower") == 0)
		f->better = BETTER_LOWER;
	else if (!json_object_is_type(v, json_type_string) ||
		 strcmp(json_object_get_string(v), "higher") != 0)
		return bad(why, why_len, "\"better\" is neither \"higher\" nor \"lower\"");
	return 0;
}

/* "command": null (page_fault1), or the argv measured, an array of strings. */
static int read_command(struct json_object *root, struct sweepfile *f, char *why,
			size_t why_len)
{
	struct json_object *a = member(root, "command", json_type_array);
	size_t n;

	if (!a)
		return 0;
	n = json_object_array_length(a);
	f->command = calloc(n + 1, sizeof(*f->command));
	if (!f->command)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *arg = json_object_array_get_idx(a, i);

		if (!json_object_is_type(arg, json_type_string))
			return bad(why, why_len, "\"command\" argument %zu is not a string", i + 1);
		f->command[i] = strdup(json_object_get_string(arg));
		if (!f->command[i])
			return -ENOMEM;
	}
	return 0;
}

static int read_file(struct json_object *root, struct sweepfile *f, char *why, size_t why_len)
{
	struct json_object *points, *host, *pin;
	long tasks = 0, version;
	size_t n, first, second;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return bad(why, why_len, "not a JSON object");
	/* Files from before the schema had a version have none: they are version 1. */
	if (json_object_object_get_ex(root, "version", NULL) &&
	    !get_long(root, "version", PCPCTL_JSON_VERSION, PCPCTL_JSON_VERSION, &version))
		return bad(why, why_len, "\"version\" is not %d, the version of sweep JSON this pcpctl reads",
			   PCPCTL_JSON_VERSION);
	if ((rc = dup_string(root, "parameter", true, &f->parameter, why, why_len)) ||
	    (rc = dup_string(root, "workload", true, &f->workload, why, why_len)))
		return rc;
	if (!f->parameter || (strcmp(f->parameter, "batch") != 0 &&
			      strcmp(f->parameter, "fraction") != 0))
		return bad(why, why_len, "\"parameter\" is neither \"batch\" nor \"fraction\"");
	if (!get_long(root, "tasks", 1, INT_MAX, &tasks))
		return bad(why, why_len, "no \"tasks\" whole number from 1");
	if ((rc = dup_string(root, "unit", false, &f->unit, why, why_len)) ||
	    (rc = dup_string(root, "metric", false, &f->metric, why, why_len)) ||
	    (rc = read_better(root, f, why, why_len)) ||
	    (rc = read_command(root, f, why, why_len)))
		return rc;
	if (json_object_object_get_ex(root, "runs", NULL) &&
	    !get_long(root, "runs", 1, INT_MAX, &f->runs))
		return bad(why, why_len, "\"runs\" is not a whole number from 1");
	if (json_object_object_get_ex(root, "duration", &pin) &&
	    !json_object_is_type(pin, json_type_null) &&
	    (!as_rate(pin, &f->duration) || f->duration == 0))
		return bad(why, why_len, "\"duration\" is not a number of seconds above 0");
	if (json_object_object_get_ex(root, "complete", &pin)) {
		if (!json_object_is_type(pin, json_type_boolean))
			return bad(why, why_len, "\"complete\" is not true or false");
		f->cut_short = !json_object_get_boolean(pin);
	}
	pin = member(root, "pinned", json_type_object);
	if (pin) {
		const char *other = strcmp(f->parameter, "batch") == 0 ? "fraction" : "batch";

		if (!get_long(pin, other, 0, INT_MAX, &f->pin))
			return bad(why, why_len, "\"pinned\" has no \"%s\" from 0", other);
		f->pinned = true;
	}
	host = member(root, "host", json_type_object);
	if (host && ((rc = dup_string(host, "name", false, &f->host, why, why_len)) ||
		     (rc = dup_string(host, "kernel", false, &f->kernel, why, why_len))))
		return rc;
	points = member(root, "points", json_type_array);
	if (!points || (n = json_object_array_length(points)) == 0)
		return bad(why, why_len, "no \"points\" array with a point");
	f->points = calloc(n, sizeof(*f->points));
	if (!f->points)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rc = read_point(json_object_array_get_idx(points, i), i, tasks, &f->points[i],
				why, why_len);
		f->npoints = i + 1;
		if (rc)
			return rc;
	}
	if ((rc = find_twins(f, &first, &second)) < 0)
		return rc;
	if (rc)
		return bad(why, why_len, "points %zu and %zu are both %s %ld with %ld tasks",
			   first + 1, second + 1, f->parameter, f->points[second].value,
			   f->points[second].tasks);
	return read_bests(root, tasks, f, why, why_len);
}

double sweepfile_center(const struct sweepfile *f, const struct sweepfile_point *pt)
{
	return f->better == BETTER_LOWER ? pt->mean : pt->hmean;
}

void sweepfile_free(struct sweepfile *f)
{
	for (size_t i = 0; i < f->npoints; i++)
		free(f->points[i].samples);
	free(f->points);
	free(f->parameter);
	free(f->workload);
	free(f->host);
	free(f->kernel);
	free(f->unit);
	free(f->metric);
	for (char **arg = f->command; arg && *arg; arg++)
		free(*arg);
	free(f->command);
	memset(f, 0, sizeof(*f));
}

/*
 * text with every character above U+007F as a \uXXXX escape (a surrogate
 * pair above U+FFFF), so that json-c reads the same document: its strict
 * mode refuses any byte above 0x7F in a string from 0.18 on, such as the
 * UTF-8 of a host or label (Debian 13's json-c).  NULL with *not_utf8 set
 * for text that is not UTF-8; NULL alone when out of memory.
 */
static char *escape_non_ascii(const char *text, size_t len, size_t *out_len, bool *not_utf8)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t cap = 3 * len + 1;	/* 2 bytes -> 6, 3 -> 6, 4 -> 12 */
	char *out = malloc(cap), *o = out;

	*not_utf8 = false;
	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		unsigned int c = s[i], n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		unsigned int cp = c & (0x3fU >> n);
		size_t left = cap - (size_t)(o - out);

		if (c < 0x80) {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (!n || c > 0xf4 || i + n >= len)
			goto not_utf8;
		for (unsigned int k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				goto not_utf8;
			cp = cp << 6 | (s[i + k] & 0x3fU);
		}
		/* overlong forms, surrogates and what is past Unicode are not UTF-8 */
		if (cp < (n == 1 ? 0x80U : n == 2 ? 0x800U : 0x10000U) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			goto not_utf8;
		if (cp >= 0x10000)
			o += snprintf(o, left, "\\u%04x\\u%04x", 0xd800 | (cp - 0x10000) >> 10,
				      0xdc00 | ((cp - 0x10000) & 0x3ff));
		else
			o += snprintf(o, left, "\\u%04x", cp);
		i += n + 1;
	}
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
not_utf8:
	free(out);
	*not_utf8 = true;
	return NULL;
}

int sweepfile_parse(const char *text, size_t len, struct sweepfile *f, char *why, size_t why_len)
{
	struct json_tokener *tok;
	struct json_object *root;
	size_t alen = 0;
	bool not_utf8;
	char *ascii;
	int rc;

	memset(f, 0, sizeof(*f));
	if (len > SWEEPFILE_MAX_BYTES || len > INT_MAX)
		return bad(why, why_len, "larger than %zu bytes", SWEEPFILE_MAX_BYTES);
	ascii = escape_non_ascii(text, len, &alen, &not_utf8);
	if (!ascii)
		return not_utf8 ? bad(why, why_len, "not JSON: not UTF-8") : -ENOMEM;
	tok = alen <= INT_MAX ? json_tokener_new() : NULL;
	if (!tok) {
		free(ascii);
		return alen <= INT_MAX ? -ENOMEM :
		       bad(why, why_len, "larger than %zu bytes", SWEEPFILE_MAX_BYTES);
	}
	/* strict: no comments, no single quotes, nothing json-c forgives */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, ascii, (int)alen);
	if (!root) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		json_tokener_free(tok);
		free(ascii);
		if (e == json_tokener_continue)
			return bad(why, why_len, "the JSON ends early");
		return bad(why, why_len, "not JSON: %s", json_tokener_error_desc(e));
	}
	/* one value and nothing after it but white space */
	for (size_t at = json_tokener_get_parse_end(tok); at < alen; at++)
		if (!strchr(" \t\r\n", ascii[at])) {
			json_object_put(root);
			json_tokener_free(tok);
			free(ascii);
			return bad(why, why_len, "text after the JSON value");
		}
	json_tokener_free(tok);
	free(ascii);
	rc = read_file(root, f, why, why_len);
	json_object_put(root);
	if (rc)
		sweepfile_free(f);
	return rc;
}

int sweepfile_load(const char *path, struct sweepfile *f, char *why, size_t why_len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	memset(f, 0, sizeof(*f));
	if (!in)
		return -errno;
	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			char *more;

			if (cap > SWEEPFILE_MAX_BYTES) {
				if (!is_stdin)
					fclose(in);
				free(text);
				return bad(why, why_len, "larger than %zu bytes", SWEEPFILE_MAX_BYTES);
			}
			cap = cap ? cap * 2 : 65536;
			more = realloc(text, cap);
			if (!more) {
				if (!is_stdin)
					fclose(in);
				free(text);
				return -ENOMEM;
			}
			text = more;
		}
		got = fread(text + len, 1, cap - len, in);
		len += got;
		if (got == 0)
			break;
	}
	rc = ferror(in) ? -EIO : 0;
	if (!is_stdin)
		fclose(in);
	if (!rc)
		rc = sweepfile_parse(text, len, f, why, why_len);
	free(text);
	return rc;
}
