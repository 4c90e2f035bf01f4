import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession, DEFAULT_PASSWORD, loginCustomer } from '../helpers/customers.js';

/*
 * VM metrics on PostgreSQL (strict mode: a query that bypasses its transaction fails): the minute
 * collection against the simulated datacenter, moved by the platform clock; the roll-ups and the
 * monthly traffic summing exactly what the minute points hold; the routes of customers and staff;
 * partitions dropped past their retention.
 */
const MIN = 60_000;
const clock = new ManualClock('2026-03-10T09:58:20Z');
let t: TestApp;
let owner: Awaited<ReturnType<typeof customerSession>>;
let vmA: number;
let vmB: number;
let externalA: string;

const collector = () => t.container.services.metricsCollector;
const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** The clock moves a minute and the collection of that minute runs (as its schedule would). */
async function minutes(n: number) {
  let last;
  for (let i = 0; i < n; i++) {
    clock.advance(MIN);
    last = await collector().collect();
  }
  return last!;
}

const SUMS = ['disk_read_bytes', 'disk_write_bytes', 'disk_read_ops', 'disk_write_ops', 'net_in_bytes', 'net_out_bytes', 'net_in_packets', 'net_out_packets', 'samples', 'memory_samples'];

/** Per VM, the sums of every counted column of `table` over [from, to). */
async function sums(table: string, key: string, from: string, to: string) {
  return queryRows<Record<string, string>>(
    t.container.db,
    sql.raw(`select vm_id, ${SUMS.map((c) => `sum(${c})::text as ${c}`).join(', ')}, max(cpu_percent_max)::text as cpu_max
             from ${table} where ${key} >= '${from}' and ${key} < '${to}' group by vm_id order by vm_id`),
  );
}

before(async () => {
  t = await buildTestApp({ clock });
  owner = await customerSession(t);
  await fund(t, owner.id);
  const tierId = await seededTier(t);
  const ids: number[] = [];
  for (const name of ['web-1', 'db-1']) {
    const res = await createVm(t, owner.cookie, { name, location_id: 1, tier_id: tierId });
    assert.equal(res.statusCode, 201, res.body);
    ids.push(res.json().data.id);
  }
  await vmJobsDone(t);
  [vmA, vmB] = ids as [number, number];
  const [row] = await queryRows<{ external_id: string }>(t.container.db, sql`select external_id from vms where id = ${vmA}`);
  externalA = row!.external_id;
  simulator(t).metrics.setLoad(externalA, { cpuPercent: 50, netInBytesPerSecond: 1000, netOutBytesPerSecond: 2500 });
});
after(() => t.close());

describe('VM metrics', { concurrency: false }, () => {
  test('the first sample is a baseline; each minute after stores one point per Running VM, once', async () => {
    const first = await minutes(1);
    assert.equal(first.vms, 2);
    assert.equal(first.baselines, 2);
    assert.equal(first.stored, 0);
    const second = await minutes(1);
    assert.equal(second.stored, 2);
    assert.equal(second.minute.toISOString(), '2026-03-10T09:59:00.000Z');
    // the same minute collected again (a retried job) stores nothing and counts no traffic twice
    clock.advance(20_000);
    const again = await collector().collect();
    assert.equal(again.minute.toISOString(), '2026-03-10T09:59:00.000Z');
    assert.equal(again.stored, 0);
    const [traffic] = await queryRows<{ in_bytes: string }>(t.container.db, sql`select in_bytes::text from vm_traffic_monthly where vm_id = ${vmA}`);
    assert.equal(traffic!.in_bytes, '60000', 'one minute at 1000 B/s');
    clock.advance(-20_000);
    const points = await t.container.services.metricsReader.minutePoints([vmA, vmB], 'cpu_percent', new Date('2026-03-10T09:00:00Z'), new Date('2026-03-10T11:00:00Z'));
    assert.deepEqual(points.map((p) => p.vmId), [vmA, vmB]);
    assert.equal(points[0]!.value, 50);
    assert.ok(points[1]!.value! > 0 && points[1]!.value! <= 100, 'plausible generated CPU');
  });

  test('a guest restart starts its counters again at zero: the next point counts from there, never negative', async () => {
    await minutes(3);
    await simulator(t).vmHosts.rebootVm(externalA, true);
    await minutes(1);
    const [row] = await queryRows<{ net_in_bytes: string; cpu_percent: number }>(
      t.container.db,
      sql`select net_in_bytes::text, cpu_percent from vm_metrics_minute where vm_id = ${vmA} order by minute desc limit 1`,
    );
    assert.equal(row!.net_in_bytes, '60000', 'the minute since the restart');
    assert.equal(row!.cpu_percent, 50);
  });

  test('roll-ups keep the totals exact: the minute points sum to the 5-minute and hourly points, and to the month', async () => {
    await minutes(125); // past 12:00, so 10:00–11:00 and 11:00–12:00 are rolled up into hours
    const from = '2026-03-10T10:00:00Z';
    const to = '2026-03-10T12:00:00Z';
    const minute = await sums('vm_metrics_minute', 'minute', from, to);
    assert.equal(minute.length, 2);
    assert.equal(minute[0]!.samples, '120');
    assert.deepEqual(await sums('vm_metrics_5min', 'bucket', from, to), minute);
    assert.deepEqual(await sums('vm_metrics_hour', 'bucket', from, to), minute);
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from vm_metrics_hour where bucket >= ${from}::timestamptz and bucket < ${to}::timestamptz`);
    assert.equal(n!.n, 4, 'two hours of two VMs');
    const month = await queryRows<{ vm_id: number; in_bytes: string; out_bytes: string; in_packets: string; out_packets: string }>(
      t.container.db,
      sql`select t.vm_id, t.in_bytes::text, t.out_bytes::text, t.in_packets::text, t.out_packets::text,
                 (select sum(net_in_bytes)::text from vm_metrics_minute m where m.vm_id = t.vm_id) as minute_in,
                 (select sum(net_out_packets)::text from vm_metrics_minute m where m.vm_id = t.vm_id) as minute_out_packets
          from vm_traffic_monthly t order by vm_id`,
    );
    for (const r of month as unknown as Record<string, string>[]) {
      assert.equal(r.in_bytes, r.minute_in);
      assert.equal(r.out_packets, r.minute_out_packets);
    }
    // CPU averages of a steady VM stay what they were
    const [hour] = await queryRows<{ cpu_percent: number; cpu_percent_max: number }>(t.container.db, sql`select cpu_percent, cpu_percent_max from vm_metrics_hour where vm_id = ${vmA} and bucket = '2026-03-10T11:00:00Z'`);
    assert.deepEqual(hour, { cpu_percent: 50, cpu_percent_max: 50 });
  });

  test('the customer reads graphs for 1h, 24h, 7d and 30d at their resolutions, and the month\'s traffic', async () => {
    owner.cookie = await loginCustomer(t, owner.email, DEFAULT_PASSWORD); // hours passed since the last sign-in
    const expect = { '1h': [60, 60], '24h': [300, 288], '7d': [3600, 168], '30d': [3600, 720] } as const;
    for (const [range, [resolution, slots]] of Object.entries(expect)) {
      const res = await get(owner.cookie, `/api/compute/vm/${vmA}/metrics?range=${range}`);
      assert.equal(res.statusCode, 200, res.body);
      const d = res.json().data;
      assert.equal(d.resolution_seconds, resolution, range);
      assert.equal((new Date(d.to).getTime() - new Date(d.from).getTime()) / 1000 / resolution, slots);
      assert.ok(d.points.length > 0, `${range} has points`);
      assert.ok(d.points.length <= slots);
      const last = d.points.at(-1);
      assert.equal(last.cpu_percent, 50, range);
      assert.equal(last.net_in_bytes_per_second, 1000, range);
      assert.equal(last.net_out_bytes_per_second, 2500, range);
      assert.ok(last.memory_bytes > 0 && last.memory_bytes <= d.memory_total_bytes);
    }
    const hour = (await get(owner.cookie, `/api/compute/vm/${vmA}/metrics?range=1h`)).json().data;
    assert.equal(hour.points.length, 60, 'a point a minute');
    // the current hour, not rolled up yet, comes from the 5-minute points
    const week = (await get(owner.cookie, `/api/compute/vm/${vmA}/metrics?range=7d`)).json().data;
    assert.equal(week.points.at(-1).time, '2026-03-10T12:00:00.000Z');
    const traffic = await get(owner.cookie, `/api/compute/vm/${vmA}/traffic`);
    assert.equal(traffic.statusCode, 200, traffic.body);
    const [month] = traffic.json().data.months;
    assert.equal(month.month, '2026-03');
    const [stored] = await queryRows<{ s: string }>(t.container.db, sql`select sum(net_in_bytes)::text as s from vm_metrics_minute where vm_id = ${vmA}`);
    assert.equal(String(month.in_bytes), stored!.s);
    assert.equal(month.out_bytes, month.in_bytes * 2.5);
  });

  test('another customer gets 404, a bad range 400, staff read any VM', async () => {
    const other = await customerSession(t);
    assert.equal((await get(other.cookie, `/api/compute/vm/${vmA}/metrics`)).statusCode, 404);
    assert.equal((await get(other.cookie, `/api/compute/vm/${vmA}/traffic`)).statusCode, 404);
    const bad = await get(owner.cookie, `/api/compute/vm/${vmA}/metrics?range=2h`);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'VALIDATION_FAILED');
    const staff = await adminSession(t);
    const res = await get(staff.cookie, `/api/backoffice/compute/vm/${vmB}/metrics?range=1h`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.points.length, 60);
    const traffic = await get(staff.cookie, `/api/backoffice/compute/vm/${vmB}/traffic`);
    assert.equal(traffic.statusCode, 200, traffic.body);
    assert.ok(traffic.json().data.months[0].in_bytes > 0);
    assert.equal((await get(staff.cookie, '/api/backoffice/compute/vm/999999/metrics')).statusCode, 404);
  });

  test('partitions past their retention are dropped whole once rolled up; the roll-ups stay', async () => {
    clock.set('2026-03-13T00:30:10Z');
    await collector().collect(); // rolls everything up to now
    const before = await sums('vm_metrics_minute', 'minute', '2026-03-10T00:00:00Z', '2026-03-11T00:00:00Z');
    const run = await collector().applyRetention();
    assert.ok(run.dropped.includes('vm_metrics_minute_p20260310'), JSON.stringify(run));
    assert.ok(!run.dropped.includes('vm_metrics_minute_p20260311'), 'the day before yesterday ended less than 2 days ago');
    assert.ok(run.created.includes('vm_metrics_minute_p20260314'), 'tomorrow is made ahead');
    const [gone] = await queryRows<{ r: string | null }>(t.container.db, sql`select to_regclass('vm_metrics_minute_p20260310')::text as r`);
    assert.equal(gone!.r, null);
    assert.deepEqual(await sums('vm_metrics_5min', 'bucket', '2026-03-10T00:00:00Z', '2026-03-11T00:00:00Z'), before);
    assert.deepEqual(await sums('vm_metrics_hour', 'bucket', '2026-03-10T00:00:00Z', '2026-03-11T00:00:00Z'), before);
    // a year and more later, the 5-minute days and the hour months go too
    clock.set('2027-05-02T00:00:10Z');
    await collector().collect();
    const later = await collector().applyRetention();
    assert.ok(later.dropped.includes('vm_metrics_5min_p20260310'), JSON.stringify(later));
    assert.ok(later.dropped.includes('vm_metrics_hour_p202603'), JSON.stringify(later));
    assert.equal(later.trafficMonthsDropped, 2);
  });
});
