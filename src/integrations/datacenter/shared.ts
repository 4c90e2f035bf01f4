/** What every capability of the datacenter shares: how a thing there is named, and the base of its errors. */

/** A thing at the datacenter: by its id, or by our reference when the create's answer was lost. */
export interface DatacenterRef {
  externalId: string | null;
  reference: string;
}

/**
 * A datacenter call that failed. Each capability throws its own subclass (`VmHostError`,
 * `NetworkFabricError`, `FirewallError`, `BalancerError`), so the module using a capability tells
 * its failures from anything else with `instanceof` of that class. The message is shown to
 * customers and staff (a VM's `error`, every resource's `sync.last_error`), so it names no host
 * path, command line or host output: those go in `detail`, which is only logged.
 */
export abstract class DatacenterError extends Error {
  constructor(
    /** what was being done (each capability's subclass narrows it to its own operations) */
    readonly operation: string,
    message: string,
    /** no room left (hypervisor capacity, balancer addresses): retrying later may work once room is freed */
    readonly capacity = false,
    /** what operators need to find the cause (the command, its output); logged, never shown */
    readonly detail?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
