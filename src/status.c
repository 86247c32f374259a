#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "kernel.h"
#include "msg.h"

/* Why a sysctl can be missing, for the human-readable status. */
static const char *const missing_reason[NSYSCTLS] = {
	[SYSCTL_BATCH] = "not available: needs the kernel patch in " PCPCTL_PATCHDIR "/",
	[SYSCTL_HIGH_FRACTION] = "not available: added in Linux 5.14",
	[SYSCTL_FRACTION] = "not available: removed in Linux 5.14",
};

int cmd_status(const char *root, bool json)
{
	struct kernel *k = kernel_open(root);
	long value[NSYSCTLS];
	bool have[NSYSCTLS];
	char *release;
	int rc = EXIT_OK;

	if (!k) {
		pcp_error("out of memory");
		return EXIT_FAIL;
	}
	release = kernel_release(k);
	if (!release) {
		pcp_error("cannot read the kernel release from %s/proc/sys/kernel/osrelease: %s",
			  root, strerror(errno));
		k->ops->close(k);
		return EXIT_FAIL;
	}
	if (kernel_read_settings(k, have, value))
		rc = EXIT_FAIL;
	k->ops->close(k);
	if (rc) {
		free(release);
		return rc;
	}

	if (json) {
		fputs("{\"kernel\":", stdout);
		json_string(stdout, release);
		fputs(",\"settings\":{", stdout);
		for (int s = 0; s < NSYSCTLS; s++) {
			printf("%s\"%s\":", s ? "," : "", sysctl_name(s));
			json_optional_long(stdout, have[s], value[s]);
		}
		fputs("}}\n", stdout);
	} else {
		printf("%-35s %s\n", "kernel:", release);
		for (int s = 0; s < NSYSCTLS; s++) {
			char label[40];

			snprintf(label, sizeof(label), "vm.%s:", sysctl_name(s));
			if (!have[s])
				printf("%-35s %s\n", label, missing_reason[s]);
			else if (value[s] == 0)
				printf("%-35s 0 (kernel default)\n", label);
			else
				printf("%-35s %ld\n", label, value[s]);
		}
	}
	free(release);
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}
