import type { Datacenter, DatacenterOperation } from '../datacenter.js';
import { SimulatedBackups } from './simulated-backups.js';
import { SimulatedBalancers } from './simulated-balancers.js';
import { SimulatedConsoles } from './simulated-consoles.js';
import { SimulatedFirewalls } from './simulated-firewalls.js';
import { SimulatedMetrics } from './simulated-metrics.js';
import { SimulatedHosts, type SimulatedDatacenterOptions } from './simulated-hosts.js';
import { SimulatedNetworkFabric } from './simulated-network-fabric.js';
import { SimulatedSnapshots } from './simulated-snapshots.js';
import { SimulatedVmHosts } from './simulated-vm-hosts.js';

/**
 * The built-in datacenter: machines live in this process's memory, every call takes `delayMs`,
 * hypervisors have a finite number of vCPUs and memory per location, and tests (or an operator
 * trying the failure paths) can make the next calls fail. It forgets its machines on restart; a
 * start, stop or delete of a machine it does not know then succeeds (it adopts the machine), as a
 * real datacenter still holding it would.
 *
 * Each capability is its own object over the shared SimulatedHosts; each has its test readers
 * (`vmHosts.stateOf`, `networkFabric.networkStateOf`, `firewalls.securityGroupOf`,
 * `balancers.loadBalancerOf`, `snapshots.held`); `metrics.setLoad` fixes a machine's figures.
 */
export class SimulatedDatacenter implements Datacenter {
  readonly kind = 'simulated';
  readonly hosts: SimulatedHosts;
  readonly vmHosts: SimulatedVmHosts;
  readonly networkFabric: SimulatedNetworkFabric;
  readonly firewalls: SimulatedFirewalls;
  readonly balancers: SimulatedBalancers;
  readonly consoles: SimulatedConsoles;
  readonly snapshots: SimulatedSnapshots;
  readonly backups: SimulatedBackups;
  readonly metrics: SimulatedMetrics;

  constructor(options: SimulatedDatacenterOptions = {}) {
    this.hosts = new SimulatedHosts(options);
    this.networkFabric = new SimulatedNetworkFabric(this.hosts);
    this.vmHosts = new SimulatedVmHosts(this.hosts, this.networkFabric);
    this.firewalls = new SimulatedFirewalls(this.hosts);
    this.balancers = new SimulatedBalancers(this.hosts);
    this.consoles = new SimulatedConsoles(this.hosts);
    this.snapshots = new SimulatedSnapshots(this.hosts);
    this.backups = new SimulatedBackups(this.hosts);
    this.metrics = new SimulatedMetrics(this.hosts);
  }

  /** The next `times` calls of `operation` fail with `message` (failure injection). */
  failNext(operation: DatacenterOperation | 'any', times = 1, message = 'simulated datacenter failure'): void {
    this.hosts.failNext(operation, times, message);
  }

  /** Forgets pending injected failures. */
  clearFailures(): void {
    this.hosts.clearFailures();
  }

  /** Replaces the hypervisors of a location (capacity tests, operators). */
  setHypervisors(locationId: number, hypervisors: { name: string; vcpuTotal: number; memoryMbTotal: number }[]): void {
    this.hosts.setHypervisors(locationId, hypervisors);
  }
}
