# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Shared by the export tests: fixture trees and the Debian packages they use.

fixtures=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures/zoneinfo" && pwd)

# tree DIR ZONEINFO RELEASE [SYSCTL=VALUE...]: a sysroot with zoneinfo and sysctls.
tree() {
	local dir=$1 zoneinfo=$2 release=$3
	shift 3
	mkdir -p "$dir/proc/sys/kernel" "$dir/proc/sys/vm"
	cp "$fixtures/$zoneinfo" "$dir/proc/zoneinfo"
	echo "$release" >"$dir/proc/sys/kernel/osrelease"
	for kv in "$@"; do
		echo "${kv#*=}" >"$dir/proc/sys/vm/${kv%%=*}"
	done
}

# need PACKAGE...: install what is missing, as scripts/deps --test would.
need() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	# wait(a): no other project script changes packages (flock), then the dpkg lock is free; 900
	#   s.
	DEBIAN_FRONTEND=noninteractive flock /tmp/pcpctl-dpkg.lock apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=900 "${missing[@]}" >/dev/null
}
