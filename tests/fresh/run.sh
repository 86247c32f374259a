#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README on a machine that has nothing: a minbase Debian (bullseye,
# bookworm, trixie or forky) made by debootstrap from the archive this
# machine's apt uses, outside the clone, with `git archive HEAD` of the clone
# inside.  In a chroot it runs the README's scripts/quickstart, a build with
# -DBUILD_TESTING=OFF, scripts/test's unit, cli, sim and schema labels
# (scripts/test --labels) and the read-only tests of the live kernel's
# counters (the chroot's /proc is the host's), and the README's install commands
# (dpkg-buildpackage, then apt-get install of the .deb), and checks the
# installed pcpctl, its man page and its patches.  Every compiler runs with
# -Werror, as everywhere.  It prints a transcript: what each step installed
# and how long it took, and each check that cannot work on the release, why.
#
# Usage: tests/fresh/run.sh [--no-cache] [SUITE]   (root; debootstrap, git)
# SUITE is bookworm (the default), bullseye, trixie or forky.
# The pristine debootstrap is kept as a tarball in $PCPCTL_FRESH_CACHE
# (default /var/cache/pcpctl-fresh) with the Debian packages apt downloaded;
# --no-cache ignores both and makes them anew.  Nothing built from pcpctl is
# ever kept there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${PCPCTL_FRESH_CACHE:-/var/cache/pcpctl-fresh}
fresh_cache=1
[ "${1:-}" = --no-cache ] && { fresh_cache=''; shift; }
suite=${1:-bookworm}
# debootstrap has no script named forky (testing): sid's makes it.
script=''
case $suite in
bullseye) release="Debian 11" ;;
bookworm) release="Debian 12" ;;
trixie) release="Debian 13" ;;
forky) release="Debian 14 (testing)" script=/usr/share/debootstrap/scripts/sid ;;
*)
	echo "usage: tests/fresh/run.sh [--no-cache] [bullseye|bookworm|trixie|forky]" >&2
	exit 2
	;;
esac

if [ "$(id -u)" != 0 ]; then
	echo "skipped: debootstrap and chroot need root"
	exit 77
fi
git -C "$src" rev-parse --verify -q HEAD >/dev/null || {
	echo "FAIL $src is not a git clone: the check archives HEAD" >&2
	exit 1
}
if ! command -v debootstrap >/dev/null; then
	# wait(a): no other project script changes packages, then the dpkg lock is free (900 s); the
	#   test's 3600 s.
	DEBIAN_FRONTEND=noninteractive flock /tmp/pcpctl-dpkg.lock apt-get install -y -qq \
		--no-install-recommends -o DPkg::Lock::Timeout=900 debootstrap >/dev/null
fi

started=$SECONDS
step_start=$SECONDS
step() { # step TITLE: print it and start timing it (took prints the time)
	echo "== $* (at $((SECONDS - started)) s)"
	step_start=$SECONDS
}
took() { echo "   took $((SECONDS - step_start)) s"; }
die() {
	echo "FAIL $*"
	exit 1
}

# The Debian archive of this machine, from its apt sources: deb822 files
# (sources.list.d/*.sources) and one-line ones (sources.list, *.list).  The
# first enabled "deb" entry whose suites include exactly this machine's own
# release (every release is in the same archive).
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
debian_mirror() {
	local suite=$host_suite
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v suite="$suite" 'BEGIN { RS = ""; FS = "\n" }
		{
			types = uris = suites = ""; enabled = "yes"
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^#/) continue
				split($i, kv, ":[ \t]*")
				key = tolower(kv[1]); val = substr($i, length(kv[1]) + 2)
				sub(/^[ \t]+/, "", val)
				if (key == "types") types = " " val " "
				else if (key == "uris") uris = val
				else if (key == "suites") suites = " " val " "
				else if (key == "enabled") enabled = tolower(val)
			}
			if (enabled != "no" && types ~ / deb / && suites ~ (" " suite " ")) {
				split(uris, u, /[ \t]+/); print u[1]; exit
			}
		}' "$f"
	done
	{ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
		awk -v suite="$suite" '$1 == "deb" {
			i = 2
			if ($2 ~ /^\[/) while ($i !~ /\]$/) i++
			if ($2 ~ /^\[/) i++
			if ($(i + 1) == suite) print $i
		}'
}
mirror=$(debian_mirror | head -1 || true)
[ -n "$mirror" ] || die "no deb entry for $host_suite in /etc/apt/sources.list{,.d}"

work=$(mktemp -d /var/tmp/pcpctl-fresh.XXXXXX)
root=$work/root
cleanup() {
	local m
	# Innermost first; lazily if a process still holds one.
	findmnt -rno TARGET | grep -F "$root/" | sort -r | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	if findmnt -rno TARGET | grep -qF "$root/"; then
		echo "WARNING: mounts left under $root; not removing $work" >&2
	else
		rm -rf --one-file-system "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "pcpctl fresh check on $release ($suite): $(git -C "$src" log -1 --format='%h %s')"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	echo "note: the clone has uncommitted changes; this checks HEAD without them"
echo "Debian archive (from this machine's apt sources): $mirror"

# --- a bare Debian ------------------------------------------------------------------
key=$(printf '%s\n' "$mirror" "$suite" "$(dpkg --print-architecture)" \
	"$(dpkg-query -W -f='${Version}' debootstrap)" | sha256sum | cut -c1-12)
tarball=$cache/$suite-minbase-$key.tar
mkdir -p "$cache/archives/partial"
# One run at a time uses the cache (apt's lock in the shared archives).
exec 9>"$cache/lock"
# wait(a): another fresh run releases the cache lock; 3600 s (the test's bound).
flock -n 9 || { echo "waiting for another run to release $cache/lock"; flock 9; }
started=$SECONDS	# the times are this run's own, not the wait
if [ -z "$fresh_cache" ]; then
	rm -f "$tarball"
	find "$cache/archives" -name '*.deb' -delete
fi
mkdir -p "$root"
if [ -f "$tarball" ]; then
	step "unpack the cached debootstrap --variant=minbase $suite"
	tar -xf "$tarball" -C "$root"
else
	step "debootstrap --variant=minbase $suite $mirror $script (no cache)"
	# shellcheck disable=SC2086 # no script: no argument
	debootstrap --variant=minbase "$suite" "$root" "$mirror" $script >"$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log"; die "debootstrap"; }
	# Pristine: nothing of pcpctl has been near it yet.
	tar -cf "$tarball.tmp" -C "$root" . && mv "$tarball.tmp" "$tarball"
fi
took
echo "   $(chroot "$root" dpkg-query -W | wc -l) packages, $(du -sh --one-file-system "$root" | cut -f1)"

# The archive's testing may be past its Release file's Valid-Until.
if [ "$suite" = forky ]; then
	echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99pcpctl-valid-until"
	echo "   apt in the chroot: Acquire::Check-Valid-Until \"false\" (testing's Release may be stale)"
fi

mkdir -p "$root/root/pcpctl"
git -C "$src" archive HEAD | tar -x -C "$root/root/pcpctl"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
# A terminal for the tests that need one (script(1) in cli_watch): a private
# devpts instance, so the host's terminals are neither seen nor touched.
mkdir -p "$root/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
rm -f "$root/dev/ptmx"
ln -s pts/ptmx "$root/dev/ptmx"
# apt's downloads survive from run to run (Debian's packages only).
mount --bind "$cache/archives" "$root/var/cache/apt/archives"

in_root() { # in_root SCRIPT: run SCRIPT with bash -e in the clone inside
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb \
		DEBIAN_FRONTEND=noninteractive chroot "$root" bash -ec "cd /root/pcpctl; $1"
}
packages() { chroot "$root" dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort; }
installed_since() { # installed_since LIST: packages installed after LIST was taken
	packages | comm -13 "$1" - | tr '\n' ' '
}

# --- the README's quick start -------------------------------------------------------
step "scripts/quickstart (README)"
packages >"$work/before-quickstart"
in_root scripts/quickstart >"$work/quickstart.out" 2>&1 ||
	{ tail -30 "$work/quickstart.out"; die "scripts/quickstart"; }
took
added=$(installed_since "$work/before-quickstart")
echo "   scripts/deps installed $(wc -w <<<"$added") packages: $added"
sed -n '/^NODE *ZONE *CPU /,$p' "$work/quickstart.out" >"$work/table.out"
grep -q '^ *[0-9]' "$work/table.out" ||
	{ tail -20 "$work/quickstart.out"; die "quickstart printed no table"; }
echo "   it printed the table ($(grep -c . "$work/table.out") lines), beginning:"
head -4 "$work/table.out" | sed 's/^/     /'
grep -q cmocka <<<"$added" && die "scripts/deps (build list) installed CMocka"
echo "   compiler: $(chroot "$root" gcc --version | head -1); $(chroot "$root" cmake --version | head -1)"

step "cmake with the build packages only: the tests are skipped, with the reason"
in_root 'cmake -S . -B /root/build-default' >"$work/default.out" 2>&1 ||
	{ tail -20 "$work/default.out"; die "configure without CMocka"; }
grep -- '-- Tests skipped' "$work/default.out" | sed 's/^/   /' ||
	die "no status line about the skipped tests"
took

step "a build with -DBUILD_TESTING=OFF"
in_root 'cmake -S . -B /root/build-notest -DBUILD_TESTING=OFF >/dev/null &&
	cmake --build /root/build-notest -j"$(nproc)" >/dev/null && /root/build-notest/pcpctl --version' \
	>"$work/notest.out" 2>&1 || { tail -20 "$work/notest.out"; die "build with BUILD_TESTING=OFF"; }
sed 's/^/   /' "$work/notest.out"
took

# --- scripts/test's labels that need no live kernel and no other machine --------------
# live, kernel, doc, export, fleet, chaos and fresh change this machine or
# boot kernels: the host's own suite runs them.
labels='unit|cli|sim|schema'
cannot=''
# The JSON Schemas are draft 2020-12, which python3-jsonschema has from 4.0:
# bullseye's 3.2 cannot check them.
if [ "$suite" = bullseye ]; then
	labels='unit|cli|sim'
	cannot="schema: $suite's python3-jsonschema $(chroot "$root" sh -c \
		'apt-cache policy python3-jsonschema' | awk '/Candidate/ { print $2 }') has no draft 2020-12 validator (4.0 added it)"
fi
step "scripts/test --labels '$labels' --exclude live"
[ -n "$cannot" ] && echo "   cannot work here: $cannot"
packages >"$work/before-test"
in_root "scripts/test --labels '$labels' --exclude live" >"$work/test.out" 2>&1 ||
	{ grep -v -e '^ *Start ' -e ' Passed ' "$work/test.out" | tail -150
	  die "scripts/test --labels '$labels' --exclude live"; }
took
added=$(installed_since "$work/before-test")
echo "   scripts/deps --check installed $(wc -w <<<"$added") packages: $added"
grep -E 'tests passed|^[a-z]+ += ' "$work/test.out" | sed 's/^/   /'
grep -q '100% tests passed' "$work/test.out" || die "not every test passed"
for l in ${labels//|/ }; do
	grep -qE "^$l += " "$work/test.out" || die "no test of label $l ran"
done

# The chroot's /proc is this machine's: the release's build reads the live
# kernel's counters (read-only tests: each value between the test's own reads).
step "the live kernel's counters as this release's pcpctl reads them"
in_root 'cd build && ctest --output-on-failure -R "^(test_live_counters|live_interval)\$"' \
	>"$work/live.out" 2>&1 || { cat "$work/live.out"; die "the live counters"; }
grep -E '^ *[0-9]+/[0-9]+ Test|tests passed' "$work/live.out" | sed 's/^ */   /'
grep -q '100% tests passed, 0 tests failed out of 2' "$work/live.out" ||
	die "test_live_counters and live_interval did not both run"
took

# --- the README's install commands ----------------------------------------------------
install_cmds=$(awk '/^## Install/ { s = 1; next } /^## / { s = 0 }
	s && /^```sh/ { b = 1; next } s && b && /^```/ { exit } b' "$src/README.md")
[ -n "$install_cmds" ] || die "README.md has no sh block under ## Install"
step "the README's install commands"
sed 's/^/   # /' <<<"$install_cmds"
packages >"$work/before-install"
in_root "$install_cmds" >"$work/install.out" 2>&1 ||
	{ tail -40 "$work/install.out"; die "the README's install commands"; }
took
added=$(installed_since "$work/before-install")
echo "   they installed $(wc -w <<<"$added") packages: $added"
grep -E '^[0-9]+% tests passed|tests passed' "$work/install.out" | sed 's/^/   dh_auto_test: /'

step "the installed pcpctl"
in_root 'dpkg-query -W -f="\${Package} \${Version} \${Status}\n" pcpctl; command -v pcpctl' \
	>"$work/pkg.out" 2>&1 || die "pcpctl is not installed: $(cat "$work/pkg.out")"
sed 's/^/   /' "$work/pkg.out"
grep -qx /usr/sbin/pcpctl "$work/pkg.out" || die "pcpctl is not /usr/sbin/pcpctl"
echo "   pcpctl show --summary:"
in_root 'pcpctl show --summary' >"$work/summary.out" 2>&1 ||
	{ cat "$work/summary.out"; die "pcpctl show --summary"; }
sed 's/^/     /' "$work/summary.out"
grep -q '^NODE *ZONE *CPUS' "$work/summary.out" || die "no summary table"
in_root 'pcpctl status' >"$work/status.out" 2>&1 || { cat "$work/status.out"; die "pcpctl status"; }
echo "   pcpctl status:"
sed 's/^/     /' "$work/status.out"
if ! grep -q '^vm.percpu_pagelist_batch: .*[0-9]' "$work/status.out"; then
	grep -q 'kernel patch in /usr/share/pcpctl/patches/$' "$work/status.out" ||
		die "status does not point at /usr/share/pcpctl/patches/"
fi
in_root 'ls /usr/share/pcpctl/patches/linux-*/*.patch /usr/share/pcpctl/patches/README.md' \
	>"$work/patches.out" 2>&1 || { cat "$work/patches.out"; die "the patches are not installed"; }
echo "   $(grep -c '\.patch$' "$work/patches.out") kernel patches and their README in /usr/share/pcpctl/patches"
took

# man-db is in every standard Debian install, but not in minbase (here
# debhelper's dependencies have brought it).
step "man 8 pcpctl"
in_root 'apt-get install -y -qq --no-install-recommends man-db >/dev/null &&
	man -w 8 pcpctl && MANPAGER=cat MANWIDTH=80 man 8 pcpctl 2>&1 | sed -n "1,6p"' \
	>"$work/man.out" 2>&1 || { cat "$work/man.out"; die "man 8 pcpctl"; }
sed 's/^/   /' "$work/man.out"
grep -qx /usr/share/man/man8/pcpctl.8.gz "$work/man.out" || die "man -w 8 pcpctl"
grep -q 'pcpctl - show and tune' "$work/man.out" || die "man 8 pcpctl does not render"
took

# Only Debian's packages go back into the cache.
find "$cache/archives" -name 'pcpctl*' -delete
[ -n "$cannot" ] && echo "not checked on $suite: $cannot"
echo "PASS fresh: the README's commands work on a bare $release, $suite (total $((SECONDS - started)) s)"
