import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession, createAdmin, createCustomRole, loginAdmin } from '../helpers/admins.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';

// The serial console of a VM over a real WebSocket, against the simulated datacenter's line shell.

const clock = new ManualClock(new Date());
let t: TestApp;
let base: string;
let tierId: number;

before(async () => {
  t = await buildTestApp({ clock, env: { CONSOLE_IDLE_SECONDS: '60', CONSOLE_HEARTBEAT_SECONDS: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  tierId = await seededTier(t);
});
after(() => t.close());

async function runningVm() {
  const c = await customerSession(t);
  await fund(t, c.id);
  const res = await createVm(t, c.cookie, { name: 'con-1', location_id: 1, tier_id: tierId });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(t);
  return { c, vm: res.json().data as { id: number } };
}

const ticketFor = (cookie: string, vmId: number, prefix = '/api/compute') => t.app.inject({ method: 'POST', url: `${prefix}/vm/${vmId}/console`, headers: { cookie } });

/** A console client: collects what it reads and how it ended. */
interface Client {
  ws: WebSocket;
  text: () => string;
  until: (pattern: RegExp) => Promise<string>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(path: string, headers: Record<string, string>): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${base}${path}`, { headers: { origin: `http://${base}`, ...headers } });
    let text = '';
    const waiters: (() => void)[] = [];
    ws.on('message', (d: Buffer) => {
      text += d.toString('utf8');
      for (const w of [...waiters]) w();
    });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body: body ? JSON.parse(body) : null })));
    });
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        text: () => text,
        closed,
        until: (pattern) =>
          new Promise((res, rej) => {
            const check = () => {
              if (pattern.test(text)) {
                waiters.splice(waiters.indexOf(check), 1);
                res(text);
              }
            };
            waiters.push(check);
            void closed.then(() => rej(new Error(`closed before ${pattern}: ${JSON.stringify(text)}`)));
            check();
          }),
      }),
    );
  });
}

async function open(cookie: string, vmId: number, prefix = '/api/compute'): Promise<Client> {
  const res = await ticketFor(cookie, vmId, prefix);
  assert.equal(res.statusCode, 201, res.body);
  return connect(res.json().data.websocket_path, { cookie });
}

/** The HTTP answer that refused an upgrade. */
async function refusal(p: Promise<Client>): Promise<{ status: number; code: string }> {
  const err = (await p.then(
    (c) => {
      c.ws.close();
      assert.fail('the console opened');
    },
    (e: unknown) => e,
  )) as { status: number; body: { code: string } };
  return { status: err.status, code: err.body?.code };
}

const sessionsOf = (vmId: number) =>
  queryRows<{ ticket_hash: string; opened_at: Date | null; closed_at: Date | null; close_reason: string | null; admin_id: number | null }>(
    t.container.db,
    sql`select ticket_hash, opened_at, closed_at, close_reason, admin_id from vm_console_sessions where vm_id = ${vmId} order by id`,
  );
const auditOf = (vmId: number) =>
  queryRows<{ action: string; actor_type: string; actor_id: number; after: Record<string, unknown> }>(
    t.container.db,
    sql`select action, actor_type, actor_id, after from audit_logs where target_type = 'vm' and target_id = ${String(vmId)} and action in ('vm.console_opened', 'vm.console_closed') order by id`,
  );

describe('VM console', () => {
  test('a ticket opens a console once: typed commands run in the line shell; the session is audited open and closed with its length', async () => {
    const { c, vm } = await runningVm();
    const res = await ticketFor(c.cookie, vm.id);
    assert.equal(res.statusCode, 201, res.body);
    const { ticket, expires_at, websocket_path } = res.json().data;
    assert.equal(new Date(expires_at).getTime() - clock.now().getTime(), 60_000);
    assert.equal(websocket_path, `/api/compute/vm/${vm.id}/console/ws?ticket=${ticket}`);
    const [row] = await sessionsOf(vm.id);
    assert.notEqual(row!.ticket_hash, ticket, 'only the hash is stored');
    assert.equal(row!.ticket_hash.length, 64);

    const con = await connect(websocket_path, { cookie: c.cookie });
    await con.until(/root@vm-\d+:~# $/);
    con.ws.send('hostname\r');
    await con.until(new RegExp(`hostname\\r\\nvm-${vm.id}\\r\\n`));
    con.ws.send('echo hello console\r');
    await con.until(/hello console\r\n/);

    assert.equal((await refusal(connect(websocket_path, { cookie: c.cookie }))).status, 401, 'used once');
    // a plain GET (no upgrade) is refused before it could use a ticket
    const plain = await t.app.inject({ method: 'GET', url: `/api/compute/vm/${vm.id}/console/ws?ticket=x`, headers: { cookie: c.cookie } });
    assert.equal(plain.statusCode, 426);
    assert.equal(plain.json().code, 'UPGRADE_REQUIRED');

    clock.advance(42_000);
    con.ws.close();
    await con.closed;
    await eventually(async () => (await sessionsOf(vm.id))[0]!.closed_at !== null);
    const audit = await auditOf(vm.id);
    assert.deepEqual(audit.map((a) => [a.action, a.actor_type, a.actor_id]), [['vm.console_opened', 'customer', c.id], ['vm.console_closed', 'customer', c.id]]);
    assert.equal(audit[1]!.after.duration_seconds, 42);
    assert.equal(audit[1]!.after.reason, 'client_closed');
  });

  test('two uses of one ticket at once open one session', async () => {
    const { c, vm } = await runningVm();
    const { websocket_path } = (await ticketFor(c.cookie, vm.id)).json().data;
    const results = await Promise.allSettled([connect(websocket_path, { cookie: c.cookie }), connect(websocket_path, { cookie: c.cookie })]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    for (const r of results) if (r.status === 'fulfilled') r.value.ws.close();
    assert.equal((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.status, 401);
  });

  test('a ticket expires after 60 s (the injected clock)', async () => {
    const { c, vm } = await runningVm();
    const { websocket_path } = (await ticketFor(c.cookie, vm.id)).json().data;
    clock.advance(60_001);
    assert.deepEqual(await refusal(connect(websocket_path, { cookie: c.cookie })), { status: 401, code: 'INVALID_CONSOLE_TICKET' });
  });

  test("another customer's VM is 404, a VM that is not Running is 409, a ticket is for its VM and its session only", async () => {
    const { c, vm } = await runningVm();
    const other = await runningVm();
    const theirs = await ticketFor(c.cookie, other.vm.id);
    assert.equal(theirs.statusCode, 404);
    const { ticket } = (await ticketFor(c.cookie, vm.id)).json().data;
    // on another VM, by another customer, by another session of the same customer, without a session
    assert.equal((await refusal(connect(`/api/compute/vm/${other.vm.id}/console/ws?ticket=${ticket}`, { cookie: other.c.cookie }))).status, 401);
    assert.equal((await refusal(connect(`/api/compute/vm/${vm.id}/console/ws?ticket=${ticket}`, { cookie: other.c.cookie }))).status, 404);
    const secondSession = await loginCustomer(t, c.email, c.password);
    assert.equal((await refusal(connect(`/api/compute/vm/${vm.id}/console/ws?ticket=${ticket}`, { cookie: secondSession }))).status, 401);
    assert.equal((await refusal(connect(`/api/compute/vm/${vm.id}/console/ws?ticket=${ticket}`, {}))).status, 401);
    // none of those used it
    const con = await connect(`/api/compute/vm/${vm.id}/console/ws?ticket=${ticket}`, { cookie: c.cookie });
    con.ws.close();

    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    const stopping = await ticketFor(c.cookie, vm.id);
    assert.equal(stopping.statusCode, 409);
    assert.equal(stopping.json().code, 'VM_NOT_RUNNING');
    await vmJobsDone(t);
    assert.equal((await ticketFor(c.cookie, vm.id)).json().code, 'VM_NOT_RUNNING');
  });

  test("an upgrade from another origin's page is refused (cross-site WebSocket hijacking)", async () => {
    const { c, vm } = await runningVm();
    const { websocket_path } = (await ticketFor(c.cookie, vm.id)).json().data;
    assert.deepEqual(await refusal(connect(websocket_path, { cookie: c.cookie, origin: 'https://evil.example' })), { status: 403, code: 'CROSS_ORIGIN_REQUEST' });
    // the ticket was not used by the refused attempt
    const con = await connect(websocket_path, { cookie: c.cookie });
    con.ws.close();
  });

  test('limits: two sessions a VM; a message over 16 KiB closes with 1009; nothing typed for the idle timeout closes with 4001', async () => {
    const { c, vm } = await runningVm();
    const a = await open(c.cookie, vm.id);
    const b = await open(c.cookie, vm.id);
    assert.deepEqual(await refusal(open(c.cookie, vm.id)), { status: 409, code: 'CONSOLE_SESSION_LIMIT' });
    b.ws.send('x'.repeat(16 * 1024 + 1));
    assert.equal((await b.closed).code, 1009);
    await eventually(async () => (await sessionsOf(vm.id)).filter((s) => s.closed_at !== null).length >= 1);
    const d = await open(c.cookie, vm.id);
    d.ws.close();
    a.ws.send('echo still here\r');
    await a.until(/still here\r\n/);
    clock.advance(60_000);
    const idle = await a.closed;
    assert.equal(idle.code, 4001);
    assert.equal(idle.reason, 'idle timeout');
  });

  test('stopping the VM closes its console with 4000', async () => {
    const { c, vm } = await runningVm();
    const con = await open(c.cookie, vm.id);
    await con.until(/# $/);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    await vmJobsDone(t);
    assert.equal((await con.closed).code, 4000);
    await eventually(async () => (await sessionsOf(vm.id))[0]!.close_reason === 'vm_stopped');
  });

  test("staff with operate_compute open a customer's console from the backoffice: audited, and the customer gets a mail", async () => {
    const { c, vm } = await runningVm();
    const viewer = await adminSession(t, { permissions: ['view_compute'] });
    assert.equal((await ticketFor(viewer.cookie, vm.id, '/api/backoffice/compute')).statusCode, 403);
    const operator = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    // a staff ticket does not open the customer route, nor a customer's ticket the staff one
    const staffTicket = (await ticketFor(operator.cookie, vm.id, '/api/backoffice/compute')).json().data;
    assert.equal(staffTicket.websocket_path, `/api/backoffice/compute/vm/${vm.id}/console/ws?ticket=${staffTicket.ticket}`);
    assert.equal((await refusal(connect(`/api/compute/vm/${vm.id}/console/ws?ticket=${staffTicket.ticket}`, { cookie: c.cookie }))).status, 401);
    const con = await connect(staffTicket.websocket_path, { cookie: operator.cookie });
    await con.until(/# $/);
    con.ws.send('uname -a\r');
    await con.until(/Linux vm-\d+ /);
    con.ws.close();
    await eventually(async () => (await auditOf(vm.id)).length === 2);
    const audit = await auditOf(vm.id);
    assert.deepEqual(audit.map((a) => [a.action, a.actor_type, a.actor_id]), [['vm.console_opened', 'admin', operator.id], ['vm.console_closed', 'admin', operator.id]]);
    const [ticketAudit] = await queryRows<{ actor_id: number }>(t.container.db, sql`select actor_id from audit_logs where action = 'vm.console_ticket' and target_id = ${String(vm.id)}`);
    assert.equal(ticketAudit?.actor_id, operator.id);
    const mails = await queryRows<{ template: string; subject: string }>(t.container.db, sql`select template, subject from mail_outbox where to_address = ${c.email} and template = 'vm_console_opened_by_staff'`);
    assert.deepEqual(mails, [{ template: 'vm_console_opened_by_staff', subject: 'Our team opened the console of your VM con-1' }]);
    const [session] = await sessionsOf(vm.id);
    assert.equal(session!.admin_id, operator.id);
  });});

describe('VM console: the holder losing access', () => {
  // an app of its own: a heartbeat a second (a console whose holder lost access ends within one) and the usual idle timeout
  let first: { t: TestApp; base: string; tierId: number };
  before(async () => {
    first = { t, base, tierId };
    t = await buildTestApp({ clock, env: { CONSOLE_HEARTBEAT_SECONDS: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    tierId = await seededTier(t);
  });
  after(async () => {
    await t.close();
    ({ t, base, tierId } = first);
  });
  // a heartbeat a second ends it within one; the bound only names what failed (a loaded machine may take a while)
  const accessEnded = async (con: Client, what: string) => {
    const closed = await Promise.race([con.closed, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`console still open after ${what}`)), 60_000).unref())]);
    assert.deepEqual(closed, { code: 4003, reason: 'your access ended' }, what);
  };
  /** Waits until the VM's sessions are all closed in the database (a close is recorded after the socket ends). */
  const allClosed = (vmId: number) => eventually(async () => (await sessionsOf(vmId)).every((x) => x.closed_at !== null));

  test('a console ends (4003) once its holder loses access: the session logged out, revoked, ended by a password change, the API token revoked', async () => {
    const { c, vm } = await runningVm();
    // the customer logs out: the console of that session ends
    const first = await open(c.cookie, vm.id);
    await first.until(/# $/);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: c.cookie } })).statusCode, 200);
    await accessEnded(first, 'the logout');
    await eventually(async () => (await sessionsOf(vm.id))[0]!.close_reason === 'access_ended');
    const audit = await auditOf(vm.id);
    assert.equal(audit.at(-1)!.after.reason, 'access_ended');

    // one session revokes another (as the device sessions page does): the other's console ends, its own stays
    clock.advance(61_000);
    const keeper = await loginCustomer(t, c.email, c.password);
    clock.advance(61_000);
    const holder = await loginCustomer(t, c.email, c.password);
    const kept = await open(keeper, vm.id);
    const revoked = await open(holder, vm.id);
    const sessions = (await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie: holder } })).json().data as { id: string; current: boolean }[];
    const holderSid = sessions.find((x) => x.current)!.id;
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${holderSid}`, headers: { cookie: keeper } })).statusCode, 200);
    await accessEnded(revoked, 'the session was revoked');
    kept.ws.send('echo kept\r');
    await kept.until(/kept\r\n/);
    kept.ws.close();
    await allClosed(vm.id);

    // a password change ends the other sessions, and their consoles
    const password = `${c.password}-new`;
    clock.advance(61_000);
    const other = await loginCustomer(t, c.email, c.password);
    const ofOther = await open(other, vm.id);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/password/change', headers: { cookie: keeper }, payload: { current_password: c.password, new_password: password } })).statusCode, 200);
    await accessEnded(ofOther, 'the password change');
    await allClosed(vm.id);

    // a console opened with an API token ends when the token is revoked
    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: keeper }, payload: { password } })).json().data.token;
    const created = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: keeper, 'x-access-token': sudo }, payload: { name: 'console', scopes: ['compute:write'] } });
    assert.equal(created.statusCode, 201, created.body);
    const { id: tokenId, token } = created.json().data;
    const ticket = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vm.id}/console`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(ticket.statusCode, 201, ticket.body);
    const byToken = await connect(ticket.json().data.websocket_path, { authorization: `Bearer ${token}` });
    await byToken.until(/# $/);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${tokenId}`, headers: { cookie: keeper } })).statusCode, 200);
    await accessEnded(byToken, 'the token was revoked');
  });

  test('a staff console ends (4003) once its staff member loses operate_compute (demoted, the role changed) or is deleted or logs out', async () => {
    const { vm } = await runningVm();
    const boss = await adminSession(t);
    const staffOpen = async (cookie: string) => {
      const res = await ticketFor(cookie, vm.id, '/api/backoffice/compute');
      assert.equal(res.statusCode, 201, res.body);
      const con = await connect(res.json().data.websocket_path, { cookie });
      await con.until(/# $/);
      return con;
    };

    // moved to a role without operate_compute, the access token still saying otherwise
    const role = await createCustomRole(t, ['view_compute', 'operate_compute']);
    const demoted = await createAdmin(t, { role });
    const demotedCon = await staffOpen(await loginAdmin(t, demoted.email, demoted.password));
    const change = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/admin/${demoted.id}/update-role`, headers: { cookie: boss.cookie }, payload: { role: 'Admin Billing' } });
    assert.equal(change.statusCode, 200, change.body);
    await accessEnded(demotedCon, 'the demotion');
    await allClosed(vm.id);

    // the role itself loses operate_compute; a staff member who keeps it is not touched
    const member = await createAdmin(t, { role });
    const memberCon = await staffOpen(await loginAdmin(t, member.email, member.password));
    const keeper = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    const keeperCon = await staffOpen(keeper.cookie);
    const sync = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/roles/${encodeURIComponent(role)}/permissions`, headers: { cookie: boss.cookie }, payload: { permissions: ['view_compute'] } });
    assert.equal(sync.statusCode, 200, sync.body);
    await accessEnded(memberCon, 'the role lost operate_compute');
    keeperCon.ws.send('echo staff kept\r');
    await keeperCon.until(/staff kept\r\n/);
    keeperCon.ws.close();
    await allClosed(vm.id);

    // deleted
    const leaving = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    const leavingCon = await staffOpen(leaving.cookie);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${leaving.id}/delete`, headers: { cookie: boss.cookie } })).statusCode, 200);
    await accessEnded(leavingCon, 'the admin was deleted');
    await allClosed(vm.id);

    // logged out
    const done = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    const doneCon = await staffOpen(done.cookie);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/logout', headers: { cookie: done.cookie } })).statusCode, 200);
    await accessEnded(doneCon, 'the staff logout');
    await allClosed(vm.id);
    assert.deepEqual((await sessionsOf(vm.id)).map((x) => x.close_reason), ['access_ended', 'access_ended', 'client_closed', 'access_ended', 'access_ended']);
  });
});
