/**
 * The datacenter: where VMs actually run. Compute talks to it only from queue jobs, never inside a
 * database transaction, and every call is idempotent, so a job that runs twice (a retry after a
 * crash) does no harm:
 * - createVm is keyed by `reference` (our VM's stable name): a second call returns the same machine;
 * - startVm / stopVm of a machine already in that state succeed;
 * - deleteVm of a machine that is gone succeeds.
 * A real adapter (OpenStack, Proxmox, a provider's API) implements this interface; the simulated
 * one is the default.
 */
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
  /** Addresses on private networks the machine boots with (attachIp adds more later). */
  privateAddresses?: { network: DatacenterRef; ip: string }[];
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

export type DatacenterOperation =
  | 'create'
  | 'start'
  | 'stop'
  | 'delete'
  | 'create_network'
  | 'delete_network'
  | 'attach_ip'
  | 'detach_ip'
  | 'security_group'
  | 'load_balancer'
  /** reading the hypervisors' capacity (for operators) */
  | 'capacity';

/** A private network to make at the datacenter (its range chosen by our service). */
export interface NetworkSpec {
  /** Our stable name of the network (e.g. `net-7`): the idempotency key of createNetwork. */
  reference: string;
  locationId: number;
  /** e.g. 10.0.1.0/24; the gateway is its .1 */
  cidr: string;
}

/** A thing at the datacenter: by its id, or by our reference when the create's answer was lost. */
export interface DatacenterRef {
  externalId: string | null;
  reference: string;
}

/** One private address of a VM on a private network. */
export interface IpAttachment {
  network: DatacenterRef;
  vm: DatacenterRef;
  ip: string;
}

/** A security group as the datacenter applies it: the whole desired state, so applying twice is harmless. */
export interface SecurityGroupSpec {
  /** Our stable name of the group (e.g. `sg-<uuid>`): the idempotency key. */
  reference: string;
  locationId: number;
  rules: {
    direction: 'ingress' | 'egress';
    protocol: 'tcp' | 'udp' | 'icmp' | 'any';
    portFrom: number | null;
    portTo: number | null;
    remoteCidr: string;
  }[];
  /** references of the machines the group is attached to (e.g. `vm-42`) */
  machines: string[];
}

/** A load balancer as the datacenter applies it (whole desired state, idempotent by reference). */
export interface LoadBalancerSpec {
  /** e.g. `lb-<uuid>` */
  reference: string;
  locationId: number;
  algorithm: 'round_robin' | 'least_connections';
  forwardingRules: { entryProtocol: string; entryPort: number; targetProtocol: string; targetPort: number }[];
  healthCheck: { protocol: string; port: number; path: string | null } | null;
  /** references of the target machines */
  targets: string[];
}

export interface ProvisionedLoadBalancer {
  externalId: string;
  /** the balancer's public address */
  address: string;
}

export interface Datacenter {
  readonly kind: string;
  createVm(spec: VmSpec): Promise<ProvisionedVm>;
  startVm(externalId: string): Promise<void>;
  stopVm(externalId: string): Promise<void>;
  /** By its id, or by our reference when the create's answer was lost (a timeout after the machine was made). */
  deleteVm(machine: { externalId: string | null; reference: string }): Promise<void>;
  /** Hypervisors of a location and what they hold (for operators). */
  hypervisors(locationId: number): Promise<HypervisorCapacity[]>;
  /**
   * The public IP pool of a location. Configuration of the deployment (a real adapter reads it
   * from its settings), not a remote call: the service allocates addresses from it in its own
   * transaction, so two VMs never get one address.
   */
  publicIpPool(locationId: number): PublicIpPool;

  /** Makes a private network; a second call with the same reference returns the same network. */
  createNetwork(spec: NetworkSpec): Promise<{ externalId: string }>;
  /** Removes a private network (and whatever is still attached to it); a missing one is fine. */
  deleteNetwork(network: DatacenterRef): Promise<void>;
  /** Gives the VM this address on the network; attaching it again to the same VM is fine. */
  attachIp(attachment: IpAttachment): Promise<void>;
  /** Takes the address off the VM; an address not attached is fine. */
  detachIp(attachment: IpAttachment): Promise<void>;
  /** Creates or replaces the group's rules and attachments (idempotent by reference). */
  applySecurityGroup(spec: SecurityGroupSpec): Promise<void>;
  /** Removes the group; a group that is gone succeeds. */
  deleteSecurityGroup(reference: string): Promise<void>;
  /** Creates or reconfigures the balancer (idempotent by reference: the same balancer and address). */
  applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer>;
  /** Removes the balancer; one that is gone succeeds. */
  deleteLoadBalancer(reference: string): Promise<void>;
}

/**
 * A datacenter call that failed; the job leaves the VM in Error with the message. The message is
 * shown to customers and staff (a VM's `error`, every resource's `sync.last_error`), so it names
 * no host path, command line or host output: those go in `detail`, which is only logged.
 */
export class DatacenterError extends Error {
  constructor(
    readonly operation: DatacenterOperation,
    message: string,
    /** no room left (hypervisor capacity): retrying later may work once room is freed */
    readonly capacity = false,
    /** what operators need to find the cause (the command, its output); logged, never shown */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'DatacenterError';
  }
}
