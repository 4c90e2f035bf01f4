import { createHash } from 'node:crypto';
import { ipToInt } from './addresses.js';
import type { Names } from './names.js';
import type { SecurityGroupSpec } from '../firewalls.js';

export type GroupRule = SecurityGroupSpec['rules'][number];

/** The desired state of every security group of a location, kept on each of its hypervisors. */
export interface FirewallState {
  groups: Record<string, { rules: GroupRule[]; machines: string[] }>;
}

export interface FirewallInput {
  state: FirewallState;
  /** our VMs defined on this host */
  vms: { reference: string; publicIp: string | null }[];
  publicBridges: { name: string; network: string; egress: 'none' | 'routed' | 'nat' }[];
}

const groupChain = (reference: string, dir: 'in' | 'out') => `sg_${createHash('sha256').update(reference).digest('hex').slice(0, 10)}_${dir}`;

/** A rule's match, or an error message when the rule cannot be expressed safely. */
function ruleMatch(rule: GroupRule, dir: 'in' | 'out'): string {
  const side = dir === 'in' ? 'saddr' : 'daddr';
  let family: 'ip' | 'ip6';
  let addr: string;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(rule.remoteCidr);
  if (v4 && ipToInt(v4[1]!) !== undefined && Number(v4[2]) <= 32) {
    family = 'ip';
    addr = Number(v4[2]) === 0 ? 'meta nfproto ipv4' : `ip ${side} ${rule.remoteCidr}`;
  } else if (/^[0-9a-fA-F:]{2,39}\/\d{1,3}$/.test(rule.remoteCidr) && Number(rule.remoteCidr.split('/')[1]) <= 128) {
    family = 'ip6';
    addr = /^::\/0$/.test(rule.remoteCidr) ? 'meta nfproto ipv6' : `ip6 ${side} ${rule.remoteCidr}`;
  } else {
    throw new Error(`remote ${JSON.stringify(rule.remoteCidr)} is not an address block`);
  }
  const ports = (): string => {
    const from = rule.portFrom;
    const to = rule.portTo ?? from;
    if (from === null || to === null) return '';
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to > 65535 || to < from) throw new Error(`ports ${from}-${to} are not a range of ports`);
    return from === to ? ` dport ${from}` : ` dport ${from}-${to}`;
  };
  switch (rule.protocol) {
    case 'tcp':
    case 'udp': {
      const p = ports();
      return p ? `${addr} ${rule.protocol}${p}` : `${addr} meta l4proto ${rule.protocol}`;
    }
    case 'icmp':
      return `${addr} meta l4proto ${family === 'ip' ? 'icmp' : 'ipv6-icmp'}`;
    case 'any':
      return addr;
  }
}

/**
 * The whole ruleset of one host as an nft script that replaces the adapter's two tables in one
 * transaction (never another table of the host):
 * - `bridge <prefix>` marks frames by the tap they enter (egress mark) or leave by (ingress mark);
 *   bridged IPv4/IPv6 then passes the inet hooks (br_netfilter), where conntrack knows the flows;
 * - `inet <prefix>` sends marked packets (and packets the host sends or routes to a VM's public
 *   address) to the VM's chain: established flows, DHCP, then the rules of its groups; anything
 *   else inbound is dropped. Outbound is filtered only when one of its groups has egress rules.
 * - the public bridges' egress policy: `none` drops guests' traffic the host would route
 *   elsewhere, `nat` masquerades it.
 */
export function firewallScript(names: Names, input: FirewallInput): { script: string; errors: string[] } {
  const t = names.table;
  const errors: string[] = [];
  const local = new Map(input.vms.map((v) => [v.reference, v]));
  const groupsOf = new Map<string, string[]>();
  const groupRefs = Object.keys(input.state.groups).sort();
  for (const g of groupRefs) {
    for (const m of input.state.groups[g]!.machines) {
      if (!local.has(m)) continue;
      groupsOf.set(m, [...(groupsOf.get(m) ?? []), g]);
    }
  }
  const guarded = [...groupsOf.keys()].sort();
  const lines: string[] = [];
  // create-then-delete makes the delete valid when the table does not exist yet
  lines.push(`table bridge ${t}`, `delete table bridge ${t}`, `table inet ${t}`, `delete table inet ${t}`);

  lines.push(`table bridge ${t} {`);
  lines.push(`  chain mark_egress {`, `    type filter hook prerouting priority -300; policy accept;`);
  for (const vm of guarded) lines.push(`    iifname "${names.tapPrefix(vm)}*" meta mark set 0x${names.egressMark(vm).toString(16)} comment "${vm}"`);
  lines.push(`  }`, `  chain mark_ingress {`, `    type filter hook forward priority -300; policy accept;`);
  for (const vm of guarded) lines.push(`    oifname "${names.tapPrefix(vm)}*" meta mark set 0x${names.ingressMark(vm).toString(16)} comment "${vm}"`);
  lines.push(`  }`, `}`);

  const groupLines: string[] = [];
  const usedGroups = new Set(guarded.flatMap((vm) => groupsOf.get(vm)!));
  const hasEgress = new Set<string>();
  for (const g of groupRefs) {
    if (!usedGroups.has(g)) continue;
    const spec = input.state.groups[g]!;
    for (const dir of ['in', 'out'] as const) {
      groupLines.push(`  chain ${groupChain(g, dir)} {`, `    comment "${g}"`);
      for (const rule of spec.rules) {
        if ((rule.direction === 'ingress') !== (dir === 'in')) continue;
        if (dir === 'out') hasEgress.add(g);
        try {
          groupLines.push(`    ${ruleMatch(rule, dir)} accept`);
        } catch (err) {
          errors.push(`${g}: ${(err as Error).message}`);
        }
      }
      groupLines.push(`  }`);
    }
  }

  lines.push(`table inet ${t} {`);
  lines.push(...groupLines);
  for (const vm of guarded) {
    const key = names.vmKey(vm);
    const groups = groupsOf.get(vm)!;
    lines.push(`  chain vm_${key}_in {`, `    comment "${vm}"`, `    ct state established,related accept`, `    udp sport 67 udp dport 68 accept`
    );
    for (const g of groups) lines.push(`    jump ${groupChain(g, 'in')}`);
    lines.push(`    drop`, `  }`);
    if (groups.some((g) => hasEgress.has(g))) {
      lines.push(`  chain vm_${key}_out {`, `    comment "${vm}"`, `    ct state established,related accept`, `    udp sport 68 udp dport 67 accept`);
      for (const g of groups) lines.push(`    jump ${groupChain(g, 'out')}`);
      lines.push(`    drop`, `  }`);
    }
  }
  lines.push(`  chain egress {`, `    type filter hook prerouting priority 0; policy accept;`);
  for (const vm of guarded) {
    if (groupsOf.get(vm)!.some((g) => hasEgress.has(g))) lines.push(`    meta mark 0x${names.egressMark(vm).toString(16)} jump vm_${names.vmKey(vm)}_out`);
  }
  lines.push(`  }`);
  const toVm = (vm: string): string[] => {
    const pub = local.get(vm)!.publicIp;
    return pub ? input.publicBridges.map((b) => `    oifname "${b.name}" ip daddr ${pub} jump vm_${names.vmKey(vm)}_in`) : [];
  };
  lines.push(`  chain ingress_forward {`, `    type filter hook forward priority 0; policy accept;`);
  for (const vm of guarded) lines.push(`    meta mark 0x${names.ingressMark(vm).toString(16)} jump vm_${names.vmKey(vm)}_in`, ...toVm(vm));
  for (const b of input.publicBridges) {
    if (b.egress === 'none') lines.push(`    iifname "${b.name}" oifname != "${b.name}" drop`);
  }
  lines.push(`  }`);
  lines.push(`  chain ingress_output {`, `    type filter hook output priority 0; policy accept;`);
  for (const vm of guarded) lines.push(...toVm(vm));
  lines.push(`  }`);
  const nat = input.publicBridges.filter((b) => b.egress === 'nat');
  if (nat.length > 0) {
    lines.push(`  chain public_nat {`, `    type nat hook postrouting priority 100; policy accept;`);
    for (const b of nat) lines.push(`    ip saddr ${b.network} oifname != "${b.name}" masquerade`);
    lines.push(`  }`);
  }
  lines.push(`}`);
  return { script: lines.join('\n') + '\n', errors };
}
