#!/usr/bin/env bash
# Builds a real Debian 12 cloud image for the libvirt datacenter from Debian packages only
# (systemd, openssh-server, cloud-init, the cloud kernel, the QEMU guest agent, which udev starts
# when the domain's org.qemu.guest_agent.0 channel appears), with the machine's own apt sources:
#
#   scripts/build-real-image.sh OUTPUT_DIR
#
# OUTPUT_DIR gets
#   disk.qcow2   the image each VM's boot disk overlays (MBR, syslinux on a small FAT partition,
#                the root file system on partition 2, grown to the VM's disk at first boot)
#   image.json   the `images` entry for LIBVIRT_CONFIG (see README, "The libvirt datacenter")
#
# The guest is configured by cloud-init from the NoCloud drive the adapter attaches (host name,
# network, SSH keys for the default user `debian`, who has sudo). Kept lean for a quick first
# boot: no recommends, docs or man pages; the datasource is fixed to NoCloud (no probing); only
# ed25519 and ECDSA host keys; the network waits for one link at most 20 s.
#
# Needs root and: mmdebstrap e2fsprogs dosfstools mtools syslinux syslinux-common fdisk qemu-utils.
# APT_SOURCES (default: the machine's deb822 sources file) says where packages come from.
# Re-running with unchanged inputs rewrites nothing (the output's stamp holds their checksums).
set -euo pipefail

out=${1:?usage: build-real-image.sh OUTPUT_DIR}
sources=${APT_SOURCES:-$(ls -1 /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)}
[ -n "$sources" ] && [ -f "$sources" ] || { echo "no deb822 apt sources file: set APT_SOURCES" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "build-real-image.sh runs as root (mmdebstrap, chroot)" >&2; exit 1; }
for tool in mmdebstrap mkfs.ext4 mkfs.vfat mcopy syslinux sfdisk qemu-img; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install mmdebstrap e2fsprogs dosfstools mtools syslinux syslinux-common fdisk qemu-utils" >&2; exit 1; }
done
mbr=/usr/lib/syslinux/mbr/mbr.bin
[ -f "$mbr" ] || { echo "$mbr missing: apt-get install syslinux-common" >&2; exit 1; }

stamp="$(sha256sum "$0" "$sources" | cut -c1-64 | tr '\n' ' ')"
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/disk.qcow2" ] && [ -f "$out/image.json" ]; then
  exit 0
fi

mkdir -p "$out"
work=$(mktemp -d /var/tmp/build-real-image.XXXXXX)
# --one-file-system: never into a mount mmdebstrap may have left in the tree if killed
trap 'rm -rf --one-file-system "$work"' EXIT
root=$work/root

packages=systemd-sysv,udev,dbus,openssh-server,cloud-init,cloud-guest-utils,fdisk,sudo,iproute2,linux-image-cloud-amd64,initramfs-tools,qemu-guest-agent

# Before the kernel is installed: a small initramfs with only what finds the root disk (ext4 is
# built in), and the virtio RNG, so the kernel's random pool is ready at once (an emulated CPU has
# no RDRAND, and cloud-init, sshd and Python wait for it).
essential_hook='
mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"
echo MODULES=list >"$1/etc/initramfs-tools/conf.d/lean.conf"
cat >"$1/etc/initramfs-tools/hooks/virtio-root" <<"EOF"
#!/bin/sh
[ "$1" = prereqs ] && exit 0
. /usr/share/initramfs-tools/hook-functions
manual_add_modules virtio_pci virtio_blk virtio_scsi virtio_rng
EOF
chmod 0755 "$1/etc/initramfs-tools/hooks/virtio-root"
'

mmdebstrap --variant=minbase --mode=root --include="$packages" \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --essential-hook="$essential_hook" \
  --customize-hook='chroot "$1" systemctl enable systemd-networkd.service' \
  --customize-hook='chroot "$1" systemctl mask e2scrub_reap.service apt-daily.timer apt-daily-upgrade.timer' \
  bookworm "$root" "$sources"

# cloud-init: the platform's NoCloud drive only, networkd, quick host keys
cat >"$root/etc/cloud/cloud.cfg.d/01_cloud_platform.cfg" <<'EOF'
# the platform attaches a NoCloud drive (ISO labelled cidata): look nowhere else
datasource_list: [ NoCloud ]
system_info:
  network:
    renderers: [ networkd ]
# RSA keys take seconds to make on an emulated CPU
ssh_genkeytypes: [ ed25519, ecdsa ]
manage_etc_hosts: true
EOF
echo 'LANG=C.UTF-8' >"$root/etc/default/locale"
mkdir -p "$root/etc/systemd/system/systemd-networkd-wait-online.service.d"
cat >"$root/etc/systemd/system/systemd-networkd-wait-online.service.d/any.conf" <<'EOF'
[Service]
ExecStart=
ExecStart=/lib/systemd/systemd-networkd-wait-online --any --timeout=20
EOF
# made per VM at first boot
rm -f "$root"/etc/ssh/ssh_host_*
: >"$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
echo localhost >"$root/etc/hostname"
rm -rf "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root"/tmp/*

uuid=$(cat /proc/sys/kernel/random/uuid)
echo "UUID=$uuid / ext4 defaults,discard,errors=remount-ro 0 1" >"$root/etc/fstab"
kernel=$(ls -1 "$root"/boot/vmlinuz-* | sort -V | tail -n 1)
initrd=$root/boot/initrd.img-${kernel##*/vmlinuz-}
[ -f "$initrd" ] || { echo "no initramfs for $kernel in the tree" >&2; exit 1; }

# partition 1: FAT with syslinux, the kernel and the initramfs; partition 2: ext4 from the tree
sector=512
boot_start=2048
boot_mib=64
boot_sectors=$((boot_mib * 1024 * 1024 / sector))
root_start=$((boot_start + boot_sectors))
tree_mib=$(du -sm --apparent-size "$root" | cut -f1)
root_mib=$(((tree_mib * 13 / 10 + 256 + 63) / 64 * 64))
root_sectors=$((root_mib * 1024 * 1024 / sector))

cat >"$work/syslinux.cfg" <<EOF
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  LINUX /vmlinuz
  INITRD /initrd.img
  APPEND root=UUID=$uuid ro console=tty0 console=ttyS0,115200
EOF
mkfs.vfat -F 16 -n BOOT -h $boot_start -C "$work/boot.img" $((boot_mib * 1024)) >/dev/null
mcopy -i "$work/boot.img" "$kernel" ::vmlinuz
mcopy -i "$work/boot.img" "$initrd" ::initrd.img
mcopy -i "$work/boot.img" "$work/syslinux.cfg" ::syslinux.cfg

mkfs.ext4 -q -F -L root -U "$uuid" -d "$root" "$work/root.img" "${root_mib}M"

truncate -s $(((root_start + root_sectors) * sector)) "$work/disk.raw"
sfdisk -q "$work/disk.raw" <<EOF
label: dos
unit: sectors
start=$boot_start, size=$boot_sectors, type=6, bootable
start=$root_start, size=$root_sectors, type=83
EOF
dd if="$mbr" of="$work/disk.raw" bs=440 count=1 conv=notrunc status=none
dd if="$work/boot.img" of="$work/disk.raw" bs=$sector seek=$boot_start conv=notrunc,sparse status=none
dd if="$work/root.img" of="$work/disk.raw" bs=1M seek=$((root_start * sector)) oflag=seek_bytes conv=notrunc,sparse status=none
# syslinux's loader into the FAT partition, found at its offset in the whole disk
syslinux --install --offset $((boot_start * sector)) "$work/disk.raw"
qemu-img convert -c -O qcow2 "$work/disk.raw" "$work/disk.qcow2"

cat >"$work/image.json" <<EOF
{ "disk": "$out/disk.qcow2" }
EOF
for f in disk.qcow2 image.json; do mv -f "$work/$f" "$out/$f"; done
chmod 0644 "$out/disk.qcow2" "$out/image.json"
echo "$stamp" >"$out/stamp"
