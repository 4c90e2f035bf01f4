import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, QuotaExceededError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import type { JobQueue } from '../../platform/queue/queue.js';
import type { ComputeService } from '../compute/index.js';
import type { PricedResource, PricingService } from '../pricing/index.js';
import { componentKey } from '../pricing/index.js';
import type { BillableStartRule } from '../charging/index.js';
import { allocateHost, allocateNetwork, diagramPosition } from './networks.addresses.js';
import type { IpTaskJob, NetworkTaskJob } from './networks.jobs.js';
import type { NetworksRepository, PrivateIp, PrivateNetwork } from './networks.repository.js';

/** Spec Limits: private networks per customer. */
export const MAX_NETWORKS_PER_CUSTOMER = 5;

export interface CreateNetworkInput {
  name: string;
  location_id: number;
  cidr: number;
}

export interface AssignInput {
  instance_id: number;
  instance_type: 'VM';
}

/** What a private network is billed by: the `private_network` component, one per network. */
export function networkPriceItems(privateNetworkComponentId: number) {
  return [{ priceKey: componentKey(privateNetworkComponentId), quantity: 1 }];
}

/** Told when a network starts or stops costing money (metering), in that transaction. */
export interface NetworkLifecycleListener {
  networkActive(tx: Executor, network: PrivateNetwork): Promise<void>;
  networkDeleted(tx: Executor, network: PrivateNetwork): Promise<void>;
}

/**
 * Customers' private networks (spec 4.6, DECISIONS 6). Requests write the intent (status, `task`)
 * and queue a job in the same transaction; the jobs (NetworkTasksService) talk to the datacenter
 * outside any transaction. Creates and assigns of one customer are serialised by a lock on the
 * customer's row (the 5-network limit, private_ip_limit, non-overlapping ranges); assigns to one
 * network also hold the network's row, and a unique index on (network, ip) backs the allocation.
 */
export class NetworksService {
  private readonly lifecycle: NetworkLifecycleListener[] = [];

  /** Wired by the container (meters): the soft delete calls `networkDeleted` in its transaction. */
  onLifecycle(listener: NetworkLifecycleListener): void {
    this.lifecycle.push(listener);
  }

  private networkJob!: NetworkTaskJob;
  private ipJob!: IpTaskJob;

  constructor(
    private readonly db: Database,
    private readonly repo: NetworksRepository,
    private readonly compute: ComputeService,
    private readonly billable: BillableStartRule,
    private readonly pricing: PricingService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  /** networks.jobs.ts hands its job definitions over. */
  useJobs(networkJob: NetworkTaskJob, ipJob: IpTaskJob): void {
    this.networkJob = networkJob;
    this.ipJob = ipJob;
  }

  /** POST /api/network/private */
  async create(customerId: number, input: CreateNetworkInput): Promise<PrivateNetwork> {
    const loc = await this.repo.location(this.db, input.location_id);
    if (!loc || !loc.isActive) throw new BadRequestError('LOCATION_UNAVAILABLE', 'This location does not take new networks', [{ field: 'location_id', message: 'unknown or inactive location' }]);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const customer = await this.repo.lockCustomer(tx, customerId);
      if (!customer || !customer.isActive) throw new NotFoundError('Customer');
      await this.billable.assertMayStart(tx, customerId);
      if ((await this.repo.countLive(tx, customerId)) >= MAX_NETWORKS_PER_CUSTOMER) {
        throw new QuotaExceededError(`Private network limit reached (${MAX_NETWORKS_PER_CUSTOMER})`);
      }
      const networkIp = allocateNetwork(await this.repo.blocksOf(tx, customerId), input.cidr);
      if (!networkIp) throw new ConflictError('No free range of this size is left in 10.0.0.0/8 for your networks', 'NO_CAPACITY');
      const network = await this.repo.insert(tx, {
        customerId,
        name: input.name,
        locationId: input.location_id,
        networkIp,
        cidr: input.cidr,
        status: 'Creating',
        task: 'create',
        createdAt: now,
        updatedAt: now,
      });
      await this.queue.send(this.networkJob, { networkId: network.id, task: 'create' }, { tx });
      return network;
    });
  }

  /** The customer's live networks with the addresses they hold. */
  async list(customerId: number): Promise<{ network: PrivateNetwork; used: number }[]> {
    const list = await this.repo.listLive(this.db, customerId);
    const counts = await this.repo.ipCounts(this.db, list.map((n) => n.id));
    return list.map((network) => ({ network, used: counts.get(network.id) ?? 0 }));
  }

  /** Another customer's network, a deleted one, or a malformed uuid: 404. */
  async get(customerId: number, uuid: string, ex: Executor = this.db, forUpdate = false): Promise<PrivateNetwork> {
    const n = await this.repo.findLive(ex, uuid, { forUpdate });
    if (!n || n.customerId !== customerId) throw new NotFoundError('Private network');
    return n;
  }

  async detail(customerId: number, uuid: string): Promise<{ network: PrivateNetwork; used: number }> {
    const network = await this.get(customerId, uuid);
    const used = (await this.repo.ipCounts(this.db, [network.id])).get(network.id) ?? 0;
    return { network, used };
  }

  async ips(customerId: number, uuid: string): Promise<PrivateIp[]> {
    const network = await this.get(customerId, uuid);
    return this.repo.ips(this.db, network.id);
  }

  /**
   * POST /api/network/private/{uuid}/assign: the customer's own Running or Stopped VM in the
   * network's location gets the lowest free host address; the datacenter attaches it by a job.
   */
  async assign(customerId: number, uuid: string, input: AssignInput): Promise<PrivateIp> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const customer = await this.repo.lockCustomer(tx, customerId);
      if (!customer || !customer.isActive) throw new NotFoundError('Customer');
      const network = await this.get(customerId, uuid, tx, true);
      if (network.status !== 'Active') throw new ConflictError('The network is not Active yet: assign instances once it is', 'NETWORK_NOT_ACTIVE');
      const vm = await this.compute.get(customerId, input.instance_id, tx, true);
      if (vm.locationId !== network.locationId) {
        throw new BadRequestError('LOCATION_MISMATCH', 'The VM and the network are in different locations', [{ field: 'instance_id', message: 'not in the network\'s location' }]);
      }
      if (!['Running', 'Stopped'].includes(vm.status) || vm.task === 'delete') {
        throw new ConflictError(`A ${vm.status} VM cannot join a network (it must be Running or Stopped)`, 'INVALID_VM_STATE');
      }
      if (await this.repo.ipOfInstance(tx, network.id, input.instance_type, vm.id)) throw new ConflictError('This VM already has an address on this network', 'ALREADY_ASSIGNED');
      if ((await this.repo.countCustomerIps(tx, customerId)) >= customer.privateIpLimit) {
        throw new QuotaExceededError(`Private IP limit reached (${customer.privateIpLimit})`);
      }
      const block = { networkIp: network.networkIp, cidr: network.cidr };
      const ip = allocateHost(block, await this.repo.takenIps(tx, network.id));
      if (!ip) throw new ConflictError('No free address is left on this network', 'NO_CAPACITY');
      const pos = diagramPosition(block, ip);
      const row = await this.repo.insertIp(tx, {
        networkId: network.id,
        customerId,
        ip,
        ipDescription: vm.name,
        instanceId: vm.id,
        instanceType: input.instance_type,
        posX: pos.x,
        posY: pos.y,
        isRegistered: false,
        task: 'attach',
        createdAt: now,
        updatedAt: now,
      });
      await this.queue.send(this.ipJob, { ipId: row.id, task: 'attach' }, { tx });
      return row;
    });
  }

  /**
   * DELETE /api/network/private/{uuid}/assign/{instance_id} (DECISIONS 6): the address is detached
   * by a job and then returns to the network; until then it is listed with pending_action detach.
   */
  async unassign(customerId: number, uuid: string, instanceId: number): Promise<PrivateIp> {
    return this.db.transaction(async (tx) => {
      const network = await this.get(customerId, uuid, tx, true);
      const row = await this.repo.ipOfInstance(tx, network.id, 'VM', instanceId);
      if (!row) throw new NotFoundError('Assignment');
      if (row.task === 'detach') return row;
      if (row.task === 'attach') throw new ConflictError('The address is still being attached; unassign it once that is done', 'IP_BUSY');
      const updated = (await this.repo.updateIp(tx, row.id, { task: 'detach', updatedAt: this.clock.now() }))!;
      await this.queue.send(this.ipJob, { ipId: row.id, task: 'detach' }, { tx });
      return updated;
    });
  }

  /** The network and its instances, for a diagram. */
  async graph(customerId: number, uuid: string) {
    const network = await this.get(customerId, uuid);
    const ips = await this.repo.ips(this.db, network.id);
    const root = `network-${network.id}`;
    return {
      private_network_id: network.id,
      nodes: [
        { id: root, label: `${network.name} (${network.networkIp}/${network.cidr})` },
        ...ips.map((ip) => ({ id: `${ip.instanceType.toLowerCase()}-${ip.instanceId}`, label: `${ip.ipDescription || `${ip.instanceType} ${ip.instanceId}`} (${ip.ip})` })),
      ],
      edges: ips.map((ip) => ({ from: root, to: `${ip.instanceType.toLowerCase()}-${ip.instanceId}` })),
    };
  }

  /**
   * DELETE /api/network/private/{uuid}: refused (409 NETWORK_IN_USE) while any address is assigned
   * or still being detached, and while the network is Creating (409 NETWORK_BUSY). Otherwise a soft
   * delete (status Deleted, deleted_at) and a job removes it at the datacenter.
   */
  async delete(customerId: number, uuid: string): Promise<PrivateNetwork> {
    return this.db.transaction(async (tx) => {
      const network = await this.get(customerId, uuid, tx, true);
      if (network.status === 'Creating') throw new ConflictError('The network is still being created; delete it once it is Active', 'NETWORK_BUSY');
      const used = (await this.repo.ipCounts(tx, [network.id])).get(network.id) ?? 0;
      if (used > 0) throw new ConflictError(`The network still has ${used} assigned private IP(s): unassign every instance first`, 'NETWORK_IN_USE');
      const now = this.clock.now();
      const deleted = (await this.repo.update(tx, network.id, { status: 'Deleted', task: 'delete', deletedAt: now, updatedAt: now, lastError: null }))!;
      for (const l of this.lifecycle) await l.networkDeleted(tx, deleted);
      await this.queue.send(this.networkJob, { networkId: network.id, task: 'delete' }, { tx });
      return deleted;
    });
  }

  /** Backoffice: every customer's networks with their IP occupation. */
  async adminList(f: { customerId?: number; locationId?: number; includeDeleted?: boolean }, p: PageRequest) {
    const page = await this.repo.adminList(this.db, f, p);
    const counts = await this.repo.ipCounts(this.db, page.items.map((n) => n.id));
    return { items: page.items.map((network) => ({ network, used: counts.get(network.id) ?? 0 })), total: page.total };
  }

  /** Backoffice: one network (deleted ones too) with its addresses. */
  async adminGet(uuid: string): Promise<{ network: PrivateNetwork; ips: PrivateIp[] }> {
    const network = await this.repo.findByUuid(this.db, uuid);
    if (!network) throw new NotFoundError('Private network');
    return { network, ips: await this.repo.ips(this.db, network.id) };
  }

  /** Compute's hook: a VM reached Deleted, its private addresses return to their networks (in compute's transaction). */
  async releaseVm(tx: Executor, vmId: number): Promise<void> {
    await this.repo.releaseInstance(tx, 'VM', vmId);
  }

  /** Pricing's PricedResourcesReader, for the networks: the Active networks of a location. */
  async runningIn(locationId: number): Promise<PricedResource[]> {
    const component = await this.pricing.componentByCode('private_network');
    const list = await this.repo.activeIn(this.db, locationId);
    return list.map((n) => ({ resourceType: 'private_network', resourceId: n.id, items: networkPriceItems(component.id) }));
  }
}
