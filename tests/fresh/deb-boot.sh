#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fresh lane's root, with the packages installed (tests/fresh/deb.sh
# install), booted: its Debian kernel in QEMU, its own file system as the guest's
# over 9p, where tests/fresh/deb-guest.sh loads and reads what the packages
# installed. Then the exporter path with the real parts: the root's
# prometheus-node-exporter, on 127.0.0.1 and otherwise as Debian starts it
# (its textfile directory is Debian's default), reads the .prom file the guest's
# perfkstat wrote (perfkmod-prom.service's command); curl scrapes it:
# perfkmod_events_total comes back with each configured counter's name,
# and the textfile collector saw no error; and the root's Prometheus,
# scraping that node_exporter every second, answers the query
# perfkmod_events_total{name="N"} with the value of N in the file.
#
#   tests/fresh/deb-boot.sh ROOT OUTDIR     (as root, on the host)
#
# The initramfs holds busybox (the host's, as the test lanes') and the 9p
# modules of the root's kernel, in the order modprobe loads them; its init
# mounts the root and runs tests/fresh/deb-guest.sh there. QEMU exports the root
# bound once more without what is mounted under it (the lane's /proc,
# /sys and /dev are the host's): the guest mounts its own. OUTDIR gets the
# console (deb-boot.console), the scrape (deb-boot.metrics) and the two
# servers' logs. Prints what failed and exits 1 at the first failure.

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
root=${1:?usage: deb-boot.sh ROOT OUTDIR}
out=${2:?usage: deb-boot.sh ROOT OUTDIR}
console=$out/deb-boot.console
textfiles=/var/lib/prometheus/node-exporter
work=$(mktemp -d)
export=$work/export
exporter=""
prometheus=""

fail() { echo "deb-boot: $*" >&2; exit 1; }
cleanup() {
	local rc=$? p

	for p in $prometheus $exporter; do
		{ kill "$p" && wait "$p"; } 2>/dev/null || true
	done
	! mountpoint -q "$export" || umount "$export"
	rm -rf --one-file-system "$work" "$root/tmp/deb-boot"
	exit $rc
}
trap cleanup EXIT

images=$(ls "$root"/boot/vmlinuz-* 2>/dev/null) || fail "no kernel in $root/boot"
[ "$(echo "$images" | wc -l)" = 1 ] || fail "not one kernel in $root/boot: $images"
kver=${images##*/vmlinuz-}
rm -f "$root$textfiles/perfkmod.prom"

chroot "$root" modprobe -a -S "$kver" --show-depends virtio_pci 9pnet_virtio 9p \
	>"$work/depends" || fail "modprobe finds no 9p modules for $kver in the root"
awk '$1 == "insmod" && !seen[$2]++ { print $2 }' "$work/depends" >"$work/order"
{
	for d in /dev /proc /sys /bin /newroot /modules; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox /bin/busybox 0755 0 0"
	echo "file /init $work/init 0755 0 0"
	while read -r m; do
		echo "file /modules/${m##*/} $root$m 0644 0 0"
	done <"$work/order"
} >"$work/spec"
cat >"$work/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
for m in $(sed 's,.*/,,' "$work/order" | tr '\n' ' '); do
	insmod /modules/\$m || echo "deb-boot: insmod \$m failed"
done
r=/newroot
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 root \$r &&
	mount -t proc proc \$r/proc &&
	mount -t sysfs sysfs \$r/sys &&
	mount -t debugfs debugfs \$r/sys/kernel/debug &&
	mount -t devtmpfs devtmpfs \$r/dev &&
	mount -t tmpfs tmpfs \$r/tmp; then
	chroot \$r /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
		/bin/bash /root/perfkmod/tests/fresh/deb-guest.sh
else
	echo "deb-boot: cannot mount the root and its file systems"
fi
reboot -f
INIT
"$top/scripts/cpio.py" "$work/spec" "$work/initramfs.cpio"

mkdir "$export"
mount --bind "$root" "$export"
PERFKMOD_QEMU_EXTRA="-virtfs local,path=$export,mount_tag=root,security_model=passthrough" \
	"$top/scripts/vm.sh" x86_64 "$images" "$work/initramfs.cpio" "$console" 600
grep "^deb-guest: " "$console" || true
grep -q "^deb-guest: all passed" "$console" ||
	fail "the guest's checks did not all pass (console: $console)"
if grep -qE "BUG:|Oops|Call Trace|WARNING:" "$console"; then
	fail "the kernel reported a problem (console: $console)"
fi

# a free port on 127.0.0.1
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# node_exporter reads the guest's file; curl scrapes it on loopback
port=$(free_port)
chroot "$root" /usr/bin/prometheus-node-exporter \
	--web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
	--collector.textfile \
	>"$out/deb-boot.exporter.log" 2>&1 &
exporter=$!
for _ in $(seq 300); do
	chroot "$root" curl -sf "http://127.0.0.1:$port/metrics" \
		>"$out/deb-boot.metrics" 2>/dev/null && break
	kill -0 $exporter 2>/dev/null ||
		fail "node_exporter ended (log: $out/deb-boot.exporter.log)"
	sleep 0.1
done
[ -s "$out/deb-boot.metrics" ] || fail "node_exporter never answered on 127.0.0.1:$port"
grep -q '^node_textfile_scrape_error 0$' "$out/deb-boot.metrics" ||
	fail "node_exporter's textfile collector saw an error ($out/deb-boot.metrics)"
names=$(sed -n 's/^options perfkmod counters=//p' "$root/etc/modprobe.d/perfkmod.conf" |
	tr ';' '\n' | cut -d= -f1)
for n in $names; do
	grep -q "^perfkmod_events_total{.*name=\"$n\"" "$out/deb-boot.metrics" ||
		fail "no perfkmod_events_total for $n in node_exporter's scrape"
	echo "deb-boot: node_exporter serves perfkmod_events_total for $n"
done

# Prometheus scrapes node_exporter; each counter's value, queried through
# its HTTP API, is the one in the file once the first scrape is in
mkdir -p "$root/tmp/deb-boot"
cat >"$root/tmp/deb-boot/prometheus.yml" <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$port']
YML
pport=$(free_port)
chroot "$root" /usr/bin/prometheus --config.file=/tmp/deb-boot/prometheus.yml \
	--storage.tsdb.path=/tmp/deb-boot/data --web.listen-address="127.0.0.1:$pport" \
	>"$out/deb-boot.prometheus.log" 2>&1 &
prometheus=$!
for n in $names; do
	want=$(sed -n "s/^perfkmod_events_total{.*name=\"$n\".*} //p" \
		"$root$textfiles/perfkmod.prom")
	got=
	for _ in $(seq 600); do
		got=$(chroot "$root" curl -sf --data-urlencode \
			"query=perfkmod_events_total{name=\"$n\"}" \
			"http://127.0.0.1:$pport/api/v1/query" 2>/dev/null |
			python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")' 2>/dev/null) || true
		[ -z "$got" ] || break
		kill -0 $prometheus 2>/dev/null ||
			fail "Prometheus ended (log: $out/deb-boot.prometheus.log)"
		sleep 0.1
	done
	[ -n "$got" ] || fail "Prometheus never had perfkmod_events_total for $n"
	python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' \
		"$got" "$want" ||
		fail "Prometheus says $n is $got; perfkstat's file says $want"
	echo "deb-boot: Prometheus has perfkmod_events_total{name=\"$n\"} $got"
done
