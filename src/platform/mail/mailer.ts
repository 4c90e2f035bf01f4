import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database, Executor } from '../db/database.js';
import { defineJob, type JobQueue } from '../queue/queue.js';
import { mailOutbox } from './mail.tables.js';
import type { RenderedMail } from './templates.js';

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

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** logBodies: without SMTP, write the text to the log (development); never in production, where it holds links and codes. */
    private readonly opts: { smtpUrl: string | undefined; from: string; logBodies: boolean },
  ) {
    queue.register(this.deliverJob);
  }

  async queueMail(to: string, mail: RenderedMail, tx?: Executor): Promise<number> {
    const run = async (ex: Executor) => {
      const [row] = await ex
        .insert(mailOutbox)
        .values({ toAddress: to, subject: mail.subject, textBody: mail.text, htmlBody: mail.html, template: mail.template })
        .returning({ id: mailOutbox.id });
      await this.queue.send(this.deliverJob, { outboxId: row!.id }, { tx: ex });
      return row!.id;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  async deliver(outboxId: number): Promise<void> {
    const [mail] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
    if (!mail || mail.status !== 'pending') return;
    if (!this.opts.smtpUrl) {
      const text = this.opts.logBodies ? { text: mail.textBody } : {};
      this.log.info({ to: mail.toAddress, subject: mail.subject, outboxId, ...text }, 'mail (no SMTP configured)');
      await this.db.update(mailOutbox).set({ status: 'logged', sentAt: this.clock.now() }).where(eq(mailOutbox.id, outboxId));
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
        .set({ status: 'sent', sentAt: this.clock.now(), attempts: mail.attempts + 1 })
        .where(eq(mailOutbox.id, outboxId));
    } catch (err) {
      await this.db
        .update(mailOutbox)
        .set({ attempts: mail.attempts + 1, lastError: String((err as Error).message).slice(0, 500) })
        .where(eq(mailOutbox.id, outboxId));
      throw err;
    }
  }

  close(): void {
    void this.transport?.then((t) => t.close(), () => undefined);
  }
}
