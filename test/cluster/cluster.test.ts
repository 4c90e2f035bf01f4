import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { startCluster, UPSTREAM_HEADER, type Cluster } from '../../scripts/cluster.js';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { LISTENER_APPLICATION_NAME, queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createAdmin, createCustomRole } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

// Two API processes and one worker process (scripts/cluster.ts), each started as `npm start` starts
// one, behind a round-robin proxy, on the database of this file. The in-process app only makes the
// fixtures (customers, staff) and reads the database; every request goes to the child processes.
let t: TestApp;
let cluster: Cluster | undefined;
let receiver: WebhookReceiver | undefined;
const streams: SseClient[] = [];
const API_TOKEN_LIMIT = 4;

before(async () => {
  t = await buildTestApp({ db: 'postgres', worker: false });
  receiver = await new WebhookReceiver().start();
  cluster = await startCluster({
    apis: 2,
    workers: 1,
    databaseUrl: t.database!.url,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      CONSOLE: 'off',
      // what every process of one deployment must share besides the database
      JWT_SECRET: t.container.config.jwtSecret,
      ENCRYPTION_KEY: t.container.config.encryptionKey.toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      API_TOKEN_RATE_LIMIT_PER_MIN: String(API_TOKEN_LIMIT),
      SSE_HEARTBEAT_MS: '500',
    },
  });
});

after(async () => {
  for (const s of streams) s.close();
  await cluster?.stop();
  await receiver?.close();
  await t?.close();
});

interface Answer {
  status: number;
  upstream: string | null;
  body: any;
  cookie: string;
}

/** One HTTP request; `cookie` is what the answer's Set-Cookie headers set (for the next request). */
async function call(base: string, method: string, path: string, opts: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
  return { status: res.status, upstream: res.headers.get(UPSTREAM_HEADER), body, cookie };
}

const apiA = () => cluster!.apiUrls[0]!;
const apiB = () => cluster!.apiUrls[1]!;

async function customerLogin(base: string) {
  const c = await createCustomer(t);
  const res = await call(base, 'POST', '/api/auth/login', { body: { email: c.email, password: c.password } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { ...c, cookie: res.cookie };
}

async function staffLogin(base: string, opts: Parameters<typeof createAdmin>[1] = {}) {
  const a = await createAdmin(t, opts);
  const res = await call(base, 'POST', '/api/backoffice/auth/login', { body: { email: a.email, password: a.password } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { ...a, cookie: res.cookie };
}

describe('a cluster: two API processes and a worker on one database, behind a round-robin proxy', () => {
  test('the proxy spreads requests over both API processes', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 4; i++) {
      const res = await call(cluster!.url, 'GET', '/readyz');
      assert.equal(res.status, 200);
      seen.add(res.upstream);
    }
    assert.deepEqual([...seen].sort(), ['api-1', 'api-2']);
  });

  test('behind the proxy a request carries its client’s address, not the proxy’s', async () => {
    const c = await createCustomer(t);
    // the client here is on loopback like the proxy, so an address it forwards itself stands in for a remote one
    const login = await call(cluster!.url, 'POST', '/api/auth/login', { body: { email: c.email, password: c.password }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const sessions = await call(apiA(), 'GET', '/api/auth/sessions', { cookie: login.cookie });
    assert.deepEqual(sessions.body.data.map((s: { ip: string }) => s.ip), ['203.0.113.9']);
  });

  test('sessions: a login on one process is a session on the other; a logout on one ends it on both', async () => {
    const c = await customerLogin(apiA());
    const onB = await call(apiB(), 'GET', '/api/inf', { cookie: c.cookie });
    assert.equal(onB.status, 200, JSON.stringify(onB.body));
    const through = await Promise.all([0, 1].map(() => call(cluster!.url, 'GET', '/api/inf', { cookie: c.cookie })));
    assert.deepEqual(through.map((r) => r.status), [200, 200]);
    assert.deepEqual(through.map((r) => r.upstream).sort(), ['api-1', 'api-2']);

    assert.equal((await call(apiB(), 'POST', '/api/auth/logout', { cookie: c.cookie })).status, 200);
    assert.equal((await call(apiA(), 'GET', '/api/inf', { cookie: c.cookie })).status, 401, 'the session ended on the other process too');
  });

  test('rate limits: an API token’s requests are counted over all processes', async () => {
    const c = await customerLogin(cluster!.url);
    const sudo = await call(cluster!.url, 'POST', '/api/auth/profile/sudo', { cookie: c.cookie, body: { password: c.password } });
    assert.equal(sudo.status, 200, JSON.stringify(sudo.body));
    const minted = await call(cluster!.url, 'POST', '/api/tokens', { cookie: c.cookie, headers: { 'x-access-token': sudo.body.data.token }, body: { name: 'ci', scopes: ['account:read'] } });
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    const bearer = { authorization: `Bearer ${minted.body.data.token}` };

    const upstreams = new Set<string | null>();
    for (let i = 0; i < API_TOKEN_LIMIT; i++) {
      const res = await call(cluster!.url, 'GET', '/api/inf', { headers: bearer });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      upstreams.add(res.upstream);
    }
    assert.equal(upstreams.size, 2, 'the allowed requests were answered by both processes');
    for (const base of [apiA(), apiB()]) {
      const limited = await call(base, 'GET', '/api/inf', { headers: bearer });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'RATE_LIMITED');
    }
  });

  test('the ticket stream: an event committed by one process reaches a stream open on the other', async () => {
    const staff = await staffLogin(apiA());
    const stream = await openSse(`${apiA()}/api/backoffice/ticket/sse/stream`, { cookie: staff.cookie });
    streams.push(stream);
    assert.equal(stream.status, 200, stream.body);
    const c = await customerLogin(apiB());
    const created = await call(apiB(), 'POST', '/api/ticket', { cookie: c.cookie, body: { title: 'Cluster ticket', message: 'from the other process' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const event = await stream.waitFor((m) => m.data?.type === 'NEW_TICKET' && m.data.payload.ticket?.id === created.body.data.id, 10_000);
    assert.equal(event.data.payload.ticket.title, 'Cluster ticket');
    stream.close();
  });

  test('jobs: a webhook queued by an API process is delivered by the worker process', async () => {
    const c = await customerLogin(cluster!.url);
    const endpoint = await call(cluster!.url, 'POST', '/api/webhooks/endpoints', { cookie: c.cookie, body: { url: receiver!.url('/cluster'), event_types: ['invoice.paid'] } });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const sent = await call(cluster!.url, 'POST', `/api/webhooks/endpoints/${endpoint.body.data.id}/test`, { cookie: c.cookie });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    // the API processes run no jobs (ROLE=api): only the worker can have sent it
    const [got] = await receiver!.waitFor(1, 30_000);
    assert.equal(got!.headers['webhook-id'], sent.body.data.event_id);
    assert.equal(JSON.parse(got!.body).type, 'webhook.test');
  });
});

describe('settings reach every process at once (LISTEN/NOTIFY)', () => {
  const processB = () => cluster!.processes.find((p) => p.name === 'api-2')!;

  /**
   * Makes a settings change (through process A, say) and waits until process B has logged that
   * its notification dropped B's cached settings. The notification is sent on commit and arrives
   * within milliseconds, but asynchronously: a request sent to B the instant A answers can still
   * get there first, so the test waits for the notification, not for a time.
   */
  async function heardOnB(change: () => Promise<unknown>): Promise<void> {
    const mark = processB().linesPrinted();
    await change();
    await processB().waitForLine(/settings changed: cached settings dropped/, mark);
  }

  async function setMaintenance(staffCookie: string, on: boolean) {
    const current = await call(apiA(), 'GET', '/api/backoffice/setting', { cookie: staffCookie });
    assert.equal(current.status, 200, JSON.stringify(current.body));
    const { app_name, privacy_policy_url, terms_and_conditions_url } = current.body.data;
    const res = await call(apiA(), 'PUT', '/api/backoffice/setting/update', { cookie: staffCookie, body: { app_name, privacy_policy_url, terms_and_conditions_url, maintenance_mode: on } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  test('maintenance switched on through process A: process B answers 503 MAINTENANCE on its next customer request; switched off, B serves again', async () => {
    const boss = await staffLogin(apiA());
    const c = await customerLogin(apiB());
    const ping = () => call(apiB(), 'GET', '/api/inf', { cookie: c.cookie });
    // B has read (and cached) the flag
    assert.equal((await ping()).status, 200);
    assert.equal((await ping()).status, 200);
    try {
      await heardOnB(() => setMaintenance(boss.cookie, true));
      const refused = await ping();
      assert.equal(refused.status, 503);
      assert.equal(refused.body.code, 'MAINTENANCE');
    } finally {
      await heardOnB(() => setMaintenance(boss.cookie, false));
    }
    assert.equal((await ping()).status, 200);
  });

  test('the staff-2FA requirement switched on through A holds at once on B for a role that moves money; switched off, B serves again', async () => {
    const boss = await staffLogin(apiA());
    const cashier = await staffLogin(apiB(), { role: await createCustomRole(t, ['view_users', 'manage_balance']) });
    const customers = () => call(apiB(), 'GET', '/api/backoffice/customer', { cookie: cashier.cookie });
    assert.equal((await customers()).status, 200);
    try {
      await heardOnB(async () => {
        const set = await call(apiA(), 'PUT', '/api/backoffice/setting/staff-2fa', { cookie: boss.cookie, body: { required: true } });
        assert.equal(set.status, 200, JSON.stringify(set.body));
      });
      const blocked = await customers();
      assert.equal(blocked.status, 403);
      assert.equal(blocked.body.code, 'TWO_FACTOR_SETUP_REQUIRED');
    } finally {
      // the boss moves money too and has no second factor now: switched off by this test's own
      // process, a third one, through the same service (and the same notification)
      await heardOnB(() => t.container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'nobody' }));
    }
    assert.equal((await customers()).status, 200);
  });

  test('a killed listening connection is opened again and LISTENs again: the cache is kept and dropped by the next change', async () => {
    const listeners = () =>
      queryRows<{ pid: number; state: string | null }>(t.container.db, sql`select pid, state from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`);
    const before = await listeners();
    assert.equal(before.length, 4, 'one listening connection per process: two API processes, the worker and this test’s app');
    const mark = processB().linesPrinted();
    await t.container.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`);
    await processB().waitForLine(/the listening connection was lost/, mark);
    await processB().waitForLine(/settings: listening again/, mark);
    const killed = new Set(before.map((l) => l.pid));
    await eventually(async () => {
      const now = await listeners();
      return now.length === 4 && now.every((l) => !killed.has(l.pid));
    });

    const boss = await staffLogin(apiA());
    const c = await customerLogin(apiB());
    const ping = () => call(apiB(), 'GET', '/api/inf', { cookie: c.cookie });
    assert.equal((await ping()).status, 200);
    // B caches again: a change behind the settings service, which sends no notification, is not seen there
    await t.container.db.execute(sql`update app_settings set maintenance_mode = true`);
    assert.equal((await ping()).status, 200, 'served from the cache');
    await t.container.db.execute(sql`update app_settings set maintenance_mode = false`);

    try {
      await heardOnB(() => setMaintenance(boss.cookie, true));
      assert.equal((await ping()).status, 503, 'the notification reached B on its new connection');
    } finally {
      await heardOnB(() => setMaintenance(boss.cookie, false));
    }
    assert.equal((await ping()).status, 200);
  });
});
