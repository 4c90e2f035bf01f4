import { SnapshotError, type RestoreSpec, type SnapshotSpec, type Snapshots, type TakenSnapshot } from '../snapshots.js';
import type { SimulatedHosts, SimulatedMachine } from './simulated-hosts.js';

/** A snapshot the simulated datacenter holds: what it copied, and the machine's state it restores. */
export interface SimulatedSnapshot extends TakenSnapshot {
  reference: string;
  locationId: number;
  machine: string;
  /** the hypervisor it is kept on (the machine's when it was taken), as a real one is */
  hypervisor: string;
  /** what a restore puts back: the boot disk's generation (rebuild) and the OS on it */
  state: Pick<SimulatedMachine, 'os' | 'rebuild'>;
  /** restores of it so far (tests) */
  restores: number;
}

/** How much of a disk of `gb` GB a copy stores: plausibly a third of it, at least 300 MB. */
export function simulatedStoredBytes(gb: number): number {
  return Math.max(300 * 1024 ** 2, Math.round((gb * 1024 ** 3) / 3));
}

/**
 * Snapshots of the simulated datacenter: kept in memory beside the machines, idempotent by
 * reference like the real ones. A machine whose guest "has an agent" (`agent: true` on the
 * machine, for tests) gives application-consistent snapshots; every other crash-consistent ones.
 */
export class SimulatedSnapshots implements Snapshots {
  readonly held: Map<string, SimulatedSnapshot>;

  constructor(private readonly hosts: SimulatedHosts) {
    this.held = hosts.snapshots as Map<string, SimulatedSnapshot>;
  }

  async takeSnapshot(spec: SnapshotSpec): Promise<TakenSnapshot> {
    await this.hosts.call('snapshot');
    const known = this.held.get(spec.reference);
    if (known) return { consistency: known.consistency, disks: known.disks };
    const m = this.hosts.machines.get(spec.machine);
    if (!m) throw new SnapshotError('snapshot', 'the machine does not exist at the datacenter');
    const disks = spec.disks.map((disk) => {
      const gb = disk === 'boot' ? (m.diskGb ?? 25) : (m.volumeGb ?? 0);
      return { disk, storedBytes: simulatedStoredBytes(gb), diskGb: gb };
    }).filter((d) => d.diskGb > 0);
    const taken: TakenSnapshot = { consistency: m.running && m.agent ? 'application' : 'crash', disks };
    this.held.set(spec.reference, { ...taken, reference: spec.reference, locationId: m.locationId, machine: m.externalId, hypervisor: m.hypervisor, state: { os: m.os, rebuild: m.rebuild }, restores: 0 });
    return taken;
  }

  async restoreSnapshot(spec: RestoreSpec): Promise<void> {
    await this.hosts.call('restore_snapshot');
    const s = this.held.get(spec.reference);
    if (!s) throw new SnapshotError('restore_snapshot', 'the snapshot does not exist at the datacenter');
    const m = this.hosts.machines.get(spec.machine);
    if (!m) throw new SnapshotError('restore_snapshot', 'the machine does not exist at the datacenter');
    Object.assign(m, s.state);
    s.restores++;
    if (m.running) this.hosts.machineChanged();
    m.running = spec.start;
    if (spec.start) m.boots = (m.boots ?? 0) + 1;
  }

  async deleteSnapshot(reference: string): Promise<void> {
    await this.hosts.call('delete_snapshot');
    this.held.delete(reference);
  }
}
