// A year of history against none: two databases with the same customers and meters, one of them
// with 12 months of hourly usage, usage charges, top-ups and ledger entries generated into its
// monthly partitions with set-based SQL; measured in turns, the same hour on each. Measured each
// time: the hourly charge (its own process, as a worker runs it), a customer's ledger page and
// GET /api/billing/usage's service call (p95 with 10 in flight); then the backoffice dashboard
// endpoints over HTTP as staff call them (one `npm start` per database, p95 with 10 in flight);
// then the monthly postpaid invoice run (as its job runs it) for a month of postpaid customers
// generated alike into both databases; then the disk a month of usage takes before and after the
// roll-up.
// Run: `npm run bench -- history` (BENCH_HISTORY_CUSTOMERS, BENCH_HISTORY_METERS_PER_CUSTOMER,
// BENCH_HISTORY_POSTPAID_CUSTOMERS, BENCH_HISTORY_POSTPAID_METERS).
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { ManualClock } from '../src/platform/clock.js';
import { createLogger } from '../src/platform/logger.js';
import { ENDPOINTS } from './dashboard.js';
import { recreateDatabase, startServer, type RunningServer } from './lib.js';

const CUSTOMERS = Number(process.env.BENCH_HISTORY_CUSTOMERS ?? 200);
const PER = Number(process.env.BENCH_HISTORY_METERS_PER_CUSTOMER ?? 5);
const POSTPAID = Number(process.env.BENCH_HISTORY_POSTPAID_CUSTOMERS ?? 100_000);
const POSTPAID_METERS = Number(process.env.BENCH_HISTORY_POSTPAID_METERS ?? 2);
const ROUNDS = 3;
const HOUR = 3_600_000;
const DASHBOARD_REQUESTS = 300;
const ADMIN = { email: 'bench-admin@example.test', password: 'Bench-Admin-Pw-1!' };

type Container = Awaited<ReturnType<typeof buildContainer>>;

async function withContainer<T>(url: string, clock: ManualClock | undefined, fn: (c: Container) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' });
  const c = await buildContainer(config, { log: createLogger('warn'), migrate: false, skipBootstrapAdmin: true, ...(clock ? { clock } : {}) });
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

function chargeHour(url: string, hour: string): Promise<{ ms: number; maxRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/charging-worker.ts', 'service', hour], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', () => {});
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`charge exited ${code}: ${out}`))));
  });
}

async function p95(n: number, inFlight: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await call(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length * 0.95)]!;
}

async function reads(url: string): Promise<{ ledger: number; usage: number }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' });
  const c = await buildContainer(config, { log: createLogger('warn'), migrate: false, skipBootstrapAdmin: true });
  try {
    const id = (i: number) => 1 + ((i * 7919) % CUSTOMERS);
    await p95(50, 10, (i) => c.services.wallet.historyOfCustomer(id(i), { page: 1, limit: 20 }));
    const ledger = await p95(400, 10, (i) => c.services.wallet.historyOfCustomer(id(i), { page: 1, limit: 20 }));
    const usage = await p95(400, 10, (i) => c.services.billingUsage.usageOf(id(i)));
    return { ledger, usage };
  } finally {
    await c.close();
  }
}

/** The same customers, wallets, prices and meters (started a year before) on a fresh database. */
async function seed(url: string, yearAgo: Date): Promise<pg.Client> {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`insert into customers (email, password_hash, first_name, last_name, billing_type)
                  select 'h' || g || '@example.test', 'x', 'History', 'Customer', 'PREPAID' from generate_series(1, $1::int) g`, [CUSTOMERS]);
  await db.query(`insert into wallets (customer_id, actual_balance, current_balance) select id, 100000000, 100000000 from customers`);
  await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
                  select id, 'BalanceLogAdd', 100000000, 100000000, 0, 100000000, 100000000, 'bench', 'open-' || id, 'opening', $1::timestamptz from customers`, [yearAgo.toISOString()]);
  await db.query(`insert into price_versions (price_key, location_id, monthly_price, hourly_price, effective_from)
                  select 'tier:' || k, 1, 10000 * k, round(10000 * k / 730.0, 6), '2020-01-01' from generate_series(1, 10) k`);
  await db.query(`insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at)
                  select c.id, 'vm', c.id || '-' || k, 'VM ' || k, 'tier:' || (1 + (c.id + k) % 10), 1, 1, $1::timestamptz
                  from customers c, generate_series(1, $2::int) k`, [yearAgo.toISOString(), PER]);
  return db;
}

interface Staff {
  server: RunningServer;
  cookie: string;
}

/** `npm start` on a database (API only, no console build) and a staff member signed in to it. */
async function staffServer(url: string): Promise<Staff> {
  const server = await startServer({
    DATABASE_URL: url,
    ROLE: 'api',
    NODE_ENV: 'development',
    CONSOLE: 'off',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT_PER_MIN: '100000',
  });
  try {
    const login = await fetch(`${server.base}/api/backoffice/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${await login.text()}`);
    return { server, cookie: login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/**
 * The dashboard endpoints over HTTP on both databases, in turns: per round and endpoint, p95 of
 * DASHBOARD_REQUESTS with 10 in flight on the empty one, then on the one with history. The counter
 * deltas are folded in first, as the job `dashboard.compact-counters` does every minute.
 */
async function dashboards(emptyUrl: string, url: string): Promise<{ empty: number[][]; full: number[][]; failures: number }> {
  for (const u of [emptyUrl, url]) await withContainer(u, undefined, (c) => c.services.dashboard.compactCounters());
  // one after the other: the first start bundles the server, the second finds the bundle fresh
  const e = await staffServer(emptyUrl);
  let f: Staff | undefined;
  try {
    f = await staffServer(url);
    let failures = 0;
    const get = async (s: Staff, path: string) => {
      const res = await fetch(`${s.server.base}${path}`, { headers: { cookie: s.cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
    };
    for (const path of ENDPOINTS) for (const s of [e, f]) for (let i = 0; i < 20; i++) await get(s, path); // warm-up
    const empty = ENDPOINTS.map(() => [] as number[]);
    const full = ENDPOINTS.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, path] of ENDPOINTS.entries()) {
        empty[k]!.push(await p95(DASHBOARD_REQUESTS, 10, () => get(e, path)));
        full[k]!.push(await p95(DASHBOARD_REQUESTS, 10, () => get(f!, path)));
      }
    }
    return { empty, full, failures };
  } finally {
    await f?.server.stop();
    await e.server.stop();
  }
}

/**
 * A month of postpaid usage, the same on both databases: POSTPAID customers (billing type POSTPAID)
 * with POSTPAID_METERS meters each, running the whole month [from, to) and stopped at its end (so
 * no later hour charges them); one usage record per meter and day (at midnight: a day's seconds and
 * amount, 24 hours of the tier's price) and one postpaid usage charge per customer and day, instead
 * of one per hour, which keeps the rows at a size this machine generates in minutes.
 */
async function postpaidMonth(db: pg.Client, from: string, to: string): Promise<{ ms: number; records: number; charges: number }> {
  const t0 = performance.now();
  for (const t of ['usage_records', 'usage_charges']) await db.query(`select ensure_monthly_partition($1::regclass, $2::timestamptz)`, [t, from]);
  await db.query(`insert into customers (email, password_hash, first_name, last_name, billing_type)
                  select 'p' || g || '@example.test', 'x', 'Postpaid', 'Customer', 'POSTPAID' from generate_series(1, $1::int) g`, [POSTPAID]);
  await db.query(`insert into wallets (customer_id, actual_balance, current_balance) select id, 0, 0 from customers where billing_type = 'POSTPAID'`);
  await db.query(`insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at, stopped_at)
                  select c.id, 'vm', 'p' || c.id || '-' || k, 'VM ' || k, 'tier:' || (1 + (c.id + k) % 10), 1, 1, $1::timestamptz, $2::timestamptz
                  from customers c, generate_series(1, $3::int) k where c.billing_type = 'POSTPAID'`, [from, to, POSTPAID_METERS]);
  // fresh statistics first: planned on the old ones (no postpaid customer), the joins below loop over every row per customer
  await db.query('analyze customers, meters');
  const records = await db.query(`insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
                  select m.id, d, m.customer_id, null, p.hourly_price, 1, 86400, p.hourly_price * 24
                  from meters m join customers c on c.id = m.customer_id and c.billing_type = 'POSTPAID'
                  cross join lateral (select hourly_price from price_versions p where p.price_key = m.price_key and p.location_id = m.location_id
                                      order by effective_from desc limit 1) p
                  cross join generate_series($1::timestamptz, $2::timestamptz - interval '1 day', interval '1 day') d`, [from, to]);
  await db.query(`analyze usage_records_p${from.slice(0, 7).replace('-', '')}`);
  const charges = await db.query(`insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
                  select u.customer_id, u.hour, true, count(*), sum(u.amount), trunc(sum(u.amount), 2), sum(u.amount) - trunc(sum(u.amount), 2)
                  from usage_records u join customers c on c.id = u.customer_id and c.billing_type = 'POSTPAID'
                  where u.hour >= $1 and u.hour < $2 group by u.customer_id, u.hour`, [from, to]);
  const suffix = from.slice(0, 7).replace('-', '');
  await db.query(`vacuum analyze customers, wallets, meters, usage_records_p${suffix}, usage_charges_p${suffix}`);
  return { ms: performance.now() - t0, records: records.rowCount ?? 0, charges: charges.rowCount ?? 0 };
}

/** The monthly postpaid invoice run as its job runs it (`issueMonthly` for the month), timed. */
async function invoiceRun(url: string, at: Date, period: string): Promise<{ ms: number; invoices: number }> {
  return withContainer(url, new ManualClock(at), async (c) => {
    const t0 = performance.now();
    const invoices = await c.services.postpaid.issueMonthly(period);
    return { ms: performance.now() - t0, invoices };
  });
}

/** What the run issued, against the month's postpaid charges: every cent on an invoice and its lines. */
async function invoiced(db: pg.Client, from: string, to: string): Promise<{ invoices: number; lines: number; same: boolean }> {
  const { rows: [r] } = await db.query<{ invoices: number; lines: number; same: boolean }>(
    `with charged as (select coalesce(sum(amount), 0) as a from usage_charges where postpaid and hour >= $1 and hour < $2)
     select (select count(*)::int from postpaid_invoices) as invoices, (select count(*)::int from postpaid_invoice_lines) as lines,
            (select coalesce(sum(subtotal), 0) from postpaid_invoices) = (select a from charged)
            and (select coalesce(sum(amount), 0) from postpaid_invoice_lines) = (select a from charged) as same`,
    [from, to],
  );
  return r!;
}

async function history(): Promise<string[]> {
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const thisMonth = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1));
  const yearAgo = new Date(Date.UTC(thisMonth.getUTCFullYear() - 1, thisMonth.getUTCMonth(), 1));
  const hourAt = (k: number) => new Date(now - (ROUNDS + 2 - k) * HOUR).toISOString();
  const emptyUrl = await recreateDatabase('chp_bench_history_empty');
  const url = await recreateDatabase('chp_bench_history');
  const emptyDb = await seed(emptyUrl, yearAgo);
  const db = await seed(url, yearAgo);
  try {
    // 12 months of history, a month per statement set, each into its own partitions
    const genStarted = performance.now();
    for (let m = 0; m < 12; m++) {
      const from = new Date(Date.UTC(yearAgo.getUTCFullYear(), yearAgo.getUTCMonth() + m, 1)).toISOString();
      const to = new Date(Date.UTC(yearAgo.getUTCFullYear(), yearAgo.getUTCMonth() + m + 1, 1)).toISOString();
      for (const t of ['usage_records', 'usage_charges', 'balance_logs', 'usage_daily']) await db.query(`select ensure_monthly_partition($1::regclass, $2::timestamptz)`, [t, from]);
      await db.query(`insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
                      select m.id, h, m.customer_id, null, 0.013717, 1, 3600, 0.013717 from meters m
                      cross join generate_series($1::timestamptz, $2::timestamptz - interval '1 hour', interval '1 hour') h`, [from, to]);
      await db.query(`insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
                      select customer_id, hour, false, count(*), sum(amount), trunc(sum(amount), 2), sum(amount) - trunc(sum(amount), 2)
                      from usage_records where hour >= $1 and hour < $2 group by customer_id, hour`, [from, to]);
      // a paid top-up per customer and week (days 1, 8, 15, 22, 09:00) and its ledger credit: the
      // dashboard's revenue and deposit totals and the month's depositors have a year to read
      await db.query(`insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount, currency, status, expires_at, paid_at, credited_at, created_at)
                      select gen_random_uuid(), c.id, 'pgone', 'SP', 'QRIS', 'QRIS', 50000, 350, 50350, 'IDR', 'Paid', at + interval '1 day', at, at, at
                      from customers c, (select $1::timestamptz + w * interval '7 days' + interval '9 hours' as at from generate_series(0, 3) w) t`, [from]);
      await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
                      select customer_id, 'BalanceLogAdd', amount, amount, 0, 100000000, 100000000, 'topup_invoice', id::text, 'Top-up', paid_at
                      from topup_invoices where paid_at >= $1 and paid_at < $2`, [from, to]);
      await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
                      select customer_id, 'BalanceLogCharge', -amount, -amount, 0, 100000000, 100000000, 'usage_charge', id::text, 'Hourly usage', hour
                      from usage_charges where hour >= $1 and hour < $2 and amount > 0`, [from, to]);
    }
    await db.query('vacuum analyze');
    await emptyDb.query('vacuum analyze');
    const genMs = performance.now() - genStarted;
    const { rows: [counts] } = await db.query<{ usage: string; ledger: string; topups: string }>(
      `select (select count(*) from usage_records) as usage, (select count(*) from balance_logs) as ledger, (select count(*) from topup_invoices) as topups`,
    );
    // the two databases in turns, the same hour on each, so the machine's load falls on both alike
    const empty = { charge: [] as number[], ledger: [] as number[], usage: [] as number[] };
    const full = { charge: [] as number[], ledger: [] as number[], usage: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      empty.charge.push((await chargeHour(emptyUrl, hourAt(r))).ms);
      full.charge.push((await chargeHour(url, hourAt(r))).ms);
      const e = await reads(emptyUrl);
      const f = await reads(url);
      empty.ledger.push(e.ledger);
      empty.usage.push(e.usage);
      full.ledger.push(f.ledger);
      full.usage.push(f.usage);
    }

    // the backoffice dashboard over HTTP, as staff call it
    const dash = await dashboards(emptyUrl, url);

    // the monthly postpaid invoice run for the month before this one, the same postpaid month on
    // both databases; the clock an hour after the last charged hour, so no hour is left to charge
    const lastFrom = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 1, 1)).toISOString();
    const lastTo = thisMonth.toISOString();
    const genEmpty = await postpaidMonth(emptyDb, lastFrom, lastTo);
    const genFull = await postpaidMonth(db, lastFrom, lastTo);
    const runAt = new Date(Date.parse(hourAt(ROUNDS - 1)) + HOUR);
    const period = lastFrom.slice(0, 7);
    const runEmpty = await invoiceRun(emptyUrl, runAt, period);
    const runFull = await invoiceRun(url, runAt, period);
    const issuedEmpty = await invoiced(emptyDb, lastFrom, lastTo);
    const issuedFull = await invoiced(db, lastFrom, lastTo);

    // disk per month: a whole month of the history (the third oldest), before and after the roll-up
    const month = new Date(Date.UTC(yearAgo.getUTCFullYear(), yearAgo.getUTCMonth() + 2, 1));
    const suffix = month.toISOString().slice(0, 7).replace('-', '');
    const size = async (rel: string) => Number((await db.query<{ b: string }>(`select coalesce(pg_total_relation_size(to_regclass($1)), 0) as b`, [rel])).rows[0]!.b);
    const before = { usage: await size(`usage_records_p${suffix}`), charges: await size(`usage_charges_p${suffix}`), ledger: await size(`balance_logs_p${suffix}`) };
    const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' });
    const clock = new ManualClock(new Date(now));
    const c = await buildContainer(config, { log: createLogger('warn'), migrate: false, skipBootstrapAdmin: true, clock });
    const r0 = performance.now();
    const run = await c.services.retention.applyRetention();
    const rollMs = performance.now() - r0;
    await c.close();
    await db.query('vacuum analyze usage_daily');
    const after = { usage: await size(`usage_records_p${suffix}`), daily: await size(`usage_daily_p${suffix}`) };
    const fmt = (x: number[]) => x.map((v) => v.toFixed(1)).join(' / ');
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
    const ratio = (a: number[], b: number[]) => {
      const med = (x: number[]) => [...x].sort((p, q) => p - q)[1]!;
      return (med(a) / med(b)).toFixed(2);
    };
    const meters = CUSTOMERS * PER;
    return [
      `| hourly charge of ${meters.toLocaleString('en')} meters, ${ROUNDS} hours | ${fmt(empty.charge)} ms | ${fmt(full.charge)} ms | ${ratio(full.charge, empty.charge)} (medians) |`,
      `| a customer's ledger page (20 entries), p95 of 400 with 10 in flight, ${ROUNDS} rounds | ${fmt(empty.ledger)} ms | ${fmt(full.ledger)} ms | ${ratio(full.ledger, empty.ledger)} (medians) |`,
      `| GET /api/billing/usage's service call, p95 of 400 with 10 in flight, ${ROUNDS} rounds | ${fmt(empty.usage)} ms | ${fmt(full.usage)} ms | ${ratio(full.usage, empty.usage)} (medians) |`,
      ...ENDPOINTS.map((path, k) => {
        const med = (x: number[]) => [...x].sort((p, q) => p - q)[1]!;
        const met = med(dash.full[k]!) <= 100 && med(dash.empty[k]!) <= 100 ? 'target ≤ 100 ms met' : 'target ≤ 100 ms NOT met';
        return `| GET ${path.replace('/api/backoffice/dashboard', '…/dashboard')} over HTTP as staff, p95 of ${DASHBOARD_REQUESTS} with 10 in flight, ${ROUNDS} rounds | ${fmt(dash.empty[k]!)} ms | ${fmt(dash.full[k]!)} ms | ${ratio(dash.full[k]!, dash.empty[k]!)} (medians), ${met} |`;
      }),
      `| dashboard requests answered other than 200 | | ${dash.failures} | |`,
      `| postpaid month generated on each: ${POSTPAID.toLocaleString('en')} postpaid customers, ${(POSTPAID * POSTPAID_METERS).toLocaleString('en')} meters, ${genFull.records.toLocaleString('en')} daily usage records, ${genFull.charges.toLocaleString('en')} daily postpaid charges | ${Math.round(genEmpty.ms / 1000)} s | ${Math.round(genFull.ms / 1000)} s | |`,
      `| monthly postpaid invoice run (${period}), ${POSTPAID.toLocaleString('en')} postpaid customers | ${(runEmpty.ms / 1000).toFixed(1)} s, ${runEmpty.invoices.toLocaleString('en')} invoices | ${(runFull.ms / 1000).toFixed(1)} s, ${runFull.invoices.toLocaleString('en')} invoices | ${(runFull.ms / runEmpty.ms).toFixed(2)} |`,
      `| check: invoices, lines, invoices and lines sum to the month's postpaid charges | ${issuedEmpty.invoices.toLocaleString('en')}, ${issuedEmpty.lines.toLocaleString('en')}, ${issuedEmpty.same ? 'yes' : 'NO'} | ${issuedFull.invoices.toLocaleString('en')}, ${issuedFull.lines.toLocaleString('en')}, ${issuedFull.same ? 'yes' : 'NO'} | |`,
      `| history generated: ${Number(counts!.usage).toLocaleString('en')} usage rows, ${Number(counts!.ledger).toLocaleString('en')} ledger entries, ${Number(counts!.topups).toLocaleString('en')} paid top-ups | | ${Math.round(genMs / 1000)} s | |`,
      `| disk of one month (${month.toISOString().slice(0, 7)}): usage records → roll-up | ${mb(before.usage)} MB | ${mb(after.usage)} MB raw + ${mb(after.daily)} MB daily | ${(after.daily / before.usage).toFixed(3)} |`,
      `| same month, kept as they are: usage charges, ledger | ${mb(before.charges)} MB, ${mb(before.ledger)} MB | | |`,
      `| retention run: ${run.usageMonthsRolledUp.length} months rolled up and dropped | | ${Math.round(rollMs / 1000)} s | |`,
      '',
      `Load average at the end (1 / 5 / 15 min): ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores.`,
    ];
  } finally {
    await db.end();
    await emptyDb.end();
  }
}

export const section = {
  title: 'A year of history',
  marker: 'history',
  header: ['| measure | no history | 12 months of history | ratio |', '|---|---|---|---|'],
  run: history,
};
