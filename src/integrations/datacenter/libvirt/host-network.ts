import type { Host } from './host.js';

/**
 * The host side of networking, as idempotent shell steps run on a hypervisor (each safe to run
 * again: it makes what is missing and leaves what is there).
 */

/** The public bridge; with `gateway` the host holds the network's .1 on it. */
export async function ensurePublicBridge(host: Host, bridge: string, gateway: string | null, forward: boolean): Promise<void> {
  await host.sh(
    `ip link show dev "$1" >/dev/null 2>&1 || ip link add "$1" type bridge
ip link set "$1" up
[ -z "$2" ] || ip addr replace "$2" dev "$1"
[ "$3" != 1 ] || sysctl -qw net.ipv4.ip_forward=1`,
    [bridge, gateway ?? '', forward ? '1' : '0'],
  );
}

export interface NetworkLinks {
  bridge: string;
  /** VXLAN to the other hypervisors of the location */
  vxlan: { device: string; vni: number; local: string; peers: string[] } | null;
}

/** The network's bridge (and its VXLAN port) on one hypervisor. */
export async function ensureNetworkLinks(host: Host, links: NetworkLinks): Promise<void> {
  const v = links.vxlan;
  await host.sh(
    `ip link show dev "$1" >/dev/null 2>&1 || ip link add "$1" type bridge
ip link set "$1" up
[ -n "$2" ] || exit 0
ip link show dev "$2" >/dev/null 2>&1 || ip link add "$2" type vxlan id "$3" local "$4" dstport 4789 nolearning
ip link set "$2" master "$1" up
dev=$2
shift 4
for peer in "$@"; do bridge fdb append 00:00:00:00:00:00 dev "$dev" dst "$peer" 2>/dev/null || true; done`,
    [links.bridge, v?.device ?? '', String(v?.vni ?? ''), v?.local ?? '', ...(v?.peers ?? [])],
  );
}

export interface DhcpSpec {
  bridge: string;
  namespace: string;
  vethHost: string;
  vethInside: string;
  /** the gateway address with its prefix, e.g. 10.0.1.1/24 */
  gateway: string;
  networkAddress: string;
  netmask: string;
  hostsFile: string;
  pidFile: string;
}

/**
 * The network's namespace on its home hypervisor: a veth into the bridge holding the gateway
 * address, and dnsmasq answering DHCP only for the reservations in the hosts file (no DNS, no
 * router option: a private network is not a way out). The namespace keeps overlapping customer
 * ranges apart; nothing routes between it and the host.
 */
export async function ensureDhcp(host: Host, d: DhcpSpec): Promise<void> {
  await host.sh(
    `set -e
ip netns list | grep -qw "$2" || ip netns add "$2"
ip link show dev "$3" >/dev/null 2>&1 || ip link add "$3" type veth peer name "$4" netns "$2"
ip link set "$3" master "$1" up
ip -n "$2" link set lo up
ip -n "$2" addr replace "$5" dev "$4"
ip -n "$2" link set "$4" up
[ -f "$8" ] || : >"$8"
chmod 0644 "$8"
if [ -f "$9" ] && kill -0 "$(cat "$9")" 2>/dev/null; then exit 0; fi
ip netns exec "$2" dnsmasq --conf-file=/dev/null --port=0 --bind-interfaces --interface="$4" --except-interface=lo \\
  --dhcp-range="$6,static,$7,infinite" --dhcp-hostsfile="$8" --dhcp-option=3 --dhcp-option=6 --dhcp-authoritative \\
  --leasefile-ro --pid-file="$9"`,
    [d.bridge, d.namespace, d.vethHost, d.vethInside, d.gateway, d.networkAddress, d.netmask, d.hostsFile, d.pidFile],
  );
}

/** dnsmasq re-reads its hosts file on SIGHUP. */
export async function reloadDhcp(host: Host, pidFile: string): Promise<void> {
  await host.sh('[ -f "$1" ] && kill -HUP "$(cat "$1")" 2>/dev/null || true', [pidFile]);
}

/** Removes a network's links, namespace and dnsmasq from one hypervisor (whatever of it is there). */
export async function removeNetwork(host: Host, n: { bridge: string; vxlan: string; namespace: string; vethHost: string; pidFile: string; files: string[] }): Promise<void> {
  await host.sh(
    `[ -f "$5" ] && kill "$(cat "$5")" 2>/dev/null
ip netns list | grep -qw "$3" && ip netns del "$3"
for l in "$4" "$2" "$1"; do ip link show dev "$l" >/dev/null 2>&1 && ip link del "$l"; done
shift 5
rm -f "$@"
true`,
    [n.bridge, n.vxlan, n.namespace, n.vethHost, n.pidFile, ...n.files],
  );
}

/** The balancer's namespace: a veth into the public bridge with the balancer's address. */
export async function ensureBalancerNamespace(host: Host, b: { namespace: string; vethHost: string; vethInside: string; bridge: string; address: string; gateway: string }): Promise<void> {
  await host.sh(
    `set -e
ip netns list | grep -qw "$1" || ip netns add "$1"
ip link show dev "$2" >/dev/null 2>&1 || ip link add "$2" type veth peer name "$3" netns "$1"
ip link set "$2" master "$4" up
ip -n "$1" link set lo up
ip -n "$1" addr replace "$5" dev "$3"
ip -n "$1" link set "$3" up
ip -n "$1" route replace default via "$6"`,
    [b.namespace, b.vethHost, b.vethInside, b.bridge, b.address, b.gateway],
  );
}

/**
 * Starts HAProxy (master-worker) in the namespace, or reloads the running one: SIGUSR2 makes the
 * master start new workers on the new configuration while the old ones finish their connections.
 * The configuration is checked first; a bad one leaves the running balancer alone.
 */
export async function startOrReloadHaproxy(host: Host, namespace: string, config: string, pidFile: string, content: string): Promise<void> {
  await host.writeFile(`${config}.new`, content);
  await host.sh(
    `set -e
haproxy -q -c -f "$2.new"
mv -f "$2.new" "$2"
if [ -f "$3" ] && kill -0 "$(cat "$3")" 2>/dev/null && grep -q haproxy "/proc/$(cat "$3")/cmdline"; then
  kill -USR2 "$(cat "$3")"
else
  ip netns exec "$1" haproxy -W -D -p "$3" -f "$2"
fi`,
    [namespace, config, pidFile],
  );
}

/** Stops the balancer's HAProxy and removes its namespace and files. */
export async function removeBalancer(host: Host, namespace: string, pidFile: string, files: string[]): Promise<void> {
  await host.sh(
    `if [ -f "$2" ]; then
  pid=$(cat "$2")
  if kill -0 "$pid" 2>/dev/null && grep -q haproxy "/proc/$pid/cmdline"; then
    kill -TERM "$pid"
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
fi
ip netns list | grep -qw "$1" && ip netns del "$1"
shift 2
rm -f "$@"
true`,
    [namespace, pidFile, ...files],
  );
}
