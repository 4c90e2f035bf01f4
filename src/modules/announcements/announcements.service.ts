import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { NotificationsService } from '../notifications/index.js';
import type { AnnouncementRow, AnnouncementsRepository } from './announcements.repository.js';
import type { DocumentKind, DocumentStatus } from './announcements.tables.js';

/** The audit module's recorder, as this module needs it (container.ts passes the AuditService). */
export interface AuditRecorder {
  record(
    tx: Executor,
    entry: { actor: { type: 'admin' | 'system'; id: number | null; ip?: string; userAgent?: string }; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown },
  ): Promise<void>;
}

export interface StaffActor {
  adminId: number;
  ip?: string;
  userAgent?: string;
}

const actionPrefix = (kind: DocumentKind) => (kind === 'announcement' ? 'announcement' : 'release_note');
const label = (kind: DocumentKind) => (kind === 'announcement' ? 'Announcement' : 'Release note');

/**
 * Announcements and release notes (docs/api.md, "Announcements and release notes"):
 *   (new) → Draft; Draft or Withdrawn → Published (publish, now or at `publish_at`);
 *   Published → Withdrawn (unpublish). Customers see Published only.
 * Publishing an announcement (not a release note) notifies every customer once.
 */
export class AnnouncementsService {
  constructor(
    private readonly db: Database,
    private readonly repo: AnnouncementsRepository,
    private readonly notifications: Pick<NotificationsService, 'announce'>,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  readonly publishDueJob = defineJob<object>({
    name: 'announcements.publish-due',
    schedule: '* * * * *',
    description: 'Publishes announcements and release notes whose scheduled publish_at has come',
    handler: async (_p, ctx) => {
      const n = await this.publishDue();
      if (n > 0) ctx.log.info({ published: n }, 'scheduled documents published');
    },
  });

  async create(kind: DocumentKind, actor: StaffActor, input: { title: string; message: string }) {
    const title = required('title', input.title);
    const message = required('message', input.message);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const row = await this.repo.insert(tx, { kind, title, message, status: 'Draft', createdByAdminId: actor.adminId, createdAt: now, updatedAt: now });
      await this.record(tx, actor, `${actionPrefix(kind)}.created`, row.id, undefined, { title, status: row.status });
      return row;
    });
  }

  list(kind: DocumentKind, p: PageRequest, status?: DocumentStatus): Promise<Page<AnnouncementRow>> {
    return this.repo.list(this.db, kind, p, status);
  }

  async get(kind: DocumentKind, id: number) {
    const row = await this.repo.find(this.db, kind, id);
    if (!row) throw new NotFoundError(label(kind));
    return row;
  }

  async update(kind: DocumentKind, actor: StaffActor, id: number, input: { title: string; message: string }) {
    const title = required('title', input.title);
    const message = required('message', input.message);
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, kind, id);
      const row = await this.repo.update(tx, id, { title, message, updatedAt: this.clock.now() });
      await this.record(tx, actor, `${actionPrefix(kind)}.updated`, id, { title: before.title, message: before.message }, { title, message });
      return row;
    });
  }

  async remove(kind: DocumentKind, actor: StaffActor, id: number) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, kind, id);
      await this.repo.delete(tx, id);
      await this.record(tx, actor, `${actionPrefix(kind)}.deleted`, id, { title: before.title, status: before.status }, undefined);
      return { id };
    });
  }

  /** Publishes now, or schedules the publication when `publishAt` is in the future. */
  async publish(kind: DocumentKind, actor: StaffActor, id: number, publishAt?: Date) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, kind, id);
      if (before.status === 'Published') throw new ConflictError(`The ${label(kind).toLowerCase()} is already published`, 'ALREADY_PUBLISHED');
      const now = this.clock.now();
      const row =
        publishAt && publishAt.getTime() > now.getTime()
          ? await this.repo.update(tx, id, { publishAt, updatedAt: now })
          : await this.publishRow(tx, before, now);
      await this.record(tx, actor, `${actionPrefix(kind)}.${row.status === 'Published' ? 'published' : 'scheduled'}`, id, { status: before.status }, {
        status: row.status,
        publish_at: row.publishAt?.toISOString() ?? null,
      });
      return row;
    });
  }

  /** Withdraws a published document; on a scheduled one, cancels the schedule. */
  async unpublish(kind: DocumentKind, actor: StaffActor, id: number) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, kind, id);
      const now = this.clock.now();
      let row: AnnouncementRow;
      if (before.status === 'Published') row = await this.repo.update(tx, id, { status: 'Withdrawn', withdrawnAt: now, publishAt: null, updatedAt: now });
      else if (before.publishAt) row = await this.repo.update(tx, id, { publishAt: null, updatedAt: now });
      else throw new ConflictError(`The ${label(kind).toLowerCase()} is not published`, 'NOT_PUBLISHED');
      await this.record(tx, actor, `${actionPrefix(kind)}.unpublished`, id, { status: before.status, publish_at: before.publishAt?.toISOString() ?? null }, { status: row.status });
      return row;
    });
  }

  /** The job: publishes what is due; returns how many. */
  async publishDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        const now = this.clock.now();
        const due = await this.repo.lockDue(tx, now, 50);
        for (const row of due) {
          await this.publishRow(tx, row, now);
          await this.audit.record(tx, {
            actor: { type: 'system', id: null },
            action: `${actionPrefix(row.kind)}.published`,
            targetType: row.kind,
            targetId: row.id,
            before: { status: row.status, publish_at: row.publishAt?.toISOString() ?? null },
            after: { status: 'Published' },
          });
        }
        return due.length;
      });
      total += n;
      if (n < 50) return total;
    }
  }

  // --- customer side ----------------------------------------------------------------------

  /** The newest published announcement, or null. */
  async highlight(): Promise<AnnouncementRow | null> {
    const page = await this.repo.listPublished(this.db, 'announcement', { page: 1, limit: 1 });
    return page.items[0] ?? null;
  }

  listPublished(kind: DocumentKind, p: PageRequest): Promise<Page<AnnouncementRow>> {
    return this.repo.listPublished(this.db, kind, p);
  }

  private async publishRow(tx: Executor, row: AnnouncementRow, now: Date): Promise<AnnouncementRow> {
    const out = await this.repo.update(tx, row.id, { status: 'Published', publishedAt: now, publishAt: null, withdrawnAt: null, updatedAt: now });
    if (row.kind === 'announcement') await this.notifications.announce({ id: row.id, title: row.title, message: row.message }, tx);
    return out;
  }

  private async locked(tx: Executor, kind: DocumentKind, id: number): Promise<AnnouncementRow> {
    const row = await this.repo.lock(tx, kind, id);
    if (!row) throw new NotFoundError(label(kind));
    return row;
  }

  private record(tx: Executor, actor: StaffActor, action: string, id: number, before: unknown, after: unknown) {
    return this.audit.record(tx, {
      actor: { type: 'admin', id: actor.adminId, ip: actor.ip, userAgent: actor.userAgent },
      action,
      targetType: action.split('.')[0],
      targetId: id,
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
