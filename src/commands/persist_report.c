/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "persist_report.h"

#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "report.h"
#include "status.h"
#include "sysroot.h"

void persist_report_begin(const struct sysroot *root, const struct change_request *req,
			  struct persist_report *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->asked = req->persist != PERSIST_NONE;
	/* What pcpctl may not manage reads as no file here; persist_read says why. */
	pr->has_before = pr->asked && persist_file_text(root, pr->before) == 1;
}

static void warn_override(const struct sysroot *root, bool set, enum pcp_sysctl s,
			  const struct sysctld_line *l)
{
	const char *ours = sysroot_name(root, PATH_PERSIST);
	const char *arrow = l->target ? " -> " : "", *target = l->target ? l->target : "";

	if (!set)
		pcp_warn("%s%s%s sets vm.%s = %s at boot: reset --persist removes only %s's "
			 "settings", l->file, arrow, target, sysctl_name(s), l->value, ours);
	else if (l->value)
		pcp_warn("%s%s%s sets vm.%s = %s and sorts after %s, so it wins at boot; change it "
			 "there", l->file, arrow, target, sysctl_name(s), l->value, ours);
	else
		pcp_warn("%s%s%s excludes vm.%s (-%s) and sorts after %s, so the key is not set "
			 "at boot", l->file, arrow, target, sysctl_name(s), l->key, ours);
}

/* The line in force at boot for s, or NULL. */
static const struct sysctld_line *boot_line(const struct persist_report *pr, enum pcp_sysctl s)
{
	const struct sysctld_key *k = &pr->boot.key[s];

	return k->winner >= 0 ? &k->lines[k->winner] : NULL;
}

/*
 * The keys the change persisted whose line at boot is not 90-pcpctl.conf's
 * (for a reset: any line still setting a key it removed).
 */
static void find_overrides(const struct sysroot *root, const struct change_request *req,
			   const struct change_result *r, struct persist_report *pr)
{
	const char *ours = sysroot_name(root, PATH_PERSIST);

	if (sysctld_read(root, req->dry_run ? &r->persist_to : NULL, &pr->boot)) {
		pcp_warn("cannot tell whether a sysctl.d file overrides %s at boot", ours);
		pr->boot_unknown = true;
		return;
	}
	pr->boot_known = true;
	for (int s = 0; s < NSYSCTLS; s++) {
		const struct sysctld_line *w = boot_line(pr, s);
		bool set = r->persist_to.have[s];

		if (!r->persist_keys[s] || !w || strcmp(w->file, ours) == 0 || (!set && !w->value))
			continue;
		warn_override(root, set, s, w);
		pr->overridden[pr->n++] = s;
	}
}

void persist_report_end(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, bool ok, struct persist_report *pr)
{
	if (!pr->asked)
		return;
	/* A dry run writes nothing: the text it would write, or the one there is. */
	if (req->dry_run && r->persist_planned)
		pr->has_after = persist_text(&r->persist_to, pr->after);
	else
		pr->has_after = persist_file_text(root, pr->after) == 1;
	if (ok && r->persist_planned)
		find_overrides(root, req, r, pr);
}

void print_persist_json(const struct sysroot *root, const struct persist_report *pr)
{
	if (pr->asked) {
		open_json_object("persist");
		print_string(PRINT_JSON, "path", "%s", sysroot_name(root, PATH_PERSIST));
		print_string_or_null("before", pr->has_before ? pr->before : NULL);
		print_string_or_null("after", pr->has_after ? pr->after : NULL);
		close_json_object();
	} else {
		print_null(PRINT_JSON, "persist", "%s", NULL);
	}
	if (pr->boot_unknown) {
		print_null(PRINT_JSON, "boot_overrides", "%s", NULL);
		return;
	}
	open_json_array("boot_overrides");
	for (size_t i = 0; i < pr->n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "vm.%s", sysctl_name(pr->overridden[i]));
		print_sysctld_line(key, boot_line(pr, pr->overridden[i]));
	}
	close_json_array();
}

/* The settings the file holds (or would hold), as " (vm.NAME = VALUE, ...)". */
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

/* A file's text, indented under label, or label and what stands for no file. */
static void print_file_text(const char *label, const char *text, const char *none)
{
	printf("  %s:%s%s\n", label, text ? "" : " ", text ? "" : none);
	for (const char *line = text; line && *line;) {
		size_t len = strcspn(line, "\n");

		printf("    %.*s\n", (int)len, line);
		line += len + (line[len] == '\n');
	}
}

void print_persist_text(const struct sysroot *root, const struct change_request *req,
			const struct change_result *r, const struct persist_report *pr)
{
	const char *path = sysroot_name(root, PATH_PERSIST);
	bool same = pr->has_before == pr->has_after &&
		    (!pr->has_after || strcmp(pr->before, pr->after) == 0);

	if (!pr->asked || !r->persist_planned)
		return;
	if (req->dry_run && same)
		printf("dry run: %s would be left as it is%s\n", path,
		       pr->has_after ? "" : " (there is none)");
	else if (req->dry_run && pr->has_after)
		printf("dry run: %s would be written", path);
	else if (req->dry_run)
		printf("dry run: %s would be removed\n", path);
	else if (r->persisted && pr->has_after)
		printf("persisted in %s", path);
	else if (r->persisted)
		printf("removed %s: no pcp setting is left to persist\n", path);
	else if (r->persist_kept && pr->has_after)
		printf("%s already holds these values; left as it is", path);
	else if (r->persist_kept)
		printf("nothing to persist: there is no %s\n", path);
	else
		return;
	/* The lines above that name a file with settings end with them. */
	if (pr->has_after && !(req->dry_run && same))
		print_holds(&r->persist_to);
	if (req->dry_run) {
		print_file_text("now", pr->has_before ? pr->before : NULL, "no file");
		print_file_text("after the change", pr->has_after ? pr->after : NULL,
				pr->has_before ? "removed" : "no file");
	}
}

void persist_report_free(struct persist_report *pr)
{
	if (pr->boot_known)
		sysctld_free(&pr->boot);
	pr->boot_known = false;
}
