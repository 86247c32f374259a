/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "persist_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "persist.h"
#include "report.h"
#include "status.h"
#include "sysctld.h"
#include "sysroot.h"

/* The file's text as it is, for the report: what pcpctl may not manage reads as none. */
static int file_text(const struct sysroot *root, char **text)
{
	int rc = persist_file_text(root, text);

	if (rc == -ENOMEM) {
		pcp_error("out of memory");
		return rc;
	}
	return 0;
}

int persist_report_begin(const struct sysroot *root, const struct change_request *req,
			 struct persist_report *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->asked = req->persist != PERSIST_NONE;
	return pr->asked ? file_text(root, &pr->before) : 0;
}

/* " -> TARGET" of a line that is a link, else "". */
static const char *arrow(const struct sysctld_line *l, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", l->target ? " -> " : "", l->target ? l->target : "");
	return buf;
}

static void warn_override(const struct sysroot *root, bool set, enum pcp_sysctl s,
			  const struct sysctld_line *l)
{
	const char *ours = sysroot_name(root, PATH_PERSIST);
	char to[4200];

	arrow(l, to, sizeof(to));
	if (!set)
		pcp_warn("%s%s sets vm.%s = %s at boot: reset --persist removes only %s's "
			 "settings", l->file, to, sysctl_name(s), l->value, ours);
	else if (l->value)
		pcp_warn("%s%s sets vm.%s = %s and sorts after %s, so it wins at boot; change it "
			 "there", l->file, to, sysctl_name(s), l->value, ours);
	else
		pcp_warn("%s%s excludes vm.%s (-%s) and sorts after %s, so the key is not set at "
			 "boot", l->file, to, sysctl_name(s), l->key, ours);
}

static int add_override(struct persist_report *pr, enum pcp_sysctl s,
			const struct sysctld_line *l)
{
	struct sysctld_line *lines = realloc(pr->overrides, (pr->n + 1) * sizeof(*lines));
	enum pcp_sysctl *keys;

	if (!lines)
		return -ENOMEM;
	pr->overrides = lines;
	keys = realloc(pr->keys, (pr->n + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	pr->keys = keys;
	lines[pr->n] = (struct sysctld_line){
		.file = strdup(l->file), .target = l->target ? strdup(l->target) : NULL,
		.key = strdup(l->key), .value = l->value ? strdup(l->value) : NULL,
	};
	keys[pr->n++] = s;
	if (!lines[pr->n - 1].file || !lines[pr->n - 1].key || (l->target && !lines[pr->n - 1].target) ||
	    (l->value && !lines[pr->n - 1].value))
		return -ENOMEM;
	return 0;
}

/*
 * The lines in force at boot for the keys the change persisted that are
 * not 90-pcpctl.conf's (for a reset: any line still setting a key it
 * removed).
 */
static int find_overrides(const struct sysroot *root, const struct change_request *req,
			  const struct change_result *r, struct persist_report *pr)
{
	const char *ours = sysroot_name(root, PATH_PERSIST);
	struct sysctld d;
	int rc = sysctld_read(root, req->dry_run ? &r->persist_to : NULL, &d);

	if (rc)
		return rc;
	for (int s = 0; !rc && s < NSYSCTLS; s++) {
		const struct sysctld_key *k = &d.key[s];
		const struct sysctld_line *w = k->winner >= 0 ? &k->lines[k->winner] : NULL;
		bool set = r->persist_to.have[s];

		if (!r->persist_keys[s] || !w || strcmp(w->file, ours) == 0 || (!set && !w->value))
			continue;
		warn_override(root, set, s, w);
		rc = add_override(pr, s, w);
		if (rc)
			pcp_error("out of memory");
	}
	sysctld_free(&d);
	return rc;
}

int persist_report_end(const struct sysroot *root, const struct change_request *req,
		       const struct change_result *r, bool ok, struct persist_report *pr)
{
	int rc;

	if (!pr->asked)
		return 0;
	/* A dry run writes nothing: the text it would write, or the one there is. */
	if (req->dry_run && r->persist_planned) {
		rc = persist_text(&r->persist_to, &pr->after);
		if (rc)
			pcp_error("out of memory");
	} else {
		rc = file_text(root, &pr->after);
	}
	if (rc)
		return rc;
	return ok && r->persist_planned ? find_overrides(root, req, r, pr) : 0;
}

static void print_text_or_null(const char *key, const char *text)
{
	if (text)
		print_string(PRINT_JSON, key, "%s", text);
	else
		print_null(PRINT_JSON, key, "%s", NULL);
}

void print_persist_json(const struct sysroot *root, const struct persist_report *pr)
{
	if (pr->asked) {
		open_json_object("persist");
		print_string(PRINT_JSON, "path", "%s", sysroot_name(root, PATH_PERSIST));
		print_text_or_null("before", pr->before);
		print_text_or_null("after", pr->after);
		close_json_object();
	} else {
		print_null(PRINT_JSON, "persist", "%s", NULL);
	}
	open_json_array("boot_overrides");
	for (size_t i = 0; i < pr->n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "vm.%s", sysctl_name(pr->keys[i]));
		print_sysctld_line(key, &pr->overrides[i]);
	}
	close_json_array();
}

/* The settings the file holds (or would hold), as "vm.NAME = VALUE, ...". */
static void print_holds(const struct persisted *p)
{
	const char *sep = " (";

	for (int s = 0; s < NSYSCTLS; s++)
		if (p->have[s]) {
			printf("%svm.%s = %ld", sep, sysctl_name(s), p->value[s]);
			sep = ", ";
		}
	if (*sep == ',')
		putchar(')');
	putchar('\n');
}

void print_persist_text(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, const struct persist_report *pr)
{
	const char *path = sysroot_name(root, PATH_PERSIST);
	bool same = pr->before && pr->after ? strcmp(pr->before, pr->after) == 0 :
					      pr->before == pr->after;

	if (!pr->asked || !r->persist_planned)
		return;
	if (req->dry_run && same)
		printf("dry run: %s would be left as it is%s\n", path,
		       pr->after ? "" : " (there is none)");
	else if (req->dry_run && pr->after)
		printf("dry run: %s would be written", path);
	else if (req->dry_run)
		printf("dry run: %s would be removed\n", path);
	else if (r->persisted && pr->after)
		printf("persisted in %s", path);
	else if (r->persisted)
		printf("removed %s: no pcp setting is left to persist\n", path);
	else if (r->persist_kept && pr->after)
		printf("%s already holds these values; left as it is", path);
	else if (r->persist_kept)
		printf("nothing to persist: there is no %s\n", path);
	else
		return;
	/* The lines above that name a file with settings end with them. */
	if (pr->after && !(req->dry_run && same))
		print_holds(&r->persist_to);
}

void persist_report_free(struct persist_report *pr)
{
	for (size_t i = 0; i < pr->n; i++) {
		free(pr->overrides[i].file);
		free(pr->overrides[i].target);
		free(pr->overrides[i].key);
		free(pr->overrides[i].value);
	}
	free(pr->overrides);
	free(pr->keys);
	free(pr->before);
	free(pr->after);
	memset(pr, 0, sizeof(*pr));
}
