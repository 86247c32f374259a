#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's prometheus-node-exporter, on 127.0.0.1 at a free port with only its
# textfile collector, reading a test directory where pcpctl export writes.
# Each pcpctl series of its /metrics must carry the value that pcpctl show
# --json and status --json give for the same fixture tree.  The exporter is
# stopped on every way out of this script.
# Usage: node-exporter.sh PCPCTL
set -u
here=$(cd "$(dirname "$0")" && pwd)
pcpctl=$(realpath "$1")
. "$(dirname "$(realpath "$0")")/../lib.sh"
workdir
exporter=''
cleanup() {
	if [ -n "$exporter" ]; then
		kill "$exporter" 2>/dev/null
		# wait(a): the stopped exporter is reaped.
		wait "$exporter" 2>/dev/null
	fi
}
at_exit cleanup
trap 'exit 130' INT
trap 'exit 143' TERM

need prometheus-node-exporter curl python3 || { echo "FAIL cannot install prometheus-node-exporter"; exit 1; }
bin=/usr/bin/prometheus-node-exporter

sysroot_tree "$work/t618" live-6.18-2cpu.zoneinfo --release 6.18.44 --page-kib 0 --nodes "" \
	percpu_pagelist_high_fraction=0 percpu_pagelist_batch=310 >/dev/null
sysroot_tree "$work/t612" debian-6.12-4cpu-2node-frac8.zoneinfo --release 6.12.117 --page-kib 0 \
	--nodes "" percpu_pagelist_high_fraction=8 >/dev/null
mkdir "$work/textfile"

# Polled until it answers (or exits): a busy machine only makes that later;
# the 300 s bound only ends a wait for an exporter that hangs.  A free port
# can be taken by another test before the exporter binds it: then it exits,
# and it is started again on another.
# wait(a): the exporter exited with "address already in use" (its free port was taken): up to 5
#   ports.
for attempt in 1 2 3 4 5; do
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$bin" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$work/textfile" >"$work/exporter.log" 2>&1 &
	exporter=$!
	url=http://127.0.0.1:$port/metrics
	end=$((SECONDS + 300))
	# wait(a): /metrics answers, or the exporter exits; 300 s, polled every 0.1 s (the test's
	#   600 s ends it first).
	until curl -fsS -o /dev/null "$url" 2>/dev/null; do
		kill -0 "$exporter" 2>/dev/null && [ "$SECONDS" -lt "$end" ] || break
		sleep 0.1
	done
	kill -0 "$exporter" 2>/dev/null && break
	grep -q 'address already in use' "$work/exporter.log" || break
	echo "# attempt $attempt: port $port was taken meanwhile"
	# wait(a): the exporter that lost its port has exited.
	wait "$exporter"
	exporter=''
done
if [ -n "$exporter" ] && curl -fsS -o /dev/null "$url"; then
	ok "node_exporter $("$bin" --version 2>&1 | head -1 | cut -d' ' -f3) serves $url"
else
	bad "node_exporter did not start"; sed 's/^/    /' "$work/exporter.log" | tail -5
	exit 1
fi

# scrape NAME TREE [--per-cpu]: export into the textfile directory, scrape, compare.
scrape() {
	local name=$1 root=$2 flag=${3:-}
	# shellcheck disable=SC2086 # flag is empty or one word
	if ! "$pcpctl" --sysroot "$root" export $flag --output "$work/textfile/pcpctl.prom"; then
		bad "$name: pcpctl export failed"
		return
	fi
	curl -fsS "$url" >"$work/$name.scrape"
	grep -q '^node_textfile_scrape_error 0$' "$work/$name.scrape" &&
		ok "$name: the textfile collector read pcpctl.prom without an error" ||
		bad "$name: node_textfile_scrape_error is not 0"
	# shellcheck disable=SC2086
	if python3 "$here/compare.py" "$pcpctl" "$root" "$work/$name.scrape" $flag >"$work/$name.cmp"; then
		ok "$name: $(tail -1 "$work/$name.cmp" | cut -c6-)"
	else
		bad "$name: scraped values differ from pcpctl's"; sed 's/^/    /' "$work/$name.cmp" | head -10
	fi
}
scrape 6.18-per-cpu "$work/t618" --per-cpu
# The file replaced under the running exporter: the next scrape has the new series only.
scrape 6.12-zones "$work/t612"
grep -q 'pcpctl_pcp_cpu_' "$work/6.12-zones.scrape" &&
	bad "6.12-zones: per-CPU series of the replaced file are still served" ||
	ok "6.12-zones: the replaced file's per-CPU series are gone"
[ "$(ls -A "$work/textfile")" = pcpctl.prom ] && ok "no temporary file left in the textfile directory" ||
	bad "the textfile directory holds $(ls -A "$work/textfile" | tr '\n' ' ')"

finish
