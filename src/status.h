/* pcpctl status: the kernel release and its pcp interfaces. */
#ifndef PCPCTL_STATUS_H
#define PCPCTL_STATUS_H

#include <stdbool.h>

int cmd_status(const char *root, bool json);

#endif
