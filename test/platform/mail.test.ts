import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { mailOutbox } from '../../src/platform/mail/mail.tables.js';
import { linkMail, noticeMail, otpMail, receiptMail } from '../../src/platform/mail/templates.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { TestSmtpServer } from '../helpers/smtp.js';

describe('mail over SMTP', () => {
  const smtp = new TestSmtpServer();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { SMTP_URL: await smtp.start(), MAIL_FROM: 'Cloud <no-reply@cloud.test>' } });
  });
  after(async () => {
    await t.close();
    await smtp.stop();
  });

  test('an OTP mail queued in a committed transaction arrives over SMTP and is marked sent', async () => {
    const id = await t.container.db.transaction((tx) =>
      t.container.mailer.queueMail('User@Example.test', otpMail({ code: '482913', purpose: 'change your e-mail', validMinutes: 10 }), tx),
    );
    const mail = await smtp.waitFor('user@example.test');
    assert.match(mail.subject, /482913/);
    assert.match(mail.text, /482913/);
    assert.equal(mail.from, 'no-reply@cloud.test');
    const row = await eventually(async () => {
      const [r] = await t.container.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      return r?.status === 'sent' ? r : undefined;
    });
    assert.ok(row.sentAt);
  });

  test('a mail queued in a rolled-back transaction is never sent', async () => {
    await assert.rejects(
      t.container.db.transaction(async (tx) => {
        await t.container.mailer.queueMail('ghost@example.test', otpMail({ code: '111111', purpose: 'x', validMinutes: 10 }), tx);
        throw new Error('rollback');
      }),
    );
    await t.container.mailer.queueMail('after@example.test', otpMail({ code: '222222', purpose: 'x', validMinutes: 10 }));
    await smtp.waitFor('after@example.test');
    assert.equal(smtp.mails.filter((m) => m.to.includes('ghost@example.test')).length, 0);
    const [row] = await t.container.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(eq(mailOutbox.toAddress, 'ghost@example.test'));
    assert.equal(row!.n, 0);
  });

  test('link and receipt templates carry what the reader needs', async () => {
    const url = 'http://127.0.0.1:3000/confirm?token=abc123';
    await t.container.mailer.queueMail('link@example.test', linkMail({ template: 'email-change', subject: 'Confirm your new e-mail', intro: 'Click to confirm.', url, validHours: 24 }));
    const link = await smtp.waitFor('link@example.test');
    assert.ok(link.text.includes(url), link.text);
    await t.container.mailer.queueMail(
      'receipt@example.test',
      receiptMail({ reference: 'INV-1', description: 'Top-up', amount: '150000.00', currency: 'IDR', paidAt: new Date('2026-01-02T03:04:05Z') }),
    );
    const receipt = await smtp.waitFor('receipt@example.test');
    assert.match(receipt.text, /IDR 150000\.00/);
    assert.match(receipt.text, /INV-1/);
  });
});

describe('mail without SMTP', () => {
  test('stays in the outbox, marked logged (a notice keeps its text; a code would not, see mail secrets)', async () => {
    const t = await buildTestApp();
    try {
      const id = await t.container.mailer.queueMail('nosmtp@example.test', noticeMail({ template: 'notice', subject: 'Hello', lines: ['Plain news 333333'] }));
      const row = await eventually(async () => {
        const [r] = await t.container.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
        return r?.status === 'logged' ? r : undefined;
      });
      assert.match(row.textBody, /333333/);
    } finally {
      await t.close();
    }
  });
});
