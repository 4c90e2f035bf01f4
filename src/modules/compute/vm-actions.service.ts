import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Lifecycle } from '../../platform/lifecycle/index.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import type { BillableStartRule } from '../charging/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import { vmStateChanged } from './compute.events.js';
import { VM_KIND, type VmStatus, type VmTask } from './compute.tables.js';
import type { VmWithSync } from './compute.service.js';

/** What a customer or staff member does to a VM besides create and delete. */
export type VmAction = 'start' | 'stop' | 'reboot' | 'reset' | 'rebuild' | 'rescue' | 'unrescue';

export interface VmActionInput {
  /** rebuild: the OS to install (default: the VM's own) */
  os?: string | undefined;
}

/** The audit module's recorder, as this service needs it (the container passes the AuditService). */
export interface VmAuditRecorder {
  record(
    tx: Executor,
    entry: { actor: { type: 'admin'; id: number; ip?: string | undefined; userAgent?: string | undefined }; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown },
  ): Promise<void>;
}

/** The notifications module, as this service needs it. */
export interface VmActionNotifier {
  notify(customerId: number, kind: 'VM_STAFF_ACTION', content: { title: string; body: string; reference: { type: string; id: string } }, tx: Executor): Promise<unknown>;
}

export interface StaffActor {
  adminId: number;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** What an action asks of the VM: its task, its status meanwhile, what changes on its row, and whether it starts a stopped machine. */
interface Plan {
  task: VmTask;
  status: VmStatus;
  set?: Partial<Pick<Vm, 'os' | 'rebuilds' | 'rescue'>>;
  starts: boolean;
}

const POWERED: readonly VmStatus[] = ['Running', 'Stopped'];

/** The plan of `action` for the VM as it is, or why not. */
function planOf(vm: Vm, action: VmAction, input: VmActionInput): Plan | string {
  if (vm.task) return 'busy';
  const running = vm.status === 'Running';
  switch (action) {
    case 'start':
      return vm.status === 'Stopped' ? { task: 'start', status: 'Stopped', starts: false } : `A ${vm.status} VM cannot be started`;
    case 'stop':
      return running ? { task: 'stop', status: 'Running', starts: false } : `A ${vm.status} VM cannot be stopped`;
    case 'reboot':
    case 'reset':
      return running ? { task: action, status: 'Running', starts: false } : `A ${vm.status} VM cannot be rebooted (start it instead)`;
    case 'rebuild':
      return POWERED.includes(vm.status)
        ? { task: 'rebuild', status: vm.status, set: { os: input.os ?? vm.os, rebuilds: vm.rebuilds + 1, rescue: false }, starts: !running }
        : `A ${vm.status} VM cannot be rebuilt`;
    case 'rescue':
      if (vm.rescue) return 'The VM already boots its rescue system';
      return POWERED.includes(vm.status) ? { task: 'rescue', status: vm.status, set: { rescue: true }, starts: !running } : `A ${vm.status} VM cannot boot its rescue system`;
    case 'unrescue':
      if (!vm.rescue) return 'The VM does not boot its rescue system';
      return POWERED.includes(vm.status) ? { task: 'unrescue', status: vm.status, set: { rescue: false }, starts: false } : `A ${vm.status} VM cannot leave rescue`;
  }
}

/** What the customer reads when staff acted on their VM. */
const STAFF_WORDS: Record<VmAction, { title: string; did: string }> = {
  start: { title: 'started', did: 'started your VM' },
  stop: { title: 'stopped', did: 'stopped your VM' },
  reboot: { title: 'rebooted', did: 'rebooted your VM (an ACPI reboot)' },
  reset: { title: 'reset', did: 'reset your VM (a hard reboot)' },
  rebuild: { title: 'rebuilt', did: 'reinstalled your VM: its boot disk was made anew from the operating system image, and what was on it is gone' },
  rescue: { title: 'booted into rescue', did: "booted your VM from the rescue system, with its disks attached and your SSH keys let in; it boots its own disk again once rescue is left" },
  unrescue: { title: 'left rescue', did: 'made your VM boot its own disk again' },
};

/**
 * Actions on a VM that exists: reboot, rebuild, rescue and its end, rename, and staff's power
 * actions. Like start and stop (ComputeService), a request writes the VM's task, its status
 * meanwhile and what it changes, and tells the resource lifecycle in the same transaction; the
 * lifecycle's job (VmTasksService) carries it out at the datacenter. One change at a time: a VM
 * with a task in flight answers 409 VM_BUSY. An action that would start a stopped machine
 * (rebuild, rescue) is refused to an account that may not start anything billable (402).
 */
export class VmActionsService {
  constructor(
    private readonly db: Database,
    private readonly repo: ComputeRepository,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
    private readonly billable: BillableStartRule,
    private readonly audit: VmAuditRecorder,
    private readonly notifications: VmActionNotifier,
    private readonly mailer: Pick<Mailer, 'queueMail'>,
  ) {}

  private async load(tx: Executor, id: number, customerId?: number): Promise<Vm> {
    const vm = await this.repo.find(tx, id, { forUpdate: true });
    if (!vm || (customerId !== undefined && vm.customerId !== customerId) || vm.status === 'Deleted') throw new NotFoundError('VM');
    return vm;
  }

  /** Checks, writes the intent and tells the lifecycle; answers the VM before and after. */
  private async ask(tx: Executor, vm: Vm, action: VmAction, input: VmActionInput): Promise<Vm> {
    const plan = planOf(vm, action, input);
    if (typeof plan === 'string') {
      if (plan === 'busy') throw new ConflictError(`The VM is busy (${vm.task} in progress); try again when it is done`, 'VM_BUSY');
      throw new ConflictError(plan, vm.status === 'Suspended' ? 'VM_SUSPENDED' : 'INVALID_VM_STATE');
    }
    if (plan.starts) await this.billable.assertMayStart(tx, vm.customerId);
    const row = (await this.repo.update(tx, vm.id, { ...plan.set, status: plan.status, task: plan.task, updatedAt: this.clock.now() }))!;
    if (plan.status !== vm.status) await this.webhooks.emit(tx, vmStateChanged(vm, vm.status, plan.status));
    await this.lifecycle.changed(tx, VM_KIND, vm.id);
    return row;
  }

  private async withSync(vm: Vm, tx: Executor): Promise<VmWithSync> {
    return { ...vm, sync: await this.lifecycle.state(VM_KIND, vm.id, tx) };
  }

  /** A customer's reboot, rebuild, rescue or its end (start and stop: ComputeService). */
  act(customerId: number, id: number, action: Exclude<VmAction, 'start' | 'stop'>, input: VmActionInput = {}): Promise<VmWithSync> {
    return this.db.transaction(async (tx) => this.withSync(await this.ask(tx, await this.load(tx, id, customerId), action, input), tx));
  }

  /**
   * Gives the VM a task of another module (snapshots: `snapshot`, `restore`) in the caller's
   * transaction, under the rules of every change: one at a time (409 VM_BUSY), only a Running or
   * Stopped VM (409 INVALID_VM_STATE, VM_SUSPENDED). The status stays what it is. `customerId`: a
   * customer's request (another's VM is a 404); undefined: staff.
   */
  async beginTask(tx: Executor, id: number, customerId: number | undefined, task: 'snapshot' | 'restore', doing: string): Promise<Vm> {
    const vm = await this.load(tx, id, customerId);
    if (vm.task) throw new ConflictError(`The VM is busy (${vm.task} in progress); try again when it is done`, 'VM_BUSY');
    if (!POWERED.includes(vm.status)) throw new ConflictError(`A ${vm.status} VM cannot ${doing}`, vm.status === 'Suspended' ? 'VM_SUSPENDED' : 'INVALID_VM_STATE');
    const row = (await this.repo.update(tx, vm.id, { task, updatedAt: this.clock.now() }))!;
    await this.lifecycle.changed(tx, VM_KIND, vm.id);
    return row;
  }

  /** A VM as staff label it (its owner's name and e-mail), for what another module tells the customer. */
  async ownerOf(tx: Executor, vmId: number) {
    return (await this.repo.staffLabels(tx, [vmId])).get(vmId);
  }

  /** PATCH /api/compute/vm/{id}: only our record changes (the guest's hostname is its reference), so it is allowed while a task runs. */
  rename(customerId: number, id: number, name: string): Promise<VmWithSync> {
    return this.db.transaction(async (tx) => {
      const vm = await this.load(tx, id, customerId);
      if (vm.status === 'Deleting') throw new ConflictError('A Deleting VM cannot be renamed', 'INVALID_VM_STATE');
      const row = vm.name === name ? vm : (await this.repo.update(tx, id, { name, updatedAt: this.clock.now() }))!;
      return this.withSync(row, tx);
    });
  }

  /** Staff act on a customer's VM: audited, and the customer is told in the app and by mail, in the same transaction. */
  staffAct(actor: StaffActor, id: number, action: VmAction, input: VmActionInput = {}): Promise<VmWithSync> {
    return this.db.transaction(async (tx) => {
      const vm = await this.load(tx, id);
      const row = await this.ask(tx, vm, action, input);
      await this.audit.record(tx, {
        actor: { type: 'admin', id: actor.adminId, ip: actor.ip, userAgent: actor.userAgent },
        action: `vm.staff_${action}`,
        targetType: 'vm',
        targetId: vm.id,
        before: { status: vm.status, os: vm.os, rescue: vm.rescue },
        after: { status: row.status, pending_action: row.task, os: row.os, rescue: row.rescue, customer_id: vm.customerId },
      });
      await this.tellCustomer(tx, row, action);
      return this.withSync(row, tx);
    });
  }

  private async tellCustomer(tx: Executor, vm: Vm, action: VmAction): Promise<void> {
    const words = STAFF_WORDS[action];
    const osNote = action === 'rebuild' ? ` It now runs ${vm.os}.` : '';
    const body = `Our team ${words.did}.${osNote} If you did not ask for this, open a support ticket.`;
    await this.notifications.notify(vm.customerId, 'VM_STAFF_ACTION', { title: `Your VM ${vm.name} was ${words.title} by our team`, body, reference: { type: 'vm', id: `${vm.id}:${action}:${this.clock.now().toISOString()}` } }, tx);
    const owner = (await this.repo.staffLabels(tx, [vm.id])).get(vm.id);
    if (!owner) return;
    await this.mailer.queueMail(
      owner.customerEmail,
      noticeMail({
        template: 'vm_staff_action',
        subject: `Your VM ${vm.name} was ${words.title} by our team`,
        lines: [`Hello ${owner.customerName},`, `Our team ${words.did}.${osNote}`, `VM: ${vm.name}${vm.publicIp ? ` (${vm.publicIp})` : ''}`, 'If you did not ask for this, open a support ticket.'],
      }),
      tx,
    );
  }
}
