import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { FailureKind, ResourceAdapter } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import { NetworkFabricError, type NetworkFabric } from '../../integrations/datacenter/index.js';
import type { ComputeService } from '../compute/index.js';
import type { PricingService } from '../pricing/index.js';
import type { NetworksRepository, PrivateNetwork } from './networks.repository.js';
import { networkPriceItems } from './networks.pricing.js';
import { IP_KIND, NETWORK_KIND } from './networks.tables.js';
import { networkStateChanged } from './networks.events.js';
import type { WebhookEmitter } from '../webhooks/index.js';

const networkRef = (n: { id: number; externalId: string | null }) => ({ externalId: n.externalId, reference: `net-${n.id}` });
/** A datacenter refusal is tried again by itself (with back-off) until it works. */
const classify = (err: unknown): FailureKind | undefined => (err instanceof NetworkFabricError ? 'retry' : undefined);

/**
 * The adapters of private networks and their addresses in the resource lifecycle (platform/lifecycle):
 * they carry out a network's or an address's task at the datacenter, outside any transaction; the
 * lifecycle records the result only while that change is still the latest, and retries a refusal
 * with back-off. A network pays from Active until its soft delete (the delete's transaction closes
 * the meter: NetworksService).
 */
export class NetworkTasksService {
  constructor(
    private readonly db: Database,
    private readonly repo: NetworksRepository,
    private readonly compute: ComputeService,
    private readonly pricing: PricingService,
    private readonly fabric: NetworkFabric,
    private readonly metering: Metering,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
  ) {}

  /** Creating → Active once the datacenter has made it; a deleted network is removed there. */
  readonly networks: ResourceAdapter = {
    kind: NETWORK_KIND,
    classify,
    apply: async (networkId) => {
      const n = await this.repo.find(this.db, networkId);
      if (!n || !n.task) return;
      const now = () => this.clock.now();
      if (n.task === 'create') {
        const made = await this.fabric.createNetwork({ reference: `net-${n.id}`, locationId: n.locationId, cidr: `${n.networkIp}/${n.cidr}` });
        return {
          record: async (tx) => {
            const done = await this.repo.finishTask(tx, n.id, 'create', { status: 'Active', task: null, externalId: made.externalId, updatedAt: now() });
            if (!done) return;
            await this.openMeter(tx, done);
            await this.webhooks.emit(tx, networkStateChanged(done, n.status, 'Active'));
          },
        };
      }
      await this.fabric.deleteNetwork(networkRef(n));
      return { record: async (tx) => void (await this.repo.finishTask(tx, n.id, 'delete', { task: null, updatedAt: now() })) };
    },
  };

  /** attach: the VM gets the address (is_registered); detach: the address is taken off and returns to the network. */
  readonly ips: ResourceAdapter = {
    kind: IP_KIND,
    classify,
    apply: async (ipId) => {
      const row = await this.repo.findIp(this.db, ipId);
      if (!row || !row.task) return;
      const network = await this.repo.find(this.db, row.networkId);
      if (!network) return;
      const vm = await this.compute.adminGet(row.instanceId).catch(() => undefined);
      const attachment = { network: networkRef(network), vm: { externalId: vm?.externalId ?? null, reference: `vm-${row.instanceId}` }, ip: row.ip };
      if (row.task === 'attach') {
        if (!vm || vm.status === 'Deleted') return; // the VM is gone: compute's hook frees the row
        await this.fabric.attachIp(attachment);
        return { record: async (tx) => void (await this.repo.finishIpTask(tx, row.id, 'attach', { isRegistered: true, task: null, updatedAt: this.clock.now() })) };
      }
      await this.fabric.detachIp(attachment);
      return { record: async (tx) => void (await this.repo.deleteIpIfTask(tx, row.id, 'detach')), gone: true };
    },
  };

  private async openMeter(tx: Executor, n: PrivateNetwork): Promise<void> {
    const component = await this.pricing.componentByCode('private_network', tx);
    for (const item of networkPriceItems(component.id)) {
      await this.metering.open({ customerId: n.customerId, resourceType: 'network', resourceId: n.id, description: `Private network ${n.name}`, priceKey: item.priceKey, locationId: n.locationId, quantity: item.quantity, at: this.clock.now() }, tx);
    }
  }
}
