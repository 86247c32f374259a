#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Booted-kernel test of vm.percpu_pagelist_batch and pcpctl.
#
# Builds tinyconfig kernels from Debian's linux-source-6.1, -6.12 and -7.3
# (trixie-backports) with patches/linux-*/0001-*.patch applied (cached),
# fetches Debian's stock 6.1, 6.12 and 7.3 cloud kernels, boots each under qemu-system-x86_64 -accel tcg with 4
# CPUs in 2 NUMA nodes and a busybox initramfs holding pcpctl and
# tests/kernel/guest-test.sh, and turns the guest's report into one line per
# check and a final "N passed, N failed, N skipped".  Exit status 0 only if
# nothing failed.
#
# arm64-16k and arm64-64k (patched 7.3 cross-built for arm64 with 16 and
# 64 KiB pages) and scale0 (x86-64, CONFIG_PCP_BATCH_SCALE_MAX=0) measure the
# pages moved under one zone->lock hold at batch 0 and at the largest batch
# (guest-hold.sh); debug boots the same SCALE_MAX=0 kernel, which also has
# lockdep and KCSAN, with memory blocks to online, and loops sysctl writes
# through CPU and memory hotplug (guest-debug.sh).
#
# The generation guests (gen-*) boot Debian's prebuilt kernels of other
# generations, architectures and page sizes (arm64 under qemu-system-aarch64
# -M virt, ppc64el under qemu-system-ppc64 -M pseries), each with 1 and with 2
# nodes, and run pcpctl cross-built for the guest's architecture
# (guest-gen.sh): show, status, set --fraction 8 and 100, reset, a dry run,
# a forced failure and rollback, each exit code checked.
#
# usage: tests/kernel/run.sh [--pcpctl PATH] [--only LABEL[,LABEL...]] [--capture] [--out DIR]
#   --pcpctl PATH  pcpctl binary to test (also $PCPCTL; default build/pcpctl;
#                  without one, only the kernel-level checks run)
#   --only         subset of patched-6.1, patched-6.12, patched-7.3, arm64-16k,
#                  arm64-64k, scale0, debug, stock-6.1, stock-6.12, stock-7.3
#                  and the gen-* labels (--list prints them)
#   --capture      also write the patched guests' /proc/zoneinfo to
#                  tests/fixtures/zoneinfo/patched-*.zoneinfo, stock 7.3's
#                  to debian-7.3-4cpu-2node.zoneinfo, and each generation
#                  guest's zoneinfo around every write to tests/fixtures/golden/
#   --list         print the labels and exit
#   --out DIR      keep logs and transcripts there (default $PCPCTL_KCACHE/runs/latest)
# env: PCPCTL_ARM64, PCPCTL_PPC64EL (cross-built pcpctl; default
#      ${KT_CROSS_PREFIX:-build-}ARCH/pcpctl, built with
#      cmake/toolchain-cross.cmake if missing),
#      PCPCTL_KCACHE (default /var/cache/pcpctl-kernel), KT_STRICT=1 (fail
#      instead of skip when pcpctl has no working `set`), KT_QEMU_TIMEOUT (s),
#      KT_MEASURE=1 (patched guests also time page_fault1 at batch 63, 127,
#      310 and the maximum, for patches/README.md), KT_DEBUG_CYCLES (loop
#      iterations of the debug guest, default 12)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/kernel/lib.sh
. "$here/lib.sh"

pcpctl=${PCPCTL:-}
pcpctl_explicit=0
[ -z "$pcpctl" ] || pcpctl_explicit=1
# Generation guests: label, Debian architecture, package name pattern (the
# newest match whose file the archive serves); each boots with 1 and with 2
# nodes (LABEL-1node, LABEL-2node).  kt_xapt fetches them.
gen_guests=(
	"gen-5.10-amd64 amd64 ^linux-image-5\.10\.0-[0-9]+-cloud-amd64-unsigned$"
	"gen-7.3-arm64 arm64 ^linux-binary-7\.3\.[0-9]+\+deb13-arm64$"
	"gen-6.12-arm64-16k arm64 ^linux-image-6\.12\.[0-9]+\+deb13-arm64-16k-unsigned$"
	"gen-7.3-arm64-16k arm64 ^linux-binary-7\.3\.[0-9]+\+deb13-arm64-16k$"
	"gen-6.1-ppc64el ppc64el ^linux-image-6\.1\.0-[0-9]+-powerpc64le$"
	"gen-newest-ppc64el-64k ppc64el ^linux-binary-[0-9]+\.[0-9]+\.[0-9]+\+deb13-powerpc64le-64k$"
)
gen_labels=
for g in "${gen_guests[@]}"; do
	gen_labels+=",${g%% *}-1node,${g%% *}-2node"
done
# The guests of the lock-hold bound and the debug guest: patched 7.3 built for
# arm64 with 16 and 64 KiB pages (guest-hold.sh), and one x86-64 debug build
# (kernel-debug.config: CONFIG_PCP_BATCH_SCALE_MAX=0, lockdep, KCSAN, memory
# hotplug) booted twice: scale0 (guest-hold.sh) and debug (guest-debug.sh).
# label, kernel name, architecture, guest script
new_guests=(
	"arm64-16k 7.3-arm64-16k arm64 guest-hold.sh"
	"arm64-64k 7.3-arm64-64k arm64 guest-hold.sh"
	"scale0 7.3-debug amd64 guest-hold.sh"
	"debug 7.3-debug amd64 guest-debug.sh"
)
new_labels=
for g in "${new_guests[@]}"; do
	new_labels+=",${g%% *}"
done
only=patched-6.1,patched-6.12,patched-7.3$new_labels,stock-6.1,stock-6.12,stock-7.3$gen_labels
capture=0
out=$KT_CACHE/runs/latest
while [ $# -gt 0 ]; do
	case $1 in
	--pcpctl) pcpctl=$2; pcpctl_explicit=1; shift 2 ;;
	--pcpctl=*) pcpctl=${1#*=}; pcpctl_explicit=1; shift ;;
	--only) only=$2; shift 2 ;;
	--only=*) only=${1#*=}; shift ;;
	--capture) capture=1; shift ;;
	--out) out=$2; shift 2 ;;
	--out=*) out=${1#*=}; shift ;;
	--list) tr ',' '\n' <<<"$only"; exit 0 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "unknown argument: $1" >&2; exit 2 ;;
	esac
done
[ -n "$pcpctl" ] || pcpctl=$top/build/pcpctl
if [ ! -x "$pcpctl" ]; then
	[ $pcpctl_explicit = 0 ] || kt_die "pcpctl binary $pcpctl not found"
	kt_log "no pcpctl at $pcpctl: kernel-level checks only"
	pcpctl=
fi

# The largest accepted batch with the test config (4K pages, pageblock_order 9
# from THP/HugeTLB, CONFIG_PCP_BATCH_SCALE_MAX=5), as on Debian's x86_64 kernels:
# (SHRT_MAX - (1 << 9)) >> 5.
batch_max=$(((32767 - (1 << 9)) >> 5))

start=$(date +%s)
build_s=0
passed=0
failed=0
skipped=0
result() { # STATUS LABEL TEXT
	echo "$1 $2: $3"
	case $1 in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
}

kt_need_boot_tools
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/kt-run.XXXXXX")
trap 'rm -rf "$work"; [ -z "${prefetch_pid:-}" ] || kill "$prefetch_pid" 2>/dev/null' EXIT

# pcpctl with its shared libraries and loader, as they sit on the host
payload=$work/payload
mkdir -p "$payload/usr/bin"
if [ -n "$pcpctl" ]; then
	cp "$pcpctl" "$payload/usr/bin/pcpctl"
	ldd "$pcpctl" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r lib; do
		mkdir -p "$payload$(dirname "$lib")"
		cp -L "$lib" "$payload$lib"
	done
	# The build's shim that kills a change right after its write
	# (tests/chaos/killafter.c), for the debug guest's interrupted changes.
	shim=$(dirname "$pcpctl")/tests/chaos/libkillafter.so
	if [ -f "$shim" ]; then
		mkdir -p "$payload/usr/lib"
		cp "$shim" "$payload/usr/lib/killafter.so"
	fi
fi

# guest_results LABEL DIR : the guest's transcript (DIR/transcript.txt) and
# its PASS, FAIL and SKIP lines counted as LABEL's.
guest_results() {
	local label=$1 d=$2 line
	kt_transcript "$d/data.log" >"$d/transcript.txt"
	while IFS= read -r line; do
		case ${line%% *} in PASS | FAIL | SKIP) result "${line%% *}" "$label" "${line#* }" ;; esac
	done <"$d/transcript.txt"
}
kt_qemu_line() { # DIR : the qemu command line with the run's paths as variables
	sed -e "s|$1/|\$OUT/|g" -e "s|$work/|\$WORK/|g" -e "s|$KT_CACHE/|\$PCPCTL_KCACHE/|g" \
		"$1/qemu.cmdline"
}

boot_one() { # LABEL KIND SERIES KERNEL
	local label=$1 kind=$2 series=$3 kernel=$4 d=$out/$1 initrd line st rest
	{
		echo "KT_KIND=$kind"
		echo "KT_SERIES=$series"
		echo "KT_BATCH_MAX=$batch_max"
		echo "KT_STRICT=${KT_STRICT:-0}"
		echo "KT_MEASURE=${KT_MEASURE:-0}"
	} >"$work/env"
	initrd=$work/$label.initrd.gz
	KT_INITRAMFS_EXTRA_DIR=$payload kt_mk_initramfs "$initrd" "$here/guest-test.sh" "$work/env:kt/env"
	kt_log "booting $label"
	local t0=$SECONDS note=
	# Multi-threaded TCG races with the kernel's live text patching: Debian's
	# 7.3 died early in boot, before the guest script, with an int3 oops on a
	# site another vCPU had just patched, or spun there until QEMU's timeout
	# (both boots of one cold run).  Debian's own kernels, which patch far
	# more sites than our tinyconfig builds, boot with one TCG thread for
	# the four vCPUs.  A kernel that still dies that early tests nothing of
	# ours: boot once more, and say so.
	local KT_TCG_THREAD=
	[ "$kind" != stock ] || KT_TCG_THREAD=single
	# wait(a): a boot that crashed before the guest script ran (no @@KT-START@@) boots once
	#   more: one retry.
	if ! kt_boot "$kernel" "$initrd" "$d" 4cpu-2node &&
		! grep -q '^@@KT-START@@$' "$d/data.log"; then
		kt_log "$label died before the guest started: $(grep -m1 -E 'Oops|panic' "$d/console.log")"
		mv "$d/console.log" "$d/console-first-boot.log"
		note=", second boot: the first died before the guest started, see console-first-boot.log"
		kt_boot "$kernel" "$initrd" "$d" 4cpu-2node || true
	fi
	if grep -q '^@@KT-DONE@@$' "$d/data.log"; then
		result PASS "$label" "boot and guest run ($((SECONDS - t0)) s$note)"
	else
		result FAIL "$label" "guest did not finish, see $d/console.log"
		tail -n 20 "$d/console.log" | sed 's/^/    /'
	fi
	guest_results "$label" "$d"
	local fx=$top/tests/fixtures/zoneinfo
	if [ "$kind" = patched ] && [ $capture = 1 ]; then
		kt_section "$d/data.log" zoneinfo-boot >"$fx/patched-$series-4cpu-2node.zoneinfo"
		kt_section "$d/data.log" zoneinfo-batch310 >"$fx/patched-$series-4cpu-2node-batch310.zoneinfo"
		kt_section "$d/data.log" zoneinfo-batchmax >"$fx/patched-$series-4cpu-2node-batchmax.zoneinfo"
		{
			echo "# tinyconfig kernel with patches/linux-$series/0001-*.patch, built by tests/kernel/run.sh"
			echo "uname_r=$(kt_section "$d/data.log" uname)"
			echo "source=linux-source-$series $(kt_source_version "$series")"
			kt_section "$d/data.log" sysctl
			kt_section "$d/data.log" topology
			echo "zoneinfo-batch310: after echo 310 > /proc/sys/vm/percpu_pagelist_batch"
			echo "zoneinfo-batchmax: after echo 2016 > /proc/sys/vm/percpu_pagelist_batch (patch v3: 63 << CONFIG_PCP_BATCH_SCALE_MAX)"
			echo "qemu=$(kt_qemu_line "$d")"
		} >"$fx/patched-$series-4cpu-2node.meta"
	fi
	if [ "$label" = stock-7.3 ] && [ $capture = 1 ]; then
		kt_section "$d/data.log" zoneinfo-boot >"$fx/debian-7.3-4cpu-2node.zoneinfo"
		{
			echo "# Debian's stock 7.3 cloud kernel, booted by tests/kernel/run.sh"
			echo "kernel=$(kt_debian_kernel_desc "$kernel")"
			echo "uname_r=$(kt_section "$d/data.log" uname)"
			kt_section "$d/data.log" sysctl
			kt_section "$d/data.log" topology
			echo "qemu=$(kt_qemu_line "$d")"
		} >"$fx/debian-7.3-4cpu-2node.meta"
	fi
}

# cross_pcpctl ARCH : the pcpctl binary for ARCH, cross-built if missing
cross_pcpctl() {
	local arch=$1 var bin
	local dir=${KT_CROSS_PREFIX:-$top/build-}$arch
	var=PCPCTL_${arch^^}
	bin=${!var:-$dir/pcpctl}
	if [ -n "${!var:-}" ]; then
		[ -x "$bin" ] || kt_die "$var=$bin is not an executable"
		echo "$bin"
		return
	fi
	# The cross_* test may be building this tree right now (tests/cross/run.sh).
	mkdir -p "$dir"
	# wait(a): the cross_* test's build of the same tree ends (build only if no pcpctl there);
	#   the test's 2700 s.
	(
		flock 9
		[ -x "$bin" ] && exit 0
		kt_log "cross-building pcpctl for $arch in $dir"
		# errexit does not hold in a subshell left of ||: each step says.
		"$top/scripts/deps" --cross "$arch" >&2 || exit
		cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
			-DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-cross.cmake" \
			-DPCPCTL_CROSS_ARCH="$arch" >&2 &&
			cmake --build "$dir" -j"$(nproc)" --target pcpctl >&2
	) 9>"$dir.lock" || {
		# 77: scripts/deps cannot install ARCH's libraries while the archive
		# serves ARCH's index inconsistently; the caller skips its guests.
		local st=$?
		[ "$st" = 77 ] && return 77
		kt_die "cannot cross-build pcpctl for $arch in $dir"
	}
	echo "$bin"
}

# gen_payload ARCH : a tree with pcpctl for ARCH, its shared libraries and
# the dynamic loader (the target's, from Debian's multiarch packages)
gen_payload() {
	local arch=$1 d=$work/payload-$1 bin ld qemu lib
	if [ "$arch" = amd64 ]; then
		echo "$payload"
		return
	fi
	if [ ! -d "$d" ]; then
		bin=$(cross_pcpctl "$arch") || return
		case $arch in
		arm64) ld=/lib/ld-linux-aarch64.so.1 qemu=qemu-aarch64-static ;;
		ppc64el) ld=/lib64/ld64.so.2 qemu=qemu-ppc64le-static ;;
		esac
		mkdir -p "$d/usr/bin" "$d$(dirname "$ld")"
		cp "$bin" "$d/usr/bin/pcpctl"
		cp -L "$ld" "$d$ld"
		"$qemu" -L / "$ld" --list "$bin" | awk '/=> \// { print $3 }' | while read -r lib; do
			mkdir -p "$d$(dirname "$lib")"
			cp -L "$lib" "$d$lib"
		done
	fi
	echo "$d"
}

gen_guest() { # LABEL : its arch and package pattern
	local g
	for g in "${gen_guests[@]}"; do
		[ "${g%% *}" = "${1%-[12]node}" ] && { echo "${g#* }"; return 0; }
	done
	return 1
}

boot_gen() { # LABEL
	local label=$1 d=$out/$1 arch pat nodes kernel initrd line st rest extra t0=$SECONDS
	read -r arch pat <<<"$(gen_guest "$label")"
	nodes=${label##*-}
	nodes=${nodes%node}
	case $arch in
	amd64) kt_need_pkgs qemu-system-x86 ;;
	arm64) kt_need_pkgs qemu-system-arm qemu-user-static ;;
	ppc64el) kt_need_pkgs qemu-system-ppc qemu-user-static ;;
	esac
	if ! kernel=$(kt_xkernel "$arch" "$pat" 2>>"$out/fetch-$label.log"); then
		result FAIL "$label" "no kernel, see $out/fetch-$label.log"
		return
	fi
	echo "KT_ARCH=$arch" >"$work/env-$label"
	initrd=$work/$label.initrd.gz
	extra=''
	if [ -n "$pcpctl" ]; then
		# 77: the guest runs the kernel's own checks, and says it skipped pcpctl's.
		extra=$(gen_payload "$arch") || {
			[ $? = 77 ] || kt_die "no pcpctl for $arch"
			kt_log "$label: no pcpctl for $arch while Debian's archive serves $arch's index inconsistently (scripts/deps --cross $arch exits 77, its message above)"
		}
	fi
	KT_INITRAMFS_EXTRA_DIR=$extra KT_BUSYBOX=$(kt_xbusybox "$arch") \
		kt_mk_initramfs "$initrd" "$here/guest-gen.sh" "$work/env-$label:kt/env"
	kt_log "booting $label ($(kt_debian_kernel_desc "$kernel"))"
	# Debian's own kernel: one TCG thread on amd64, as for the stock guests
	# (boot_one says why).
	if KT_TCG_THREAD=single KT_ARCH=$arch kt_boot "$kernel" "$initrd" "$d" "4cpu-${nodes}node"; then
		result PASS "$label" "boot and guest run ($((SECONDS - t0)) s)"
	else
		result FAIL "$label" "guest did not finish, see $d/console.log"
		tail -n 20 "$d/console.log" | sed 's/^/    /'
	fi
	guest_results "$label" "$d"
	# the exit-code table's row
	{
		printf '%s %s %s %s' "$(kt_section "$d/data.log" meta | sed -n 's/^uname_r=//p')" "$arch" \
			"$(kt_section "$d/data.log" meta | sed -n 's/^page_size=//p')" "$nodes"
		kt_section "$d/data.log" exits | awk '{ printf " %s=%s", $2, $3 }'
		echo
	} >>"$out/exit-codes.txt"
	[ $capture = 1 ] && gen_capture "$label" "$d" "$kernel"
	return 0
}

# gen_capture LABEL RUN_DIR KERNEL : the golden captures of one generation
# guest into tests/fixtures/golden/<guest>/
gen_capture() {
	local label=$1 d=$2 kernel=$3 meta uname arch psize nodes g n
	meta=$(kt_section "$d/data.log" meta)
	uname=$(sed -n 's/^uname_r=//p' <<<"$meta")
	arch=$(sed -n 's/^arch=//p' <<<"$meta")
	psize=$(sed -n 's/^page_size=//p' <<<"$meta")
	nodes=$(sed -n 's/^nodes=//p' <<<"$meta")
	if [ -z "$uname" ] || [ -z "$psize" ]; then
		kt_log "$label: no meta block, nothing captured"
		return
	fi
	# page size always in the name: arm64 boots 4 and 16 KiB kernels of one series
	g=$top/tests/fixtures/golden/debian-$(cut -d. -f1,2 <<<"$uname")-$arch-$((psize / 1024))k-4cpu-${nodes}node
	rm -rf "$g"
	mkdir -p "$g"
	{
		echo "# Debian's prebuilt kernel booted by tests/kernel/run.sh --capture ($label)"
		grep -v '^hpage_pmd_size=' <<<"$meta"
		kt_section "$d/data.log" topology | grep -E '^node[0-9]+_cpus='
		echo "debian_package=$(kt_debian_kernel_desc "$kernel" | sed 's/Package: //; s/ Version: / /')"
		echo "qemu=$(kt_qemu_line "$d")"
	} >"$g/guest.meta"
	for n in $(grep -o '^@@KT-BEGIN [0-9][0-9]-[^@]*@@$' "$d/data.log" | sed 's/^@@KT-BEGIN //; s/@@$//'); do
		kt_section "$d/data.log" "$n" >"$g/$n"
	done
	kt_log "$label: $(find "$g" -name '*.before' | wc -l) golden pairs in ${g#"$top"/}"
}

# series_patch SERIES : the series' patches (patches/linux-SERIES/0*.patch, in
# order) as one file for kt_build_kernel; one patch gives the same file
series_patch() {
	cat "$top/patches/linux-$1"/0*.patch >"$work/patches-$1"
	echo "$work/patches-$1"
}

new_guest() { # LABEL : its kernel name, architecture and guest script
	local g
	for g in "${new_guests[@]}"; do
		[ "${g%% *}" = "$1" ] && { echo "${g#* }"; return 0; }
	done
	return 1
}

# new_kernel NAME ARCH : build (or take from the cache) the patched 7.3
# kernel NAME; its image in $new_img.  The fragments are composed per name.
declare -A new_built=()
new_kernel() {
	local name=$1 arch=$2 frag=$work/frag-$1 patch t0=$SECONDS img
	patch=$(series_patch 7.3)
	# tinyconfig's PAGE_BLOCK_MAX_ORDER (10) survives the page size change:
	# set it to that size's MAX_PAGE_ORDER, its default, as Debian's arm64
	# kernels have it (pageblock_order = HPAGE_PMD_ORDER: 2048 and 8192 pages)
	case $name in
	7.3-arm64-16k) kt_fragment "$here/kernel-arm64.config" "" CONFIG_ARM64_16K_PAGES=y \
		CONFIG_PAGE_BLOCK_MAX_ORDER=11 >"$frag" ;;
	7.3-arm64-64k) kt_fragment "$here/kernel-arm64.config" "" CONFIG_ARM64_64K_PAGES=y \
		CONFIG_PAGE_BLOCK_MAX_ORDER=13 >"$frag" ;;
	7.3-debug) kt_fragment "$here/kernel.config" "$here/kernel-debug.config" >"$frag" ;;
	*) kt_die "no recipe for kernel $name" ;;
	esac
	img=$(KT_ARCH=$arch kt_build_kernel 7.3 "$patch" "$frag" "$name" 2>>"$out/build-$name.log") || return 1
	if [ -z "${new_built[$name]:-}" ]; then
		new_built[$name]=1
		build_s=$((build_s + SECONDS - t0))
		echo "build $name $((SECONDS - t0)) s" >>"$out/times.txt"
	fi
	new_img=$img
}

# The console reports the debug guest must not show
debug_reports='WARNING:|BUG:|possible circular locking|KCSAN:|sleeping function called from invalid context'

boot_new() { # LABEL
	local label=$1 d=$out/$1 name arch guest kernel initrd line st rest t0 scale topo extra='' new_img
	read -r name arch guest <<<"$(new_guest "$label")"
	case $arch in arm64) kt_need_pkgs qemu-system-arm qemu-user-static ;; esac
	t0=$SECONDS
	if ! new_kernel "$name" "$arch"; then
		result FAIL "$label" "kernel build failed, see $out/build-$name.log"
		tail -n 20 "$out/build-$name.log" | sed 's/^/    /'
		return
	fi
	kernel=$new_img
	result PASS "$label" "kernel $name ($((SECONDS - t0)) s, $(basename "$kernel"))"
	scale=$(sed -n 's/^CONFIG_PCP_BATCH_SCALE_MAX=//p' "$kernel.config")
	{
		echo "KT_LABEL=$label"
		echo "KT_SCALE_MAX=${scale:-5}"
		echo "KT_CYCLES=${KT_DEBUG_CYCLES:-12}"
		case $name in *-16k) echo KT_PAGE_KB=16 ;; *-64k) echo KT_PAGE_KB=64 ;; *) echo KT_PAGE_KB=4 ;; esac
	} >"$work/env-$label"
	initrd=$work/$label.initrd.gz
	local busybox=/bin/busybox
	[ "$arch" = amd64 ] || busybox=$(kt_xbusybox "$arch")
	if [ -n "$pcpctl" ]; then
		KT_INITRAMFS_EXTRA_DIR=$(gen_payload "$arch") KT_BUSYBOX=$busybox \
			kt_mk_initramfs "$initrd" "$here/$guest" "$work/env-$label:kt/env"
	else
		KT_BUSYBOX=$busybox kt_mk_initramfs "$initrd" "$here/$guest" "$work/env-$label:kt/env"
	fi
	topo=4cpu-2node
	case $label in
	debug)
		# loglevel 5: lockdep's and WARN()'s reports (KERN_WARNING) reach the console
		topo=4cpu-2node-dimms
		extra="memhp_default_state=offline loglevel=5"
		;;
	scale0)
		# the hold counts need neither checker, and both slow TCG down
		extra="kcsan.early_enable=0 lockdep.prove_locking=0"
		;;
	esac
	kt_log "booting $label"
	t0=$SECONDS
	if KT_ARCH=$arch kt_boot "$kernel" "$initrd" "$d" "$topo" "$extra"; then
		result PASS "$label" "boot and guest run ($((SECONDS - t0)) s)"
	else
		result FAIL "$label" "guest did not finish, see $d/console.log"
		tail -n 20 "$d/console.log" | sed 's/^/    /'
	fi
	echo "boot $label $((SECONDS - t0)) s" >>"$out/times.txt"
	guest_results "$label" "$d"
	sed -n 's/^# holds-summary: //p' "$d/transcript.txt" >>"$out/holds.txt"
	if [ "$label" = debug ]; then
		local n
		n=$(grep -cE "$debug_reports" "$d/console.log" || true)
		sed -n 's/^# debug-summary: //p' "$d/transcript.txt" | sed "s/\$/, $n console reports/" >>"$out/debug-summary.txt"
		if [ "$n" = 0 ]; then
			result PASS "$label" "console: no lockdep, KCSAN, atomic-sleep or other WARNING/BUG report"
		else
			result FAIL "$label" "console: $n reports: $(grep -m3 -E "$debug_reports" "$d/console.log" | tr '\n' ';')"
		fi
	fi
}

IFS=, read -r -a labels <<<"$only"

# Downloads and unpacks (linux-source-7.3, the stock and generation kernels,
# busybox for the guests' architectures) run in the background while the
# 6.1 and 6.12 kernels build; any other label waits for them first.
prefetch() {
	local label arch pat
	for label in "${labels[@]}"; do
		if read -r arch pat <<<"$(gen_guest "$label")" && [ -n "$arch" ]; then
			kt_xkernel "$arch" "$pat" >/dev/null
			[ "$arch" = amd64 ] || kt_xbusybox "$arch" >/dev/null
			continue
		fi
		if read -r _ arch _ <<<"$(new_guest "$label")" && [ -n "$arch" ]; then
			kt_need_source 7.3 >/dev/null
			[ "$arch" = amd64 ] || kt_xbusybox "$arch" >/dev/null
			continue
		fi
		case $label in
		patched-7.3) kt_need_source 7.3 >/dev/null ;;
		stock-*) kt_debian_kernel "${label#stock-}" >/dev/null ;;
		esac
	done
}
prefetch >"$out/fetch.log" 2>&1 &
prefetch_pid=$!
fetched() {
	[ -n "$prefetch_pid" ] || return 0
	# wait(a): the downloads end; the test's 2700 s.
	wait "$prefetch_pid" || kt_log "a background download failed, see $out/fetch.log"
	prefetch_pid=
}

for label in "${labels[@]}"; do
	case $label in patched-6.1 | patched-6.12) ;; *) fetched ;; esac
	if gen_guest "$label" >/dev/null; then
		boot_gen "$label"
		continue
	fi
	if new_guest "$label" >/dev/null; then
		boot_new "$label"
		continue
	fi
	kind=${label%-*}
	series=${label##*-}
	case $kind in
	patched)
		t0=$SECONDS
		if kernel=$(kt_build_kernel "$series" "$(series_patch "$series")" \
			"$here/kernel.config" 2>"$out/build-$series.log"); then
			result PASS "$label" "kernel build ($((SECONDS - t0)) s)"
			build_s=$((build_s + SECONDS - t0))
		else
			result FAIL "$label" "kernel build failed, see $out/build-$series.log"
			tail -n 20 "$out/build-$series.log" | sed 's/^/    /'
			continue
		fi
		;;
	stock) kernel=$(kt_debian_kernel "$series") ;;
	*) kt_die "unknown label $label" ;;
	esac
	boot_one "$label" "$kind" "$series" "$kernel"
done

if [ -s "$out/holds.txt" ]; then
	echo "largest pages per zone->lock hold (label, page size, scale, default batch, bound, max, batch=largest):"
	sed 's/^/    /' "$out/holds.txt"
fi
if [ -s "$out/debug-summary.txt" ]; then
	echo "debug guest: $(cat "$out/debug-summary.txt")"
fi
if [ -s "$out/exit-codes.txt" ]; then
	echo "exit codes (uname, arch, page size, nodes, command=exit):"
	sed 's/^/    /' "$out/exit-codes.txt"
fi
echo "logs and guest transcripts: $out ($(($(date +%s) - start)) s, of which kernel builds or cache look-ups $build_s s)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
