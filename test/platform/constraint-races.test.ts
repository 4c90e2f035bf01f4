import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createCustomer, loginCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';

let t: TestApp;
const smtp = new TestSmtpServer();
before(async () => {
  t = await buildTestApp({ db: 'postgres', env: { SMTP_URL: await smtp.start() } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

/** Logs a customer in and takes the e-mail change up to the link mailed to `newEmail`; returns the link's token. */
async function linkTo(newEmail: string): Promise<{ cookie: string; token: string }> {
  const c = await createCustomer(t);
  const cookie = await loginCustomer(t, c.email, c.password);
  const step = (name: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/auth/profile/change-email/${name}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  assert.equal((await step('request')).statusCode, 200);
  const otp = await smtp.waitFor(c.email, (m) => /verification code/i.test(m.subject));
  const verified = await step('verify-old', { code: /is (\d{6})/.exec(otp.text)![1]! });
  assert.equal(verified.statusCode, 200, verified.body);
  const sent = await step('send-new', { token: verified.json().data.token, new_email: newEmail });
  assert.equal(sent.statusCode, 200, sent.body);
  const mail = await smtp.waitFor(newEmail, (m) => /confirm your new/i.test(m.subject) && !used.has(m));
  used.add(mail);
  return { cookie, token: /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]! };
}
const used = new Set<unknown>();

describe('constraint races answer 409 with the specific code (PostgreSQL, parallel requests)', () => {
  test('two accounts confirming an e-mail change to the same new address at the same moment: one 200, one 409 EMAIL_TAKEN', async () => {
    const target = 'contested.address@example.test';
    const a = await linkTo(target);
    const b = await linkTo(target);
    const confirm = (x: { cookie: string; token: string }) =>
      t.app.inject({ method: 'POST', url: '/api/auth/profile/change-email/confirm-new', headers: { cookie: x.cookie }, payload: { token: x.token } });

    // Hold both confirmations inside their transactions: each passes the service's "is it taken?"
    // check before either commits, so the loser meets the unique index, not the check.
    const lock = new pg.Client({ connectionString: t.database!.url });
    await lock.connect();
    let answers: Awaited<ReturnType<typeof confirm>>[];
    try {
      await lock.query('begin');
      await lock.query('lock table mail_outbox in exclusive mode');
      const both = Promise.all([confirm(a), confirm(b)]);
      // one waits for the lock on mail_outbox after changing its e-mail, the other for that row's unique index entry
      await eventually(async () => {
        const { rows } = await lock.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
        return rows[0].n >= 2;
      });
      await lock.query('commit');
      answers = await both;
    } finally {
      await lock.end();
    }
    const statuses = answers.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [200, 409], answers.map((r) => r.body).join('\n'));
    const loser = answers.find((r) => r.statusCode === 409)!;
    assert.equal(loser.json().code, 'EMAIL_TAKEN');
    assert.doesNotMatch(loser.body, /customers_email_unique|duplicate key/);
  });
});
