import { createHash, randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { ConsoleError, type Consoles } from '../../integrations/datacenter/index.js';
import type { Actor } from '../../platform/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import { displayTime } from '../../platform/date-display.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { customerQuotaLock } from '../customers/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import type { VmConsoleRepository } from './vm-console.repository.js';
import type { VmConsoleSession } from './vm-console.tables.js';

/** The audit module's recorder, as this service needs it (container.ts passes the AuditService). */
export interface ConsoleAuditRecorder {
  record(tx: Executor, entry: { actor: Actor; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown }): Promise<void>;
}

/** Who asks for a console: the owner (its session or API token) or a staff member (their session). */
export type ConsoleRequester =
  | { kind: 'customer'; customerId: number; sessionId: string; actor: Actor }
  | { kind: 'admin'; adminId: number; sessionId: string; actor: Actor };

/**
 * Whether the person who opened a console may still hold it, read from the database rather than
 * their access token (the ticket stream re-checks its staff member the same way): the flow in
 * src/flows/console-access.ts asks the staff session (and its role's `operate_compute`), the
 * customer's device session, or the API token the ticket was asked with.
 */
export interface ConsoleAccess {
  stillHolds(holder: { customerId: number; adminId: number | null; requesterSession: string }): Promise<boolean>;
}

/** Why a live session must end at a heartbeat, or `open`. */
export type ConsoleState = 'open' | 'vm_stopped' | 'access_ended';

export interface ConsoleLimits {
  /** how long a ticket opens a console */
  ticketSeconds: number;
  /** live sessions on one VM, and of one customer's VMs (staff sessions count for the customer) */
  perVm: number;
  perCustomer: number;
  /** a session with nothing typed for this long is closed */
  idleSeconds: number;
  /**
   * a session refreshes its `seen_at`, checks its VM and its holder's access this often; one unseen
   * for 4 times as long no longer counts
   */
  heartbeatSeconds: number;
  /** the largest message a client may send, in bytes */
  maxMessageBytes: number;
}

export const DEFAULT_CONSOLE_LIMITS: ConsoleLimits = { ticketSeconds: 60, perVm: 2, perCustomer: 5, idleSeconds: 900, heartbeatSeconds: 15, maxMessageBytes: 16 * 1024 };

/** An open console: the session row, its VM, and the guest's serial port. */
export interface OpenConsole {
  session: VmConsoleSession;
  vm: Vm;
  stream: Duplex;
}

class InvalidTicketError extends AppError {
  constructor() {
    super(401, 'INVALID_CONSOLE_TICKET', 'The console ticket is unknown, used, expired, or not yours: ask for a new one');
  }
}

class ConsoleUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'CONSOLE_UNAVAILABLE', `The console could not be opened: ${message}`);
  }
}

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** A VM whose console may be opened: Running, with no stop, delete or suspension under way. */
const consoleable = (vm: Vm) => vm.status === 'Running' && (vm.task === null || vm.task === 'start' || vm.task === 'resume');

/**
 * The serial console of a VM (docs/api.md, "VM console"). A ticket is asked for over an
 * authenticated POST and opens one WebSocket session within a minute; the session is counted,
 * audited from open to close, and ends when its VM stops. Staff may open it too; the customer is
 * told by mail.
 */
export class VmConsoleService {
  constructor(
    private readonly db: Database,
    private readonly vms: ComputeRepository,
    private readonly repo: VmConsoleRepository,
    private readonly consoles: Consoles,
    private readonly audit: ConsoleAuditRecorder,
    private readonly mailer: Pick<Mailer, 'queueMail'>,
    readonly clock: Clock,
    private readonly access: ConsoleAccess,
    readonly limits: ConsoleLimits = DEFAULT_CONSOLE_LIMITS,
  ) {}

  /** The VM as the requester may see it: another customer's VM is a 404. */
  private async vmOf(ex: Executor, requester: ConsoleRequester, vmId: number, forUpdate = false): Promise<Vm> {
    const vm = await this.vms.find(ex, vmId, { forUpdate });
    if (!vm || vm.status === 'Deleted' || (requester.kind === 'customer' && vm.customerId !== requester.customerId)) throw new NotFoundError('VM');
    return vm;
  }

  private assertConsoleable(vm: Vm): void {
    if (!consoleable(vm)) throw new ConflictError(`The console needs a running VM; this one is ${vm.status}${vm.task ? ` (${vm.task} in progress)` : ''}`, 'VM_NOT_RUNNING');
  }

  /** POST …/vm/{id}/console: a ticket for one session, valid `ticketSeconds`. */
  async issueTicket(requester: ConsoleRequester, vmId: number): Promise<{ ticket: string; expiresAt: Date }> {
    const vm = await this.vmOf(this.db, requester, vmId);
    this.assertConsoleable(vm);
    const ticket = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.limits.ticketSeconds * 1000);
    await this.repo.insertTicket(this.db, {
      vmId: vm.id,
      customerId: vm.customerId,
      adminId: requester.kind === 'admin' ? requester.adminId : null,
      requesterSession: requester.sessionId,
      ticketHash: hashOf(ticket),
      expiresAt,
      createdAt: now,
    });
    return { ticket, expiresAt };
  }

  /**
   * The WebSocket upgrade: uses the ticket (once), counts the session against the limits, audits
   * its opening (and tells the customer of a staff session), then joins the serial port outside the
   * transaction. Every refusal is thrown before the upgrade, so it is an HTTP answer.
   */
  async open(requester: ConsoleRequester, vmId: number, ticket: string): Promise<OpenConsole> {
    const { session, vm } = await this.db.transaction(async (tx) => {
      const vm = await this.vmOf(tx, requester, vmId);
      await customerQuotaLock.lock(tx, vm.customerId);
      const now = this.clock.now();
      const session = await this.repo.consumeTicket(tx, {
        ticketHash: hashOf(ticket),
        vmId: vm.id,
        requesterSession: requester.sessionId,
        adminId: requester.kind === 'admin' ? requester.adminId : null,
        now,
      });
      if (!session) throw new InvalidTicketError();
      this.assertConsoleable(vm);
      const aliveSince = new Date(now.getTime() - 4 * this.limits.heartbeatSeconds * 1000);
      if ((await this.repo.liveCount(tx, { vmId: vm.id }, aliveSince, session.id)) >= this.limits.perVm) {
        throw new ConflictError(`This VM has ${this.limits.perVm} console sessions open already; close one first`, 'CONSOLE_SESSION_LIMIT');
      }
      if ((await this.repo.liveCount(tx, { customerId: vm.customerId }, aliveSince, session.id)) >= this.limits.perCustomer) {
        throw new ConflictError(`The account has ${this.limits.perCustomer} console sessions open already; close one first`, 'CONSOLE_SESSION_LIMIT');
      }
      await this.audit.record(tx, { actor: requester.actor, action: 'vm.console_opened', targetType: 'vm', targetId: vm.id, after: { session_id: session.id, customer_id: vm.customerId } });
      if (requester.kind === 'admin') await this.tellOwner(tx, vm);
      return { session, vm };
    });
    try {
      if (!vm.externalId) throw new ConsoleError('console', 'the machine is not known at the datacenter yet');
      return { session, vm, stream: await this.consoles.open(vm.externalId) };
    } catch (err) {
      await this.close(session, requester.actor, 'unavailable');
      if (err instanceof ConsoleError) throw new ConsoleUnavailableError(err.message);
      throw err;
    }
  }

  private async tellOwner(tx: Executor, vm: Vm): Promise<void> {
    const owner = await this.repo.ownerContact(tx, vm.customerId);
    if (!owner) return;
    await this.mailer.queueMail(
      owner.email,
      noticeMail({
        template: 'vm_console_opened_by_staff',
        subject: `Our team opened the console of your VM ${vm.name}`,
        lines: [
          `Hello ${owner.firstName},`,
          `A member of our support team opened the serial console of your VM ${vm.name} on ${displayTime(this.clock.now())}.`,
          'Staff open a console only to help with a request or a fault; every session is recorded.',
          'If you did not expect this, open a support ticket.',
        ],
      }),
      tx,
    );
  }

  /**
   * Every heartbeat of a live session: whether its VM may still have a console (not once it is
   * stopping, suspended, deleted) and its holder still has access (not once their session ended, the
   * account was deactivated, or a staff member lost `operate_compute` or was deleted); while both
   * hold, refreshes `seen_at`.
   */
  async stillOpen(session: VmConsoleSession): Promise<ConsoleState> {
    const [vm, allowed] = await Promise.all([this.vms.find(this.db, session.vmId), this.access.stillHolds(session)]);
    if (!vm || !consoleable(vm)) return 'vm_stopped';
    if (!allowed) return 'access_ended';
    await this.repo.seen(this.db, session.id, this.clock.now());
    return 'open';
  }

  /** Ends the session once, audited with how long it lasted and why it ended. */
  async close(session: VmConsoleSession, actor: Actor, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const closed = await this.repo.close(tx, session.id, now, reason);
      if (!closed) return;
      const durationMs = Math.max(0, now.getTime() - (closed.openedAt ?? now).getTime());
      await this.audit.record(tx, {
        actor,
        action: 'vm.console_closed',
        targetType: 'vm',
        targetId: session.vmId,
        after: { session_id: session.id, customer_id: session.customerId, reason, duration_seconds: Math.round(durationMs / 1000) },
      });
    });
  }
}
