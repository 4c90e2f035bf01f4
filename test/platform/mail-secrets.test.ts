import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { mailOutbox } from '../../src/platform/mail/mail.tables.js';
import { linkMail, otpMail, receiptMail } from '../../src/platform/mail/templates.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { TestSmtpServer } from '../helpers/smtp.js';

/** The whole outbox row as text: what someone reading the table would see. */
async function rowText(t: TestApp, id: number): Promise<{ status: string; text: string }> {
  const [row] = await queryRows<{ status: string; text: string }>(t.container.db, sql`select status, row_to_json(m)::text as text from mail_outbox m where id = ${id}`);
  return row!;
}

async function delivered(t: TestApp, id: number) {
  return eventually(async () => {
    const r = await rowText(t, id);
    return r.status === 'sent' || r.status === 'logged' ? r : undefined;
  });
}

describe('mail that carries a secret leaves no copy in the outbox', () => {
  const smtp = new TestSmtpServer();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { SMTP_URL: await smtp.start() } });
  });
  after(async () => {
    await t.close();
    await smtp.stop();
  });

  test('a code and a link arrive whole; once sent, their rows hold neither', async () => {
    const otp = await t.container.mailer.queueMail('otp@example.test', otpMail({ code: '583920', purpose: 'x', validMinutes: 10 }));
    const link = await t.container.mailer.queueMail('link@example.test', linkMail({ template: 'password-reset', subject: 'Reset', intro: 'Open it', url: 'https://x.test/r?token=SeCrEtToKeN', validHours: 1 }));
    assert.match((await smtp.waitFor('otp@example.test')).text, /583920/);
    assert.match((await smtp.waitFor('link@example.test')).text, /SeCrEtToKeN/);
    const a = await delivered(t, otp);
    const b = await delivered(t, link);
    assert.equal(a.status, 'sent');
    assert.ok(!a.text.includes('583920'), a.text);
    assert.ok(!b.text.includes('SeCrEtToKeN'), b.text);
  });

  test("a new staff member's set-password link is mailed, then gone from the outbox", async () => {
    await t.container.services.admins.create(SYSTEM_ACTOR, { name: 'New', email: 'generated@staff.test', role: 'Admin Sales' });
    const token = /token=(\S+)/.exec((await smtp.waitFor('generated@staff.test')).text)![1]!;
    const [row] = await t.container.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.toAddress, 'generated@staff.test'));
    const r = await delivered(t, row!.id);
    assert.ok(!r.text.includes(token));
  });
});

describe('production logs hold no mail text', () => {
  const lines: string[] = [];
  let t: TestApp;
  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await buildTestApp({
      log: pino({ level: 'info' }, sink),
      env: {
        NODE_ENV: 'production',
        PAYMENT_MODE: 'live',
        JWT_SECRET: 'j'.repeat(48),
        ENCRYPTION_KEY: 'ab'.repeat(32),
        PGONE_MERCHANT_CODE: 'M12345',
        PGONE_API_KEY: 'live-pgone-key-0123456789',
        PGTWO_CALLBACK_SECRET: 'live-pgtwo-callback-0123456789',
        PGTWO_API_KEY: 'live-pgtwo-api-0123456789',
      },
    });
  });
  after(() => t.close());

  test('without SMTP a code is logged as "a mail of template otp", not its subject or text', async () => {
    const id = await t.container.mailer.queueMail('prod@example.test', otpMail({ code: '771046', purpose: 'x', validMinutes: 10 }));
    const r = await delivered(t, id);
    assert.equal(r.status, 'logged');
    assert.ok(!r.text.includes('771046'));
    const log = lines.join('');
    assert.match(log, /mail \(no SMTP configured\)/);
    assert.ok(!log.includes('771046'), 'the code reached the log');
  });
});

describe('the outbox is pruned', () => {
  const clock = new ManualClock();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  test('bodies of delivered mail go after 7 days, rows after 30 (mail.prune)', async () => {
    const id = await t.container.mailer.queueMail(
      'receipt@example.test',
      receiptMail({ reference: 'INV-9', description: 'Top-up', amount: '10.00', currency: 'IDR', paidAt: new Date('2026-01-01T00:00:00Z') }),
    );
    assert.match((await delivered(t, id)).text, /INV-9/, 'a receipt keeps its text for a while');
    assert.ok(t.container.queue.definition('mail.prune')?.schedule, 'mail.prune is scheduled');
    clock.advance(6 * 24 * 3600_000);
    await t.container.mailer.prune();
    assert.match((await rowText(t, id)).text, /INV-9/);
    clock.advance(2 * 24 * 3600_000);
    assert.ok((await t.container.mailer.prune()).scrubbed >= 1);
    assert.ok(!(await rowText(t, id)).text.includes('INV-9'));
    clock.advance(23 * 24 * 3600_000);
    assert.ok((await t.container.mailer.prune()).deleted >= 1);
    assert.equal((await queryRows(t.container.db, sql`select 1 from mail_outbox where id = ${id}`)).length, 0);
  });
});
