/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the JSON writers (the report writer's strings and the
 * streaming table, each cell escaped when one needs it) fed any bytes,
 * Latin-1 and broken UTF-8 alike.  The input, split at NULs, is the strings: each
 * is a report member's value and a table's cell.  Every document must be
 * taken by json-c's strict tokenizer validating UTF-8.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <libsmartcols.h>

#include "check.h"
#include "output.h"
#include "report.h"

static const struct coldesc cols[] = {
	{ "NODE", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "", 0 },
	{ "TEXT", 0, 0, SCOLS_JSON_STRING, "", 0 },
};

static void check_json(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;

	CHECK(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	obj = json_tokener_parse_ex(tok, text, (int)len);
	if (!obj)
		fprintf(stderr, "%s: %.*s\n",
			json_tokener_error_desc(json_tokener_get_error(tok)), (int)len, text);
	CHECK(obj);
	json_object_put(obj);
	json_tokener_free(tok);
}

static char *render(const struct rows *r, size_t *len)
{
	struct colsel sel = { (size_t[]){ 0, 1 }, 2 };
	struct out_opts o = { .format = OUT_JSON };
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	CHECK(f);
	CHECK(print_rows_stream(f, cols, &sel, &o, "things", r) == 0);
	CHECK(fclose(f) == 0);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = malloc(size + 1), *report = NULL, *stream;
	size_t report_len = 0, stream_len;
	FILE *f = open_memstream(&report, &report_len);
	struct rows r;
	long i = 0;

	CHECK(input && f);
	memcpy(input, data, size);
	input[size] = '\0';
	rows_init(&r, 2);
	new_report_line(f, true, 1);
	open_json_array("strings");
	for (char *s = input; s <= input + size; s += strlen(s) + 1, i++) {
		print_string(PRINT_JSON, NULL, "%s", s);
		/* rows_add refuses a longer cell: nothing to write. */
		if (strlen(s) > ROWS_CELL_MAX)
			continue;
		CHECK(rows_add_int(&r, i) == 0);
		CHECK(rows_add(&r, s) == 0);
		CHECK(rows_end(&r) == 0);
	}
	close_json_array();
	end_report_line();
	CHECK(fclose(f) == 0);
	check_json(report, report_len);

	stream = render(&r, &stream_len);
	check_json(stream, stream_len);
	free(stream);
	free(report);
	rows_free(&r);
	free(input);
	return 0;
}
