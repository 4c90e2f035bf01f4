import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createCustomer, loginCustomer, type CreatedCustomer } from '../helpers/customers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { seededTier } from '../helpers/compute.js';

const MINUTE = 60_000;
// a whole minute, an hour ago: the points inserted below are "collected" up to the clock's minute
const T0 = Math.floor((Date.now() - 3_600_000) / MINUTE) * MINUTE;
const clock = new ManualClock(new Date(T0));
let t: TestApp;
let t2: TestApp;
let receiver: WebhookReceiver;
let tierId: number;

before(async () => {
  t = await buildTestApp({ clock, db: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  t2 = await buildTestApp({ clock, sameDatabaseAs: t, worker: false });
  receiver = await new WebhookReceiver().start();
  tierId = await seededTier(t);
});
after(async () => {
  await t2?.close();
  await t?.close();
  await receiver?.close();
});

async function account(): Promise<CreatedCustomer & { cookie: string }> {
  const c = await createCustomer(t);
  const cookie = await loginCustomer(t, c.email, c.password);
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie }, payload: { url: receiver.url(`/c${c.id}`), event_types: ['*'] } });
  assert.equal(res.statusCode, 201, res.body);
  return { ...c, cookie };
}

async function cookieOf(c: CreatedCustomer): Promise<string> {
  return loginCustomer(t, c.email, c.password);
}

/** A Running VM row of the customer (the alerts read only its id, name and status). */
async function vm(customerId: number, name: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    t.container.db,
    sql`insert into vms (customer_id, name, location_id, tier_id, os, cpu, memory_mb, disk_gb, status)
        values (${customerId}, ${name}, 1, ${tierId}, 'debian-12', 1, 1024, 20, 'Running') returning id`,
  );
  return row!.id;
}

/**
 * Per-minute points of one VM from minute `fromMs` on, as the metrics collection stores them (its
 * partition made first), and the collection's progress moved past the last one.
 */
async function points(vmId: number, customerId: number, fromMs: number, values: { cpu?: number; netOut?: number }[]): Promise<void> {
  for (let i = 0; i < values.length; i++) {
    const minute = new Date(fromMs + i * MINUTE);
    const day = new Date(Date.UTC(minute.getUTCFullYear(), minute.getUTCMonth(), minute.getUTCDate()));
    const suffix = day.toISOString().slice(0, 10).replaceAll('-', '');
    await t.container.db.execute(sql`select ensure_metrics_partition('vm_metrics_minute'::regclass, ${day.toISOString()}::timestamptz, ${new Date(day.getTime() + 86_400_000).toISOString()}::timestamptz, ${suffix})`);
    const v = values[i]!;
    await t.container.db.execute(sql`
      insert into vm_metrics_minute (vm_id, customer_id, minute, samples, cpu_percent, cpu_percent_max, memory_samples, memory_bytes, memory_bytes_max,
        disk_read_bytes, disk_write_bytes, disk_read_ops, disk_write_ops, net_in_bytes, net_out_bytes, net_in_packets, net_out_packets)
      values (${vmId}, ${customerId}, ${minute.toISOString()}::timestamptz, 1, ${v.cpu ?? 0}, ${v.cpu ?? 0}, 0, null, null, 0, 0, 0, 0, 0, ${v.netOut ?? 0}, 0, 0)
      on conflict do nothing`);
  }
}

/** The collection has stored every minute before `untilMs`. */
async function collectedUntil(untilMs: number): Promise<void> {
  await t.container.db.execute(sql`
    insert into vm_metrics_progress (name, done_until) values ('minute', ${new Date(untilMs).toISOString()}::timestamptz)
    on conflict (name) do update set done_until = excluded.done_until, updated_at = now()`);
}

async function notices(customerId: number) {
  return queryRows<{ kind: string; title: string; reference_id: string }>(
    t.container.db,
    sql`select kind, title, reference_id from notifications where customer_id = ${customerId} and kind like 'ALERT_%' order by id`,
  );
}

async function events(customerId: number) {
  return queryRows<{ type: string; data: Record<string, unknown> }>(t.container.db, sql`select type, data from webhook_events where customer_id = ${customerId} and type like 'alert.%' order by id`);
}

async function mails(to: string) {
  return (await queryRows<{ template: string; subject: string }>(t.container.db, sql`select template, subject from mail_outbox where to_address = ${to} and template like 'alert_%' order by id`)).map((m) => m.template);
}

function evaluateBoth() {
  return Promise.all([t.container.services.alertEvaluation.evaluateAll(), t2.container.services.alertEvaluation.evaluateAll()]);
}

describe('metric alerts', () => {
  test('policy routes: validation at the edge, ownership, the limit', async () => {
    const c = await account();
    const other = await account();
    const mine = await vm(c.id, 'web-1');
    const theirs = await vm(other.id, 'web-x');
    const post = (payload: object, cookie = c.cookie) => t.app.inject({ method: 'POST', url: '/api/compute/alerts/policies', headers: { cookie }, payload });
    const good = { name: 'CPU high', vm_id: mine, metric: 'cpu_percent', comparison: '>', threshold: 80, window_minutes: 5 };
    for (const bad of [
      { ...good, metric: 'cpu' },
      { ...good, comparison: '>=' },
      { ...good, threshold: -1 },
      { ...good, threshold: 101 },
      { ...good, threshold: 1.00001 },
      { ...good, threshold: '80' },
      { ...good, window_minutes: 0 },
      { ...good, window_minutes: 1441 },
      { ...good, aggregation: 'sum' },
      { ...good, aggregation: 'median' },
      { ...good, name: '   ' },
      { ...good, extra: 1 },
      { name: 'x' },
    ]) {
      const res = await post(bad);
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
    }
    assert.equal((await post({ ...good, vm_id: theirs })).statusCode, 404);
    const created = await post(good);
    assert.equal(created.statusCode, 201, created.body);
    const policy = created.json().data;
    assert.equal(policy.aggregation, 'avg');
    assert.equal(policy.threshold, 80);
    const id = policy.id;
    // another account sees none of it
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: other.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: other.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/compute/alerts?vm_id=${theirs}`, headers: { cookie: c.cookie } })).statusCode, 404);
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: c.cookie }, payload: { threshold: 90, notify_email: false } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.threshold, 90);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: c.cookie }, payload: {} })).statusCode, 400);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: c.cookie }, payload: { aggregation: 'sum' } })).statusCode, 400);

    // the limit: 50 per account
    for (let i = 1; i < 50; i++) assert.equal((await post({ ...good, name: `p${i}`, vm_id: null })).statusCode, 201);
    const over = await post({ ...good, name: 'one too many' });
    assert.equal(over.statusCode, 409, over.body);
    assert.equal(over.json().code, 'QUOTA_EXCEEDED');
    const list = await t.app.inject({ method: 'GET', url: '/api/compute/alerts/policies?limit=100', headers: { cookie: c.cookie } });
    assert.equal(list.json().meta.total, 50);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: c.cookie } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/compute/alerts/policies/${id}`, headers: { cookie: c.cookie } })).statusCode, 404);
  });

  test('CPU above 80 for 5 minutes fires once and resolves once, under repeated runs and two processes', async () => {
    const c = await account();
    const a = await vm(c.id, 'app-1');
    const b = await vm(c.id, 'app-2');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/compute/alerts/policies',
      headers: { cookie: c.cookie },
      payload: { name: 'CPU busy', metric: 'cpu_percent', comparison: '>', threshold: 80, aggregation: 'min', window_minutes: 5 },
    });
    assert.equal(res.statusCode, 201, res.body);
    const start = T0 + 10 * MINUTE;
    // app-1: 4 busy minutes, not yet 5
    await points(a, c.id, start, [{ cpu: 50 }, { cpu: 90 }, { cpu: 95 }, { cpu: 99 }, { cpu: 91 }]);
    await points(b, c.id, start, [{ cpu: 10 }, { cpu: 12 }, { cpu: 11 }, { cpu: 10 }, { cpu: 9 }]);
    await collectedUntil(start + 5 * MINUTE);
    await evaluateBoth();
    assert.deepEqual(await notices(c.id), []);

    // the fifth busy minute: it fires for app-1 only
    await points(a, c.id, start + 5 * MINUTE, [{ cpu: 97 }]);
    await points(b, c.id, start + 5 * MINUTE, [{ cpu: 10 }]);
    await collectedUntil(start + 6 * MINUTE);
    await evaluateBoth();
    await evaluateBoth();
    let n = await notices(c.id);
    assert.deepEqual(n.map((x) => x.kind), ['ALERT_FIRED']);
    assert.equal(n[0]!.title, 'Alert: CPU busy on app-1');
    const fired = await events(c.id);
    assert.equal(fired.length, 1);
    assert.equal(fired[0]!.type, 'alert.fired');
    assert.equal(fired[0]!.data.vm_id, a);
    assert.equal(fired[0]!.data.value, 90);
    assert.equal(fired[0]!.data.started_at, new Date(start + 6 * MINUTE).toISOString());
    assert.deepEqual(await mails(c.email), ['alert_fired']);

    // the VM page's open alerts, and the policy's count
    const open = await t.app.inject({ method: 'GET', url: `/api/compute/alerts?vm_id=${a}&status=firing`, headers: { cookie: await cookieOf(c) } });
    assert.equal(open.statusCode, 200, open.body);
    assert.equal(open.json().data.length, 1);
    assert.equal(open.json().data[0].vm_name, 'app-1');
    const pol = await t.app.inject({ method: 'GET', url: '/api/compute/alerts/policies', headers: { cookie: await cookieOf(c) } });
    assert.equal(pol.json().data[0].open_alerts, 1);

    // still busy for minutes: nothing new
    for (let i = 6; i < 9; i++) {
      await points(a, c.id, start + i * MINUTE, [{ cpu: 96 }]);
      await points(b, c.id, start + i * MINUTE, [{ cpu: 10 }]);
      await collectedUntil(start + (i + 1) * MINUTE);
      await evaluateBoth();
    }
    assert.equal((await notices(c.id)).length, 1);

    // one quiet minute: the lowest minute of the window is below 80, it resolves, once
    await points(a, c.id, start + 9 * MINUTE, [{ cpu: 20 }]);
    await points(b, c.id, start + 9 * MINUTE, [{ cpu: 10 }]);
    await collectedUntil(start + 10 * MINUTE);
    await evaluateBoth();
    await evaluateBoth();
    n = await notices(c.id);
    assert.deepEqual(n.map((x) => x.kind), ['ALERT_FIRED', 'ALERT_RESOLVED']);
    assert.equal(n[1]!.title, 'Resolved: CPU busy on app-1');
    const ev = await events(c.id);
    assert.deepEqual(ev.map((e) => e.type), ['alert.fired', 'alert.resolved']);
    assert.equal(ev[1]!.data.resolution, 'recovered');
    assert.equal(ev[1]!.data.value, 20);
    assert.deepEqual(await mails(c.email), ['alert_fired', 'alert_resolved']);
    const history = (await t.app.inject({ method: 'GET', url: '/api/compute/alerts', headers: { cookie: await cookieOf(c) } })).json().data;
    assert.equal(history.length, 1);
    assert.equal(history[0].status, 'resolved');
    assert.equal(history[0].resolved_at, new Date(start + 10 * MINUTE).toISOString());

    // busy again for five minutes: a new incident
    for (let i = 10; i < 15; i++) {
      await points(a, c.id, start + i * MINUTE, [{ cpu: 99 }]);
      await collectedUntil(start + (i + 1) * MINUTE);
      await evaluateBoth();
    }
    assert.deepEqual((await notices(c.id)).map((x) => x.kind), ['ALERT_FIRED', 'ALERT_RESOLVED', 'ALERT_FIRED']);
    // two minutes without a point (the collection missed them): too few to judge, the incident stays open
    await collectedUntil(start + 17 * MINUTE);
    await evaluateBoth();
    assert.equal((await events(c.id)).length, 3);
    // the VM stops reporting (stopped): the incident resolves for want of data
    await collectedUntil(start + 20 * MINUTE);
    await evaluateBoth();
    const last = await events(c.id);
    assert.equal(last.length, 4);
    assert.equal(last[3]!.data.resolution, 'no_data');
  });

  test('outbound traffic above 1 GB in an hour: a sum over the window, for every VM of the account', async () => {
    const c = await account();
    const a = await vm(c.id, 'edge-1');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/compute/alerts/policies',
      headers: { cookie: c.cookie },
      payload: { name: 'Egress', metric: 'net_out_bytes', comparison: '>', threshold: 1_000_000_000, aggregation: 'sum', window_minutes: 60, notify_email: false },
    });
    assert.equal(res.statusCode, 201, res.body);
    const start = T0 + 30 * MINUTE;
    // 10 minutes of 90 MB: 900 MB, below
    await points(a, c.id, start, Array.from({ length: 10 }, () => ({ netOut: 90_000_000 })));
    await collectedUntil(start + 10 * MINUTE);
    await t.container.services.alertEvaluation.evaluateAll();
    assert.deepEqual(await notices(c.id), []);
    // a VM made after the policy is watched too: its 200 MB take it over 1 GB
    const b = await vm(c.id, 'edge-2');
    await points(b, c.id, start + 10 * MINUTE, [{ netOut: 200_000_000 }]);
    await points(a, c.id, start + 10 * MINUTE, [{ netOut: 150_000_000 }]);
    await collectedUntil(start + 11 * MINUTE);
    await t.container.services.alertEvaluation.evaluateAll();
    const n = await notices(c.id);
    assert.deepEqual(n.map((x) => x.title), ['Alert: Egress on edge-1']);
    const [ev] = await events(c.id);
    assert.equal(ev!.data.value, 1_050_000_000);
    // notify_email false: in the app and by webhook only
    assert.deepEqual(await mails(c.email), []);
    // a VM deleted while firing: resolved as such
    await t.container.db.execute(sql`update vms set status = 'Deleted' where id = ${a}`);
    await collectedUntil(start + 12 * MINUTE);
    await t.container.services.alertEvaluation.evaluateAll();
    const evs = await events(c.id);
    assert.equal(evs.length, 2);
    assert.equal(evs[1]!.data.resolution, 'vm_deleted');
  });

  test('the schedule evaluates every minute by itself', async () => {
    const s = await buildTestApp({ clock, sameDatabaseAs: t, schedules: true });
    try {
      const c = await account();
      const v = await vm(c.id, 'cron-1');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/compute/alerts/policies',
        headers: { cookie: c.cookie },
        payload: { name: 'CPU now', vm_id: v, metric: 'cpu_percent', comparison: '>', threshold: 50, window_minutes: 1 },
      });
      assert.equal(res.statusCode, 201, res.body);
      const start = T0 + 50 * MINUTE;
      await points(v, c.id, start, [{ cpu: 75 }]);
      await collectedUntil(start + MINUTE);
      // the cron runs at most once a minute per database: forget when it last ran
      await t.container.db.execute(sql`update pgboss.version set cron_on = null`);
      await eventually(async () => (await notices(c.id)).length === 1, 90_000, 500);
      assert.equal((await notices(c.id))[0]!.kind, 'ALERT_FIRED');
    } finally {
      await s.close();
    }
  });
});
