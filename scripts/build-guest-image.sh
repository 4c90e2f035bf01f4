#!/usr/bin/env bash
# Builds the small test guest of the libvirt datacenter from Debian packages only
# (linux-image-cloud-amd64, busybox-static, qemu-utils):
#
#   scripts/build-guest-image.sh OUTPUT_DIR
#
# OUTPUT_DIR gets
#   vmlinuz      the Debian cloud kernel
#   initrd.img   a busybox initramfs: the whole guest (no root file system)
#   disk.qcow2   an empty 1 GiB base disk: each VM's boot disk is a copy-on-write overlay of it
#   image.json   the `images` entry for LIBVIRT_CONFIG (see README, "The libvirt datacenter")
#
# The guest reads its settings from the kernel command line (the adapter writes them):
#   guest.name=NAME           the VM's reference; served by httpd and printed on the console
#   guest.mac=MAC guest.ip=A.B.C.D/N guest.gw=A.B.C.D
#                             the public NIC (found by its MAC) gets that address statically
#   guest.keys=TYPE:BASE64,…  SSH public keys; the guest prints their SHA256 fingerprints
#   guest.rescue=1            it runs as the rescue system (the VM's own disks are attached)
# Every other NIC (private networks, also those plugged in while it runs) asks DHCP for its
# address (the network's dnsmasq holds a reservation for the NIC's MAC).
#
# Once up it prints `GUEST-UP <name>` on the serial console and serves:
#   httpd on ports 80 and 8080: `/` is the VM's name; /cgi-bin/info its addresses, disks, vCPUs, memory and keys;
#     /cgi-bin/probe?host=A.B.C.D&port=N answers `open` or `closed` (a TCP connect from the guest);
#     /cgi-bin/slow answers the name after 3 s (a request in flight, for balancer reloads)
#     /cgi-bin/boot the kernel's boot id (new at every boot) and `rescue yes|no`
#     /cgi-bin/marker the word kept at the start of the disk vda; ?set=WORD writes it there
#     /cgi-bin/load `load on|off`; ?start starts a busy loop (one at most), ?stop ends it
#   a TCP listener on port 9000 (busybox nc) that answers with the VM's name
#   a shell on the serial port ttyS0 (getty without login), for `virsh console`
# The ACPI power button (virsh shutdown) powers it off.
#
# Re-running with unchanged inputs rewrites nothing (the output's stamp holds their checksums).
set -euo pipefail

out=${1:?usage: build-guest-image.sh OUTPUT_DIR}
kernel=${GUEST_KERNEL:-$(ls -1 /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$kernel" ] && [ -f "$kernel" ] || { echo "no cloud kernel in /boot: apt-get install linux-image-cloud-amd64" >&2; exit 1; }
version=${kernel#*/vmlinuz-}
moddir=/lib/modules/$version/kernel
busybox=/bin/busybox
# (grep without -q reads the whole list: with -q it exits at the match and pipefail fails on busybox's SIGPIPE)
[ -x "$busybox" ] && "$busybox" --list | grep -x httpd >/dev/null || { echo "no static busybox with httpd: apt-get install busybox-static" >&2; exit 1; }
command -v qemu-img >/dev/null || { echo "qemu-img missing: apt-get install qemu-utils" >&2; exit 1; }

# insmod order matters: each module after the ones whose symbols it uses
modules="drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev
drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci net/core/failover drivers/net/net_failover
drivers/net/virtio_net drivers/block/virtio_blk drivers/acpi/button drivers/input/evdev"

self_sum=$(sha256sum "$0" | cut -c1-64)
stamp="$self_sum $(sha256sum "$kernel" "$busybox" | cut -c1-64 | tr '\n' ' ')"
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/initrd.img" ] && [ -f "$out/disk.qcow2" ]; then
  exit 0
fi

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,etc/acpi/PWRF,lib/modules,www/cgi-bin,run}
cp "$busybox" "$root/bin/busybox"
for m in $modules; do
  src=$moddir/$m.ko
  if [ -f "$src" ]; then cp "$src" "$root/lib/modules/"
  elif [ -f "$src.xz" ]; then xz -dc "$src.xz" >"$root/lib/modules/$(basename "$m").ko"
  else echo "kernel module $m missing in $moddir" >&2; exit 1
  fi
done
echo "$modules" | tr ' ' '\n' | sed 's#.*/##' | grep -v '^$' >"$root/lib/modules/order"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/modules/order); do insmod "/lib/modules/$m.ko" 2>/dev/null; done

param() { for w in $(cat /proc/cmdline); do case "$w" in "$1="*) echo "${w#*=}"; return;; esac; done; }
NAME=$(param guest.name)
MAC=$(param guest.mac)
IP=$(param guest.ip)
GW=$(param guest.gw)
KEYS=$(param guest.keys)
[ -n "$NAME" ] || NAME=guest
hostname "$NAME"
echo "$NAME" >/etc/guest-name
ip link set lo up

# the SSH keys it was given, as `ssh-keygen -lf` shows them
: >/etc/guest-keys
for k in $(echo "$KEYS" | tr ',' ' '); do
  type=${k%%:*}
  hex=$(echo "${k#*:}" | base64 -d 2>/dev/null | sha256sum | cut -c1-64)
  fp=$(printf "$(echo "$hex" | sed 's/../\\x&/g')" | base64 | tr -d '=\n')
  echo "SHA256:$fp ($type)" >>/etc/guest-keys
done
while read -r line; do echo "guest-key: $line" >/dev/console; done </etc/guest-keys

cat >/etc/udhcpc.sh <<'EOS'
#!/bin/sh
case "$1" in
  deconfig) ip addr flush dev "$interface"; ip link set "$interface" up ;;
  bound|renew)
    eval "$(ipcalc -p "$ip" "$subnet")"
    ip addr flush dev "$interface"
    ip addr add "$ip/$PREFIX" dev "$interface"
    echo "guest-dhcp: $interface $ip/$PREFIX" >/dev/console ;;
esac
EOS
chmod +x /etc/udhcpc.sh

configure() {
  dev=$1
  mac=$(cat "/sys/class/net/$dev/address")
  ip link set "$dev" up
  if [ -n "$MAC" ] && [ "$mac" = "$MAC" ]; then
    ip addr add "$IP" dev "$dev"
    [ -n "$GW" ] && ip route add default via "$GW" dev "$dev"
  else
    udhcpc -b -i "$dev" -s /etc/udhcpc.sh -t 3 -T 1 -A 1 -p "/run/udhcpc.$dev.pid" >/dev/null 2>&1
  fi
}
seen=" lo "
scan() {
  for path in /sys/class/net/*; do
    dev=${path##*/}
    case "$seen" in *" $dev "*) continue;; esac
    seen="$seen$dev "
    configure "$dev"
  done
  # a NIC unplugged and another plugged in may reuse its name: forget the ones that are gone
  for dev in $seen; do [ -e "/sys/class/net/$dev" ] || seen=$(echo "$seen" | sed "s/ $dev / /"); done
}
scan

echo "$NAME" >/www/index.html
httpd -p 80 -h /www
httpd -p 8080 -h /www
printf '#!/bin/sh\ncat /etc/guest-name\n' >/bin/guest-hello
chmod +x /bin/guest-hello
nc -ll -p 9000 -e /bin/guest-hello &
mkdir -p /var/log /var/run
acpid -c /etc/acpi -l /var/log/acpid.log
grep -qw guest.rescue=1 /proc/cmdline && echo "GUEST-RESCUE $NAME" >/dev/console
# a shell on the serial port for `virsh console` (the web console), respawned when it exits
printf '#!/bin/sh\nexec /bin/sh -l\n' >/bin/guest-shell
chmod +x /bin/guest-shell
echo 'export HOME=/ PS1="root@$(hostname):\w# "' >/etc/profile
(while true; do getty -n -l /bin/guest-shell -L 115200 ttyS0 vt100; done) &
echo "GUEST-UP $NAME" >/dev/console
while true; do sleep 1; scan; done
EOF
chmod +x "$root/init"

cat >"$root/www/cgi-bin/info" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
echo "name $(cat /etc/guest-name)"
ip -o -4 addr show | awk '{print "addr", $2, $4}'
for d in /sys/block/vd*; do [ -e "$d" ] && echo "disk ${d##*/} $(( $(cat "$d/size") * 512 ))"; done
echo "cpus $(grep -c '^processor' /proc/cpuinfo)"
awk '/^MemTotal:/ {print "memory_kb", $2}' /proc/meminfo
sed 's/^/key /' /etc/guest-keys
EOF
cat >"$root/www/cgi-bin/probe" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
host=$(echo "$QUERY_STRING" | sed -n 's/.*host=\([0-9.]*\).*/\1/p')
port=$(echo "$QUERY_STRING" | sed -n 's/.*port=\([0-9]*\).*/\1/p')
[ -n "$host" ] && [ -n "$port" ] || { echo "usage: ?host=A.B.C.D&port=N"; exit 0; }
if echo | nc -w 1 "$host" "$port" >/dev/null 2>&1; then echo open; else echo closed; fi
EOF
cat >"$root/www/cgi-bin/slow" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
sleep 3
cat /etc/guest-name
EOF
cat >"$root/www/cgi-bin/boot" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
echo "boot $(cat /proc/sys/kernel/random/boot_id)"
if grep -qw guest.rescue=1 /proc/cmdline; then echo "rescue yes"; else echo "rescue no"; fi
EOF
# the first sector of vda holds `MARK:<word>` (the empty base image reads as zeros)
cat >"$root/www/cgi-bin/marker" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
word=$(echo "$QUERY_STRING" | sed -n 's/.*set=\([A-Za-z0-9_-]*\).*/\1/p')
if [ -n "$word" ]; then
  printf 'MARK:%s\n' "$word" | dd of=/dev/vda bs=512 count=1 conv=sync,notrunc 2>/dev/null
  sync
fi
dd if=/dev/vda bs=512 count=1 2>/dev/null | tr -d '\000' | sed -n 's/^MARK://p'
EOF
# a busy loop for CPU metrics and alerts: ?start starts one (at most one), ?stop ends it; the answer
# says whether one runs (the loop's descriptors are closed, so httpd ends the request at once)
cat >"$root/www/cgi-bin/load" <<'EOF'
#!/bin/sh
printf 'Content-Type: text/plain\r\n\r\n'
running() { [ -s /run/load.pid ] && kill -0 "$(cat /run/load.pid)" 2>/dev/null; }
case "$QUERY_STRING" in
  start) running || { (while :; do :; done) </dev/null >/dev/null 2>&1 & echo $! >/run/load.pid; } ;;
  stop) running && kill "$(cat /run/load.pid)"; rm -f /run/load.pid ;;
esac
if running; then echo "load on"; else echo "load off"; fi
EOF
chmod +x "$root/www/cgi-bin/info" "$root/www/cgi-bin/probe" "$root/www/cgi-bin/slow" "$root/www/cgi-bin/boot" "$root/www/cgi-bin/marker" "$root/www/cgi-bin/load"
# busybox acpid runs every script in CONFDIR/<event> for an event
printf '#!/bin/sh\necho "guest-power-off" >/dev/console\nsync\npoweroff -f\n' >"$root/etc/acpi/PWRF/00000080"
chmod +x "$root/etc/acpi/PWRF/00000080"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -9) >"$work/initrd.img"
cp "$kernel" "$work/vmlinuz"
qemu-img create -q -f qcow2 "$work/disk.qcow2" 1G
cat >"$work/image.json" <<EOF
{ "disk": "$out/disk.qcow2", "kernel": "$out/vmlinuz", "initrd": "$out/initrd.img", "readyPattern": "GUEST-UP " }
EOF
for f in vmlinuz initrd.img disk.qcow2 image.json; do mv -f "$work/$f" "$out/$f"; done
chmod 0644 "$out"/vmlinuz "$out"/initrd.img "$out"/disk.qcow2 "$out"/image.json
echo "$stamp" >"$out/stamp"
