#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version: CMake's project() is where it is set; the Debian package
# (debian/changelog), the Ansible collection (ansible/galaxy.yml) and the
# man pages' headers must say the same.
# Usage: versions.sh SOURCE_DIR
set -u
src=$1
. "$(dirname "$(realpath "$0")")/../lib.sh"
want=$(sed -n 's/^project(pcpctl VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
if [ -z "$want" ]; then
	echo "FAIL no version in project() of CMakeLists.txt"
	exit 1
fi
version_is() { # version_is WHAT VERSION
	if [ "$2" = "$want" ]; then ok "$1 is $want"; else bad "$1 is '$2', CMakeLists.txt's project() $want"; fi
}
# The upstream part: no epoch, no Debian revision.
version_is "debian/changelog's version" \
	"$(head -1 "$src/debian/changelog" | sed -n 's/^pcpctl (\([0-9]*:\)\{0,1\}\([^-)]*\).*/\2/p')"
version_is "ansible/galaxy.yml's version" "$(sed -n 's/^version: *//p' "$src/ansible/galaxy.yml")"
for page in "$src"/man/*.[0-9]; do
	version_is "${page#"$src"/}'s header" "$(sed -n 's/^\.TH .*"pcpctl \([^"]*\)".*/\1/p' "$page")"
done
finish
