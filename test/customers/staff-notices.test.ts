import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

// What staff do to a customer's account or ticket, the customer reads in a mail.

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false, env: { FRONTEND_URL: 'https://console.example.test' } });
});
after(() => t.close());

interface Mail {
  template: string;
  subject: string;
  text_body: string;
}

const mailsTo = (email: string) =>
  queryRows<Mail>(t.container.db, sql`select template, subject, text_body from mail_outbox where to_address = ${email} order by id`);

describe('mail to the customer', () => {
  test('a staff reply to their ticket: the reply, the attachments, the link to answer; a customer reply sends nothing', async () => {
    const c = await customerSession(t, { firstName: 'Dewi' });
    const staff = await adminSession(t, { role: 'Admin Support' });
    const opened = await t.app.inject({ method: 'POST', url: '/api/ticket', headers: { cookie: c.cookie }, payload: { title: 'VM does not boot', message: 'It hangs at GRUB' } });
    assert.equal(opened.statusCode, 201, opened.body);
    const ticket = opened.json().data;
    assert.deepEqual(await mailsTo(c.email), [], 'opening a ticket mails nobody');

    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/ticket/${ticket.id}/reply`,
      headers: { cookie: staff.cookie },
      payload: { message: 'Please try the rescue console.\nThen reboot.', attachments: [{ filename: 'steps.txt', content_type: 'text/plain', content_base64: Buffer.from('1. rescue').toString('base64') }] },
    });
    assert.equal(reply.statusCode, 201, reply.body);
    const [mail, ...more] = await mailsTo(c.email);
    assert.equal(more.length, 0);
    assert.ok(mail);
    assert.equal(mail.template, 'ticket_reply');
    assert.equal(mail.subject, `New reply on your ticket #${ticket.id}: VM does not boot`);
    assert.match(mail.text_body, /Hello Dewi,/);
    assert.match(mail.text_body, /Please try the rescue console\.\nThen reboot\./);
    assert.match(mail.text_body, /one attachment/);
    assert.ok(mail.text_body.includes(`https://console.example.test/tickets/${ticket.id}`), mail.text_body);

    assert.equal((await t.app.inject({ method: 'POST', url: `/api/ticket/${ticket.id}/reply`, headers: { cookie: c.cookie }, payload: { message: 'Thanks' } })).statusCode, 201);
    assert.equal((await mailsTo(c.email)).length, 1, "the customer's own reply is not mailed back");

    // a refused reply (closed ticket) mails nothing
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/backoffice/ticket/${ticket.id}/close`, headers: { cookie: staff.cookie } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/backoffice/ticket/${ticket.id}/reply`, headers: { cookie: staff.cookie }, payload: { message: 'late' } })).statusCode, 409);
    assert.equal((await mailsTo(c.email)).length, 1);
  });

  test('a staff balance adjustment: amount and balance as a person reads money, the reason; a refused one mails nothing', async () => {
    const c = await customerSession(t, { firstName: 'Rudi' });
    const billing = await adminSession(t);
    const adjust = (payload: object, key?: string) =>
      t.app.inject({ method: 'POST', url: `/api/backoffice/customer/${c.id}/balance`, headers: { cookie: billing.cookie, ...(key ? { 'idempotency-key': key } : {}) }, payload });

    const added = await adjust({ type: 'ADD', amount: 1250000.5, description: 'Refund of ticket 42' }, 'adj-1');
    assert.equal(added.statusCode, 200, added.body);
    let mails = await mailsTo(c.email);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.template, 'balance_added');
    assert.equal(mails[0]!.subject, 'IDR 1,250,000.50 was added to your balance');
    assert.match(mails[0]!.text_body, /Hello Rudi,/);
    assert.match(mails[0]!.text_body, /Our team added IDR 1,250,000\.50 to your balance\./);
    assert.match(mails[0]!.text_body, /Reason: Refund of ticket 42/);
    assert.match(mails[0]!.text_body, /Your balance is now IDR 1,250,000\.50\./);

    // a replay with the same key answers again and mails nothing more
    assert.equal((await adjust({ type: 'ADD', amount: 1250000.5, description: 'Refund of ticket 42' }, 'adj-1')).statusCode, 200);
    assert.equal((await mailsTo(c.email)).length, 1);

    const deducted = await adjust({ type: 'DEDUCT', amount: 250000.5, description: 'Duplicate refund' });
    assert.equal(deducted.statusCode, 200, deducted.body);
    mails = await mailsTo(c.email);
    assert.equal(mails.length, 2);
    assert.equal(mails[1]!.template, 'balance_deducted');
    assert.equal(mails[1]!.subject, 'IDR 250,000.50 was deducted from your balance');
    assert.match(mails[1]!.text_body, /Your balance is now IDR 1,000,000\./);

    const refused = await adjust({ type: 'DEDUCT', amount: 5000000, description: 'too much' });
    assert.equal(refused.statusCode, 402, refused.body);
    assert.equal((await mailsTo(c.email)).length, 2, 'nothing happened, nothing is mailed');
  });
});
