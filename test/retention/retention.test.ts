import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { fund } from '../helpers/compute.js';
import { createCustomer } from '../helpers/customers.js';

/*
 * History over months, on a moved clock: the partitions job makes each month's partition (and
 * moves rows that landed in the DEFAULT partition), the retention job rolls usage records past the
 * retention up per meter and day without losing a millionth and drops their month, keeps what a
 * charge still needs, never drops the audit log unless staff set a retention, and staff with the
 * permission export a month of the ledger or the audit log.
 */
const clock = new ManualClock('2026-01-10T08:00:00Z');
let t: TestApp;
let boss: { cookie: string };
const meters: number[] = [];
let customerId: number;

const q = async <T>(query: ReturnType<typeof sql>) => queryRows<T>(t.container.db, query);
const partitions = async (table: string) =>
  (await q<{ name: string }>(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass order by 1`)).map((r) => r.name);
/** Per meter and month: the sum of its usage, raw and rolled up together (what a reader of usage sees). */
const usageByMonth = () =>
  q<{ meter_id: number; month: string; amount: string; seconds: string }>(sql`
    select meter_id, to_char(day at time zone 'UTC', 'YYYY-MM') as month, sum(amount)::text as amount, sum(seconds)::text as seconds from (
      select meter_id, hour as day, amount, seconds from usage_records
      union all select meter_id, day, amount, seconds from usage_daily) u
    group by 1, 2 order by 1, 2`);

before(async () => {
  t = await buildTestApp({ clock });
  boss = await adminSession(t);
  const c = await createCustomer(t);
  customerId = c.id;
  for (let i = 0; i < 3; i++) {
    const [m] = await q<{ id: number }>(sql`
      insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, started_at)
      values (${c.id}, 'vm', ${`vm-r${i}`}, 'VM', 'tier:1', (select min(id) from locations), '2026-01-01T00:00:00Z') returning id`);
    meters.push(m!.id);
  }
  // every hour of January to April, amounts with all 6 decimals
  await t.container.db.execute(sql`
    insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
    select m, h, ${c.id}, null, 0.013717, 1, 3600, 0.013717 + (extract(hour from h)::int % 5) * 0.000003 + (m % 3) * 0.000001
    from unnest(${`{${meters.join(',')}}`}::bigint[]) m
    cross join generate_series('2026-01-01T00:00:00Z'::timestamptz, '2026-04-30T23:00:00Z', interval '1 hour') h`);
});
after(() => t.close());

describe('monthly partitions, usage roll-up and retention on a moved clock', () => {
  test('the partitions job makes last month to three ahead and moves rows out of the DEFAULT partition', async () => {
    const created = await t.container.services.retention.ensurePartitions();
    assert.ok(created.includes('usage_records 2026-01') && created.includes('usage_records 2026-04') && created.includes('audit_logs 2025-12'), created.join(', '));
    for (const m of ['202512', '202601', '202602', '202603', '202604']) assert.ok((await partitions('usage_records')).includes(`usage_records_p${m}`), m);
    const [d] = await q<{ n: number }>(sql`select count(*)::int as n from usage_records_default`);
    assert.equal(d!.n, 0, 'every month of usage has its partition');
    const [jan] = await q<{ n: number }>(sql`select count(*)::int as n from usage_records_p202601`);
    assert.equal(jan!.n, 31 * 24 * 3);
    assert.deepEqual(await t.container.services.retention.ensurePartitions(), [], 'a second run has nothing to do');
    // a row far ahead of every partition is stored all the same, and gets its month on the next run
    await t.container.db.execute(sql`insert into audit_logs (actor_type, action, created_at) values ('system', 'test.future', '2031-03-05T00:00:00Z')`);
    const [future] = await q<{ n: number }>(sql`select count(*)::int as n from audit_logs_default`);
    assert.equal(future!.n, 1);
    assert.ok((await t.container.services.retention.ensurePartitions()).includes('audit_logs 2031-03'));
    const [moved] = await q<{ n: number }>(sql`select (select count(*) from audit_logs_p203103) - (select count(*) from audit_logs_default) as n`);
    assert.equal(Number(moved!.n), 1, 'the row moved to its month');
  });

  test('usage older than the retention is rolled up per meter and day, to the millionth, then its month is dropped', async () => {
    const before = await usageByMonth();
    const [raw] = await q<{ s: string }>(sql`select sum(amount)::text as s from usage_records`);
    clock.set('2026-05-03T02:40:00Z');
    const run = await t.container.services.retention.applyRetention();
    // default 3 months: February, March and April stay raw; January is rolled up (December had nothing)
    assert.deepEqual(run.usageMonthsRolledUp, ['2025-12', '2026-01']);
    assert.ok(!(await partitions('usage_records')).includes('usage_records_p202601'), "January's partition is dropped");
    const [jan] = await q<{ n: number; days: number }>(sql`select (select count(*) from usage_records where hour < '2026-02-01T00:00:00Z')::int as n, (select count(*) from usage_daily)::int as days`);
    assert.deepEqual({ ...jan }, { n: 0, days: 31 * 3 });
    assert.deepEqual(await usageByMonth(), before, 'every meter and month adds up to the same, raw and rolled up together');
    const [all] = await q<{ s: string }>(sql`select ((select sum(amount) from usage_records) + (select sum(amount) from usage_daily))::text as s`);
    assert.equal(all!.s, raw!.s, 'not a millionth lost');
    const [day] = await q<{ hours: number; seconds: number; amount: string }>(sql`
      select hours, seconds::int as seconds, amount::text as amount from usage_daily where meter_id = ${meters[0]!} and day = '2026-01-15T00:00:00Z'`);
    assert.equal(day!.hours, 24);
    assert.equal(day!.seconds, 86_400);
    assert.deepEqual(await t.container.services.retention.applyRetention(), { usageMonthsRolledUp: [], auditMonthsDropped: [], kept: [] }, 'a re-run changes nothing');
  });

  test('staff shorten the retention; a month whose hours a charge still needs is kept until it is charged', async () => {
    boss = await adminSession(t); // the session of January has ended
    const bad = await t.app.inject({ method: 'PUT', url: '/api/backoffice/setting/retention', headers: { cookie: boss.cookie }, payload: { usage_raw_months: 1, audit_log_months: null } });
    assert.equal(bad.statusCode, 400, 'the postpaid invoice of a month reads it on the 1st of the next: at least 2');
    const put = await t.app.inject({ method: 'PUT', url: '/api/backoffice/setting/retention', headers: { cookie: boss.cookie }, payload: { usage_raw_months: 2, audit_log_months: null } });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().data, { usage_raw_months: 2, audit_log_months: null });
    const get = await t.app.inject({ method: 'GET', url: '/api/backoffice/setting/retention', headers: { cookie: boss.cookie } });
    assert.deepEqual(get.json().data, { usage_raw_months: 2, audit_log_months: null });
    // a customer set aside by the hourly charge since February 10th
    await t.container.db.execute(sql`
      insert into charge_failures (customer_id, first_hour, error_code, error, failed_at, last_attempt_at, next_retry_at)
      values (${customerId}, '2026-02-10T00:00:00Z', 'X', 'x', '2026-02-10T01:05:00Z', '2026-02-10T01:05:00Z', '2026-02-10T02:05:00Z')`);
    const kept = await t.container.services.retention.applyRetention();
    assert.deepEqual(kept.usageMonthsRolledUp, []);
    assert.deepEqual(kept.kept, [{ table: 'usage_records', month: '2026-02', reason: 'hours of that month are still to be charged' }]);
    await t.container.db.execute(sql`update charge_failures set resolved_at = '2026-05-03T03:00:00Z' where customer_id = ${customerId}`);
    // postpaid usage of February that no invoice covers yet: its lines will be read from the records
    await t.container.db.execute(sql`
      insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
      values (${customerId}, '2026-02-20T05:00:00Z', true, 3, 0.041151, 0.04, 0.001151)`);
    const uninvoiced = await t.container.services.retention.applyRetention();
    assert.deepEqual(uninvoiced.kept, [{ table: 'usage_records', month: '2026-02', reason: 'postpaid usage of that month is not invoiced yet' }]);
    await t.container.db.execute(sql`
      insert into postpaid_invoices (number, customer_id, period_start, period_end, subtotal, currency, issued_at, due_at)
      values ('PP-TEST', ${customerId}, '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', 0.04, 'IDR', '2026-03-01T00:30:00Z', '2026-03-15T00:30:00Z')`);
    const before = await usageByMonth();
    assert.deepEqual((await t.container.services.retention.applyRetention()).usageMonthsRolledUp, ['2026-02']);
    assert.deepEqual(await usageByMonth(), before);
  });

  test('the audit log is never dropped by default; with a retention set, its months past it go', async () => {
    await t.container.db.execute(sql`insert into audit_logs (actor_type, action, created_at) values ('system', 'test.old', '2026-01-20T00:00:00Z')`);
    clock.set('2027-03-02T00:00:00Z');
    const run = await t.container.services.retention.applyRetention();
    assert.deepEqual(run.auditMonthsDropped, []);
    const [kept] = await q<{ n: number }>(sql`select count(*)::int as n from audit_logs where action = 'test.old'`);
    assert.equal(kept!.n, 1);
    boss = await adminSession(t); // the session of January has ended
    const put = await t.app.inject({ method: 'PUT', url: '/api/backoffice/setting/retention', headers: { cookie: boss.cookie }, payload: { usage_raw_months: 3, audit_log_months: 12 } });
    assert.equal(put.statusCode, 200, put.body);
    const dropped = await t.container.services.retention.applyRetention();
    assert.ok(dropped.auditMonthsDropped.includes('2026-01') && !dropped.auditMonthsDropped.includes('2026-03'), dropped.auditMonthsDropped.join(', '));
    const [gone] = await q<{ n: number }>(sql`select count(*)::int as n from audit_logs where action = 'test.old'`);
    assert.equal(gone!.n, 0);
    assert.ok((await partitions('balance_logs')).includes('balance_logs_p202601'), 'the ledger keeps every month');
  });

  test('staff with the permission export a month of the ledger as JSON lines or CSV; others get a 403', async () => {
    // the ledger's entries carry the database's time: the month exported is the one they are in
    const [{ month, next }] = (await q<{ month: string; next: string }>(
      sql`select to_char(now() at time zone 'UTC', 'YYYY-MM') as month, (date_trunc('month', now(), 'UTC') + interval '40 days')::text as next`,
    )) as [{ month: string; next: string }];
    for (let i = 0; i < 3; i++) await fund(t, customerId, `${i + 1}00.25`);
    // an entry of the next month (written as an import would, with its own time): not in this month's export
    await t.container.db.execute(sql`
      insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
      values (${customerId}, 'BalanceLogAdjustAdd', 7, 7, 0, 607.75, 607.75, 'test', 'next-month', 'next month', ${next}::timestamptz)`);
    await t.container.db.execute(sql`update wallets set actual_balance = actual_balance + 7, current_balance = current_balance + 7 where customer_id = ${customerId}`);
    const exporter = await adminSession(t, { permissions: ['export_history'] });
    const url = `/api/backoffice/history/export?kind=ledger&month=${month}`;
    const jsonl = await t.app.inject({ method: 'GET', url, headers: { cookie: exporter.cookie } });
    assert.equal(jsonl.statusCode, 200, jsonl.body);
    assert.match(String(jsonl.headers['content-type']), /application\/x-ndjson/);
    assert.equal(jsonl.headers['content-disposition'], `attachment; filename="balance_logs-${month}.jsonl"`);
    const rows = jsonl.body.trim().split('\n').map((l) => JSON.parse(l) as { amount: string; created_at: string; customer_id: number });
    const [expected] = await q<{ n: number }>(sql`select count(*)::int as n from balance_logs where to_char(created_at at time zone 'UTC', 'YYYY-MM') = ${month}`);
    assert.equal(rows.length, expected!.n);
    assert.deepEqual(rows.filter((r) => r.customer_id === customerId).map((r) => r.amount), ['100.25', '200.25', '300.25']);
    assert.ok(rows.every((r) => r.created_at.startsWith(month)));
    const csv = await t.app.inject({ method: 'GET', url: `${url}&format=csv`, headers: { cookie: exporter.cookie } });
    assert.equal(csv.statusCode, 200);
    const parsed = Papa.parse<Record<string, string>>(csv.body.trim(), { header: true });
    assert.deepEqual(
      parsed.data.filter((r) => Number(r.customer_id) === customerId).map((r) => r.amount),
      ['100.25', '200.25', '300.25'],
    );
    const audit = await t.app.inject({ method: 'GET', url: `/api/backoffice/history/export?kind=audit&month=${month}&format=csv`, headers: { cookie: exporter.cookie } });
    assert.equal(audit.statusCode, 200);
    const viewer = await adminSession(t, { permissions: ['view_audit_logs', 'view_transactions'] });
    const refused = await t.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie } });
    assert.equal(refused.statusCode, 403);
    const badMonth = await t.app.inject({ method: 'GET', url: '/api/backoffice/history/export?kind=ledger&month=2026-13', headers: { cookie: exporter.cookie } });
    assert.equal(badMonth.statusCode, 400);
    // the last month the API accepts ends in year 10000: an empty export, not a 500
    for (const kind of ['ledger', 'audit']) {
      for (const format of ['jsonl', 'csv']) {
        const last = await t.app.inject({ method: 'GET', url: `/api/backoffice/history/export?kind=${kind}&month=9999-12&format=${format}`, headers: { cookie: exporter.cookie } });
        assert.equal(last.statusCode, 200, `${kind} ${format}: ${last.body}`);
        assert.equal(last.body.trim(), '');
      }
    }
  });
});
