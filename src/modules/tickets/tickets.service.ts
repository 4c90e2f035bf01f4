import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import type { NotificationsService } from '../notifications/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { checkAttachments, type AttachmentInput } from './ticket-attachments.js';
import { messageView, staffTicketView } from './tickets.present.js';
import type { MessageWithSender, StaffTicketFilter, TicketDetailRow, TicketRow, TicketsRepository } from './tickets.repository.js';
import type { TicketEventType, TicketPriority, TicketStatus } from './tickets.tables.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';

/** How much of a staff reply its mail quotes; the rest is on the ticket. */
const REPLY_MAIL_CHARS = 4000;

/** The NOTIFY channel of the ticket stream; the payload is `{ id }` of a ticket_events row. */
export const TICKET_EVENTS_CHANNEL = 'ticket_events';

/** The audit module's recorder, as this module needs it (container.ts passes the AuditService). */
export interface AuditRecorder {
  record(
    tx: Executor,
    entry: { actor: { type: 'admin'; id: number; ip?: string; userAgent?: string }; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown },
  ): Promise<void>;
}

export interface StaffActor {
  adminId: number;
  ip?: string;
  userAgent?: string;
}

type Sender = { type: 'customer'; id: number } | { type: 'admin'; id: number };

export interface ReplyInput {
  message: string;
  attachments?: AttachmentInput[];
}

/**
 * Ticket statuses and what moves them (docs/api.md, "Support tickets"):
 *   (new)        → Open          the customer opens a ticket
 *   Open         → In Progress   staff reply, or the ticket is assigned to an admin
 *   Open / In Progress → Closed  the customer or staff close it
 *   Closed       → Archived      staff archive it
 * A Closed or Archived ticket takes no replies, priority or assignment changes (409 TICKET_CLOSED /
 * TICKET_ARCHIVED); archiving needs a Closed ticket (409 TICKET_NOT_CLOSED). A customer's reply
 * leaves the status as it is.
 */
export class TicketsService {
  constructor(
    private readonly db: Database,
    private readonly repo: TicketsRepository,
    private readonly events: EventBus,
    private readonly notifications: Pick<NotificationsService, 'notify'>,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEmitter,
    private readonly mail: { mailer: Pick<Mailer, 'queueMail'>; ticketUrl?: (ticketId: number) => string },
  ) {}

  // --- customer side ----------------------------------------------------------------------

  async create(customerId: number, input: { title: string; message: string; priority?: TicketPriority; attachments?: AttachmentInput[] }) {
    const title = required('title', input.title);
    const message = required('message', input.message);
    const files = checkAttachments(input.attachments);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const ticket = await this.repo.insertTicket(tx, {
        customerId,
        title,
        priority: input.priority ?? 'Medium',
        status: 'Open',
        createdAt: now,
        updatedAt: now,
        lastMessageAt: now,
      });
      const first = await this.addMessage(tx, ticket, { type: 'customer', id: customerId }, { message, files }, now);
      const detail = (await this.repo.detail(tx, ticket.id))!;
      await this.emit(tx, 'NEW_TICKET', ticket.id, { ticket: staffTicketView(detail), message: messageView('staff', first) });
      noteActivityTarget(ticket.id);
      return { ticket: detail, messages: [first] };
    });
  }

  async listOwn(customerId: number, p: PageRequest, status?: TicketStatus) {
    return this.repo.listForCustomer(this.db, customerId, p, status);
  }

  async getOwn(customerId: number, ticketId: number) {
    const detail = await this.repo.detail(this.db, ticketId, customerId);
    if (!detail) throw new NotFoundError('Ticket');
    return { ticket: detail, messages: await this.repo.messages(this.db, ticketId) };
  }

  async customerReply(customerId: number, ticketId: number, input: ReplyInput) {
    const message = required('message', input.message);
    const files = checkAttachments(input.attachments);
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockOwn(tx, customerId, ticketId);
      ensureActive(ticket);
      const now = this.clock.now();
      const m = await this.addMessage(tx, ticket, { type: 'customer', id: customerId }, { message, files }, now);
      await this.repo.update(tx, ticket.id, { lastMessageAt: now, updatedAt: now });
      await this.emit(tx, 'NEW_REPLY', ticket.id, { ticket_id: ticket.id, message: messageView('staff', m) });
      return m;
    });
  }

  async customerClose(customerId: number, ticketId: number) {
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockOwn(tx, customerId, ticketId);
      await this.close(tx, ticket, { type: 'customer', id: customerId });
      return (await this.repo.detail(tx, ticketId))!;
    });
  }

  async ownAttachment(customerId: number, ticketId: number, attachmentId: string) {
    if (!(await this.repo.detail(this.db, ticketId, customerId))) throw new NotFoundError('Attachment');
    return this.attachment(ticketId, attachmentId);
  }

  // --- staff side -------------------------------------------------------------------------

  async insight() {
    const rows = await this.repo.countsByStatus(this.db);
    const of = (s: TicketStatus) => rows.find((r) => r.status === s)?.n ?? 0;
    return {
      total: rows.reduce((sum, r) => sum + r.n, 0),
      open: of('Open'),
      in_progress: of('In Progress'),
      closed: of('Closed'),
      archived: of('Archived'),
      unassigned: rows.filter((r) => r.status === 'Open' || r.status === 'In Progress').reduce((sum, r) => sum + r.unassigned, 0),
    };
  }

  list(filter: StaffTicketFilter, p: PageRequest): Promise<Page<TicketDetailRow>> {
    return this.repo.listForStaff(this.db, filter, p);
  }

  async detail(ticketId: number) {
    const detail = await this.repo.detail(this.db, ticketId);
    if (!detail) throw new NotFoundError('Ticket');
    return detail;
  }

  /** Every message of the ticket, oldest first (the ticket itself is `detail`). */
  async conversations(ticketId: number) {
    if (!(await this.repo.detail(this.db, ticketId))) throw new NotFoundError('Ticket');
    return this.repo.messages(this.db, ticketId);
  }

  async staffReply(actor: StaffActor, ticketId: number, input: ReplyInput) {
    const message = required('message', input.message);
    const files = checkAttachments(input.attachments);
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockAny(tx, ticketId);
      ensureActive(ticket);
      const now = this.clock.now();
      const m = await this.addMessage(tx, ticket, { type: 'admin', id: actor.adminId }, { message, files }, now);
      await this.repo.update(tx, ticket.id, { lastMessageAt: now, updatedAt: now, ...(ticket.status === 'Open' ? { status: 'In Progress' as const } : {}) });
      await this.emit(tx, 'NEW_REPLY', ticket.id, { ticket_id: ticket.id, message: messageView('staff', m) });
      await this.webhooks.emit(tx, { customerId: ticket.customerId, type: 'ticket.replied', data: { ticket_id: ticket.id, message_id: m.id } });
      if (ticket.status === 'Open') await this.statusChanged(tx, ticket, 'In Progress', { type: 'admin', id: actor.adminId });
      await this.notifications.notify(
        ticket.customerId,
        'TICKET_REPLY',
        { title: `New reply on ticket #${ticket.id}`, body: `${ticket.title}: ${message.slice(0, 200)}`, reference: { type: 'ticket_message', id: m.id } },
        tx,
      );
      await this.mailReply(tx, ticket, message, m.attachments.length);
      await this.record(tx, actor, 'ticket.replied', ticket.id, undefined, {
        message_id: m.id,
        attachments: m.attachments.map((a) => ({ id: a.id, filename: a.filename, content_type: a.contentType, size_bytes: a.sizeBytes, sha256: a.sha256 })),
      });
      return m;
    });
  }

  /** Tells the customer by mail that staff replied, with the reply itself and where to answer it. */
  private async mailReply(tx: Executor, ticket: TicketRow, message: string, attachments: number): Promise<void> {
    const who = await this.repo.detail(tx, ticket.id);
    if (!who) return;
    const url = this.mail.ticketUrl?.(ticket.id);
    await this.mail.mailer.queueMail(
      who.customerEmail,
      noticeMail({
        template: 'ticket_reply',
        subject: `New reply on your ticket #${ticket.id}: ${ticket.title}`,
        lines: [
          `Hello ${who.customerFirstName},`,
          `Our support team replied to your ticket "${ticket.title}":`,
          message.length > REPLY_MAIL_CHARS ? `${message.slice(0, REPLY_MAIL_CHARS)}…` : message,
          ...(attachments > 0 ? [`The reply has ${attachments === 1 ? 'one attachment' : `${attachments} attachments`}; open the ticket to download ${attachments === 1 ? 'it' : 'them'}.`] : []),
          url ? `Read the conversation and answer here: ${url}` : 'Read the conversation and answer it under Support tickets in your account.',
        ],
      }),
      tx,
    );
  }

  async setPriority(actor: StaffActor, ticketId: number, priority: TicketPriority) {
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockAny(tx, ticketId);
      ensureActive(ticket);
      if (ticket.priority !== priority) {
        await this.repo.update(tx, ticket.id, { priority, updatedAt: this.clock.now() });
        await this.emit(tx, 'PRIORITY_CHANGED', ticket.id, { ticket_id: ticket.id, from: ticket.priority, to: priority, by: { type: 'admin', id: actor.adminId } });
        await this.record(tx, actor, 'ticket.priority_changed', ticket.id, { priority: ticket.priority }, { priority });
      }
      return (await this.repo.detail(tx, ticketId))!;
    });
  }

  async assign(actor: StaffActor, ticketId: number, adminId: number) {
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockAny(tx, ticketId);
      ensureActive(ticket);
      const assignee = await this.repo.assignableAdmin(tx, adminId);
      if (!assignee) {
        throw new ValidationError('Validation failed', [{ field: 'admin_id', message: 'must be an active admin who may see tickets (view_tickets)' }]);
      }
      if (ticket.assignedAdminId !== adminId || ticket.status === 'Open') {
        const now = this.clock.now();
        await this.repo.update(tx, ticket.id, { assignedAdminId: adminId, updatedAt: now, ...(ticket.status === 'Open' ? { status: 'In Progress' as const } : {}) });
        await this.emit(tx, 'ASSIGNED', ticket.id, {
          ticket_id: ticket.id,
          assigned_admin: assignee,
          previous_admin_id: ticket.assignedAdminId,
          by: { type: 'admin', id: actor.adminId },
        });
        if (ticket.status === 'Open') await this.statusChanged(tx, ticket, 'In Progress', { type: 'admin', id: actor.adminId });
        await this.record(tx, actor, 'ticket.assigned', ticket.id, { assigned_admin_id: ticket.assignedAdminId, status: ticket.status }, { assigned_admin_id: adminId });
      }
      return (await this.repo.detail(tx, ticketId))!;
    });
  }

  async staffClose(actor: StaffActor, ticketId: number) {
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockAny(tx, ticketId);
      await this.close(tx, ticket, { type: 'admin', id: actor.adminId });
      await this.record(tx, actor, 'ticket.closed', ticket.id, { status: ticket.status }, { status: 'Closed' });
      return (await this.repo.detail(tx, ticketId))!;
    });
  }

  async archive(actor: StaffActor, ticketId: number) {
    return this.db.transaction(async (tx) => {
      const ticket = await this.lockAny(tx, ticketId);
      if (ticket.status === 'Archived') throw new ConflictError('The ticket is already archived', 'TICKET_ARCHIVED');
      if (ticket.status !== 'Closed') throw new ConflictError('Only a closed ticket can be archived; close it first', 'TICKET_NOT_CLOSED');
      const now = this.clock.now();
      await this.repo.update(tx, ticket.id, { status: 'Archived', archivedAt: now, updatedAt: now });
      await this.statusChanged(tx, ticket, 'Archived', { type: 'admin', id: actor.adminId });
      await this.record(tx, actor, 'ticket.archived', ticket.id, { status: ticket.status }, { status: 'Archived' });
      return (await this.repo.detail(tx, ticketId))!;
    });
  }

  async staffAttachment(ticketId: number, attachmentId: string) {
    if (!(await this.repo.detail(this.db, ticketId))) throw new NotFoundError('Attachment');
    return this.attachment(ticketId, attachmentId);
  }

  // --- shared steps -----------------------------------------------------------------------

  private async attachment(ticketId: number, attachmentId: string) {
    const row = await this.repo.attachment(this.db, ticketId, attachmentId);
    if (!row) throw new NotFoundError('Attachment');
    return { filename: row.filename, contentType: row.contentType, content: row.content, sha256: row.sha256 };
  }

  private async lockOwn(tx: Executor, customerId: number, ticketId: number): Promise<TicketRow> {
    const ticket = await this.repo.lock(tx, ticketId);
    if (!ticket || ticket.customerId !== customerId) throw new NotFoundError('Ticket');
    return ticket;
  }

  private async lockAny(tx: Executor, ticketId: number): Promise<TicketRow> {
    const ticket = await this.repo.lock(tx, ticketId);
    if (!ticket) throw new NotFoundError('Ticket');
    return ticket;
  }

  private async close(tx: Executor, ticket: TicketRow, by: Sender): Promise<void> {
    ensureActive(ticket);
    const now = this.clock.now();
    await this.repo.update(tx, ticket.id, { status: 'Closed', closedAt: now, updatedAt: now });
    await this.statusChanged(tx, ticket, 'Closed', by);
  }

  private async addMessage(
    tx: Executor,
    ticket: TicketRow,
    sender: Sender,
    input: { message: string; files?: ReturnType<typeof checkAttachments> },
    now: Date,
  ): Promise<MessageWithSender> {
    const m = await this.repo.insertMessage(tx, {
      ticketId: ticket.id,
      senderType: sender.type,
      senderCustomerId: sender.type === 'customer' ? sender.id : null,
      senderAdminId: sender.type === 'admin' ? sender.id : null,
      message: input.message,
      createdAt: now,
    });
    const attachments = await this.repo.insertAttachments(
      tx,
      (input.files ?? []).map((f, position) => ({ ticketId: ticket.id, messageId: m.id, position, filename: f.filename, contentType: f.contentType, sizeBytes: f.sizeBytes, sha256: f.sha256, content: f.content, createdAt: now })),
    );
    return { ...m, senderName: await this.repo.senderName(tx, sender), attachments };
  }

  private async statusChanged(tx: Executor, ticket: TicketRow, to: TicketStatus, by: Sender): Promise<void> {
    await this.emit(tx, 'STATUS_CHANGED', ticket.id, { ticket_id: ticket.id, from: ticket.status, to, by });
    await this.webhooks.emit(tx, { customerId: ticket.customerId, type: 'ticket.status_changed', data: { ticket_id: ticket.id, from: ticket.status, to } });
  }

  /** Appends to the stream's log and announces it to every API process once the transaction commits. */
  private async emit(tx: Executor, type: TicketEventType, ticketId: number, payload: unknown): Promise<void> {
    const id = await this.repo.appendEvent(tx, { type, ticketId, payload, createdAt: this.clock.now() });
    await this.events.publish(TICKET_EVENTS_CHANNEL, { id }, tx);
  }

  private record(tx: Executor, actor: StaffActor, action: string, ticketId: number, before: unknown, after: unknown): Promise<void> {
    return this.audit.record(tx, {
      actor: { type: 'admin', id: actor.adminId, ip: actor.ip, userAgent: actor.userAgent },
      action,
      targetType: 'ticket',
      targetId: ticketId,
      before,
      after,
    });
  }
}

function required(field: string, value: string): string {
  const v = value.trim();
  if (v === '') throw new ValidationError('Validation failed', [{ field, message: 'must not be blank' }]);
  return v;
}

function ensureActive(ticket: TicketRow): void {
  if (ticket.status === 'Closed') throw new ConflictError('The ticket is closed', 'TICKET_CLOSED');
  if (ticket.status === 'Archived') throw new ConflictError('The ticket is archived', 'TICKET_ARCHIVED');
}

