#!/usr/bin/env bash
# Lists, or with --delete removes, everything the libvirt datacenter made on this host under one
# prefix: domains, files in the given directories, network links and namespaces, its nftables
# tables, and the dnsmasq and HAProxy processes it started.
#
#   scripts/libvirt-cleanup.sh [--delete] [--uri qemu:///system] PREFIX DIR...
#
# DIR: the hypervisor's imageDir and stateDir. Each line of the listing is `KIND NAME`
# (domain, file, link, netns, nft, process). Use it on a hypervisor that is out of service or for
# test runs: --delete also removes VMs the service still counts as running.
set -euo pipefail

delete=0
uri=qemu:///system
while [ $# -gt 0 ]; do
  case "$1" in
    --delete) delete=1; shift ;;
    --uri) uri=$2; shift 2 ;;
    *) break ;;
  esac
done
prefix=${1:?usage: libvirt-cleanup.sh [--delete] [--uri URI] PREFIX DIR...}
shift
[[ "$prefix" =~ ^[a-z][a-z0-9]{1,3}$ ]] || { echo "prefix must be 2-4 lower-case letters or digits" >&2; exit 2; }

domains=$(virsh -c "$uri" -q list --all --name 2>/dev/null | grep "^$prefix-" || true)
files=$(for d in "$@"; do [ -d "$d" ] && find "$d" -maxdepth 1 -name "$prefix-*" 2>/dev/null; done || true)
links=$(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep "^$prefix" || true)
namespaces=$(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-" || true)
tables=$(nft list tables 2>/dev/null | awk -v p="$prefix" '$3 == p {print $2 " " $3}' || true)
processes=$(for d in "$@"; do ps -eo pid=,args= | grep -F -- "$d/$prefix-" | grep -v -e grep -e libvirt-cleanup || true; done)

if [ "$delete" = 0 ]; then
  for x in $domains; do echo "domain $x"; done
  for x in $files; do echo "file $x"; done
  for x in $links; do echo "link $x"; done
  for x in $namespaces; do echo "netns $x"; done
  [ -z "$tables" ] || echo "$tables" | sed 's/^/nft /'
  [ -z "$processes" ] || echo "$processes" | awk '{$1=$1; print "process " $0}'
  exit 0
fi

for x in $domains; do
  virsh -c "$uri" -q destroy "$x" >/dev/null 2>&1 || true
  virsh -c "$uri" -q undefine "$x" >/dev/null 2>&1 || true
done
[ -z "$processes" ] || echo "$processes" | awk '{print $1}' | xargs -r kill 2>/dev/null || true
for x in $namespaces; do ip netns del "$x" 2>/dev/null || true; done
for x in $links; do ip link del "$x" 2>/dev/null || true; done
[ -z "$tables" ] || echo "$tables" | while read -r family name; do nft delete table "$family" "$name" 2>/dev/null || true; done
for x in $files; do rm -rf "$x"; done
