import { DatacenterError } from './shared.js';

/** The operations of Firewalls, as a failure names them. */
export type FirewallOperation = 'security_group';

/** A failure of Firewalls. */
export class FirewallError extends DatacenterError {
  declare readonly operation: FirewallOperation;
  constructor(operation: FirewallOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
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

/** Security groups: the traffic a machine accepts and sends. */
export interface Firewalls {
  /** Creates or replaces the group's rules and attachments (idempotent by reference). */
  applySecurityGroup(spec: SecurityGroupSpec): Promise<void>;
  /** Removes the group; a group that is gone succeeds. */
  deleteSecurityGroup(reference: string): Promise<void>;
}
