import { DatacenterError, type DatacenterRef } from './shared.js';

/** The operations of VmHosts, as a failure names them. */
export type VmOperation =
  | 'create'
  | 'start'
  | 'stop'
  | 'delete'
  | 'resize'
  | 'reboot'
  | 'rebuild'
  | 'rescue'
  /** reading the hypervisors' capacity (for operators) */
  | 'capacity';

/** A failure of VmHosts. */
export class VmHostError extends DatacenterError {
  declare readonly operation: VmOperation;
  constructor(operation: VmOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

export interface VmSpec {
  /** Our stable name of the machine (e.g. `vm-42`): the idempotency key of createVm. */
  reference: string;
  locationId: number;
  cpu: number;
  memoryMb: number;
  diskGb: number;
  /** percent of the vCPUs the machine may use (the tier's CPU limit) */
  cpuLimit: number;
  os: string;
  /** The public address our service allocated from the location's pool, attached to the machine. */
  publicIp: string | null;
  blockStorage: { machineId: number; sizeGb: number } | null;
  /** OpenSSH public keys (`ssh-ed25519 AAAA… comment`) the guest lets in; none when absent. */
  sshKeys?: string[];
  /**
   * The customer's cloud-init user data (a `#cloud-config` or a `#!` script, checked by the
   * service), given to the guest with our own settings; the platform's keys and name still apply.
   */
  userData?: string;
  /**
   * The boot disk is made from this snapshot (Snapshots) instead of the OS image, grown to diskGb;
   * the snapshot must be in the machine's location. The machine is placed where the snapshot is
   * kept (a snapshot lives on the hypervisor of the machine it was taken of). A snapshot that holds
   * a volume is written onto the machine's volume when it has one (grown to its size; a smaller
   * volume is refused).
   */
  fromSnapshot?: { reference: string };
  /** Addresses on private networks the machine boots with (NetworkFabric.attachIp adds more later). */
  privateAddresses?: { network: DatacenterRef; ip: string }[];
}

/** The size of a machine: what a resize changes. */
export interface VmSize {
  cpu: number;
  memoryMb: number;
  /** the boot disk only grows: a smaller size than it has is left as it is */
  diskGb: number;
  cpuLimit: number;
}

/** A machine that exists, as the service knows it: its spec at create (the OS may have changed by a rebuild since). */
export interface MachineSpec extends VmSpec {
  externalId: string;
  /** rebuilds asked for so far: the guest's instance id (0: the one of its create) */
  rebuild: number;
}

export interface ProvisionedVm {
  externalId: string;
  hypervisor: string;
}

export interface HypervisorCapacity {
  name: string;
  vcpuTotal: number;
  vcpuUsed: number;
  memoryMbTotal: number;
  memoryMbUsed: number;
  /** the machines it holds, running or not */
  machines: number;
}

export interface PublicIpPool {
  /** e.g. 198.18.1.0/24 */
  cidr: string;
  /** the addresses machines may get (network, gateway and broadcast excluded) */
  addresses: readonly string[];
}

/**
 * Virtual machines on the hypervisors of a location, and the location's public addresses. Every
 * call is idempotent, so a job that runs twice (a retry after a crash) does no harm:
 * - createVm is keyed by `reference` (our VM's stable name): a second call returns the same machine;
 * - startVm / stopVm of a machine already in that state succeed;
 * - resizeVm of a machine that already has the size only brings it to the state asked;
 * - rebuildVm of a rebuild already made, rescueVm of a machine in rescue, unrescueVm of one that is not: they only make sure of the power state;
 * - rebootVm reboots again (the machine ends up running either way);
 * - deleteVm of a machine that is gone succeeds.
 */
export interface VmHosts {
  createVm(spec: VmSpec): Promise<ProvisionedVm>;
  startVm(externalId: string): Promise<void>;
  stopVm(externalId: string): Promise<void>;
  /**
   * Gives the machine another size: a running machine is shut down, changed and started again
   * (returning once its guest is up), a stopped one is changed and stays stopped (`running` is the
   * state it ends in, whatever state a crashed earlier attempt left it in). Idempotent.
   */
  resizeVm(externalId: string, size: VmSize, running: boolean): Promise<void>;
  /** ACPI reboot (hard: a reset); returns once the guest is up again. A machine that is off is started. */
  rebootVm(externalId: string, hard: boolean): Promise<void>;
  /**
   * Reinstalls the machine: a fresh boot disk from the OS image and a new instance id, the same
   * addresses, keys and data volume; returns once it is up. Repeated with the same `rebuild`, it
   * only makes sure the machine runs (the disk is not made again).
   */
  rebuildVm(spec: MachineSpec): Promise<void>;
  /** Boots the rescue system (with spec.sshKeys) and the machine's disks attached; returns once it is up. Repeated, it only makes sure it runs. */
  rescueVm(spec: MachineSpec): Promise<void>;
  /** The machine boots its own disk again; `start`: it runs it (returns once up), else it stays off. */
  unrescueVm(spec: MachineSpec, start: boolean): Promise<void>;
  /** By its id, or by our reference when the create's answer was lost (a timeout after the machine was made). */
  deleteVm(machine: DatacenterRef): Promise<void>;
  /** Hypervisors of a location and what they hold (for operators). */
  hypervisors(locationId: number): Promise<HypervisorCapacity[]>;
  /**
   * The public IP pool of a location. Configuration of the deployment (a real adapter reads it
   * from its settings), not a remote call: the service allocates addresses from it in its own
   * transaction, so two VMs never get one address.
   */
  publicIpPool(locationId: number): PublicIpPool;
}
