import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DatabaseHandle } from '../../src/platform/db/database.js';
import { databaseBefore, type OldDatabase } from '../helpers/old-database.js';

/*
 * A database filled under the schema before the monthly partitions (every migration up to the one
 * before drizzle/0023_partitioned_history.sql), then migrated as a start would: every row of every
 * converted table is still there, unchanged, in the partition of its month; wallets still equal the
 * sums of their ledger; invoices are untouched; ids go on from where they were; the unique keys
 * moved out of the partitions still hold for the rows written before.
 */
const PARTITIONED = {
  usage_records: { key: 'hour', order: 'meter_id, hour' },
  usage_charges: { key: 'hour', order: 'id' },
  balance_logs: { key: 'created_at', order: 'id' },
  audit_logs: { key: 'created_at', order: 'id' },
  notifications: { key: 'created_at', order: 'id' },
  ticket_events: { key: 'created_at', order: 'id' },
  payment_callbacks: { key: 'received_at', order: 'id' },
} as const;
const UNTOUCHED = { wallets: 'customer_id', postpaid_invoices: 'id', postpaid_invoice_lines: 'id', customers: 'id' } as const;

let db: DatabaseHandle;
let old: OldDatabase | undefined;

async function rows<T = Record<string, any>>(text: string, values?: unknown[]): Promise<T[]> {
  return (await db.raw.executeSql(text, values)).rows as T[];
}

/** The table's columns before the migration: later migrations may add some (empty) to the same rows. */
const columnsBefore = new Map<string, string>();

/** A fingerprint of a whole table: its row count and the md5 of its rows (the columns it had before) as text, in key order. */
async function fingerprint(table: string, order: string): Promise<{ n: number; md5: string }> {
  if (!columnsBefore.has(table)) {
    const cols = await rows<{ c: string }>(`select quote_ident(column_name) as c from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position`, [table]);
    columnsBefore.set(table, cols.map((x) => `t.${x.c}`).join(', '));
  }
  const [r] = await rows<{ n: number; md5: string }>(
    `select count(*)::int as n, md5(coalesce(string_agg(row(${columnsBefore.get(table)})::text, '|' order by ${order}), '')) as md5 from ${table} t`,
  );
  return r!;
}

async function setUp(kind: 'postgres' | 'embedded'): Promise<void> {
  old = await databaseBefore(kind, '_partitioned_history');
  db = old.db;
}

async function tearDown(): Promise<void> {
  await old?.close();
  old = undefined;
}

/** Four months of history for 30 customers, written as the old schema held it (set-based SQL). */
async function fill(): Promise<void> {
  await db.raw.executeSql(`
    insert into customers (email, password_hash, first_name, last_name)
    select 'c' || i || '@example.com', 'x', 'C', 'N' || i from generate_series(1, 30) i;
    insert into countries (id, code, name) values (1, 'ID', 'Indonesia');
    insert into locations (id, code, name, country_code) values (1, 'tst', 'Test', 'ID');
    insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at)
    select c.id, 'vm', 'vm-' || c.id, 'VM', 'tier:1', (select min(id) from locations), 1, '2026-07-01T00:00:00Z'
    from customers c;
    -- usage: every meter and hour from mid-July to the end of October
    insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
    select m.id, h, m.customer_id, null, 0.013700, 1, 3600, 0.013700 + (m.id % 7) * 0.000001
    from meters m cross join generate_series('2026-07-15T00:00:00Z'::timestamptz, '2026-10-31T23:00:00Z', interval '1 hour') h;
    insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
    select customer_id, hour, customer_id % 2 = 0, count(*), sum(amount), trunc(sum(amount), 2), sum(amount) - trunc(sum(amount), 2)
    from usage_records group by customer_id, hour;
    -- a year-old ledger entry and a few a month: top-ups then charges, with running balances
    insert into wallets (customer_id) select id from customers;
    insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after,
      reference_type, reference_id, description, created_at)
    select customer_id, case when amount > 0 then 'BalanceLogAdd' else 'BalanceLogCharge' end, amount, amount, 0,
      sum(amount) over w, sum(amount) over w, 'test', customer_id || '/' || n, 'entry ' || n, at
    from (
      select c.id as customer_id, n, ('2025-10-03T10:00:00Z'::timestamptz + (n * interval '9 days'))::timestamptz as at,
        case when n % 5 = 0 then 250.00 else -(n % 13 + c.id % 3 + 0.37) end as amount
      from customers c cross join generate_series(0, 45) n
    ) e
    window w as (partition by customer_id order by n);
    update wallets w set actual_balance = s.a, current_balance = s.a
    from (select customer_id, sum(actual_amount) as a from balance_logs group by customer_id) s where s.customer_id = w.customer_id;
    insert into audit_logs (actor_type, actor_id, action, target_type, target_id, before, after, created_at)
    select 'customer', (i % 30) + 1, 'vm.created', 'vm', 'vm-' || i, null, jsonb_build_object('i', i), '2026-06-01T00:00:00Z'::timestamptz + i * interval '7 hours'
    from generate_series(1, 600) i;
    insert into notifications (customer_id, kind, title, body, reference_type, reference_id, read_at, created_at)
    select (i % 30) + 1, 'LOW_BALANCE', 'Low', 'Your balance is low', 'episode', i::text, case when i % 3 = 0 then '2026-10-02T00:00:00Z'::timestamptz end,
      '2026-08-01T00:00:00Z'::timestamptz + i * interval '13 hours'
    from generate_series(1, 200) i;
    insert into tickets (customer_id, title, created_at, updated_at, last_message_at) values (1, 'Help', '2026-09-01T00:00:00Z', '2026-09-01T00:00:00Z', '2026-09-01T00:00:00Z');
    insert into ticket_events (type, ticket_id, payload, created_at)
    select 'NEW_REPLY', 1, jsonb_build_object('n', i), '2026-09-01T00:00:00Z'::timestamptz + i * interval '5 hours' from generate_series(1, 300) i;
    insert into payment_callbacks (gateway_name, claimed_invoice_id, raw_body, headers, signature_valid, outcome, response_status, received_at)
    select 'pgone', 'inv-' || i, '{}', '{}', true, 'credited', 200, '2026-08-20T00:00:00Z'::timestamptz + i * interval '11 hours' from generate_series(1, 150) i;
    insert into postpaid_invoices (number, customer_id, period_start, period_end, subtotal, currency, issued_at, due_at)
    select 'PP-' || c.id, c.id, '2026-09-01T00:00:00Z', '2026-10-01T00:00:00Z', s.total, 'IDR', '2026-10-01T00:30:00Z', '2026-10-15T00:30:00Z'
    from customers c join (select customer_id, sum(amount) as total from usage_charges where postpaid and hour >= '2026-09-01T00:00:00Z' and hour < '2026-10-01T00:00:00Z' group by customer_id) s on s.customer_id = c.id;
    insert into postpaid_invoice_lines (invoice_id, meter_id, resource_type, resource_id, description, period_start, period_end, hours, usage_amount, amount)
    select i.id, m.id, 'vm', m.resource_id, 'VM', i.period_start, i.period_end, 720, i.subtotal, i.subtotal
    from postpaid_invoices i join meters m on m.customer_id = i.customer_id;
  `);
}

// Not an HTTP suite: it runs on both databases itself.
for (const kind of ['postgres', 'embedded'] as const)
describe(`the migration to monthly partitions on a database filled before it (${kind})`, () => {
  before(() => {
    columnsBefore.clear();
    return setUp(kind);
  });
  after(tearDown);
  test('keeps every row and every figure, puts each row in the partition of its month, and the unique keys hold', async () => {
    await fill();
    const before = new Map<string, { n: number; md5: string }>();
    for (const [t, { order }] of Object.entries(PARTITIONED)) before.set(t, await fingerprint(t, order));
    for (const [t, order] of Object.entries(UNTOUCHED)) before.set(t, await fingerprint(t, order));
    assert.ok(before.get('usage_records')!.n > 70_000, 'months of hourly usage');
    const maxIds = (await rows<Record<string, number>>(`select (select max(id) from audit_logs) as audit, (select max(id) from balance_logs) as ledger, (select max(id) from usage_charges) as charges`))[0]!;

    await db.migrate(); // the new migration and the routines, as a start does

    for (const [t, { key }] of Object.entries(PARTITIONED)) {
      const [kind] = await rows<{ partitioned: boolean }>(`select relkind = 'p' as partitioned from pg_class where relname = $1`, [t]);
      assert.equal(kind?.partitioned, true, `${t} is partitioned`);
      assert.deepEqual(await fingerprint(t, PARTITIONED[t as keyof typeof PARTITIONED].order), before.get(t), `${t}: every row, unchanged`);
      // each month of data has its partition; nothing waits in the default one
      const stray = await rows<{ n: number }>(`select count(*)::int as n from ${t}_default`);
      assert.equal(stray[0]!.n, 0, `${t}: no row in the DEFAULT partition`);
      const months = await rows<{ m: string; n: number }>(
        `select to_char(date_trunc('month', ${key} at time zone 'UTC'), 'YYYYMM') as m, count(*)::int as n from ${t} group by 1 order by 1`,
      );
      for (const { m, n } of months) {
        const [p] = await rows<{ n: number }>(`select count(*)::int as n from ${t}_p${m}`);
        assert.equal(p!.n, n, `${t}_p${m} holds that month's rows`);
      }
    }
    for (const t of Object.keys(UNTOUCHED)) assert.deepEqual(await fingerprint(t, UNTOUCHED[t as keyof typeof UNTOUCHED]), before.get(t), `${t} unchanged`);

    // wallets = ledger sums, and each last entry's balance
    const drift = await rows<{ n: number }>(`
      select count(*)::int as n from wallets w
      left join (select customer_id, sum(actual_amount) as a, sum(amount) as c from balance_logs group by customer_id) l on l.customer_id = w.customer_id
      where w.actual_balance <> coalesce(l.a, 0) or w.current_balance <> coalesce(l.c, 0)`);
    assert.equal(drift[0]!.n, 0, 'every wallet equals the sums of its ledger');
    // invoices: the postpaid subtotals still equal the accrued postpaid charges of their period
    const invoiceDrift = await rows<{ n: number }>(`
      select count(*)::int as n from postpaid_invoices i
      where i.subtotal <> (select sum(amount) from usage_charges uc where uc.customer_id = i.customer_id and uc.postpaid and uc.hour >= i.period_start and uc.hour < i.period_end)`);
    assert.equal(invoiceDrift[0]!.n, 0);

    // ids go on from the old sequences
    const [ids] = await rows<Record<string, number>>(`
      with a as (insert into audit_logs (actor_type, action, created_at) values ('system', 'after.migration', now()) returning id),
           u as (insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry) values (1, '2026-11-01T00:00:00Z', false, 0, 0, 0, 0) returning id)
      select (select id from a) as audit, (select id from u) as charges`);
    assert.ok(ids!.audit! > maxIds.audit!, 'a new audit id is above the old ones');
    assert.ok(ids!.charges! > maxIds.charges!, 'a new usage charge id is above the old ones');

    // the ledger's (type, reference) key still holds for an entry written a year before, in another month
    const repeat = await rows(`
      insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
      values (1, 'BalanceLogAdd', 250, 250, 0, 0, 0, 'test', '1/0', 'again') on conflict do nothing returning id`);
    assert.equal(repeat.length, 0, 'an entry whose key exists in any month is skipped');
    const fresh = await rows<{ id: number }>(`
      insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
      values (1, 'BalanceLogAdd', 1, 1, 0, 0, 0, 'test', 'new', 'new') returning id`);
    assert.ok(fresh[0]!.id > maxIds.ledger!);
    const again = await rows(`insert into notifications (customer_id, kind, title, body, reference_type, reference_id) values (2, 'LOW_BALANCE', 'x', 'y', 'episode', '1') on conflict do nothing returning id`);
    assert.equal(again.length, 0, 'a notification already sent (in August) is not sent again');

    // append-only still holds on the partitioned ledger and audit log
    await assert.rejects(db.raw.executeSql(`update balance_logs set description = 'x' where customer_id = 1`), /append-only/);
    await assert.rejects(db.raw.executeSql(`delete from audit_logs where id = 1`), /append-only/);
  });
});
