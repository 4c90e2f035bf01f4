import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createVm, simulator, vmJobsDone } from '../helpers/compute.js';
import { postgresOnly } from '../helpers/database.js';
import { createCustomer, customerSession, deposit, invoiceRow, pgoneForm, postPgone } from '../helpers/money.js';
import { client } from '../helpers/http.js';

// Figures are checked against sums the test computes itself, in integer cents, from the rows it
// creates. The platform runs on Asia/Jakarta (UTC+7, no DST): months are computed here by shifting
// by 7 hours, independently of the service's SQL.
const TZ = 'Asia/Jakarta';
const HOUR = 3_600_000;
const jktMonth = (at: Date) => new Date(at.getTime() + 7 * HOUR).toISOString().slice(0, 7);
/** The instant a Jakarta month starts, `back` months before the month of `at`. */
function jktMonthStart(at: Date, back = 0): Date {
  const local = new Date(at.getTime() + 7 * HOUR);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - back, 1) - 7 * HOUR);
}
const cents = (money: string | number) => Math.round(Number(money) * 100);
const money = (c: number) => c / 100;

let t: TestApp;
let admin: { cookie: string };
const clock = new ManualClock(new Date());
const now = clock.now();

/** What the test put in: money in (revenue, deposits), wallets, VMs. */
const revenue: { cents: number; at: Date }[] = [];
const fees: { cents: number; at: Date }[] = [];
const deposits: { cents: number; at: Date; customer: number }[] = [];
const walletsOf = new Map<number, { actual: number; current: number; active: boolean }>();
const vmsMade: { id: number; location: number; cpu: number; memoryMb: number; os: string; ip: string | null; status: 'Running' | 'Stopped' | 'Deleted' }[] = [];

function walletOf(customer: number) {
  let w = walletsOf.get(customer);
  if (!w) walletsOf.set(customer, (w = { actual: 0, current: 0, active: true }));
  return w;
}

const { get } = client(() => t, () => ({ prefix: '/api/backoffice/dashboard', headers: { cookie: admin.cookie } }));

async function data(url: string, cookie = admin.cookie) {
  const res = await get(url, cookie);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** A top-up through the real path: deposit → signed callback (Paid at the clock) → credit job. */
async function topUp(customer: number, amount: number, method = 'SP') {
  const d = await deposit(t, customer, { amount, method_code: method });
  const inv = await invoiceRow(t, d.invoice_id);
  assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
  await queueDrained(t, { queues: ['billing-high'] });
  revenue.push({ cents: cents(inv.amount), at: clock.now() });
  const fee = cents(inv.total_amount) - cents(inv.amount);
  if (fee > 0) fees.push({ cents: fee, at: clock.now() });
  const [log] = await queryRows<{ created_at: Date }>(
    t.container.db,
    sql`select created_at from balance_logs where type = 'BalanceLogAdd' and reference_id = ${inv.id}`,
  );
  assert.ok(log, 'credited');
  deposits.push({ cents: cents(inv.amount), at: new Date(log.created_at), customer });
  const w = walletOf(customer);
  w.actual += cents(inv.amount);
  w.current += cents(inv.amount);
}

/** An older paid top-up, written as the service writes it (invoice Paid, then its ledger entry). */
async function paidInThePast(customer: number, amountCents: number, at: Date) {
  const id = randomUUID();
  const a = (amountCents / 100).toFixed(2);
  await t.container.db.execute(sql`insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount,
      currency, status, expires_at, paid_at, created_at, credited_at)
    values (${id}, ${customer}, 'pgone', 'SP', 'QRIS', 'QRIS', ${a}, 0, ${a}, 'IDR', 'Pending', ${at.toISOString()}::timestamptz, null, ${at.toISOString()}::timestamptz, null)`);
  // Pending → Paid through an UPDATE, as the callback does
  await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = ${at.toISOString()}::timestamptz, credited_at = ${at.toISOString()}::timestamptz where id = ${id}`);
  await t.container.db.execute(sql`insert into wallets (customer_id) values (${customer}) on conflict do nothing`);
  await t.container.db.execute(sql`update wallets set actual_balance = actual_balance + ${a}, current_balance = current_balance + ${a} where customer_id = ${customer}`);
  await t.container.db.execute(sql`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after,
      reference_type, reference_id, description, created_at)
    select ${customer}, 'BalanceLogAdd', ${a}, ${a}, 0, actual_balance, current_balance, 'topup_invoice', ${id}, 'older top-up', ${at.toISOString()}::timestamptz
    from wallets where customer_id = ${customer}`);
  revenue.push({ cents: amountCents, at });
  deposits.push({ cents: amountCents, at, customer });
  const w = walletOf(customer);
  w.actual += amountCents;
  w.current += amountCents;
}

function expectedTrend(rows: { cents: number; at: Date }[]) {
  const months = Array.from({ length: 12 }, (_, i) => jktMonth(jktMonthStart(now, 11 - i)));
  return months.map((month) => {
    const inMonth = rows.filter((r) => jktMonth(r.at) === month);
    return { month, total: money(inMonth.reduce((s, r) => s + r.cents, 0)), count: inMonth.length };
  });
}

before(async () => {
  t = await buildTestApp({ clock, env: { PLATFORM_TIME_ZONE: TZ } });
  admin = await adminSession(t);
});
after(() => t.close());

describe('dashboard figures equal independent sums of the data the test made', () => {
  let a: number, b: number, c: number, e: number, f: number;
  let sessionA: string, sessionB: string;

  before(async () => {
    ({ id: a, cookie: sessionA } = await customerSession(t));
    ({ id: b, cookie: sessionB } = await customerSession(t));
    c = (await createCustomer(t)).id;
    e = (await createCustomer(t)).id;
    f = (await createCustomer(t)).id;
    await createCustomer(t); // registered, never pays
    // this month, through the real payment path
    await topUp(a, 150_000);
    await topUp(b, 75_000, 'OV');
    await paidInThePast(c, 20_000_00, new Date(Math.max(now.getTime() - 60_000, jktMonthStart(now).getTime())));
    // not money in: a Pending invoice, a Failed one
    await deposit(t, b, { amount: 99_000 });
    const failed = await deposit(t, a, { amount: 88_000 });
    assert.equal((await postPgone(t, pgoneForm(t, await invoiceRow(t, failed.invoice_id), '01'))).statusCode, 200);
    // bonus credit and a charge are ledger entries but not deposits
    await t.container.db.transaction(async (tx) => {
      await t.container.services.wallet.credit(tx, { customerId: a, type: BalanceLogType.Bonus, amount: '5000.00', part: 'bonus', referenceType: 'test', referenceId: 'bonus-a', description: 'bonus' });
      await t.container.services.wallet.debit(tx, { customerId: a, type: BalanceLogType.Charge, amount: '30000.00', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: 'charge-a', description: 'usage' });
    });
    walletOf(a).current += 5000_00 - 30000_00;
    walletOf(a).actual -= 25000_00; // the charge took the 5000 bonus first
    // older months; e: the last half hour of the previous Jakarta month; f: the first half hour of this
    // Jakarta month, which is still the previous month in UTC
    const thisMonth = jktMonthStart(now);
    await paidInThePast(e, 12_345_67, new Date(thisMonth.getTime() - HOUR / 2));
    await paidInThePast(f, 7_000_00, new Date(thisMonth.getTime() + HOUR / 2));
    await paidInThePast(a, 50_000_00, new Date(jktMonthStart(now, 3).getTime() + 5 * 24 * HOUR));
    await paidInThePast(b, 1_000_00, new Date(jktMonthStart(now, 11).getTime() + 2 * HOUR)); // oldest month of the trend
    await paidInThePast(b, 2_000_00, new Date(jktMonthStart(now, 11).getTime() - HOUR)); // 13 months ago: all-time only
    // c becomes inactive: its wallet leaves the active balance, its deposit still counts
    await t.container.db.execute(sql`update customers set is_active = false where id = ${c}`);
    walletOf(c).active = false;

    // VMs: sizes and images in two locations; one stopped, one deleted
    const tiers = await t.container.services.tiers.list({ includeRetired: false });
    const tier = (name: string) => tiers.find((x) => x.name === name)!;
    const make = async (cookie: string, tierName: string, location: number, os: string) => {
      const res = await createVm(t, cookie, { name: `vm-${randomBytes(3).toString('hex')}`, location_id: location, tier_id: tier(tierName).id, os });
      assert.equal(res.statusCode, 201, res.body);
      const vm = res.json().data;
      vmsMade.push({ id: vm.id, location, cpu: tier(tierName).cpu, memoryMb: tier(tierName).memoryMb, os, ip: vm.public_ip, status: 'Running' });
      return vm.id as number;
    };
    await make(sessionA, 'gp.small', 1, 'ubuntu-24.04');
    await make(sessionA, 'gp.medium', 1, 'debian-12');
    await make(sessionA, 'gp.large', 2, 'debian-12');
    const gone = await make(sessionA, 'gp.small', 2, 'rocky-9');
    const stopped = await make(sessionB, 'cpu.large', 1, 'ubuntu-24.04');
    await vmJobsDone(t);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${gone}`, headers: { cookie: sessionA } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${stopped}/stop`, headers: { cookie: sessionB } })).statusCode, 200);
    await vmJobsDone(t);
    vmsMade.find((v) => v.id === gone)!.status = 'Deleted';
    vmsMade.find((v) => v.id === stopped)!.status = 'Stopped';
  });

  test('customer insight', async () => {
    const d = await data('/customer/insight');
    const [counts] = await queryRows<{ n: number; active: number }>(t.container.db, sql`select count(*)::int as n, count(*) filter (where is_active)::int as active from customers`);
    assert.equal(d.registered_customers, counts!.n);
    assert.equal(d.registered_customers, 6, 'the six customers of this test');
    assert.equal(d.active_customers, 5);
    const active = [...walletsOf.values()].filter((w) => w.active);
    assert.equal(d.total_active_wallet_balance, money(active.reduce((s, w) => s + w.current, 0)));
    assert.equal(d.total_active_wallet_actual_balance, money(active.reduce((s, w) => s + w.actual, 0)));
    const alive = vmsMade.filter((v) => v.status !== 'Deleted');
    assert.equal(d.total_vms, alive.length);
    assert.equal(d.active_vms, alive.filter((v) => v.status === 'Running').length);
    const thisMonth = jktMonth(now);
    const depositors = new Set(deposits.filter((x) => jktMonth(x.at) === thisMonth).map((x) => x.customer));
    assert.equal(d.customers_deposited_this_month, depositors.size);
    assert.deepEqual([...depositors].sort(), [a, b, c, f].sort(), 'e paid in the last hour of the previous month, f in the first of this one');
    assert.equal(d.month, thisMonth);
    assert.equal(d.time_zone, TZ);
  });

  test('revenue: what the platform earned on paid invoices per Jakarta month, 12 months, missing months as zero', async () => {
    const d = await data('/billing/revenue');
    const trend = expectedTrend(revenue);
    assert.deepEqual(d.trend, trend);
    assert.equal(d.trend.length, 12);
    assert.ok(d.trend.some((m: { total: number }) => m.total === 0), 'months without money are listed as 0');
    assert.equal(d.this_month_total, trend[11]!.total);
    assert.equal(d.last_12_months_total, money(trend.reduce((s, m) => s + cents(m.total), 0)));
    assert.equal(d.total, money(revenue.reduce((s, r) => s + r.cents, 0)));
    assert.equal(d.count, revenue.length);
    assert.deepEqual(d.sources, [{ source: 'topup', total: d.total, count: revenue.length }]);
    // the fees are not revenue: the OVO top-up paid 1.5% on top of its 75,000, shown apart
    assert.ok(fees.length > 0, 'a top-up with a fee was made');
    const feeTrend = expectedTrend(fees);
    assert.deepEqual(d.gateway_fees.trend, feeTrend);
    assert.equal(d.gateway_fees.total, money(fees.reduce((s, r) => s + r.cents, 0)));
    assert.equal(d.gateway_fees.count, fees.length);
    assert.equal(d.gateway_fees.this_month_total, feeTrend[11]!.total);
    assert.equal(d.gateway_fees.last_12_months_total, money(feeTrend.reduce((s, m) => s + cents(m.total), 0)));
  });

  test('revenue of a top-up of 500,000 with a fee of 4,000 is 500,000; the 4,000 is a gateway fee', async () => {
    const before = await data('/billing/revenue');
    const c = await createCustomer(t);
    const id = randomUUID();
    const at = clock.now().toISOString();
    await t.container.db.execute(sql`insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount,
        currency, status, expires_at, paid_at, created_at)
      values (${id}, ${c.id}, 'pgone', 'SP', 'QRIS', 'QRIS', 500000, 4000, 504000, 'IDR', 'Pending', ${at}::timestamptz, null, ${at}::timestamptz)`);
    await t.container.db.execute(sql`update topup_invoices set status = 'Paid', paid_at = ${at}::timestamptz where id = ${id}`);
    const after = await data('/billing/revenue');
    assert.equal(cents(after.this_month_total) - cents(before.this_month_total), 50_000_000, 'IDR 500,000 earned, not 504,000');
    assert.equal(cents(after.gateway_fees.this_month_total) - cents(before.gateway_fees.this_month_total), 400_000, 'IDR 4,000 of fee, apart');
    assert.equal(after.gateway_fees.count, before.gateway_fees.count + 1);
    // and leaving Paid takes both back out (the trigger counts a move either way)
    await t.container.db.execute(sql`update topup_invoices set status = 'Failed', paid_at = null where id = ${id}`);
    const undone = await data('/billing/revenue');
    assert.equal(undone.this_month_total, before.this_month_total);
    assert.equal(undone.gateway_fees.this_month_total, before.gateway_fees.this_month_total);
  });

  test('deposits: top-up credits per Jakarta month', async () => {
    const d = await data('/billing/deposit');
    assert.deepEqual(d.trend, expectedTrend(deposits));
    assert.equal(d.total, money(deposits.reduce((s, r) => s + r.cents, 0)));
    assert.equal(d.this_month_count, deposits.filter((x) => jktMonth(x.at) === jktMonth(now)).length);
  });

  test('the trend follows the injected clock', async () => {
    clock.set(new Date(jktMonthStart(now, -1).getTime() + HOUR)); // next month
    try {
      const late = await adminSession(t); // a month later the first session has expired
      const d = await data('/billing/deposit', late.cookie);
      assert.equal(d.trend[11].month, jktMonth(clock.now()));
      assert.equal(d.trend[11].total, 0);
      assert.deepEqual(d.trend.slice(0, 11), expectedTrend(deposits).slice(1));
      assert.equal((await data('/customer/insight', late.cookie)).customers_deposited_this_month, 0);
    } finally {
      clock.set(now);
    }
  });

  test('VM distribution by RAM, CPU and OS, with and without a location', async () => {
    const alive = vmsMade.filter((v) => v.status !== 'Deleted');
    const expected = (list: typeof alive, key: (v: (typeof alive)[number]) => string) => {
      const m = new Map<string, number>();
      for (const v of list) m.set(key(v), (m.get(key(v)) ?? 0) + 1);
      return [...m.entries()].map(([k, count]) => ({ key: k, count }));
    };
    const strip = (items: { key: string; count: number }[]) => items.map(({ key, count }) => ({ key, count })).sort((x, y) => x.key.localeCompare(y.key));
    const sorted = (items: { key: string; count: number }[]) => [...items].sort((x, y) => x.key.localeCompare(y.key));

    const ram = await data('/hv/total-vm');
    assert.equal(ram.group_by, 'ram');
    assert.equal(ram.location_id, null);
    assert.equal(ram.total, alive.length);
    assert.deepEqual(strip(ram.items), sorted(expected(alive, (v) => String(v.memoryMb))));
    assert.deepEqual(ram.items.map((i: { key: string }) => Number(i.key)), [...ram.items.map((i: { key: string }) => Number(i.key))].sort((x, y) => x - y), 'smallest first');
    assert.equal(ram.items.find((i: { key: string }) => i.key === '8192').label, '8 GB');

    const cpu = await data('/hv/total-vm?group_by=cpu&location_id=1');
    const inLoc1 = alive.filter((v) => v.location === 1);
    assert.equal(cpu.total, inLoc1.length);
    assert.deepEqual(strip(cpu.items), sorted(expected(inLoc1, (v) => String(v.cpu))));

    const os = await data('/hv/total-vm?group_by=os&location_id=2');
    assert.deepEqual(strip(os.items), sorted(expected(alive.filter((v) => v.location === 2), (v) => v.os)));
    assert.equal((await data('/hv/total-vm?location_id=3')).total, 0);

    assert.equal((await get('/hv/total-vm?group_by=disk')).statusCode, 400);
    assert.equal((await get('/hv/total-vm?location=1')).statusCode, 400, 'unknown query parameters are refused');
    assert.equal((await get('/hv/total-vm?location_id=abc')).statusCode, 400);
  });

  test('public IP occupation per active location against its pool', async () => {
    const d = await data('/hv/ip-occupation');
    const locations = (await t.app.inject({ method: 'GET', url: '/api/lookup/locations' })).json().data.filter((l: { is_active: boolean }) => l.is_active);
    assert.deepEqual(d.locations.map((l: { location_id: number }) => l.location_id), locations.map((l: { id: number }) => l.id));
    for (const l of d.locations) {
      const pool = simulator(t).vmHosts.publicIpPool(l.location_id).addresses.length;
      const rented = vmsMade.filter((v) => v.status !== 'Deleted' && v.location === l.location_id && v.ip !== null).length;
      assert.deepEqual([l.total, l.rented, l.available], [pool, rented, pool - rented], `location ${l.location_id}`);
      assert.equal(l.occupation_percent, Math.round((rented / pool) * 10000) / 100);
    }
    assert.equal(d.rented, vmsMade.filter((v) => v.status !== 'Deleted' && v.ip !== null).length);
    assert.equal(d.total, d.locations.reduce((s: number, l: { total: number }) => s + l.total, 0));
    assert.equal(d.available, d.total - d.rented);
  });
});

describe('the counters', () => {
  const all = ['/customer/insight', '/billing/revenue', '/billing/deposit', '/hv/total-vm?group_by=os', '/hv/total-vm?group_by=cpu&location_id=1', '/hv/ip-occupation'];

  test('folding the deltas in (dashboard.compact-counters) changes no figure', async () => {
    const before = await Promise.all(all.map((p) => data(p)));
    const [pending] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from dashboard_counter_deltas`);
    assert.ok(pending!.n > 0, 'the writes of this file left deltas');
    await t.container.queue.runNow('dashboard.compact-counters');
    await queueDrained(t, { queues: ['dashboard.compact-counters'] });
    const [left] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from dashboard_counter_deltas`);
    assert.equal(left!.n, 0);
    assert.deepEqual(await Promise.all(all.map((p) => data(p))), before);
  });

  test('an account switched off and on moves its wallet out of and back into the active balance', async () => {
    const c = await createCustomer(t);
    await t.container.db.transaction((tx) =>
      t.container.services.wallet.credit(tx, { customerId: c.id, type: BalanceLogType.AdjustAdd, amount: '1234.56', part: 'actual', referenceType: 'test', referenceId: `flip-${c.id}`, description: 'flip' }),
    );
    const base = cents((await data('/customer/insight')).total_active_wallet_balance);
    await t.container.db.execute(sql`update customers set is_active = false where id = ${c.id}`);
    assert.equal(cents((await data('/customer/insight')).total_active_wallet_balance), base - 1234_56);
    await t.container.db.execute(sql`update customers set is_active = true where id = ${c.id}`);
    const d = await data('/customer/insight');
    assert.equal(cents(d.total_active_wallet_balance), base);
    const [sums] = await queryRows<{ cur: string; act: string; n: number }>(
      t.container.db,
      sql`select coalesce(sum(w.current_balance), 0)::text as cur, coalesce(sum(w.actual_balance), 0)::text as act, (select count(*)::int from customers) as n
          from wallets w join customers c on c.id = w.customer_id where c.is_active`,
    );
    assert.equal(cents(d.total_active_wallet_balance), cents(sums!.cur));
    assert.equal(cents(d.total_active_wallet_actual_balance), cents(sums!.act));
    assert.equal(d.registered_customers, sums!.n);
  });
});

describe('who may see the dashboard', () => {
  const paths = ['/customer/insight', '/billing/revenue', '/billing/deposit', '/hv/total-vm', '/hv/ip-occupation'];

  test('view_dashboard is needed (Admin Support, Admin Billing, Admin Sales hold it); without a session 401', async () => {
    const support = await adminSession(t, { role: 'Admin Support' });
    const other = await adminSession(t, { permissions: ['view_billing', 'view_users'] });
    for (const p of paths) {
      assert.equal((await get(p, support.cookie)).statusCode, 200, p);
      const denied = await get(p, other.cookie);
      assert.equal(denied.statusCode, 403, p);
      assert.equal(denied.json().code, 'FORBIDDEN');
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/backoffice/dashboard${p}` })).statusCode, 401, p);
    }
  });
});

describe('totals stay exact under concurrent credits', postgresOnly('concurrent credits need several connections'), () => {
  test('40 top-up credits in parallel transactions land in this month', async () => {
    const beforeTotal = cents((await data('/billing/deposit')).this_month_total);
    const customers = await Promise.all(Array.from({ length: 8 }, () => createCustomer(t)));
    const amounts = Array.from({ length: 40 }, (_, i) => 1000_00 + i * 1_01);
    await Promise.all(
      amounts.map((amount, i) =>
        t.container.db.transaction((tx) =>
          t.container.services.wallet.credit(tx, {
            customerId: customers[i % customers.length]!.id,
            type: BalanceLogType.Add,
            amount: (amount / 100).toFixed(2),
            part: 'actual',
            referenceType: 'test_parallel',
            referenceId: `p-${i}`,
            description: 'parallel',
          }),
        ),
      ),
    );
    const d = await data('/billing/deposit');
    assert.equal(cents(d.this_month_total), beforeTotal + amounts.reduce((s, x) => s + x, 0));
    const [ledger] = await queryRows<{ s: string }>(t.container.db, sql`select coalesce(sum(actual_amount), 0)::text as s from balance_logs where type = 'BalanceLogAdd'`);
    assert.equal(cents(d.total), cents(ledger!.s), 'the hourly totals equal the ledger');
    const [wallets] = await queryRows<{ s: string }>(
      t.container.db,
      sql`select coalesce(sum(w.current_balance), 0)::text as s from wallets w join customers c on c.id = w.customer_id where c.is_active`,
    );
    assert.equal(cents((await data('/customer/insight')).total_active_wallet_balance), cents(wallets!.s), 'the wallet counters equal the wallets');
  });
});
