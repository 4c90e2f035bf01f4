import { createHash } from 'node:crypto';
import type { CountersRead, MachineCounters, MeteredMachine, Metrics } from '../metrics.js';
import type { SimulatedHosts } from './simulated-hosts.js';

/** What a test or an operator sets of a machine's figures (the rest stay generated). */
export interface SimulatedLoad {
  /** CPU use, percent of its vCPUs */
  cpuPercent?: number;
  /** bytes per second in and out of its NICs */
  netInBytesPerSecond?: number;
  netOutBytesPerSecond?: number;
}

interface Running {
  /** the boot the counters belong to (a new boot starts them at zero, as a restarted QEMU does) */
  boot: number;
  at: number;
  counters: Omit<MachineCounters, 'externalId' | 'vcpus' | 'memoryUsedBytes'>;
}

/** A machine's fixed character: how busy it is on average, from its id (the same figures after a restart of the process). */
function character(externalId: string): number[] {
  const h = createHash('sha256').update(externalId).digest();
  return Array.from({ length: 8 }, (_, i) => h[i]! / 255);
}

const PACKET_BYTES = 900;
const OP_BYTES = 16_384;

/**
 * Plausible, changing figures for the machines of the simulated datacenter: each machine has a
 * character of its own (from its id) and a daily and an hourly wave, so graphs show something.
 * Counters grow with the time passed between reads (the platform's clock) and start again at zero
 * when the machine boots again. A machine it does not know (adopted after a restart of this
 * process) is taken as running.
 */
export class SimulatedMetrics implements Metrics {
  private readonly running = new Map<string, Running>();
  private readonly loads = new Map<string, SimulatedLoad>();

  constructor(private readonly hosts: SimulatedHosts) {}

  /** Fixes figures of a machine (undefined: generated again). */
  setLoad(externalId: string, load: SimulatedLoad | undefined): void {
    if (load) this.loads.set(externalId, load);
    else this.loads.delete(externalId);
  }

  async readCounters(machines: readonly MeteredMachine[], at: Date): Promise<CountersRead> {
    await this.hosts.call('metrics');
    const now = at.getTime();
    const out: MachineCounters[] = [];
    for (const asked of machines) {
      const m = this.hosts.machines.get(asked.externalId);
      if (m && !m.running) {
        this.running.delete(asked.externalId);
        continue;
      }
      const vcpus = m?.cpu ?? 1;
      const memoryMb = m?.memoryMb ?? 1024;
      const boot = m?.boots ?? 1;
      let r = this.running.get(asked.externalId);
      if (!r || r.boot !== boot) {
        // a new boot: counting from zero since the last read (the machine ran since about then)
        r = { boot, at: r?.at ?? now, counters: { cpuTimeNs: 0, diskReadBytes: 0, diskWriteBytes: 0, diskReadOps: 0, diskWriteOps: 0, netInBytes: 0, netOutBytes: 0, netInPackets: 0, netOutPackets: 0 } };
        this.running.set(asked.externalId, r);
      }
      const seconds = Math.max(0, (now - r.at) / 1000);
      const c = character(asked.externalId);
      const load = this.loads.get(asked.externalId) ?? {};
      const day = Math.sin((2 * Math.PI * (now / 86_400_000 + c[0]!)) % (2 * Math.PI));
      const hour = Math.sin((2 * Math.PI * (now / 3_600_000 + c[1]!)) % (2 * Math.PI));
      const wave = 1 + 0.35 * day + 0.15 * hour + 0.1 * (Math.random() - 0.5);
      const cpuPercent = Math.min(100, Math.max(0, load.cpuPercent ?? (5 + 45 * c[2]!) * wave));
      const netIn = load.netInBytesPerSecond ?? (2_000 + 400_000 * c[3]! ** 2) * wave;
      const netOut = load.netOutBytesPerSecond ?? (5_000 + 1_500_000 * c[4]! ** 2) * wave;
      const diskRead = (10_000 + 2_000_000 * c[5]! ** 3) * wave;
      const diskWrite = (20_000 + 1_000_000 * c[6]! ** 3) * wave;
      const k = r.counters;
      k.cpuTimeNs += Math.round((cpuPercent / 100) * vcpus * seconds * 1e9);
      k.netInBytes += Math.round(netIn * seconds);
      k.netOutBytes += Math.round(netOut * seconds);
      k.netInPackets += Math.round((netIn * seconds) / PACKET_BYTES);
      k.netOutPackets += Math.round((netOut * seconds) / PACKET_BYTES);
      k.diskReadBytes += Math.round(diskRead * seconds);
      k.diskWriteBytes += Math.round(diskWrite * seconds);
      k.diskReadOps += Math.round((diskRead * seconds) / OP_BYTES);
      k.diskWriteOps += Math.round((diskWrite * seconds) / OP_BYTES);
      r.at = now;
      const memoryShare = Math.min(0.95, Math.max(0.05, (0.25 + 0.5 * c[7]!) * (1 + 0.1 * day)));
      out.push({ externalId: asked.externalId, vcpus, memoryUsedBytes: Math.round(memoryMb * 1_048_576 * memoryShare), ...k });
    }
    return { machines: out, failed: [] };
  }
}
