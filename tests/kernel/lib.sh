# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Shared pieces for booting kernels under QEMU (TCG) with a busybox initramfs.
#
# Sourced by tests/kernel/capture-zoneinfo.sh and tests/kernel/run.sh.
#
# Channels: the guest's kernel console is ttyS0 (kept in console.log for
# debugging); the guest's test output goes to a second UART, ttyS1, which the
# host records in data.log.  Inside data.log, files are framed by marker lines
#   @@KT-BEGIN <name>@@ ... @@KT-END <name> rc=<n>@@
# and the guest ends with @@KT-DONE@@ so the host can tell a clean finish from
# a crash or a timeout.  kt_section extracts one framed block.

KT_LIBDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KT_CACHE=${PCPCTL_KCACHE:-/var/cache/pcpctl-kernel}
# wait(b): 900 s per boot; panic=-1 and -no-reboot end QEMU at once on a panic, so it is left for a
#   hang.
KT_QEMU_TIMEOUT=${KT_QEMU_TIMEOUT:-900}

kt_log() { printf '[kt] %s\n' "$*" >&2; }
kt_die() { printf '[kt] error: %s\n' "$*" >&2; exit 1; }

# kt_need_pkgs PKG... : apt-get install whatever is not installed yet.
kt_need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	kt_log "installing: ${missing[*]}"
	# The lock of the tests that change the machine's packages (doc_deb_install
	# holds it while it compares the package set before and after).
	# wait(a): no other project script changes packages, then the dpkg lock is free (900 s); the
	#   test's 2700 s.
	(
		flock 9
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
			--no-install-recommends "${missing[@]}" >&2 || {
			apt-get -o DPkg::Lock::Timeout=900 update >&2
			DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
				--no-install-recommends "${missing[@]}" >&2
		}
	) 9>/tmp/pcpctl-dpkg.lock
}

kt_need_boot_tools() {
	kt_need_pkgs qemu-system-x86 busybox-static cpio gzip coreutils
}

# The machine's own Debian archive URIs (deb822 sources or one-line
# sources.list), read at run time so that no host name sits in the tree.
kt_debian_uris() {
	{
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk 'BEGIN { RS = ""; FS = "\n" }
			/(^|\n)Suites:[^\n]*(bookworm|trixie)([ \t]|\n|$)/ {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); print $i }
			}'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" && $0 ~ / (bookworm|trixie) / {
				for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }'
	} | tr ' ' '\n' | grep -v -e security -e '^$' | awk '!seen[$0]++'
}

# kt_papt DIR SUITES ARCHS TOOL ARGS... : apt-get or apt-cache with a private
# configuration: a deb822 sources file with the machine's own Debian URIs
# (read from /etc/apt at run time), SUITES (space-separated) and Signed-By
# the archive keyring, for the architectures ARCHS (space-separated; empty:
# the machine's); index and downloads under DIR, so the machine's sources
# and lists stay as they are.  The index is refreshed when the sources change.
kt_papt() {
	local d=$1 suites=$2 archs=$3 tool=$4 uris src a
	shift 4
	local opts=(-o Dir::Etc::sourceparts="$d/sources.list.d"
		-o Dir::Etc::sourcelist=/dev/null -o Dir::State::lists="$d/lists"
		-o Dir::Cache::archives="$d/archives" -o Dir::Cache::srcpkgcache=
		-o APT::Sandbox::User=root)
	# Several suites and architectures make a large index: keep apt's binary
	# cache of it beside it (one look-up 20 s without, 0.2 s with).
	if [ -n "$archs" ]; then
		opts+=(-o Dir::Cache::pkgcache="$d/pkgcache.bin")
	else
		opts+=(-o Dir::Cache::pkgcache=)
	fi
	for a in $archs; do opts+=(-o APT::Architectures::="$a"); done
	uris=$(kt_debian_uris | tr '\n' ' ')
	[ -n "$uris" ] || kt_die "no Debian URIs found in the machine's apt sources"
	src=$(printf '%s\n' 'Types: deb' "URIs: ${uris% }" "Suites: $suites" \
		'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg')
	if [ ! -f "$d/.updated" ] || [ "$(cat "$d/sources.list.d/"*.sources 2>/dev/null)" != "$src" ]; then
		rm -rf "$d/sources.list.d" "$d/.updated" "$d/pkgcache.bin" "$KT_CACHE/debian/unserved"
		mkdir -p "$d/sources.list.d" "$d/lists/partial" "$d/archives/partial"
		printf '%s\n' "$src" >"$d/sources.list.d/private.sources"
		kt_log "apt-get update of $suites${archs:+ for $archs} (private configuration in $d)"
		TMPDIR=/var/tmp apt-get "${opts[@]}" update >&2 ||
			kt_die "apt-get update of $suites failed"
		touch "$d/.updated"
	fi
	TMPDIR=/var/tmp "$tool" "${opts[@]}" "$@"
}

# trixie-backports (linux-source-7.3 and the stock 7.3 kernel): kt_bpo TOOL ARGS...
kt_bpo() {
	kt_papt "$KT_CACHE/apt-bpo" trixie-backports "" "$@"
}

# Debian's prebuilt kernels of every generation and architecture the
# generation guests boot (guests.list): kt_xapt TOOL ARGS...
KT_X_SUITES="bullseye bookworm trixie trixie-backports"
KT_X_ARCHS="amd64 arm64 ppc64el"
kt_xapt() {
	kt_papt "$KT_CACHE/apt-multi" "$KT_X_SUITES" "$KT_X_ARCHS" "$@"
}

# kt_apt SERIES TOOL ARGS... : apt-get or apt-cache with the sources that
# carry SERIES: the machine's own, or trixie-backports for 7.3.
kt_apt() {
	local series=$1
	shift
	if [ "$series" = 7.3 ]; then kt_bpo "$@"; else "$@"; fi
}

# kt_debian_kernel_pkg SERIES : newest Debian cloud kernel package name of a
# series (6.1, 6.12 or 7.3).  PCPCTL_DEBIAN_KPKG_6_1 / _6_12 / _7_3 override
# it.  trixie-backports splits the image out of linux-image-*: its
# linux-binary-* package holds the vmlinuz.
kt_debian_kernel_pkg() {
	local series=$1 var pat prefix=linux-image-
	var=PCPCTL_DEBIAN_KPKG_${series//./_}
	if [ -n "${!var:-}" ]; then
		echo "${!var}"
		return
	fi
	case $series in
	6.1) pat='^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' ;;
	6.12) pat='^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64-unsigned$' ;;
	7.3) pat='^linux-binary-7\.3\.[0-9]+\+deb13-cloud-amd64$' prefix=linux-binary- ;;
	*) kt_die "unknown kernel series $series" ;;
	esac
	kt_apt "$series" apt-cache pkgnames "$prefix" | grep -E "$pat" | sort -V | tail -n1
}

# kt_debian_kernel SERIES : download and unpack a stock Debian kernel into the
# cache (once); prints the path of its vmlinuz.
kt_debian_kernel() {
	local series=$1 pkg dir deb
	pkg=$(kt_debian_kernel_pkg "$series")
	[ -n "$pkg" ] || kt_die "no Debian cloud kernel package found for $series (apt-get update?)"
	dir=$KT_CACHE/debian/$pkg
	if [ ! -f "$dir/.done" ]; then
		kt_log "fetching $pkg"
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		(cd "$dir/deb" && kt_apt "$series" apt-get download "$pkg" >&2)
		deb=$(ls "$dir"/deb/*.deb)
		dpkg-deb -x "$deb" "$dir/root"
		dpkg-deb -f "$deb" Package Version >"$dir/package"
		touch "$dir/.done"
	fi
	# 6.x packages keep it in /boot, trixie-backports' in /usr/lib/modules
	find "$dir/root" -path '*/boot/vmlinuz-*' -o -path '*/modules/*/vmlinuz' | sort | head -n1
}

# kt_debian_kernel_version VMLINUZ : "package version" line recorded at unpack.
kt_debian_kernel_desc() {
	local d=${1%%/root/*}
	if [ -f "$d/package" ]; then tr '\n' ' ' <"$d/package" | sed 's/ $//'; fi
}

# kt_mk_initramfs OUT GUEST_SCRIPT [SRC:DST]... : busybox initramfs whose init
# mounts the usual file systems and runs GUEST_SCRIPT (as /kt/guest) with its
# output on the data channel (see kt_boot).  Extra files are copied to DST
# inside the image.  Files under KT_INITRAMFS_EXTRA_DIR (if set) are merged
# in as a tree.  KT_BUSYBOX: another architecture's static busybox.
kt_mk_initramfs() {
	local out=$1 guest=$2 root spec
	shift 2
	root=$(mktemp -d "${TMPDIR:-/tmp}/kt-initramfs.XXXXXX")
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,run,tmp,etc,kt,usr/bin,usr/sbin,root}
	cp "${KT_BUSYBOX:-/bin/busybox}" "$root/bin/busybox"
	cp "$KT_LIBDIR/guest-lib.sh" "$root/kt/lib.sh"
	cp "$guest" "$root/kt/guest"
	chmod 755 "$root/kt/guest"
	for spec in "$@"; do
		mkdir -p "$root/$(dirname "${spec#*:}")"
		cp -L "${spec%%:*}" "$root/${spec#*:}"
	done
	if [ -n "${KT_INITRAMFS_EXTRA_DIR:-}" ]; then
		cp -a "$KT_INITRAMFS_EXTRA_DIR/." "$root/"
	fi
	cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=755 run /run
mount -t tmpfs tmpfs /tmp
# nobody: the user a sweep's workload runs as
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root
# kt_data=console: the report shares the console, and only emergencies may
# interleave with it from here on
data=/dev/ttyS1
if grep -q 'kt_data=console' /proc/cmdline; then
	data=/dev/console
	echo 1 >/proc/sys/kernel/printk
fi
stty -F "$data" raw -echo 2>/dev/null
. /kt/lib.sh
{
	echo "@@KT-START@@"
	. /kt/guest
	echo "@@KT-DONE@@"
} >"$data" 2>&1
# reboot -f flushes nothing: stty sets the mode with TCSADRAIN, which returns
# once the tty has sent the whole report (a loaded host only takes longer)
# wait(a): the tty has sent the whole report before reboot -f; the boot's 900 s.
stty -F "$data" raw -echo 2>/dev/null
reboot -f
EOF
	chmod 755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -1 >"$out"
	rm -rf "$root"
}

# kt_topology NAME : qemu arguments for a named machine shape.
#   1cpu          1 CPU, 4 GiB (DMA, DMA32 and Normal populated)
#   4cpu-2node    4 CPUs, cpus 0-1 on node 0 and 2-3 on node 1, 2 GiB each
#   4cpu-2node-dimms  as 4cpu-2node with 1 GiB per node and a 512 MiB
#                 pc-dimm per node (memory hotplug; x86 only)
#   cpuless-node  4 CPUs, nodes 0 (cpus 0-1) and 1 (cpus 2-3) with 1 GiB each,
#                 node 2 with 1 GiB of memory and no CPU
kt_topology() {
	case $1 in
	1cpu) echo "-smp 1 -m 4G" ;;
	4cpu-1node) echo "-smp 4 -m 4G" ;;
	4cpu-2node)
		echo "-smp 4 -m 4G" \
			"-object memory-backend-ram,id=m0,size=2G -numa node,nodeid=0,cpus=0-1,memdev=m0" \
			"-object memory-backend-ram,id=m1,size=2G -numa node,nodeid=1,cpus=2-3,memdev=m1"
		;;
	4cpu-2node-dimms)
		# as 4cpu-2node with 1 GiB per node, and a 512 MiB pc-dimm per
		# node plugged at boot: memory blocks for the guest to online
		echo "-smp 4 -m 2G,slots=4,maxmem=4G" \
			"-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,cpus=0-1,memdev=m0" \
			"-object memory-backend-ram,id=m1,size=1G -numa node,nodeid=1,cpus=2-3,memdev=m1" \
			"-object memory-backend-ram,id=d0,size=512M -device pc-dimm,id=dimm0,memdev=d0,node=0" \
			"-object memory-backend-ram,id=d1,size=512M -device pc-dimm,id=dimm1,memdev=d1,node=1"
		;;
	cpuless-node)
		echo "-smp 4 -m 3G" \
			"-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,cpus=0-1,memdev=m0" \
			"-object memory-backend-ram,id=m1,size=1G -numa node,nodeid=1,cpus=2-3,memdev=m1" \
			"-object memory-backend-ram,id=m2,size=1G -numa node,nodeid=2,memdev=m2"
		;;
	*) kt_die "unknown topology $1" ;;
	esac
}

# kt_quote ARG... : one shell-readable line, quoting only where needed.
kt_quote() {
	local a sep=''
	for a in "$@"; do
		if [[ $a =~ ^[A-Za-z0-9_=,./:+@%-]+$ ]]; then
			printf '%s%s' "$sep" "$a"
		else
			printf "%s'%s'" "$sep" "${a//\'/\'\\\'\'}"
		fi
		sep=' '
	done
	echo
}

# kt_boot KERNEL INITRD OUTDIR TOPOLOGY [KERNEL_ARGS] : boot once; console in
# OUTDIR/console.log, guest output in OUTDIR/data.log, the command line in
# OUTDIR/qemu.cmdline.  Returns 0 only when the guest reached @@KT-DONE@@.
# KT_ARCH (default amd64) picks the machine: amd64 reports on a second UART
# (ttyS1); arm64 (virt, -cpu max) and ppc64el (pseries, POWER9) have one
# console in QEMU 7.2 without modules, so their report follows the boot on
# it (kt_data=console) and data.log is the console from @@KT-START@@ on.
# KT_TCG_THREAD=single boots amd64 with one TCG thread for all vCPUs.
kt_boot() {
	local kernel=$1 initrd=$2 out=$3 topo=$4 extra=${5:-} cmd rc=0 machine
	mkdir -p "$out"
	: >"$out/console.log"
	: >"$out/data.log"
	case ${KT_ARCH:-amd64} in
	amd64) machine=(qemu-system-x86_64 -accel "tcg${KT_TCG_THREAD:+,thread=$KT_TCG_THREAD}" -cpu max -machine pc) ;;
	arm64) machine=(qemu-system-aarch64 -accel tcg -cpu max -machine virt) ;;
	ppc64el) machine=(qemu-system-ppc64 -accel tcg -cpu power9 -machine pseries) ;;
	*) kt_die "unknown KT_ARCH ${KT_ARCH}" ;;
	esac
	# shellcheck disable=SC2207
	cmd=("${machine[@]}" $(kt_topology "$topo")
		-nodefaults -display none -no-reboot -monitor none
		-kernel "$kernel" -initrd "$initrd")
	case ${KT_ARCH:-amd64} in
	amd64)
		cmd+=(-append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init${extra:+ $extra}"
			-serial "file:$out/console.log" -serial "file:$out/data.log") ;;
	arm64)
		cmd+=(-append "console=ttyAMA0 panic=-1 loglevel=4 rdinit=/init kt_data=console${extra:+ $extra}"
			-serial "file:$out/console.log") ;;
	ppc64el)
		cmd+=(-append "console=hvc0 panic=-1 loglevel=4 rdinit=/init kt_data=console${extra:+ $extra}"
			-serial "file:$out/console.log") ;;
	esac
	kt_quote "${cmd[@]}" >"$out/qemu.cmdline"
	# wait(b): 900 s per boot (KT_QEMU_TIMEOUT).
	timeout "$KT_QEMU_TIMEOUT" "${cmd[@]}" </dev/null >"$out/qemu.stdout" 2>&1 || rc=$?
	sed -i 's/\r$//' "$out/data.log" "$out/console.log"
	# the early console (pseries' udbg) may leave a line unfinished before the report
	[ "${KT_ARCH:-amd64}" = amd64 ] ||
		sed -n '/@@KT-START@@$/,$p' "$out/console.log" | sed '1s/.*@@KT-START@@$/@@KT-START@@/' >"$out/data.log"
	if [ $rc -ne 0 ]; then
		kt_log "qemu exited with $rc (124 = timeout) for $topo; see $out"
	fi
	grep -q '^@@KT-DONE@@$' "$out/data.log"
}

# kt_section DATALOG NAME : print the body of one framed block.
kt_section() {
	awk -v n="$2" '
		$0 == "@@KT-BEGIN " n "@@" { on = 1; next }
		on && index($0, "@@KT-END " n " rc=") == 1 { exit }
		on { print }' "$1"
}

# kt_transcript DATALOG : the guest output outside framed blocks.
kt_transcript() {
	awk '/^@@KT-BEGIN /{ on = 1; next } /^@@KT-END /{ on = 0; next }
		!on && !/^@@KT-(START|DONE)@@$/ { print }' "$1"
}

# kt_source_version SERIES : Debian version of linux-source-SERIES.
kt_source_version() {
	if [ "$1" = 7.3 ]; then
		cat "$KT_CACHE/src-7.3/version"
	else
		dpkg-query -W -f='${Version}' "linux-source-$1"
	fi
}

# kt_need_source SERIES : install linux-source-SERIES; 7.3 is fetched from
# trixie-backports into the cache instead, leaving the machine's packages as
# they are.  Prints the path of the source tarball.
kt_need_source() {
	local series=$1 d=$KT_CACHE/src-7.3 deb
	if [ "$series" != 7.3 ]; then
		kt_need_pkgs "linux-source-$series"
		echo "/usr/src/linux-source-$series.tar.xz"
		return
	fi
	if [ ! -f "$d/.done" ]; then
		rm -rf "$d"
		mkdir -p "$d/deb"
		(cd "$d/deb" && kt_bpo apt-get download linux-source-7.3 >&2) ||
			kt_die "cannot download linux-source-7.3"
		deb=$(ls "$d"/deb/linux-source-7.3_*.deb)
		dpkg-deb -x "$deb" "$d/root"
		dpkg-deb -f "$deb" Version >"$d/version"
		rm -f "$deb"
		touch "$d/.done"
	fi
	echo "$d/root/usr/src/linux-source-7.3.tar.xz"
}

# kt_fragment BASE [OVERLAY] [LINE]... : BASE's lines without the options
# OVERLAY or the LINEs set again, then OVERLAY, then the LINEs: one fragment
# whose every option kt_build_kernel can check (merge_config.sh would let the
# later line win, and the check would then fail on the earlier one).
kt_fragment() {
	local base=$1 overlay=${2:-} opts
	shift
	[ $# -eq 0 ] || shift
	opts=$({
		[ -z "$overlay" ] || cat "$overlay"
		printf '%s\n' "$@"
	} | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p')
	awk -v o="$opts" 'BEGIN { n = split(o, a, "\n"); for (i = 1; i <= n; i++) drop[a[i]] = 1 }
		{ k = $0; sub(/=.*/, "", k) } !(k in drop)' "$base"
	[ -z "$overlay" ] || cat "$overlay"
	[ $# -eq 0 ] || printf '%s\n' "$@"
}

# kt_build_kernel SERIES PATCH CONFIG_FRAGMENT [NAME] : build (or reuse) a
# tinyconfig kernel from Debian's linux-source-SERIES with PATCH applied (PATCH
# may be empty); prints the path of the cached image.  The cache key is a hash
# of the patch, the config fragment, the source package version and this
# function's recipe, so a repeated call with the same inputs builds nothing.
# Only the diff of the patch counts: a reworded commit message reuses the build.
# KT_ARCH=arm64 cross-builds with Debian's gcc-aarch64-linux-gnu (an Image
# instead of a bzImage; the architecture is part of the key).  NAME (default
# SERIES) names the cached image: $PCPCTL_KCACHE/kernels/NAME-<hash>.bzImage
# or .Image, with .config and .map beside it.
KT_BUILD_RECIPE=2
kt_build_kernel() {
	local series=$1 patch=$2 frag=$3 name=${4:-$1} srcver key dir img tarball line opt val got
	local arch=${KT_ARCH:-amd64} karch=x86_64 target=bzImage cross=
	frag=$(readlink -f "$frag")
	[ -z "$patch" ] || patch=$(readlink -f "$patch")
	kt_need_pkgs build-essential flex bison bc libelf-dev libssl-dev cpio \
		xz-utils python3
	case $arch in
	amd64) ;;
	arm64)
		kt_need_pkgs gcc-aarch64-linux-gnu
		karch=arm64 target=Image cross=aarch64-linux-gnu-
		;;
	*) kt_die "kt_build_kernel: no recipe for $arch" ;;
	esac
	tarball=$(kt_need_source "$series")
	srcver=$(kt_source_version "$series")
	key=$({
		echo "recipe $KT_BUILD_RECIPE series $series source $srcver"
		# amd64 keys as before the arm64 recipe existed: cached images stay valid
		[ "$arch" = amd64 ] || echo "arch $arch"
		[ -n "$patch" ] && sed -n '/^diff --git /,$p' "$patch"
		cat "$frag"
	} | sha256sum | cut -c1-16)
	img=$KT_CACHE/kernels/$name-$key.$target
	if [ -f "$img" ]; then
		kt_log "kernel $name ($key) cached"
		echo "$img"
		return 0
	fi
	[ -f "$tarball" ] || kt_die "$tarball missing"
	dir=$KT_CACHE/build/$name-$key
	rm -rf "$dir"
	mkdir -p "$dir" "$KT_CACHE/kernels"
	kt_log "building kernel $name ($key, $arch) in $dir"
	tar -xf "$tarball" -C "$dir" --strip-components=1
	if [ -n "$patch" ]; then
		patch -d "$dir" -p1 --batch --forward <"$patch" >&2 ||
			kt_die "$patch does not apply to linux-source-$series $srcver"
	fi
	local mk=(make -s ARCH="$karch" ${cross:+CROSS_COMPILE=$cross})
	(
		cd "$dir" || exit 1
		"${mk[@]}" tinyconfig >&2
		ARCH=$karch ./scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null
		"${mk[@]}" olddefconfig >&2
	)
	# every option of the fragment that this tree knows must have survived
	# olddefconfig (7.3 folded PROC_SYSCTL into SYSCTL, for one)
	find "$dir" -name 'Kconfig*' -exec grep -hE '^[[:space:]]*(menu)?config ' {} + |
		awk '{ print "CONFIG_" $2 }' | sort -u >"$dir/.kt-symbols"
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		if ! grep -qxF "$opt" "$dir/.kt-symbols"; then
			kt_log "$name: $opt does not exist in this tree, not checked"
			continue
		fi
		got=$(grep -E "^$opt=" "$dir/.config" | cut -d= -f2- || true)
		[ "$got" = "$val" ] || kt_die "$name: $opt=$val requested, .config has '${got:-unset}'"
	done <"$frag"
	local t0=$SECONDS
	(cd "$dir" && "${mk[@]}" -j"$(($(nproc) + 1))" "$target" >&2) ||
		kt_die "kernel $name build failed in $dir"
	kt_log "kernel $name ($key) built in $((SECONDS - t0)) s"
	cp "$dir/arch/${karch/x86_64/x86}/boot/$target" "$img.tmp"
	cp "$dir/.config" "$img.config"
	cp "$dir/System.map" "$img.map"
	mv "$img.tmp" "$img"
	[ -n "${KT_KEEP_BUILD:-}" ] || rm -rf "$dir"
	echo "$img"
}

# kt_xkernel ARCH PATTERN : download and unpack (once) the newest Debian
# kernel package of ARCH whose name matches the extended regex PATTERN,
# through kt_xapt; a newer package whose file the archive does not serve is
# passed over for the next one (and remembered in debian/unserved, so a
# warm run asks nothing).  Prints the kernel image's path.
kt_xkernel() {
	local arch=$1 pat=$2 pkg dir deb unserved=$KT_CACHE/debian/unserved
	for pkg in $(kt_xapt apt-cache pkgnames linux- | grep -E "$pat" | sort -rV | head -n 5); do
		dir=$KT_CACHE/debian/$pkg
		grep -qxF "$pkg:$arch" "$unserved" 2>/dev/null && continue
		if [ ! -f "$dir/.done" ]; then
			rm -rf "$dir"
			mkdir -p "$dir/deb"
			kt_log "fetching $pkg:$arch"
			if ! (cd "$dir/deb" && kt_xapt apt-get download "$pkg:$arch" >&2); then
				kt_log "$pkg:$arch cannot be downloaded; trying an older one"
				echo "$pkg:$arch" >>"$unserved"
				rm -rf "$dir"
				continue
			fi
			deb=$(ls "$dir"/deb/*.deb)
			dpkg-deb -x "$deb" "$dir/root"
			dpkg-deb -f "$deb" Package Version >"$dir/package"
			# the guests load no modules: keep the image only
			rm -f "$deb"
			find "$dir/root" -type f ! -name 'vmlinu[xz]*' -delete
			touch "$dir/.done"
		fi
		find "$dir/root" -path '*/boot/vmlinu[xz]-*' -o -path '*/modules/*/vmlinu[xz]' | sort | head -n1
		return 0
	done
	kt_die "no $arch kernel package matching $pat could be fetched"
}

# kt_xbusybox ARCH : busybox-static of ARCH (Debian 12's), unpacked once; prints its path.
kt_xbusybox() {
	local arch=$1 dir=$KT_CACHE/busybox-$1
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		(cd "$dir/deb" && kt_xapt apt-get download "busybox-static:$arch/bookworm" >&2) ||
			kt_die "cannot download busybox-static:$arch"
		dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
		rm -rf "$dir/deb"
		touch "$dir/.done"
	fi
	echo "$dir/root/bin/busybox"
}
