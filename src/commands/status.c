/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "command.h"
#include "journal.h"
#include "kernel.h"
#include "msg.h"
#include "pcprules.h"
#include "report.h"
#include "sysctld.h"
#include "sysroot.h"
#include "tuned.h"
#include "zoneinfo.h"

#ifndef PCPCTL_SOURCE_PATCHDIR
#define PCPCTL_SOURCE_PATCHDIR ""
#endif

const char *patch_dir(void)
{
	static const char source[] = PCPCTL_SOURCE_PATCHDIR;
	struct stat st;

	/* stat("") fails: a build without the source's folder names the installed one */
	if (stat(PCPCTL_PATCHDIR, &st) == 0 || stat(source, &st) < 0)
		return PCPCTL_PATCHDIR;
	return source;
}

/*
 * Why a sysctl is missing, for the human-readable status: what the release
 * says this kernel should have (era; -1 when the release says nothing).
 */
static void print_missing(enum pcp_sysctl s, int era)
{
	bool before_5_14 = era >= 0 && pcp_era_fraction_sets_batch(era);

	if (s == SYSCTL_BATCH)
		print_string(PRINT_FP, NULL, "not available: needs the kernel patch in %s/\n",
			     patch_dir());
	else if (era < 0)
		print_string(PRINT_FP, NULL, "%s\n", s == SYSCTL_HIGH_FRACTION ?
			     "not available: added in Linux 5.14" :
			     "not available: removed in Linux 5.14");
	else if ((s == SYSCTL_HIGH_FRACTION) != before_5_14)
		/* the file is gone where the release says it should be */
		print_string(PRINT_FP, NULL, "missing, though kernels %s have it\n",
			     before_5_14 ? "before 5.14" : "from 5.14 on");
	else
		print_string(PRINT_FP, NULL, "not available: %s in Linux 5.14\n",
			     s == SYSCTL_HIGH_FRACTION ? "added" : "removed");
}

void print_settings(const char *key, const bool *have, const long *value)
{
	open_json_object(key);
	for (int s = 0; s < NSYSCTLS; s++) {
		if (have[s])
			print_long(PRINT_JSON, sysctl_name(s), "%ld", value[s]);
		else
			print_null(PRINT_JSON, sysctl_name(s), "%s", "");
	}
	close_json_object();
}

void print_sysctl_label(const char *name)
{
	char label[48];

	if (name)
		snprintf(label, sizeof(label), "vm.%s:", name);
	print_string(PRINT_FP, NULL, "%-35s ", name ? label : "kernel:");
}

void print_sysctld_line(const char *key, const struct sysctld_line *l)
{
	open_json_object(NULL);
	print_string(PRINT_JSON, "key", "%s", key);
	print_string(PRINT_JSON, "file", "%s", l->file);
	print_string_or_null("target", l->target);
	print_string_or_null("value", l->value);
	close_json_object();
}

void print_sysctld_where(const struct sysctld_line *l, bool from)
{
	print_string(PRINT_FP, NULL, "%s", l->value ? l->value : "excluded");
	if (from)
		print_string(PRINT_FP, NULL, ", from %s", l->file);
	else
		print_string(PRINT_FP, NULL, " in %s", l->file);
	if (l->target)
		print_string(PRINT_FP, NULL, " -> %s", l->target);
	if (l->glob || !l->value)
		print_string(PRINT_FP, NULL, " (%s)", l->key);
}

/* What the sysctl.d files set for s at boot: which line wins, and every line that sets it. */
static void print_boot(const struct sysctld_key *k, const char *name, bool have)
{
	const struct sysctld_line *w = k->winner >= 0 ? &k->lines[k->winner] : NULL;

	if (!k->n || !k->lines) {
		print_null(PRINT_JSON, name, "%s", NULL);
		/* a sysctl this kernel lacks has no default either: nothing to say */
		if (have)
			print_string(PRINT_FP, NULL, "%-35s not set in sysctl.d (the kernel's default)\n",
				     "  at boot:");
		return;
	}
	print_string(PRINT_FP, NULL, "%-35s ", "  at boot:");
	open_json_object(name);
	print_string_or_null("value", w ? w->value : NULL);
	print_string_or_null("file", w ? w->file : NULL);
	print_string_or_null("target", w ? w->target : NULL);
	if (w && w->value) {
		print_sysctld_where(w, true);
		print_string(PRINT_FP, NULL, "%s\n", have ? "" : "; this kernel lacks the sysctl");
	} else if (w) {
		print_string(PRINT_FP, NULL, "not set (the kernel's default): %s excludes it\n",
			     w->file);
	} else {
		print_string(PRINT_FP, NULL, "%s\n", "not set in sysctl.d (the kernel's default)");
	}
	open_json_array("holders");
	for (size_t i = 0; i < k->n; i++) {
		print_sysctld_line(k->lines[i].key, &k->lines[i]);
		if ((long)i == k->winner)
			continue;
		print_string(PRINT_FP, NULL, "%-35s ", "  overridden:");
		print_sysctld_where(&k->lines[i], false);
		print_string(PRINT_FP, NULL, "%s", "\n");
	}
	close_json_array();
	close_json_object();
}

/*
 * Each populated zone's managed pages: the limits scale with them, and
 * memory hotplug or a balloon moves them while the system runs.  Nothing
 * where zoneinfo cannot be read (null in JSON): the settings still are.
 */
static void print_managed(const struct zoneinfo *zi, bool have)
{
	if (!have) {
		print_null(PRINT_JSON, "zones", "%s", NULL);
		return;
	}
	open_json_array("zones");
	for (size_t i = 0; i < zi->nzones; i++) {
		const struct zi_zone *z = &zi->zones[i];
		char label[48];

		if (!z->npagesets)
			continue;
		open_json_object(NULL);
		snprintf(label, sizeof(label), "node %d zone %s managed pages:", z->node, z->name);
		print_string(PRINT_FP, NULL, "%-35s ", label);
		print_long(PRINT_JSON, "node", "%ld", z->node);
		print_string(PRINT_JSON, "zone", "%s", z->name);
		print_u64(PRINT_ANY, "managed", "%llu\n", (unsigned long long)z->field[ZI_MANAGED]);
		close_json_object();
	}
	close_json_array();
}

/*
 * Whether tuned would undo a change that is not persisted: with
 * reapply_sysctl it applies the sysctl.d files again at each profile
 * switch.  null in JSON where tuned is not installed or cannot be read.
 */
static void print_tuned(const struct sysroot *root)
{
	struct tuned t;
	int rc = tuned_read(root, &t);

	if (rc < 0)
		pcp_warn("cannot read %s: %s", sysroot_name(root, PATH_TUNED_MAIN_CONF),
			 strerror(-rc));
	if (rc < 0 || !t.installed) {
		print_null(PRINT_JSON, "tuned", "%s", NULL);
		return;
	}
	open_json_object("tuned");
	print_bool(PRINT_JSON, "reapply_sysctl", "%s", t.reapply_sysctl);
	close_json_object();
	print_string(PRINT_FP, NULL, "%-35s ", "tuned:");
	print_string(PRINT_FP, NULL, "%s\n", t.reapply_sysctl ?
		     "re-applies sysctl.d at each profile switch (reapply_sysctl): "
		     "a set without --persist is undone then" :
		     "installed, does not re-apply sysctl.d (reapply_sysctl = 0)");
}

static int cmd_status(const struct sysroot *root, bool json)
{
	struct zoneinfo zi = { .nzones = 0 };
	bool have_zi;
	struct sysctld boot;
	struct kernel *k = kernel_open(root);
	long value[NSYSCTLS];
	bool have[NSYSCTLS];
	enum pcp_era era;
	bool known;
	char *release;
	int rc = EXIT_OK;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	release = kernel_release(k);
	if (!release) {
		pcp_error("cannot read the kernel release from %s: %s",
			  sysroot_name(root, PATH_OSRELEASE), strerror(errno));
		k->ops->close(k);
		return EXIT_FAIL;
	}
	if (kernel_read_settings(k, have, value))
		rc = EXIT_FAIL;
	have_zi = !rc && kernel_load_zoneinfo(k, &zi) == 0;
	k->ops->close(k);
	if (!rc && sysctld_read(root, NULL, &boot))
		rc = EXIT_FAIL;
	if (rc) {
		zoneinfo_free(&zi);
		free(release);
		return rc;
	}

	new_json_obj(json);
	print_sysctl_label(NULL);
	print_string(PRINT_ANY, "kernel", "%s\n", release);
	print_settings("settings", have, value);
	known = pcp_era_of_release(release, &era) == 0;
	for (int s = 0; s < NSYSCTLS; s++) {
		print_sysctl_label(sysctl_name(s));
		if (!have[s])
			print_missing(s, known ? (int)era : -1);
		else
			print_long(PRINT_FP, NULL, value[s] ? "%ld\n" : "%ld (kernel default)\n",
				   value[s]);
		/* In JSON, "boot" follows "settings" as an object of its own. */
		if (!is_json_context())
			print_boot(&boot.key[s], sysctl_name(s), have[s]);
	}
	open_json_object("boot");
	for (int s = 0; s < NSYSCTLS && is_json_context(); s++)
		print_boot(&boot.key[s], sysctl_name(s), have[s]);
	close_json_object();
	print_tuned(root);
	print_managed(&zi, have_zi);
	zoneinfo_free(&zi);
	sysctld_free(&boot);
	free(release);
	return delete_json_obj() ? EXIT_FAIL : EXIT_OK;
}

static const struct poptOption status_options[] = { POPT_TABLEEND };

static int run(const struct sysroot *root, const struct command_args *a)
{
	journal_warn_leftover(root);
	return cmd_status(root, a->common->json);
}

const struct command status_command = {
	.name = "status", .run = run,
	.summary = "kernel release, pcp sysctls, what sysctl.d sets at boot",
	.usage = "[options]",
	.options = status_options, .options_help = " -J, --json           use JSON output format\n",
};
