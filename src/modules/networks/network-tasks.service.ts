import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue/queue.js';
import type { Datacenter } from '../../integrations/datacenter/index.js';
import type { ComputeService } from '../compute/index.js';
import type { IpTaskJob, NetworkTaskJob } from './networks.jobs.js';
import type { NetworksRepository } from './networks.repository.js';
import type { NetworkLifecycleListener } from './networks.service.js';
import type { IpTask, NetworkTask } from './networks.tables.js';

/** A network or address task still waiting this long is queued again by networks.sync. */
export const NETWORK_SYNC_AFTER_MINUTES = 2;

const networkRef = (n: { id: number; externalId: string | null }) => ({ externalId: n.externalId, reference: `net-${n.id}` });
const isDatacenterError = (err: unknown): err is Error => err instanceof Error && err.name === 'DatacenterError';

/**
 * The job side of private networks: carries out a network's or an address's task at the
 * datacenter, outside any transaction, then records it with a conditional update on the task (a
 * stale or repeated job changes nothing). A datacenter failure is recorded in `last_error` and the
 * task stays: networks.sync queues it again (every datacenter call is idempotent).
 */
export class NetworkTasksService {
  private readonly lifecycle: NetworkLifecycleListener[] = [];

  /** Wired by the container (meters): a create that finished (Active) calls `networkActive` in its transaction. */
  onLifecycle(listener: NetworkLifecycleListener): void {
    this.lifecycle.push(listener);
  }

  private networkJob!: NetworkTaskJob;
  private ipJob!: IpTaskJob;

  constructor(
    private readonly db: Database,
    private readonly repo: NetworksRepository,
    private readonly compute: ComputeService,
    private readonly datacenter: Datacenter,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  useJobs(networkJob: NetworkTaskJob, ipJob: IpTaskJob): void {
    this.networkJob = networkJob;
    this.ipJob = ipJob;
  }

  /** Creating → Active once the datacenter has made it; a deleted network is removed there. */
  async runNetworkTask(networkId: number, task: NetworkTask): Promise<void> {
    if (!Number.isInteger(networkId)) return; // a run by hand without a payload
    const n = await this.repo.find(this.db, networkId);
    if (!n || n.task !== task) return;
    const now = () => this.clock.now();
    try {
      if (task === 'create') {
        const made = await this.datacenter.createNetwork({ reference: `net-${n.id}`, locationId: n.locationId, cidr: `${n.networkIp}/${n.cidr}` });
        await this.db.transaction(async (tx) => {
          const done = await this.repo.finishTask(tx, n.id, 'create', { status: 'Active', task: null, externalId: made.externalId, lastError: null, updatedAt: now() });
          if (done) for (const l of this.lifecycle) await l.networkActive(tx, done);
        });
      } else {
        await this.datacenter.deleteNetwork(networkRef(n));
        await this.repo.finishTask(this.db, n.id, 'delete', { task: null, lastError: null, updatedAt: now() });
      }
    } catch (err) {
      if (!isDatacenterError(err)) throw err;
      this.log.warn({ networkId, task, err: err.message }, 'private network task failed at the datacenter; networks.sync will try again');
      await this.repo.finishTask(this.db, n.id, task, { lastError: err.message.slice(0, 500), updatedAt: now() });
    }
  }

  /** attach: the VM gets the address (is_registered); detach: the address is taken off and returns to the network. */
  async runIpTask(ipId: number, task: IpTask): Promise<void> {
    if (!Number.isInteger(ipId)) return;
    const row = await this.repo.findIp(this.db, ipId);
    if (!row || row.task !== task) return;
    const network = await this.repo.find(this.db, row.networkId);
    if (!network) return;
    const vm = await this.compute.adminGet(row.instanceId).catch(() => undefined);
    const attachment = { network: networkRef(network), vm: { externalId: vm?.externalId ?? null, reference: `vm-${row.instanceId}` }, ip: row.ip };
    const now = () => this.clock.now();
    try {
      if (task === 'attach') {
        if (!vm || vm.status === 'Deleted') return; // the VM is gone: compute's hook frees the row
        await this.datacenter.attachIp(attachment);
        await this.repo.finishIpTask(this.db, row.id, 'attach', { isRegistered: true, task: null, lastError: null, updatedAt: now() });
      } else {
        await this.datacenter.detachIp(attachment);
        await this.repo.deleteIpIfTask(this.db, row.id, 'detach');
      }
    } catch (err) {
      if (!isDatacenterError(err)) throw err;
      this.log.warn({ ipId, task, err: err.message }, 'private IP task failed at the datacenter; networks.sync will try again');
      await this.repo.finishIpTask(this.db, row.id, task, { lastError: err.message.slice(0, 500), updatedAt: now() });
    }
  }

  /**
   * The background synchronisation (networks.sync): every network or address task that has waited
   * longer than `minutes` (a datacenter failure, a lost job) is queued again.
   */
  async sync(minutes = NETWORK_SYNC_AFTER_MINUTES): Promise<number> {
    const now = this.clock.now();
    const { networks, ips } = await this.repo.stuck(this.db, new Date(now.getTime() - minutes * 60_000), 500);
    let n = 0;
    for (const net of networks) {
      const queued = await this.db.transaction(async (tx) => {
        if (!(await this.repo.touchNetwork(tx, net.id, net.task, now))) return false;
        await this.queue.send(this.networkJob, { networkId: net.id, task: net.task }, { tx });
        return true;
      });
      if (queued) n++;
    }
    for (const ip of ips) {
      const queued = await this.db.transaction(async (tx) => {
        if (!(await this.repo.touchIp(tx, ip.id, ip.task, now))) return false;
        await this.queue.send(this.ipJob, { ipId: ip.id, task: ip.task }, { tx });
        return true;
      });
      if (queued) n++;
    }
    return n;
  }
}
