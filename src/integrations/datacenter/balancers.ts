import { DatacenterError } from './shared.js';

/** The operations of Balancers, as a failure names them. */
export type BalancerOperation = 'load_balancer';

/** A failure of Balancers. */
export class BalancerError extends DatacenterError {
  declare readonly operation: BalancerOperation;
  constructor(operation: BalancerOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
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

/** Load balancers in front of machines. */
export interface Balancers {
  /** Creates or reconfigures the balancer (idempotent by reference: the same balancer and address). */
  applyLoadBalancer(spec: LoadBalancerSpec): Promise<ProvisionedLoadBalancer>;
  /** Removes the balancer; one that is gone succeeds. */
  deleteLoadBalancer(reference: string): Promise<void>;
}
