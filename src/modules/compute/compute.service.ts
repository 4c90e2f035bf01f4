import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, QuotaExceededError } from '../../platform/errors.js';
import type { PageRequest } from '../../platform/http/pagination.js';
import { SYNCED, type Lifecycle, type SyncState } from '../../platform/lifecycle/index.js';
import { VmHostError, type HypervisorCapacity, type VmHosts } from '../../integrations/datacenter/index.js';
import type { BlockStorageService, StorageTier } from '../block-storage/index.js';
import type { PricedResource, PriceVersion, PricingService } from '../pricing/index.js';
import { storageTierKey, tierKey } from '../pricing/index.js';
import type { Tier, TiersService } from '../tiers/index.js';
import type { BillableStartRule } from '../charging/index.js';
import type { ComputeRepository, Vm, VmFilter, VmLabels } from './compute.repository.js';
import { DEFAULT_OS } from './compute.schemas.js';
import { checkUserData } from './user-data.js';
import { vmPriceItems } from './compute.pricing.js';
import { VM_KIND, type VmStatus, type VmTask } from './compute.tables.js';
import { vmStateChanged } from './compute.events.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import type { SshKeysService } from '../ssh-keys/index.js';

/** A VM with the state of its datacenter work, as the API shows it. */
export type VmWithSync = Vm & { sync: SyncState };
export type StaffVm = VmWithSync & { labels: VmLabels | undefined };

/** A VM's addresses on private networks (the networks module answers; built after compute, see docs/architecture.md "Modules and flows"). */
export interface PrivateAddressReader {
  privateAddresses(vmId: number): Promise<{ ip: string; networkUuid: string; networkName: string }[]>;
}
import { noteActivityTarget } from '../../platform/audit-scope.js';
import { customerQuotaLock } from '../customers/index.js';
import { activeLocations } from '../lookups/index.js';

export interface CreateVmInput {
  name: string;
  location_id: number;
  tier_id: number;
  os?: string;
  block_storage_tier_id?: number | null;
  block_storage_gb?: number;
  public_ip?: boolean;
  /** the customer's SSH keys the guest lets in */
  ssh_key_ids?: number[];
  /** cloud-init user data: a cloud-config or a script */
  user_data?: string;
}

const DEFAULT_VOLUME_GB = 20;

/** The state a VM goes back to when a failed task is tried again. */
const RETRY_STATUS: Record<VmTask, VmStatus> = {
  create: 'Creating',
  start: 'Stopped',
  stop: 'Running',
  delete: 'Deleting',
  suspend: 'Suspended',
  resume: 'Suspended',
  // a resize goes back to the status it had when asked (resize_from_status)
  resize: 'Stopped',
  reboot: 'Running',
  reset: 'Running',
  // these start the machine (or leave it off): tried again from Stopped, like a start
  rebuild: 'Stopped',
  rescue: 'Stopped',
  unrescue: 'Stopped',
  // a snapshot is not tried again (it is Failed; the customer takes another); a restore is, from Stopped
  snapshot: 'Stopped',
  restore: 'Stopped',
  // never a failed task: the backups module lets go of a failed restore itself (VmRestoreHolds)
  restore_backup: 'Stopped',
};
/**
 * What a suspension does to a VM, by what it is doing (undefined: nothing; Deleting, Error and
 * Deleted VMs are left as they are, and a retry that would run an Error VM's machine asks the
 * billable rule):
 * - `from`: what it is meant to be once the change in flight is done (Running or Stopped), shown
 *   as `suspended_from` and returned to when resumed; a VM being created is meant to run;
 * - its task becomes `suspend`: the job stops the machine (one being created is made first, by
 *   our reference, so the create in flight is not left running; see VmTasksService);
 * - `resumeTask`: a change the datacenter may not have done yet, asked again when resumed (a
 *   reboot is not: the machine is stopped and started anyway; a snapshot, or a snapshot restore,
 *   ends by itself);
 * - `holdKept`: a backup restore keeps its hold; its end hands the VM over to the suspend.
 */
function suspensionOf(vm: Vm): { from: 'Running' | 'Stopped'; resumeTask: VmTask | null; holdKept?: boolean } | undefined {
  if (vm.status === 'Creating') return vm.task === 'create' ? { from: 'Running', resumeTask: null } : undefined;
  // suspended again while its resumption's start is in flight
  if (vm.status === 'Suspended') return vm.task === 'resume' ? { from: 'Running', resumeTask: null } : undefined;
  if (vm.status !== 'Running' && vm.status !== 'Stopped') return undefined;
  switch (vm.task) {
    // a snapshot restore the suspension took over ends by itself, done or failed and told (SnapshotTasksService.abandoned)
    case null:
    case 'reboot':
    case 'reset':
    case 'snapshot':
    case 'restore':
      return { from: vm.status, resumeTask: null };
    case 'start':
      return { from: 'Running', resumeTask: null };
    case 'stop':
      return { from: 'Stopped', resumeTask: null };
    case 'resize':
      return { from: vm.resizeFromStatus ?? vm.status, resumeTask: 'resize' };
    case 'rebuild':
    case 'rescue':
      return { from: 'Running', resumeTask: vm.task };
    case 'unrescue':
      return { from: vm.status, resumeTask: vm.task };
    case 'restore_backup':
      return { from: 'Running', resumeTask: null, holdKept: true };
    default:
      return undefined;
  }
}

/** The status a VM shows while a change taken over by its suspension runs again (as a retry of it). */
function resumedStatus(vm: Vm, task: VmTask): VmStatus {
  if (task === 'resize') return vm.resizeFromStatus ?? 'Stopped';
  if (task === 'unrescue') return vm.suspendedFrom === 'Running' ? 'Running' : 'Stopped';
  return RETRY_STATUS[task];
}

/** Tasks that make a stopped machine run: tried again only by an account that may start something billable. */
const STARTS_BILLABLE: ReadonlySet<VmTask> = new Set(['create', 'rebuild', 'rescue']);
/**
 * Tasks that leave the machine off, the only ones a retry runs without asking the billable rule:
 * a VM in Error is left as it is by a suspension, so retrying anything else (a start, a reboot, a
 * resize of a running VM...) would run a machine on a suspended account.
 */
const RETRIED_OFF: ReadonlySet<VmTask> = new Set(['stop', 'delete', 'suspend', 'snapshot']);

/** The datacenter did not answer a question asked during a request (its message is safe to show). */
class DatacenterUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'DATACENTER_UNAVAILABLE', `The datacenter did not answer: ${message}`);
  }
}

export class VmStateError extends ConflictError {
  constructor(vm: Vm, action: string) {
    super(vm.task ? `The VM is busy (${vm.task} in progress); try again when it is done` : `A ${vm.status} VM cannot ${action}`, vm.task ? 'VM_BUSY' : vm.status === 'Suspended' ? 'VM_SUSPENDED' : 'INVALID_VM_STATE');
  }
}

/** A tier of the catalog: offered in the location, with the price in force there. */
export interface CatalogTierEntry {
  tier: Tier;
  tierTypeName: string;
  locationId: number;
  price: PriceVersion;
}

/** A block storage tier of the catalog, with its price per GB in force in the location. */
export interface CatalogStorageTierEntry {
  tier: StorageTier;
  locationId: number;
  price: PriceVersion;
}

/**
 * Customers' VMs. Requests only write the intent (status and `task`) and tell the resource
 * lifecycle in the same transaction; its job (VmTasksService) talks to the datacenter outside any
 * transaction and moves the VM on. Quotas are counted under the customer's row lock.
 */
export class ComputeService {
  constructor(
    private readonly db: Database,
    private readonly repo: ComputeRepository,
    private readonly tiers: TiersService,
    private readonly blockStorage: BlockStorageService,
    private readonly pricing: PricingService,
    private readonly billable: BillableStartRule,
    private readonly vmHosts: VmHosts,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
    private readonly sshKeys: SshKeysService,
    /** a VM's private addresses, from the networks module (which depends on compute) */
    private readonly addresses: PrivateAddressReader,
  ) {}

  /** The VM's task changed: the lifecycle's job carries it out. */
  private async enqueue(tx: Executor, vmId: number): Promise<void> {
    await this.lifecycle.changed(tx, VM_KIND, vmId);
  }

  private async withSync(vm: Vm, ex: Executor = this.db): Promise<VmWithSync> {
    return { ...vm, sync: await this.lifecycle.state(VM_KIND, vm.id, ex) };
  }

  private async pageWithSync(page: { items: Vm[]; total: number }): Promise<{ items: VmWithSync[]; total: number }> {
    const states = await this.lifecycle.states(VM_KIND, page.items.map((v) => v.id));
    return { total: page.total, items: page.items.map((vm) => ({ ...vm, sync: states.get(vm.id) ?? SYNCED })) };
  }

  /** GET /api/compute/tiers?location_id=: visible tiers offered there that have a price. */
  async catalog(locationId: number): Promise<CatalogTierEntry[]> {
    if (!(await activeLocations.isActive(this.db, locationId))) return [];
    const offered = await this.tiers.offeredIn(locationId);
    const prices = await this.pricing.pricesAt(offered.map((t) => tierKey(t.id)), locationId);
    const out: CatalogTierEntry[] = [];
    for (const tier of offered) {
      const price = prices.get(tierKey(tier.id));
      if (!price) continue;
      const tierTypeName = await this.tiers.typeNameOf(tier);
      out.push({ tier, tierTypeName, locationId, price });
    }
    return out;
  }

  /**
   * GET /api/backoffice/compute/locations/{id}/hypervisors: the location's hypervisors and what
   * they hold, asked of the datacenter now (outside any transaction).
   */
  async hypervisors(locationId: number): Promise<HypervisorCapacity[]> {
    if (!(await activeLocations.exists(this.db, locationId))) throw new NotFoundError('Location');
    try {
      return await this.vmHosts.hypervisors(locationId);
    } catch (err) {
      if (err instanceof VmHostError) throw new DatacenterUnavailableError(err.message);
      throw err;
    }
  }

  /** Active block storage tiers priced in the location. */
  async storageCatalog(locationId: number): Promise<CatalogStorageTierEntry[]> {
    if (!(await activeLocations.isActive(this.db, locationId))) return [];
    const active = (await this.blockStorage.listTiers()).filter((t) => t.isActive);
    const prices = await this.pricing.pricesAt(active.map((t) => storageTierKey(t.id)), locationId);
    return active.flatMap((tier) => {
      const price = prices.get(storageTierKey(tier.id));
      return price ? [{ tier, locationId, price }] : [];
    });
  }

  /** POST /api/compute/vm */
  /** `from`: a VM whose boot disk is a copy of a snapshot (the snapshots module checked it; its OS is input.os). */
  async create(customerId: number, input: CreateVmInput, from: { snapshotId: number; minDiskGb: number } | undefined = undefined): Promise<VmWithSync> {
    const now = this.clock.now();
    if (input.user_data !== undefined) checkUserData(input.user_data);
    if (!(await activeLocations.isActive(this.db, input.location_id))) throw new BadRequestError('LOCATION_UNAVAILABLE', 'This location does not take new VMs', [{ field: 'location_id', message: 'unknown or inactive location' }]);
    const tier = await this.tiers.find(input.tier_id);
    const tierOffered = tier && !tier.deletedAt && tier.isVisible && (tier.locationId === null || tier.locationId === input.location_id);
    if (!tier || !tierOffered || !(await this.pricing.priceAt(tierKey(tier.id), input.location_id, now))) {
      throw new BadRequestError('TIER_UNAVAILABLE', 'This tier is not offered in this location', [{ field: 'tier_id', message: 'not offered here' }]);
    }
    if (from && tier.diskGb < from.minDiskGb) {
      throw new BadRequestError('DISK_TOO_SMALL', `The snapshot needs a tier with a disk of at least ${from.minDiskGb} GB`, [{ field: 'tier_id', message: `disk smaller than the snapshot's ${from.minDiskGb} GB` }]);
    }
    const storageTierId = input.block_storage_tier_id ?? null;
    if (storageTierId === null && input.block_storage_gb !== undefined) {
      throw new BadRequestError('VALIDATION_FAILED', 'A volume size needs a storage tier', [{ field: 'block_storage_tier_id', message: 'required with block_storage_gb' }]);
    }
    if (storageTierId !== null) {
      const st = await this.blockStorage.findTier(storageTierId);
      if (!st || !st.isActive || !(await this.pricing.priceAt(storageTierKey(st.id), input.location_id, now))) {
        throw new BadRequestError('STORAGE_TIER_UNAVAILABLE', 'This block storage tier is not offered', [{ field: 'block_storage_tier_id', message: 'disabled or not offered here' }]);
      }
    }
    const volumeGb = storageTierId !== null ? (input.block_storage_gb ?? DEFAULT_VOLUME_GB) : null;
    const wantsIp = input.public_ip ?? true;

    return this.db.transaction(async (tx) => {
      const customer = await customerQuotaLock.lock(tx, customerId);
      if (!customer || !customer.isActive) throw new NotFoundError('Customer');
      await this.billable.assertMayStart(tx, customerId);
      const used = await this.repo.usage(tx, customerId);
      if (used.vms >= customer.vmLimit) throw new QuotaExceededError(`VM limit reached (${customer.vmLimit})`);
      if (wantsIp && used.publicIps >= customer.publicIpLimit) throw new QuotaExceededError(`Public IP limit reached (${customer.publicIpLimit})`);
      if (volumeGb !== null && used.volumes >= customer.blockStorageLimit) throw new QuotaExceededError(`Block storage limit reached (${customer.blockStorageLimit})`);
      const keys = await this.sshKeys.forVm(tx, customerId, input.ssh_key_ids ?? []);

      let machineId: number | null = null;
      if (volumeGb !== null) {
        const machine = await this.blockStorage.reserve(tx, input.location_id, volumeGb);
        if (!machine) throw new ConflictError('No block storage room left in this location', 'NO_CAPACITY');
        machineId = machine.id;
      }
      let publicIp: string | null = null;
      if (wantsIp) {
        await this.repo.lockLocationAddresses(tx, input.location_id);
        const taken = await this.repo.usedAddresses(tx, input.location_id);
        publicIp = this.vmHosts.publicIpPool(input.location_id).addresses.find((a) => !taken.has(a)) ?? null;
        if (!publicIp) throw new ConflictError('No public IP address is free in this location', 'NO_CAPACITY');
      }
      const vm = await this.repo.insert(tx, {
        customerId,
        name: input.name,
        locationId: input.location_id,
        tierId: tier.id,
        os: input.os ?? DEFAULT_OS,
        cpu: tier.cpu,
        memoryMb: tier.memoryMb,
        diskGb: tier.diskGb,
        sourceSnapshotId: from?.snapshotId ?? null,
        status: 'Creating',
        task: 'create',
        publicIp,
        blockStorageTierId: storageTierId,
        blockStorageGb: volumeGb,
        blockStorageMachineId: machineId,
        sshKeys: keys.map((k) => ({ id: k.id, name: k.name, fingerprint: k.fingerprint, publicKey: k.publicKey })),
        userData: input.user_data ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await this.enqueue(tx, vm.id);
      noteActivityTarget(vm.id);
      await this.webhooks.emit(tx, vmStateChanged(vm, null, 'Creating'));
      return this.withSync(vm, tx);
    });
  }

  async list(customerId: number, f: Omit<VmFilter, 'customerId'>, p: PageRequest) {
    return this.pageWithSync(await this.repo.list(this.db, { ...f, customerId }, p));
  }

  /** GET /api/compute/vm/{id}: with its private addresses, to connect to it. */
  async detail(customerId: number, id: number): Promise<VmWithSync & { privateAddresses: { ip: string; networkUuid: string; networkName: string }[] }> {
    const vm = await this.withSync(await this.get(customerId, id));
    return { ...vm, privateAddresses: await this.addresses.privateAddresses(id) };
  }

  /** Another customer's VM is a 404 (never reveal it exists). */
  async get(customerId: number, id: number, ex: Executor = this.db, forUpdate = false): Promise<Vm> {
    const vm = await this.repo.find(ex, id, { forUpdate });
    if (!vm || vm.customerId !== customerId) throw new NotFoundError('VM');
    return vm;
  }

  async adminList(f: VmFilter, p: PageRequest): Promise<{ items: StaffVm[]; total: number }> {
    const page = await this.pageWithSync(await this.repo.list(this.db, f, p));
    const labels = await this.repo.staffLabels(this.db, page.items.map((v) => v.id));
    return { total: page.total, items: page.items.map((vm) => ({ ...vm, labels: labels.get(vm.id) })) };
  }

  async adminGet(id: number): Promise<Vm> {
    const vm = await this.repo.find(this.db, id);
    if (!vm) throw new NotFoundError('VM');
    return vm;
  }

  /** One VM for staff: what support needs without asking the customer (owner, tier, every address). */
  async adminDetail(id: number): Promise<StaffVm & { privateAddresses: { ip: string; networkUuid: string; networkName: string }[] }> {
    const vm = await this.withSync(await this.adminGet(id));
    const labels = (await this.repo.staffLabels(this.db, [id])).get(id);
    return { ...vm, labels, privateAddresses: await this.addresses.privateAddresses(id) };
  }

  private async act(
    customerId: number,
    id: number,
    action: string,
    decide: (vm: Vm) => { status: VmStatus; task: VmTask } | undefined,
    startsBillable: (task: VmTask) => boolean = (task) => STARTS_BILLABLE.has(task),
  ): Promise<VmWithSync> {
    return this.db.transaction(async (tx) => {
      const vm = await this.get(customerId, id, tx, true);
      const next = decide(vm);
      if (!next) throw new VmStateError(vm, action);
      // a create tried again makes the VM cost money when it runs, like a new one
      if (startsBillable(next.task)) await this.billable.assertMayStart(tx, customerId);
      const row = (await this.repo.update(tx, id, { status: next.status, task: next.task, updatedAt: this.clock.now() }))!;
      if (next.status !== vm.status) await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, next.status));
      await this.enqueue(tx, id);
      return this.withSync(row, tx);
    });
  }

  start(customerId: number, id: number) {
    return this.act(customerId, id, 'be started', (vm) => (vm.status === 'Stopped' && !vm.task ? { status: 'Stopped', task: 'start' } : undefined));
  }

  stop(customerId: number, id: number) {
    return this.act(customerId, id, 'be stopped', (vm) => (vm.status === 'Running' && !vm.task ? { status: 'Running', task: 'stop' } : undefined));
  }

  /** Running, Stopped, Suspended or Error → Deleting; the job removes it at the datacenter → Deleted. */
  delete(customerId: number, id: number) {
    return this.act(customerId, id, 'be deleted', (vm) =>
      ['Running', 'Stopped', 'Error'].includes(vm.status) && !vm.task
        ? { status: 'Deleting', task: 'delete' }
        : vm.status === 'Suspended' && (!vm.task || vm.task === 'suspend')
          ? { status: 'Deleting', task: 'delete' }
          : undefined,
    );
  }

  /** Error → the failed task again (one that leaves the machine running asks the billable rule). */
  retry(customerId: number, id: number) {
    return this.act(
      customerId,
      id,
      'be retried',
      (vm) => (vm.status === 'Error' && vm.failedTask ? { status: (vm.failedTask === 'resize' ? vm.resizeFromStatus : null) ?? RETRY_STATUS[vm.failedTask], task: vm.failedTask } : undefined),
      (task) => !RETRIED_OFF.has(task),
    );
  }

  /**
   * Suspends the customer's VMs (charging calls it when a prepaid balance falls below zero, or for
   * overdue invoices): status Suspended at once, the machines stopped by jobs. Runs in the
   * caller's transaction when there is one. Returns how many VMs it suspended.
   *
   * Whatever a VM was doing, once the datacenter work in flight is done no machine of the account
   * runs (see `suspensionOf`). The VM rows are locked first, so a job's finish that comes at the
   * same moment either commits before (the VM is then taken as Running) or finds its task taken
   * over and records nothing; the lifecycle then applies the suspend.
   */
  async suspendCustomerVms(customerId: number, reason: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      let count = 0;
      for (const vm of await this.repo.ofCustomer(tx, customerId, ['Creating', 'Running', 'Stopped', 'Suspended'])) {
        const plan = suspensionOf(vm);
        if (!plan) continue;
        count++;
        const suspended = { status: 'Suspended' as const, suspendedFrom: plan.from, suspendReason: reason, suspendedAt: now, updatedAt: now };
        if (plan.holdKept) {
          // the backups module writes its disk: it hands the VM over to the suspend when done (VmRestoreHolds.release)
          await this.repo.update(tx, vm.id, suspended);
        } else {
          await this.repo.update(tx, vm.id, { ...suspended, task: 'suspend', resumeTask: plan.resumeTask });
          await this.enqueue(tx, vm.id);
        }
        if (vm.status !== 'Suspended') await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, 'Suspended'));
      }
      return count;
    });
  }

  /**
   * Ends the suspension: VMs that were running are started by jobs (one suspended while it was
   * being created starts for the first time), the others become Stopped, and a change the
   * suspension took over is asked again.
   */
  async resumeCustomerVms(customerId: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const list = (await this.repo.ofCustomer(tx, customerId, ['Suspended'])).filter((vm) => !vm.task || vm.task === 'suspend' || vm.task === 'restore_backup');
      for (const vm of list) {
        const cleared = { suspendReason: null, suspendedAt: null, suspendedFrom: null, resumeTask: null, updatedAt: now };
        if (vm.task === 'restore_backup') {
          // the backups module lets go of it as Running or Stopped (VmRestoreHolds.release)
          const to = vm.suspendedFrom === 'Stopped' ? 'Stopped' : 'Running';
          await this.repo.update(tx, vm.id, { ...cleared, status: to });
          await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, to));
        } else if (vm.resumeTask) {
          const to = resumedStatus(vm, vm.resumeTask);
          await this.repo.update(tx, vm.id, { ...cleared, status: to, task: vm.resumeTask, failedTask: null });
          await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, to));
          await this.enqueue(tx, vm.id);
        } else if (vm.suspendedFrom === 'Running') {
          await this.repo.update(tx, vm.id, { task: 'resume', updatedAt: now });
          await this.enqueue(tx, vm.id);
        } else if (vm.task === 'suspend') {
          // its stop may not have run yet: stop it as a plain stop
          await this.repo.update(tx, vm.id, { ...cleared, status: 'Running', task: 'stop' });
          await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, 'Running'));
          await this.enqueue(tx, vm.id);
        } else {
          await this.repo.update(tx, vm.id, { ...cleared, status: 'Stopped', task: null });
          await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, 'Stopped'));
        }
      }
      return list.length;
    });
  }

  /** The customers module's ResourceUsageReader (GET /api/customer/resource). */
  async usageOf(customerId: number): Promise<{ vms: number; public_ips: number }> {
    const u = await this.repo.usage(this.db, customerId);
    return { vms: u.vms, public_ips: u.publicIps };
  }

  /** Public addresses held by VMs against the pool of each active location (for the dashboard). */
  async ipOccupation(): Promise<{ location_id: number; rented: number; available: number; total: number }[]> {
    const out = [];
    for (const loc of await activeLocations.ids(this.db)) {
      const total = this.vmHosts.publicIpPool(loc).addresses.length;
      const rented = (await this.repo.usedAddresses(this.db, loc)).size;
      out.push({ location_id: loc, rented, available: total - rented, total });
    }
    return out;
  }

  /** Pricing's PricedResourcesReader: the running VMs of a location and what they are billed by. */
  async runningIn(locationId: number): Promise<PricedResource[]> {
    const ip = await this.pricing.componentByCode('public_ip');
    const list = await this.repo.runningIn(this.db, locationId);
    return list.map((vm) => ({ resourceType: 'vm', resourceId: vm.id, items: vmPriceItems(vm, ip.id) }));
  }
}
