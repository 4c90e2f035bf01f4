import type { CountersRead, MachineCounters, MeteredMachine, Metrics } from '../metrics.js';
import { HostCommandError } from './host.js';
import { hostFailureMessage, type HostAccess, type Hypervisor } from './host-access.js';

/** The statistics groups read, for every running domain of a host at once. */
export const DOMSTATS_ARGS = ['domstats', '--raw', '--list-running', '--cpu-total', '--balloon', '--vcpu', '--block', '--interface'] as const;

/**
 * The counters of every domain in the output of `virsh domstats --raw` with the groups of
 * DOMSTATS_ARGS: disks and NICs summed (libvirt reports a tap device's counters as the guest sees
 * them: rx is what the guest received). Memory in use is balloon.available less balloon.usable
 * (or unused) when the guest's balloon driver reports them, else null.
 */
export function parseDomstats(out: string): Map<string, Omit<MachineCounters, 'externalId'>> {
  const domains = new Map<string, Map<string, string>>();
  let cur: Map<string, string> | undefined;
  for (const line of out.split('\n')) {
    const d = /^Domain: '(.*)'$/.exec(line.trim());
    if (d) {
      cur = new Map();
      domains.set(d[1]!, cur);
      continue;
    }
    const kv = /^\s*([\w.-]+)=(.*)$/.exec(line);
    if (cur && kv) cur.set(kv[1]!, kv[2]!.trim());
  }
  const result = new Map<string, Omit<MachineCounters, 'externalId'>>();
  for (const [name, kv] of domains) {
    const num = (key: string): number | undefined => {
      const v = kv.get(key);
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      return Number.isFinite(n) ? n : undefined;
    };
    const sum = (group: 'block' | 'net', field: string): number => {
      let total = 0;
      const count = num(`${group}.count`) ?? 0;
      for (let i = 0; i < count; i++) total += num(`${group}.${i}.${field}`) ?? 0;
      return total;
    };
    const available = num('balloon.available');
    const free = num('balloon.usable') ?? num('balloon.unused');
    result.set(name, {
      cpuTimeNs: num('cpu.time') ?? 0,
      vcpus: num('vcpu.current') ?? num('vcpu.maximum') ?? 1,
      // balloon figures are KiB
      memoryUsedBytes: available !== undefined && free !== undefined && available >= free ? (available - free) * 1024 : null,
      diskReadBytes: sum('block', 'rd.bytes'),
      diskWriteBytes: sum('block', 'wr.bytes'),
      diskReadOps: sum('block', 'rd.reqs'),
      diskWriteOps: sum('block', 'wr.reqs'),
      netInBytes: sum('net', 'rx.bytes'),
      netOutBytes: sum('net', 'tx.bytes'),
      netInPackets: sum('net', 'rx.pkts'),
      netOutPackets: sum('net', 'tx.pkts'),
    });
  }
  return result;
}

/**
 * Resource use from `virsh domstats`: one call per hypervisor of the machines' locations (all its
 * running domains at once, ours picked by name). A hypervisor that fails is reported and left
 * out; the others still answer.
 */
export class LibvirtMetrics implements Metrics {
  constructor(private readonly access: HostAccess) {}

  async readCounters(machines: readonly MeteredMachine[], _at: Date): Promise<CountersRead> {
    const wanted = new Set(machines.map((m) => m.externalId));
    const locations = [...new Set(machines.map((m) => m.locationId))];
    const hosts: Hypervisor[] = [];
    for (const loc of locations) {
      for (const hv of this.access.hypervisorList.filter((h) => h.location.id === loc)) if (!hosts.includes(hv)) hosts.push(hv);
    }
    const read: CountersRead = { machines: [], failed: [] };
    await Promise.all(
      hosts.map(async (hv) => {
        try {
          const out = (await hv.virsh.run(DOMSTATS_ARGS)).stdout;
          for (const [name, counters] of parseDomstats(out)) if (wanted.has(name)) read.machines.push({ externalId: name, ...counters });
        } catch (err) {
          if (!(err instanceof HostCommandError)) throw err;
          read.failed.push({ hypervisor: hv.config.name, message: hostFailureMessage('metrics', err), detail: err.message });
        }
      }),
    );
    return read;
  }
}
