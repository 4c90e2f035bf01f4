import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database, Executor } from '../db/database.js';
import { defineJob, type JobQueue } from '../queue/queue.js';
import { mailOutbox } from './mail.tables.js';
import type { RenderedMail } from './templates.js';

/** Bodies of delivered mail that carries no secret are kept this long (support can see what was sent). */
export const MAIL_BODY_RETENTION_DAYS = 7;
/** Outbox rows, delivered or not, are deleted after this long. */
export const MAIL_OUTBOX_RETENTION_DAYS = 30;
const DAY_MS = 24 * 3600_000;

/** What is left of a scrubbed mail: who got which template when. */
const scrubbed = (template: string, now: Date) => ({ subject: `[${template}]`, textBody: '', htmlBody: null, scrubbedAt: now });

/**
 * Mail leaves in two steps: `queue` writes the message to the outbox and enqueues its delivery in
 * the caller's transaction (so no mail goes out for a rolled-back change); the `mail.deliver` job
 * sends it.
 */
export class Mailer {
  /** Created at the first mail sent over SMTP (nodemailer is loaded then, not at start-up). */
  private transport: Promise<Transporter> | undefined;
  readonly deliverJob = defineJob<{ outboxId: number }>({
    name: 'mail.deliver',
    queue: 'mail',
    description: 'Sends one queued e-mail over SMTP (or records it in the log when SMTP is not configured)',
    // one per mail: the outbox row already says what was sent; failures still reach job_runs
    record: 'failures',
    handler: ({ outboxId }) => this.deliver(outboxId),
  });

  readonly pruneJob = defineJob<object>({
    name: 'mail.prune',
    schedule: '35 3 * * *',
    description: `Wipes the bodies of mail delivered more than ${MAIL_BODY_RETENTION_DAYS} days ago and deletes outbox rows older than ${MAIL_OUTBOX_RETENTION_DAYS} days`,
    handler: async (_p, ctx) => ctx.log.info(await this.prune(), 'mail outbox pruned'),
  });

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** logBodies: without SMTP, write subject and text to the log (development only: they hold links and codes). */
    private readonly opts: { smtpUrl: string | undefined; from: string; logBodies: boolean },
  ) {}

  async queueMail(to: string, mail: RenderedMail, tx?: Executor): Promise<number> {
    return (await this.queueMails([{ to, mail }], tx))[0]!;
  }

  /** Several mails into the outbox and their delivery jobs, with one INSERT each (a batch of credited top-ups). */
  async queueMails(mails: { to: string; mail: RenderedMail }[], tx?: Executor): Promise<number[]> {
    if (mails.length === 0) return [];
    const run = async (ex: Executor) => {
      const rows = await ex
        .insert(mailOutbox)
        .values(
          mails.map(({ to, mail }) => ({ toAddress: to, subject: mail.subject, textBody: mail.text, htmlBody: mail.html, template: mail.template, sensitive: mail.sensitive === true, createdAt: this.clock.now() })),
        )
        .returning({ id: mailOutbox.id });
      const ids = rows.map((r) => r.id);
      await this.queue.sendMany(this.deliverJob, ids.map((outboxId) => ({ outboxId })), { tx: ex });
      return ids;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  async deliver(outboxId: number): Promise<void> {
    const [mail] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
    if (!mail || mail.status !== 'pending') return;
    const now = () => this.clock.now();
    const afterDelivery = () => (mail.sensitive ? scrubbed(mail.template, now()) : {});
    if (!this.opts.smtpUrl) {
      const text = this.opts.logBodies ? { subject: mail.subject, text: mail.textBody } : {};
      this.log.info({ to: mail.toAddress, template: mail.template, outboxId, ...text }, 'mail (no SMTP configured)');
      await this.db.update(mailOutbox).set({ status: 'logged', sentAt: now(), ...afterDelivery() }).where(eq(mailOutbox.id, outboxId));
      return;
    }
    try {
      const smtpUrl = this.opts.smtpUrl;
      this.transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await this.transport).sendMail({
        from: this.opts.from,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        ...(mail.htmlBody ? { html: mail.htmlBody } : {}),
      });
      await this.db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: now(), attempts: mail.attempts + 1, ...afterDelivery() })
        .where(eq(mailOutbox.id, outboxId));
    } catch (err) {
      await this.db
        .update(mailOutbox)
        .set({ attempts: mail.attempts + 1, lastError: String((err as Error).message).slice(0, 500) })
        .where(eq(mailOutbox.id, outboxId));
      throw err;
    }
  }

  /** Wipes the bodies of mail delivered before the body retention and deletes rows past the outbox retention. */
  async prune(): Promise<{ scrubbed: number; deleted: number }> {
    const now = this.clock.now();
    const bodiesBefore = new Date(now.getTime() - MAIL_BODY_RETENTION_DAYS * DAY_MS);
    const rowsBefore = new Date(now.getTime() - MAIL_OUTBOX_RETENTION_DAYS * DAY_MS);
    const wiped = await this.db
      .update(mailOutbox)
      .set({ subject: sql`'[' || ${mailOutbox.template} || ']'`, textBody: '', htmlBody: null, scrubbedAt: now })
      .where(and(inArray(mailOutbox.status, ['sent', 'logged']), isNull(mailOutbox.scrubbedAt), lt(mailOutbox.sentAt, bodiesBefore)))
      .returning({ id: mailOutbox.id });
    const deleted = await this.db.delete(mailOutbox).where(lt(mailOutbox.createdAt, rowsBefore)).returning({ id: mailOutbox.id });
    return { scrubbed: wiped.length, deleted: deleted.length };
  }

  close(): void {
    void this.transport?.then((t) => t.close(), () => undefined);
  }
}
