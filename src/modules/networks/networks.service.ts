import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, ConflictError, NotFoundError, QuotaExceededError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { SYNCED, type Lifecycle, type SyncState } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import type { BillableStartRule } from '../charging/index.js';
import type { ComputeService } from '../compute/index.js';
import type { PricedResource, PricingService } from '../pricing/index.js';
import { allocateHost, allocateNetwork, diagramPosition } from './networks.addresses.js';
import { networkPriceItems } from './networks.pricing.js';
import type { NetworksRepository, PrivateIp, PrivateNetwork } from './networks.repository.js';
import { IP_KIND, NETWORK_KIND } from './networks.tables.js';
import { networkStateChanged } from './networks.events.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import { customerQuotaLock } from '../customers/index.js';
import { activeLocations } from '../lookups/index.js';

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

export type NetworkWithSync = { network: PrivateNetwork; used: number; sync: SyncState };
export type IpWithSync = PrivateIp & { sync: SyncState };

/**
 * Customers' private networks. Requests write the intent (status, `task`) and tell the resource
 * lifecycle in the same transaction; its jobs (NetworkTasksService) talk to the datacenter
 * outside any transaction. Creates and assigns of one customer are serialised by a lock on the
 * customer's row (the 5-network limit, private_ip_limit, non-overlapping ranges); assigns to one
 * network also hold the network's row, and a unique index on (network, ip) backs the allocation.
 */
export class NetworksService {
  constructor(
    private readonly db: Database,
    private readonly repo: NetworksRepository,
    private readonly compute: ComputeService,
    private readonly billable: BillableStartRule,
    private readonly pricing: PricingService,
    private readonly metering: Metering,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
  ) {}

  private async withSync(items: { network: PrivateNetwork; used: number }[]): Promise<NetworkWithSync[]> {
    const states = await this.lifecycle.states(NETWORK_KIND, items.map((i) => i.network.id));
    return items.map((i) => ({ ...i, sync: states.get(i.network.id) ?? SYNCED }));
  }

  private async ipsWithSync(ips: PrivateIp[], ex: Executor = this.db): Promise<IpWithSync[]> {
    const states = await this.lifecycle.states(IP_KIND, ips.map((i) => i.id), ex);
    return ips.map((ip) => ({ ...ip, sync: states.get(ip.id) ?? SYNCED }));
  }

  /** POST /api/network/private */
  async create(customerId: number, input: CreateNetworkInput): Promise<NetworkWithSync> {
    if (!(await activeLocations.isActive(this.db, input.location_id))) throw new BadRequestError('LOCATION_UNAVAILABLE', 'This location does not take new networks', [{ field: 'location_id', message: 'unknown or inactive location' }]);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const customer = await customerQuotaLock.lock(tx, customerId);
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
      await this.lifecycle.changed(tx, NETWORK_KIND, network.id);
      noteActivityTarget(network.uuid);
      await this.webhooks.emit(tx, networkStateChanged(network, null, 'Creating'));
      return { network, used: 0, sync: await this.lifecycle.state(NETWORK_KIND, network.id, tx) };
    });
  }

  /** The customer's live networks with the addresses they hold. */
  async list(customerId: number): Promise<NetworkWithSync[]> {
    const list = await this.repo.listLive(this.db, customerId);
    const counts = await this.repo.ipCounts(this.db, list.map((n) => n.id));
    return this.withSync(list.map((network) => ({ network, used: counts.get(network.id) ?? 0 })));
  }

  /** Another customer's network, a deleted one, or a malformed uuid: 404. */
  async get(customerId: number, uuid: string, ex: Executor = this.db, forUpdate = false): Promise<PrivateNetwork> {
    const n = await this.repo.findLive(ex, uuid, { forUpdate });
    if (!n || n.customerId !== customerId) throw new NotFoundError('Private network');
    return n;
  }

  async detail(customerId: number, uuid: string): Promise<NetworkWithSync> {
    const network = await this.get(customerId, uuid);
    const used = (await this.repo.ipCounts(this.db, [network.id])).get(network.id) ?? 0;
    return (await this.withSync([{ network, used }]))[0]!;
  }

  async ips(customerId: number, uuid: string): Promise<IpWithSync[]> {
    const network = await this.get(customerId, uuid);
    return this.ipsWithSync(await this.repo.ips(this.db, network.id));
  }

  /**
   * POST /api/network/private/{uuid}/assign: the customer's own Running or Stopped VM in the
   * network's location gets the lowest free host address; the datacenter attaches it by a job.
   */
  async assign(customerId: number, uuid: string, input: AssignInput): Promise<IpWithSync> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const customer = await customerQuotaLock.lock(tx, customerId);
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
      await this.lifecycle.changed(tx, IP_KIND, row.id);
      return (await this.ipsWithSync([row], tx))[0]!;
    });
  }

  /**
   * DELETE /api/network/private/{uuid}/assign/{instance_id} (docs/decisions.md §6): the address is detached
   * by a job and then returns to the network; until then it is listed with pending_action detach.
   */
  async unassign(customerId: number, uuid: string, instanceId: number): Promise<IpWithSync> {
    return this.db.transaction(async (tx) => {
      const network = await this.get(customerId, uuid, tx, true);
      const row = await this.repo.ipOfInstance(tx, network.id, 'VM', instanceId);
      if (!row) throw new NotFoundError('Assignment');
      if (row.task === 'detach') return (await this.ipsWithSync([row], tx))[0]!;
      if (row.task === 'attach') throw new ConflictError('The address is still being attached; unassign it once that is done', 'IP_BUSY');
      const updated = (await this.repo.updateIp(tx, row.id, { task: 'detach', updatedAt: this.clock.now() }))!;
      await this.lifecycle.changed(tx, IP_KIND, row.id);
      return (await this.ipsWithSync([updated], tx))[0]!;
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
      const deleted = (await this.repo.update(tx, network.id, { status: 'Deleted', task: 'delete', deletedAt: now, updatedAt: now }))!;
      // a network pays from Active until its soft delete
      await this.metering.close('network', network.id, now, { tx });
      await this.lifecycle.changed(tx, NETWORK_KIND, network.id);
      await this.webhooks.emit(tx, networkStateChanged(network, network.status, 'Deleted'));
      return deleted;
    });
  }

  /** Backoffice: every customer's networks with their IP occupation. */
  async adminList(f: { customerId?: number; locationId?: number; includeDeleted?: boolean }, p: PageRequest) {
    const page = await this.repo.adminList(this.db, f, p);
    const counts = await this.repo.ipCounts(this.db, page.items.map((n) => n.id));
    return { items: await this.withSync(page.items.map((network) => ({ network, used: counts.get(network.id) ?? 0 }))), total: page.total };
  }

  /** Backoffice: one network (deleted ones too) with its addresses. */
  async adminGet(uuid: string): Promise<NetworkWithSync & { ips: IpWithSync[] }> {
    const network = await this.repo.findByUuid(this.db, uuid);
    if (!network) throw new NotFoundError('Private network');
    const ips = await this.ipsWithSync(await this.repo.ips(this.db, network.id));
    return { ...(await this.withSync([{ network, used: ips.length }]))[0]!, ips };
  }

  /** Compute's hook: a VM reached Deleted, its private addresses return to their networks (in compute's transaction). */
  /** A VM's addresses on private networks (what staff see on the VM). */
  privateAddresses(vmId: number) {
    return this.repo.addressesOf(this.db, 'VM', vmId);
  }

  async releaseVm(tx: Executor, vmId: number): Promise<void> {
    await this.lifecycle.forget(tx, IP_KIND, await this.repo.releaseInstance(tx, 'VM', vmId));
  }

  /** Pricing's PricedResourcesReader, for the networks: the Active networks of a location. */
  async runningIn(locationId: number): Promise<PricedResource[]> {
    const component = await this.pricing.componentByCode('private_network');
    const list = await this.repo.activeIn(this.db, locationId);
    return list.map((n) => ({ resourceType: 'private_network', resourceId: n.id, items: networkPriceItems(component.id) }));
  }
}
