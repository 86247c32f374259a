#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pcpctl cross-built for ARCH (arm64 or ppc64el) through Debian's multiarch
# and its unit tests run under qemu-user: the code other architectures run.
#
# usage: tests/cross/run.sh ARCH [BUILD_DIR]   (default build-ARCH in the tree)
# Installs what it needs with scripts/deps --cross ARCH (root); exits 77, a
# skip, as that does while Debian's archive serves ARCH's index inconsistently.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
arch=${1:?usage: tests/cross/run.sh arm64|ppc64el [BUILD_DIR]}
dir=${2:-$top/build-$arch}
"$top/scripts/deps" --cross "$arch"
# tests/kernel/run.sh boots the pcpctl of this tree: one build at a time in it.
mkdir -p "$dir"
exec 9>"$dir.lock"
# wait(a): tests/kernel/run.sh's build of the same tree ends; 1800 s (the test's bound).
flock 9
cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-cross.cmake" -DPCPCTL_CROSS_ARCH="$arch" >/dev/null
# the unit tests and what they run, not bench tools or the simulator
mapfile -t unit < <(cd "$dir" && ctest -N -L unit | awk '/Test +#/ { print $3 }' | grep '^test_')
cmake --build "$dir" -j"$(nproc)" --target pcpctl "${unit[@]}"
exec 9>&-
case $arch in arm64) machine=AArch64 qemu=qemu-aarch64-static ;; *) machine=PowerPC64 qemu=qemu-ppc64le-static ;; esac
readelf -h "$dir/pcpctl" | grep -q "Machine: *$machine" ||
	{ echo "tests/cross/run.sh: $dir/pcpctl is not an $arch binary" >&2; exit 1; }
"$qemu" -L / "$dir/pcpctl" --version
(cd "$dir" && ctest -L unit --output-on-failure)
