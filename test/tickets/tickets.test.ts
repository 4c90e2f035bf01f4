import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')]);

async function req(method: string, url: string, cookie: string, payload?: unknown) {
  const res = await t.app.inject({ method: method as any, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as any } : {}) });
  return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? res.json() : undefined, res };
}

async function openTicket(cookie: string, title = 'VM does not boot') {
  const r = await req('POST', '/api/ticket', cookie, { title, message: 'It hangs at GRUB', priority: 'High' });
  assert.equal(r.status, 201, r.res.body);
  return r.body.data;
}

describe('support tickets', () => {
  test('customer opens, lists, reads; staff reply moves Open → In Progress; customer closes; staff archive', async () => {
    const customer = await customerSession(t);
    const staff = await adminSession(t, { role: 'Admin Support' });
    const ticket = await openTicket(customer.cookie);
    assert.equal(ticket.status, 'Open');
    assert.equal(ticket.priority, 'High');
    assert.equal(ticket.messages.length, 1);
    assert.equal(ticket.messages[0].sender_type, 'customer');

    const list = await req('GET', '/api/ticket', customer.cookie);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((x: any) => x.id), [ticket.id]);
    assert.equal(list.body.meta.total, 1);

    const staffReply = await req('POST', `/api/backoffice/ticket/${ticket.id}/reply`, staff.cookie, { message: 'Please try the rescue console' });
    assert.equal(staffReply.status, 201, staffReply.res.body);
    assert.equal(staffReply.body.data.sender_type, 'admin');

    const mine = await req('GET', `/api/ticket/${ticket.id}`, customer.cookie);
    assert.equal(mine.body.data.status, 'In Progress');
    assert.deepEqual(mine.body.data.messages.map((m: any) => m.sender_type), ['customer', 'admin']);
    assert.equal(mine.body.data.message_count, 2);

    const custReply = await req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, { message: 'That worked, thanks' });
    assert.equal(custReply.status, 201);
    assert.equal((await req('GET', `/api/ticket/${ticket.id}`, customer.cookie)).body.data.status, 'In Progress');

    // archiving needs a closed ticket
    const early = await req('PATCH', `/api/backoffice/ticket/${ticket.id}/archive`, staff.cookie);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'TICKET_NOT_CLOSED');

    const closed = await req('PATCH', `/api/ticket/${ticket.id}/close`, customer.cookie);
    assert.equal(closed.status, 200);
    assert.equal(closed.body.data.status, 'Closed');
    assert.ok(closed.body.data.closed_at);

    for (const [url, cookie, body] of [
      [`/api/ticket/${ticket.id}/reply`, customer.cookie, { message: 'one more thing' }],
      [`/api/backoffice/ticket/${ticket.id}/reply`, staff.cookie, { message: 'hello?' }],
    ] as const) {
      const r = await req('POST', url, cookie, body);
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'TICKET_CLOSED');
    }
    assert.equal((await req('PATCH', `/api/ticket/${ticket.id}/close`, customer.cookie)).body.code, 'TICKET_CLOSED');
    assert.equal((await req('PATCH', `/api/backoffice/ticket/${ticket.id}/priority`, staff.cookie, { priority: 'Low' })).status, 409);

    const archived = await req('PATCH', `/api/backoffice/ticket/${ticket.id}/archive`, staff.cookie);
    assert.equal(archived.status, 200);
    assert.equal(archived.body.data.status, 'Archived');
    assert.equal((await req('PATCH', `/api/backoffice/ticket/${ticket.id}/archive`, staff.cookie)).body.code, 'TICKET_ARCHIVED');
    assert.equal((await req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, { message: 'x' })).body.code, 'TICKET_ARCHIVED');

    // the staff list leaves archived tickets out unless asked for
    const staffList = await req('GET', `/api/backoffice/ticket?customer_id=${customer.id}`, staff.cookie);
    assert.equal(staffList.body.meta.total, 0);
    const archivedList = await req('GET', `/api/backoffice/ticket?customer_id=${customer.id}&status=Archived`, staff.cookie);
    assert.deepEqual(archivedList.body.data.map((x: any) => x.id), [ticket.id]);
    assert.equal(archivedList.body.data[0].customer.email, customer.email);

    // every staff write is audited, and so is every customer write (the customer's activity log)
    const actions = await queryRows<{ actor_type: string; action: string }>(
      t.container.db,
      sql`select actor_type, action from audit_logs where target_type = 'ticket' and target_id = ${String(ticket.id)} order by id`,
    );
    assert.deepEqual(actions.filter((a) => a.actor_type === 'admin').map((a) => a.action), ['ticket.replied', 'ticket.archived']);
    assert.deepEqual(actions.filter((a) => a.actor_type === 'customer').map((a) => a.action), ['ticket.created', 'ticket.replied', 'ticket.closed']);
  });

  test("another customer's ticket is a 404 everywhere", async () => {
    const owner = await customerSession(t);
    const other = await customerSession(t);
    const ticket = await openTicket(owner.cookie);
    for (const [method, url, body] of [
      ['GET', `/api/ticket/${ticket.id}`, undefined],
      ['POST', `/api/ticket/${ticket.id}/reply`, { message: 'hi' }],
      ['PATCH', `/api/ticket/${ticket.id}/close`, undefined],
      ['GET', `/api/ticket/${ticket.id}/attachments/00000000-0000-4000-8000-000000000000`, undefined],
    ] as const) {
      const r = await req(method, url, other.cookie, body);
      assert.equal(r.status, 404, `${method} ${url}`);
    }
    assert.equal((await req('GET', '/api/ticket', other.cookie)).body.meta.total, 0);
  });

  test('validation: blank title, unknown priority, unknown fields', async () => {
    const c = await customerSession(t);
    assert.equal((await req('POST', '/api/ticket', c.cookie, { title: '   ', message: 'x' })).status, 400);
    assert.equal((await req('POST', '/api/ticket', c.cookie, { title: 'a', message: 'x', priority: 'Urgent' })).status, 400);
    assert.equal((await req('POST', '/api/ticket', c.cookie, { title: 'a', message: 'x', status: 'Closed' })).status, 400);
    assert.equal((await req('GET', '/api/ticket?status=Pending', c.cookie)).status, 400);
  });

  test('priority, assignment, insight and filters', async () => {
    const customer = await customerSession(t);
    const lead = await adminSession(t, { role: 'Admin Support' });
    const agent = await adminSession(t, { role: 'Admin Support' });
    const billing = await adminSession(t, { role: 'Admin Billing' });
    const ticket = await openTicket(customer.cookie, 'Invoice question');

    const before = (await req('GET', '/api/backoffice/ticket/insight', lead.cookie)).body.data;
    const p = await req('PATCH', `/api/backoffice/ticket/${ticket.id}/priority`, lead.cookie, { priority: 'Low' });
    assert.equal(p.status, 200);
    assert.equal(p.body.data.priority, 'Low');

    // only staff who may see tickets can be given one
    const bad = await req('PATCH', `/api/backoffice/ticket/${ticket.id}/assignment`, lead.cookie, { admin_id: billing.id });
    assert.equal(bad.status, 400);
    assert.equal((await req('PATCH', `/api/backoffice/ticket/${ticket.id}/assignment`, lead.cookie, { admin_id: 2147483647 })).status, 400);
    const a = await req('PATCH', `/api/backoffice/ticket/${ticket.id}/assignment`, lead.cookie, { admin_id: agent.id });
    assert.equal(a.status, 200, a.res.body);
    assert.deepEqual(a.body.data.assigned_admin, { id: agent.id, name: 'Test Admin' });
    assert.equal(a.body.data.status, 'In Progress');

    const mineOnly = await req('GET', `/api/backoffice/ticket?assigned_admin_id=${agent.id}`, lead.cookie);
    assert.deepEqual(mineOnly.body.data.map((x: any) => x.id), [ticket.id]);
    const search = await req('GET', `/api/backoffice/ticket?search=${encodeURIComponent('invoice QUESTION')}&priority=Low`, lead.cookie);
    assert.ok(search.body.data.some((x: any) => x.id === ticket.id));

    const after = (await req('GET', '/api/backoffice/ticket/insight', lead.cookie)).body.data;
    assert.equal(after.total, before.total);
    assert.equal(after.in_progress, before.in_progress + 1);
    assert.equal(after.open, before.open - 1);
    assert.equal(after.open + after.in_progress + after.closed + after.archived, after.total);

    const conv = await req('GET', `/api/backoffice/ticket/${ticket.id}/conversations`, lead.cookie);
    assert.equal(conv.status, 200);
    // data is the list of the ticket's messages itself, oldest first (the ticket is GET /ticket/{id})
    assert.ok(Array.isArray(conv.body.data), JSON.stringify(conv.body.data));
    assert.equal(conv.body.data.length, 1);
    assert.equal(conv.body.data[0].ticket_id, ticket.id);

    // staff without ticket permissions are refused; a read-only role cannot write
    assert.equal((await req('GET', '/api/backoffice/ticket', billing.cookie)).status, 403);
    const reader = await adminSession(t, { permissions: ['view_tickets'] });
    assert.equal((await req('GET', '/api/backoffice/ticket', reader.cookie)).status, 200);
    assert.equal((await req('POST', `/api/backoffice/ticket/${ticket.id}/reply`, reader.cookie, { message: 'x' })).status, 403);
    assert.equal((await req('GET', '/api/backoffice/ticket/999999/conversations', lead.cookie)).status, 404);
  });

  test('a staff reply notifies the customer (unread_count in /api/inf)', async () => {
    const customer = await customerSession(t);
    const staff = await adminSession(t);
    const ticket = await openTicket(customer.cookie);
    const unread = async () => (await req('GET', '/api/inf', customer.cookie)).body.data.unread_count;
    assert.equal(await unread(), 0);
    await req('POST', `/api/backoffice/ticket/${ticket.id}/reply`, staff.cookie, { message: 'We are on it' });
    assert.equal(await unread(), 1);
    const list = await req('GET', '/api/notifications', customer.cookie);
    assert.equal(list.body.data[0].kind, 'TICKET_REPLY');
    assert.match(list.body.data[0].body, /We are on it/);
    // the customer's own reply notifies nobody
    await req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, { message: 'ok' });
    assert.equal(await unread(), 1);
  });
});

describe('ticket attachments', () => {
  test('stored, listed and downloadable by the ticket customer and staff only', async () => {
    const customer = await customerSession(t);
    const other = await customerSession(t);
    const staff = await adminSession(t, { role: 'Admin Support' });
    const noTickets = await adminSession(t, { role: 'Admin Billing' });
    const ticket = await openTicket(customer.cookie);
    const log = Buffer.from('kernel: panic\nline 2 — ünïcode\n');
    const r = await req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, {
      message: 'screenshot and log attached',
      attachments: [
        { filename: '../../etc/screen shot.PNG', content_type: 'image/png', content_base64: PNG.toString('base64') },
        { filename: 'boot.log', content_type: 'text/plain', content_base64: log.toString('base64') },
      ],
    });
    assert.equal(r.status, 201, r.res.body);
    const [png, txt] = r.body.data.attachments;
    assert.equal(png.filename, 'screen shot.PNG');
    assert.equal(png.size_bytes, PNG.length);
    assert.equal(png.url, `/api/ticket/${ticket.id}/attachments/${png.id}`);

    const down = await t.app.inject({ method: 'GET', url: png.url, headers: { cookie: customer.cookie } });
    assert.equal(down.statusCode, 200);
    assert.equal(down.headers['content-type'], 'image/png');
    assert.match(String(down.headers['content-disposition']), /^attachment; filename="screen shot.PNG"/);
    assert.equal(down.headers['x-content-type-options'], 'nosniff');
    assert.match(String(down.headers['content-security-policy']), /sandbox/);
    assert.deepEqual(down.rawPayload, PNG);

    const staffDown = await t.app.inject({ method: 'GET', url: `/api/backoffice/ticket/${ticket.id}/attachments/${txt.id}`, headers: { cookie: staff.cookie } });
    assert.equal(staffDown.statusCode, 200);
    assert.equal(staffDown.headers['content-type'], 'text/plain; charset=utf-8');
    assert.deepEqual(staffDown.rawPayload, log);

    assert.equal((await t.app.inject({ method: 'GET', url: png.url, headers: { cookie: other.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: png.url })).statusCode, 401);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/backoffice/ticket/${ticket.id}/attachments/${png.id}`, headers: { cookie: noTickets.cookie } })).statusCode,
      403,
    );
    // the attachment id only works under its own ticket
    const second = await openTicket(customer.cookie);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/ticket/${second.id}/attachments/${png.id}`, headers: { cookie: customer.cookie } })).statusCode, 404);

    const conv = await req('GET', `/api/backoffice/ticket/${ticket.id}/conversations`, staff.cookie);
    assert.deepEqual(
      conv.body.data[1].attachments.map((a: any) => a.url),
      [`/api/backoffice/ticket/${ticket.id}/attachments/${png.id}`, `/api/backoffice/ticket/${ticket.id}/attachments/${txt.id}`],
    );
  });

  test('a new ticket may carry files in its first message, checked like those of a reply; staff see them in the conversation', async () => {
    const customer = await customerSession(t);
    const staff = await adminSession(t, { role: 'Admin Support' });
    const r = await req('POST', '/api/ticket', customer.cookie, {
      title: 'Screenshot of the error',
      message: 'see the picture',
      attachments: [{ filename: 'error.png', content_type: 'image/png', content_base64: PNG.toString('base64') }],
    });
    assert.equal(r.status, 201, r.res.body);
    const [file] = r.body.data.messages[0].attachments;
    assert.equal(file.filename, 'error.png');
    assert.equal(file.url, `/api/ticket/${r.body.data.id}/attachments/${file.id}`);
    assert.deepEqual((await t.app.inject({ method: 'GET', url: file.url, headers: { cookie: customer.cookie } })).rawPayload, PNG);
    const conv = await req('GET', `/api/backoffice/ticket/${r.body.data.id}/conversations`, staff.cookie);
    assert.deepEqual(conv.body.data[0].attachments.map((a: any) => a.id), [file.id]);

    const before = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from tickets`))[0]!.n;
    const bad = await req('POST', '/api/ticket', customer.cookie, { title: 'x', message: 'y', attachments: [{ filename: 'x.exe', content_type: 'image/png', content_base64: PNG.toString('base64') }] });
    assert.equal(bad.status, 400);
    const afterBad = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from tickets`))[0]!.n;
    assert.equal(afterBad, before, 'a refused file opens no ticket');
  });

  test('type, size, count and content limits', async () => {
    const customer = await customerSession(t);
    const ticket = await openTicket(customer.cookie);
    const reply = (attachments: unknown[]) => req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, { message: 'files', attachments });
    const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
    const cases: [string, unknown[]][] = [
      ['executable type', [{ filename: 'x.exe', content_type: 'application/x-msdownload', content_base64: b64('MZ') }]],
      ['html', [{ filename: 'x.html', content_type: 'text/html', content_base64: b64('<script>') }]],
      ['extension not of the type', [{ filename: 'x.exe', content_type: 'image/png', content_base64: b64(PNG) }]],
      ['bytes not of the type', [{ filename: 'x.png', content_type: 'image/png', content_base64: b64('MZ\x90\x00 not a png') }]],
      ['binary as text', [{ filename: 'x.txt', content_type: 'text/plain', content_base64: b64(Buffer.from([0x00, 0xff, 0xfe])) }]],
      ['not base64', [{ filename: 'x.txt', content_type: 'text/plain', content_base64: 'not base64!!' }]],
      ['too large', [{ filename: 'x.txt', content_type: 'text/plain', content_base64: b64(Buffer.alloc(2 * 1024 * 1024 + 1, 'a')) }]],
      ['too many', Array.from({ length: 4 }, (_, i) => ({ filename: `x${i}.txt`, content_type: 'text/plain', content_base64: b64('hi') }))],
    ];
    for (const [name, attachments] of cases) {
      const r = await reply(attachments);
      assert.equal(r.status, 400, `${name}: ${r.res.body.slice(0, 300)}`);
    }
    // nothing of a refused reply was stored
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from ticket_messages where ticket_id = ${ticket.id}`);
    assert.equal(n!.n, 1);
    // exactly at the limit is fine
    const ok = await reply([{ filename: 'big.txt', content_type: 'text/plain', content_base64: b64(Buffer.alloc(2 * 1024 * 1024, 'a')) }]);
    assert.equal(ok.status, 201, ok.res.body.slice(0, 300));
    // three files at the limit fit in one reply's body
    const three = await reply([0, 1, 2].map((i) => ({ filename: `big${i}.txt`, content_type: 'text/plain', content_base64: b64(Buffer.alloc(2 * 1024 * 1024, 'b')) })));
    assert.equal(three.status, 201, three.res.body.slice(0, 300));
    assert.deepEqual(three.body.data.attachments.map((a: any) => a.size_bytes), [2097152, 2097152, 2097152]);
  });
});

describe('ticket transitions under concurrency', () => {
  test('parallel replies and a close: each reply lands before the close or is refused; none after it', async () => {
    const customer = await customerSession(t);
    const staff = await adminSession(t);
    const ticket = await openTicket(customer.cookie);
    const replies = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? req('POST', `/api/ticket/${ticket.id}/reply`, customer.cookie, { message: `c${i}` })
        : req('POST', `/api/backoffice/ticket/${ticket.id}/reply`, staff.cookie, { message: `s${i}` }),
    );
    const closes = [req('PATCH', `/api/ticket/${ticket.id}/close`, customer.cookie), req('PATCH', `/api/backoffice/ticket/${ticket.id}/close`, staff.cookie)];
    const [answers, closeAnswers] = await Promise.all([Promise.all(replies), Promise.all(closes)]);
    assert.ok(answers.every((a) => a.status === 201 || (a.status === 409 && a.body.code === 'TICKET_CLOSED')), JSON.stringify(answers.map((a) => a.status)));
    assert.deepEqual(closeAnswers.map((a) => a.status).sort(), [200, 409], 'exactly one close wins');
    const [row] = await queryRows<{ status: string; closed_at: Date; n: number; late: number }>(
      t.container.db,
      sql`select t.status, t.closed_at,
                 (select count(*)::int from ticket_messages m where m.ticket_id = t.id) as n,
                 (select count(*)::int from ticket_messages m where m.ticket_id = t.id and m.created_at > t.closed_at) as late
          from tickets t where t.id = ${ticket.id}`,
    );
    assert.equal(row!.status, 'Closed');
    assert.equal(row!.n, 1 + answers.filter((a) => a.status === 201).length);
    assert.equal(row!.late, 0);
  });
});
