#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The systemd units of the textfile export.
#   units verify PCPCTL     systemd-analyze verify on the service and the timer,
#                           with ExecStart pointing at PCPCTL and the man page
#                           found where man looks; skipped (77) without
#                           systemd-analyze.
#   units capset PCPCTL     export with no capability and a seccomp filter that
#                           refuses capset (EPERM), as the unit's may.
#   units execstart PCPCTL  the service's ExecStart line run as it stands, but
#                           without systemd: in a private mount namespace whose
#                           /var/lib is an empty tmpfs, with an empty
#                           environment and PCPCTL as the installed binary.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mode=$1
pcpctl=$(realpath "$2")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir

# The units as cmake installs them, with @SBINDIR@ a directory holding PCPCTL.
mkdir -p "$work/sbin" "$work/units" "$work/man/man8"
cp "$pcpctl" "$work/sbin/pcpctl"
sed "s|@SBINDIR@|$work/sbin|g" "$src/systemd/pcpctl-textfile.service.in" \
	>"$work/units/pcpctl-textfile.service"
cp "$src/systemd/pcpctl-textfile.timer" "$work/units/"
cp "$src/man/pcpctl.8" "$work/man/man8/"

case $mode in
verify)
	if ! command -v systemd-analyze >/dev/null; then
		echo "SKIP systemd-analyze is not installed (Debian's systemd package): units not verified"
		exit 77
	fi
	for u in pcpctl-textfile.service pcpctl-textfile.timer; do
		if out=$(MANPATH=$work/man systemd-analyze verify "$work/units/$u" 2>&1) && [ -z "$out" ]; then
			ok "systemd-analyze verify $u"
		else
			bad "systemd-analyze verify $u"; sed 's/^/    /' <<<"$out"
		fi
	done
	grep -qx 'OnUnitActiveSec=15s' "$work/units/pcpctl-textfile.timer" &&
		ok "the timer runs the service every 15 s" || bad "the timer's period is not 15 s"
	# without ProtectClock, ProtectProc=invisible, SystemCallFilter= and the rest, 3.4
	score=$(systemd-analyze security --offline=yes "$work/units/pcpctl-textfile.service" 2>&1 |
		sed -n 's/.*Overall exposure level for pcpctl-textfile.service: \([0-9.]*\).*/\1/p')
	[ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 1.0) }' &&
		ok "systemd-analyze security scores the service $score, 1.0 at most" ||
		bad "systemd-analyze security scores the service ${score:-nothing}, above 1.0"
	;;
capset)
	# The service holds no capability (CapabilityBoundingSet=), and a seccomp
	# filter may refuse capset with EPERM (SystemCallFilter= with
	# SystemCallErrorNumber=EPERM): export runs all the same.  setpriv empties
	# the bounding and inheritable sets, so root's pcpctl starts with none.
	if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
		echo "SKIP needs root and setpriv"
		exit 77
	fi
	# Debian's python3, whose module python3-seccomp is
	need python3-seccomp || { echo "FAIL cannot install python3-seccomp"; exit 1; }
	mkdir "$work/out"
	setpriv --bounding-set=-all --inh-caps=-all /usr/bin/python3 -c '
import errno, os, sys, seccomp
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
f.add_rule(seccomp.ERRNO(errno.EPERM), "capset")
f.load()
os.execv(sys.argv[1], sys.argv[1:])
' "$work/sbin/pcpctl" export --output "$work/out/pcpctl.prom" >"$work/stdout" 2>"$work/stderr"
	rc=$?
	[ "$rc" = 0 ] && ok "export with no capability and capset refused (EPERM) exits 0" ||
		bad "export with capset refused exits $rc: $(cat "$work/stderr")"
	[ -s "$work/out/pcpctl.prom" ] && ok "and writes its file" || bad "and writes no file"
	setpriv --bounding-set=-all --inh-caps=-all /usr/bin/python3 -c '
import errno, os, sys, seccomp
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
f.add_rule(seccomp.ERRNO(errno.EPERM), "capset")
f.load()
os.execv(sys.argv[1], sys.argv[1:])
' "$work/sbin/pcpctl" --sysroot / sweep --fraction 0 --dry-run -- true >"$work/stdout" 2>"$work/stderr"
	[ $? != 0 ] && grep -q 'cannot drop capabilities' "$work/stderr" &&
		ok "a sweep that must keep CAP_SETUID is still refused when capset is" ||
		bad "a sweep went on without the capabilities its workload's user needs"
	;;
execstart)
	if [ "$(id -u)" != 0 ] || ! unshare --mount true 2>/dev/null; then
		echo "SKIP needs root and unshare --mount for a private /var/lib"
		exit 77
	fi
	need prometheus || { echo "FAIL cannot install prometheus (promtool)"; exit 1; }
	line=$(sed -n 's/^ExecStart=//p' "$work/units/pcpctl-textfile.service")
	out=/var/lib/prometheus/node-exporter/pcpctl.prom
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/sh -ec '
		mount -t tmpfs tmpfs /var/lib
		mkdir -p /var/lib/prometheus/node-exporter
		rc=0
		env -i $1 || rc=$?
		echo "$rc" >"$2/rc"
		ls -A /var/lib/prometheus/node-exporter >"$2/ls"
		cp /var/lib/prometheus/node-exporter/pcpctl.prom "$2/" 2>/dev/null || true
		stat -c %a /var/lib/prometheus/node-exporter/pcpctl.prom >"$2/mode" 2>/dev/null || true
	' sh "$line" "$work"
	[ "$(cat "$work/rc")" = 0 ] && ok "ExecStart=$line exits 0" ||
		bad "ExecStart=$line exits $(cat "$work/rc")"
	[ "$(cat "$work/ls")" = pcpctl.prom ] && ok "it leaves $out and nothing else" ||
		bad "the directory holds: $(tr '\n' ' ' <"$work/ls")"
	[ "$(cat "$work/mode" 2>/dev/null)" = 644 ] && ok "$out is mode 644 (node_exporter runs as prometheus)" ||
		bad "$out has mode $(cat "$work/mode" 2>/dev/null)"
	if msg=$(promtool check metrics <"$work/pcpctl.prom" 2>&1) && [ -z "$msg" ]; then
		ok "promtool check metrics passes on it"
	else
		bad "promtool check metrics: $msg"
	fi
	# This machine's zones and CPUs, as pcpctl show sees them.
	want=$("$pcpctl" show --summary --raw --noheadings -o NODE,ZONE,CPUS |
		awk '{printf "pcpctl_pcp_cpus{node=\"%s\",zone=\"%s\"} %s\n", $1, $2, $3}')
	got=$(grep '^pcpctl_pcp_cpus{' "$work/pcpctl.prom")
	[ -n "$want" ] && [ "$want" = "$got" ] && ok "its zones and CPUs are this machine's" ||
		bad "zones and CPUs: got $got, want $want"
	;;
*)
	echo "usage: units.sh verify|execstart|capset PCPCTL" >&2
	exit 2
	;;
esac
finish
