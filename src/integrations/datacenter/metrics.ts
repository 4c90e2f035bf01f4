import { DatacenterError } from './shared.js';

/** The operations of Metrics, as a failure names them. */
export type MetricsOperation = 'metrics';

/** A failure of Metrics. */
export class MetricsError extends DatacenterError {
  declare readonly operation: MetricsOperation;
  constructor(operation: MetricsOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

/** A machine whose counters are asked for, as the service knows it. */
export interface MeteredMachine {
  externalId: string;
  locationId: number;
  /** the hypervisor the machine was placed on, when known */
  hypervisor: string | null;
}

/**
 * The hypervisor's counters of one running machine at the instant they were read. Every counter
 * is cumulative since the machine's process started (a restart of the guest's QEMU process starts
 * them again at zero): the caller takes differences between two reads.
 */
export interface MachineCounters {
  externalId: string;
  /** CPU time the guest used, all vCPUs together (ns) */
  cpuTimeNs: number;
  /** vCPUs it has now */
  vcpus: number;
  /** memory in use in the guest (its balloon driver's statistics: available less usable); null when the guest does not report them */
  memoryUsedBytes: number | null;
  /** all its disks together */
  diskReadBytes: number;
  diskWriteBytes: number;
  diskReadOps: number;
  diskWriteOps: number;
  /** all its NICs together, as the guest sees them: in = received by the guest */
  netInBytes: number;
  netOutBytes: number;
  netInPackets: number;
  netOutPackets: number;
}

export interface CountersRead {
  /** the running machines among those asked for (a machine stopped or unknown there is absent) */
  machines: MachineCounters[];
  /** hypervisors that could not be read this time (their machines are absent) */
  failed: { hypervisor: string; message: string; detail?: string }[];
}

/**
 * Resource use of running machines, read from their hypervisors: one call per hypervisor for all
 * the machines it holds (libvirt: `virsh domstats`). Reading changes nothing, so a repeated call
 * only reads again.
 */
export interface Metrics {
  /**
   * The counters of the machines asked for that are running. `at` is the platform's clock at the
   * read: a real hypervisor reads its counters as they are, the simulated one advances its figures
   * to that instant.
   */
  readCounters(machines: readonly MeteredMachine[], at: Date): Promise<CountersRead>;
}
