import { BackupError, type BackupOperation, type Backups } from './backups.js';
import { BalancerError, type BalancerOperation, type Balancers } from './balancers.js';
import { ConsoleError, type ConsoleOperation, type Consoles } from './consoles.js';
import { FirewallError, type FirewallOperation, type Firewalls } from './firewalls.js';
import { MetricsError, type Metrics, type MetricsOperation } from './metrics.js';
import { NetworkFabricError, type NetworkFabric, type NetworkOperation } from './network-fabric.js';
import { DatacenterError } from './shared.js';
import { SnapshotError, type SnapshotOperation, type Snapshots } from './snapshots.js';
import { VmHostError, type VmHosts, type VmOperation } from './vm-hosts.js';

/**
 * The datacenter: where VMs, their networks, firewalls and balancers actually run, as one port per
 * capability. A module takes only the capability it uses (compute: VmHosts; networks:
 * NetworkFabric; security groups: Firewalls; load balancers: Balancers), calls it only from its
 * lifecycle adapter (a queue job, never inside a database transaction), and classifies what it
 * throws by the capability's error class. An adapter (simulated/, libvirt/) implements every
 * capability over one shared access to its hosts.
 *
 * Adding a capability (snapshots, backups, consoles, metrics):
 * 1. a file beside this one with its port, specs, operations and error class (as balancers.ts);
 * 2. a field below, its operations in `DatacenterOperation` and its error class in `ERROR_OF`;
 * 3. an implementation in each adapter, made by its datacenter class over the shared host access;
 * 4. the module that uses it is given `datacenter.<field>` by the container, and nothing else.
 */
export interface Datacenter {
  readonly kind: string;
  readonly vmHosts: VmHosts;
  readonly networkFabric: NetworkFabric;
  readonly firewalls: Firewalls;
  readonly balancers: Balancers;
  readonly consoles: Consoles;
  readonly snapshots: Snapshots;
  readonly backups: Backups;
  readonly metrics: Metrics;
}

export type DatacenterOperation = VmOperation | NetworkOperation | FirewallOperation | BalancerOperation | ConsoleOperation | SnapshotOperation | BackupOperation | MetricsOperation;

type ErrorClass = new (operation: never, message: string, capacity?: boolean, detail?: string) => DatacenterError;

/** The capability's error class of each operation. */
const ERROR_OF: Record<DatacenterOperation, ErrorClass> = {
  create: VmHostError,
  start: VmHostError,
  stop: VmHostError,
  delete: VmHostError,
  resize: VmHostError,
  reboot: VmHostError,
  rebuild: VmHostError,
  rescue: VmHostError,
  capacity: VmHostError,
  create_network: NetworkFabricError,
  delete_network: NetworkFabricError,
  attach_ip: NetworkFabricError,
  detach_ip: NetworkFabricError,
  security_group: FirewallError,
  load_balancer: BalancerError,
  console: ConsoleError,
  snapshot: SnapshotError,
  restore_snapshot: SnapshotError,
  delete_snapshot: SnapshotError,
  backup: BackupError,
  restore: BackupError,
  metrics: MetricsError,
};

/**
 * The failure of an operation, as the error class of its capability: for the code an adapter shares
 * between capabilities (host access, a network reservation made while creating a VM).
 */
export function datacenterError(operation: DatacenterOperation, message: string, capacity = false, detail?: string): DatacenterError {
  const Class = ERROR_OF[operation] as new (operation: DatacenterOperation, message: string, capacity?: boolean, detail?: string) => DatacenterError;
  return new Class(operation, message, capacity, detail);
}

/**
 * `err` as a failure of `operation`: a failure of another capability met on the way (a VM's boot
 * rebuilds its host's firewall) becomes one of this operation's capability, so the module using
 * that capability classifies it; anything else is returned as it is.
 */
export function asFailureOf(operation: DatacenterOperation, err: unknown): unknown {
  if (!(err instanceof DatacenterError)) return err;
  const own: ErrorClass = ERROR_OF[operation];
  const ownFailure: boolean = err instanceof own;
  return ownFailure ? err : datacenterError(operation, err.message, err.capacity, err.detail);
}
