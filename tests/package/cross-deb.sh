#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The .deb for other architectures, made on this Debian machine through
# multiarch: `dpkg-buildpackage -a ARCH` from a copy of the tree, with the
# Build-Depends of ARCH (apt-get build-dep -a ARCH) and Debian's
# crossbuild-essential-ARCH.  Then lintian on the .deb and .changes, the
# control fields, the ELF machine of /usr/sbin/pcpctl, and that pcpctl, run
# by qemu-user with ARCH's libraries from multiarch, prints what the native
# one ($PCPCTL_NATIVE, when given) prints over fixture trees.  The unit tests
# cannot run in dh_auto_test (their binaries are ARCH's): the build uses the
# nocheck profile and DEB_BUILD_OPTIONS=nocheck.
#
# Usage: [PCPCTL_NATIVE=build/pcpctl] cross-deb.sh OUTDIR ARCH   (root)
# The .debs, .changes and .buildinfo are left in OUTDIR/ARCH/.  Exit 77 (a
# skip) while Debian's archive serves ARCH's index inconsistently
# (scripts/deps --cross).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:?usage: cross-deb.sh OUTDIR ARCH}
a=${2:?usage: cross-deb.sh OUTDIR ARCH}
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir /var/tmp/pcpctl-cross-deb.XXXXXX

if [ "$(id -u)" != 0 ]; then
	echo "skipped: dpkg --add-architecture and apt-get build-dep need root"
	exit 77
fi

# ARCH's packages come from the machine's own apt sources, ARCH added to
# dpkg and the lists fetched by scripts/deps.
"$src/scripts/deps" --cross "$a" || exit
pkgs=(dpkg-dev debhelper lintian cmake pkg-config qemu-user-static "crossbuild-essential-$a")
need "${pkgs[@]}" || { echo "FAIL installing ${pkgs[*]}"; exit 1; }

t=$SECONDS
tree=$work/$a/src
mkdir -p "$tree"
# The tree as it is (tracked and new files), without build directories.
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
	tar -xf - -C "$tree"
# wait(a): the dpkg lock is free; 900 s.
check "$a: apt-get build-dep -a $a -Pnocheck" sh -c "cd '$tree' &&
	DEBIAN_FRONTEND=noninteractive flock /tmp/pcpctl-dpkg.lock apt-get build-dep -y -qq \
		-o DPkg::Lock::Timeout=900 -a $a -Pnocheck ./"
check "$a: dpkg-buildpackage -a $a -Pnocheck -us -uc -b" sh -c "cd '$tree' &&
	DEB_BUILD_OPTIONS='nocheck parallel=$(nproc)' dpkg-buildpackage -a $a -Pnocheck -us -uc -b"
deb=$(ls "$work/$a"/pcpctl_*_"$a".deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	bad "$a: no .deb was built"
	finish
fi
ok "$a: built $(basename "$deb") in $((SECONDS - t)) s"
if lintian --fail-on error,warning "$deb" "$work/$a"/pcpctl_*_"$a".changes >"$work/lintian" 2>&1; then
	ok "$a: lintian on the .deb and .changes: no error, no warning"
else
	bad "$a: lintian"
fi
sed 's/^/    lintian: /' "$work/lintian"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$a" ] && ok "$a: Architecture: $a" ||
	bad "$a: Architecture: $(dpkg-deb -f "$deb" Architecture)"
deps=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libpopt0 libsmartcols1 libcap2 libjson-c5; do
	[[ ", $deps" == *", $lib ("* ]] && ok "$a: Depends on $lib with a version" ||
		bad "$a: Depends lacks $lib: $deps"
done
[[ $deps == *libproc2* ]] && bad "$a: Depends on libproc2: $deps"
# e_machine, bytes 18-19 of the ELF header (little-endian on both)
want=$(case $a in arm64) echo 183 ;; ppc64el) echo 21 ;; amd64) echo 62 ;; *) echo "?" ;; esac)
got=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/sbin/pcpctl | od -An -tu2 -j18 -N2 | tr -d ' ')
[ "$got" = "$want" ] && ok "$a: /usr/sbin/pcpctl is an ELF for $a (e_machine $got)" ||
	bad "$a: /usr/sbin/pcpctl has e_machine $got, not $want"
emu=$(case $a in arm64) echo qemu-aarch64-static ;; ppc64el) echo qemu-ppc64le-static ;; esac)
if [ -n "$emu" ]; then
	dpkg-deb -x "$deb" "$work/$a/root"
	for z in debian-6.12-4cpu-2node debian-6.1-1cpu-frac8; do
		sysroot_tree "$work/tree-$z" "$z.zoneinfo" --page-kib 0 --nodes "" >/dev/null
		for cmd in "show --summary" "show --json"; do
			# shellcheck disable=SC2086 # cmd is words
			if ! "$emu" "$work/$a/root/usr/sbin/pcpctl" --sysroot "$work/tree-$z" $cmd \
				>"$work/emu.out" 2>&1; then
				bad "$a: $emu pcpctl --sysroot ($z) $cmd"
				sed 's/^/    /' "$work/emu.out" | head -5
			elif [ -n "${PCPCTL_NATIVE:-}" ]; then
				# shellcheck disable=SC2086
				"$PCPCTL_NATIVE" --sysroot "$work/tree-$z" $cmd >"$work/native.out" 2>&1
				check "$a: under $emu, pcpctl $cmd over $z prints what the native one does" \
					diff "$work/native.out" "$work/emu.out"
			else
				ok "$a: under $emu, pcpctl $cmd over $z exits 0"
			fi
		done
	done
fi
mkdir -p "$out/$a"
rm -f "$out/$a"/pcpctl*
cp "$work/$a"/pcpctl*.deb "$work/$a"/pcpctl_*.changes "$work/$a"/pcpctl_*.buildinfo "$out/$a/"
echo "     in $out/$a: $(cd "$out/$a" && ls | tr '\n' ' ')"
finish
