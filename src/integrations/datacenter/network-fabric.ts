import { DatacenterError, type DatacenterRef } from './shared.js';

/** The operations of NetworkFabric, as a failure names them. */
export type NetworkOperation = 'create_network' | 'delete_network' | 'attach_ip' | 'detach_ip';

/** A failure of NetworkFabric. */
export class NetworkFabricError extends DatacenterError {
  declare readonly operation: NetworkOperation;
  constructor(operation: NetworkOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

/** A private network to make at the datacenter (its range chosen by our service). */
export interface NetworkSpec {
  /** Our stable name of the network (e.g. `net-7`): the idempotency key of createNetwork. */
  reference: string;
  locationId: number;
  /** e.g. 10.0.1.0/24; the gateway is its .1 */
  cidr: string;
}

/** One private address of a VM on a private network. */
export interface IpAttachment {
  network: DatacenterRef;
  vm: DatacenterRef;
  ip: string;
}

/** Private networks and the machines' addresses on them. Every call is idempotent. */
export interface NetworkFabric {
  /** Makes a private network; a second call with the same reference returns the same network. */
  createNetwork(spec: NetworkSpec): Promise<{ externalId: string }>;
  /** Removes a private network (and whatever is still attached to it); a missing one is fine. */
  deleteNetwork(network: DatacenterRef): Promise<void>;
  /** Gives the VM this address on the network; attaching it again to the same VM is fine. */
  attachIp(attachment: IpAttachment): Promise<void>;
  /** Takes the address off the VM; an address not attached is fine. */
  detachIp(attachment: IpAttachment): Promise<void>;
}
