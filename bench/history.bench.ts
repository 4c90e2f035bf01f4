// A year of history against none: two databases with the same customers and meters, one of them
// with 12 months of hourly usage, usage charges and ledger entries generated into its monthly
// partitions with set-based SQL; measured in turns, the same hour on each. Measured each time: the hourly charge (its own process, as a worker runs it),
// a customer's ledger page and GET /api/billing/usage's service call (p95 with 10 in flight), then
// the disk a month of usage takes before and after the roll-up.
// Run: `npm run bench -- history` (BENCH_HISTORY_CUSTOMERS, BENCH_HISTORY_METERS_PER_CUSTOMER).
import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { ManualClock } from '../src/platform/clock.js';
import { createLogger } from '../src/platform/logger.js';
import { recreateDatabase } from './lib.js';

const CUSTOMERS = Number(process.env.BENCH_HISTORY_CUSTOMERS ?? 200);
const PER = Number(process.env.BENCH_HISTORY_METERS_PER_CUSTOMER ?? 5);
const ROUNDS = 3;
const HOUR = 3_600_000;

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
      await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
                      select customer_id, 'BalanceLogCharge', -amount, -amount, 0, 100000000, 100000000, 'usage_charge', id::text, 'Hourly usage', hour
                      from usage_charges where hour >= $1 and hour < $2 and amount > 0`, [from, to]);
    }
    await db.query('vacuum analyze');
    await emptyDb.query('vacuum analyze');
    const genMs = performance.now() - genStarted;
    const { rows: [counts] } = await db.query<{ usage: string; ledger: string }>(`select (select count(*) from usage_records) as usage, (select count(*) from balance_logs) as ledger`);
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
      `| history generated: ${Number(counts!.usage).toLocaleString('en')} usage rows, ${Number(counts!.ledger).toLocaleString('en')} ledger entries | | ${Math.round(genMs / 1000)} s | |`,
      `| disk of one month (${month.toISOString().slice(0, 7)}): usage records → roll-up | ${mb(before.usage)} MB | ${mb(after.usage)} MB raw + ${mb(after.daily)} MB daily | ${(after.daily / before.usage).toFixed(3)} |`,
      `| same month, kept as they are: usage charges, ledger | ${mb(before.charges)} MB, ${mb(before.ledger)} MB | | |`,
      `| retention run: ${run.usageMonthsRolledUp.length} months rolled up and dropped | | ${Math.round(rollMs / 1000)} s | |`,
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
