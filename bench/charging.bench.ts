// The hourly charge at scale: 1,000,000 running meters of 100,000 prepaid customers, charged for
// one hour by the service's job (its own process, as a worker runs it), next to one bare
// set-based SQL statement doing the same inserts and wallet updates (its own process), in the
// same run and on the same database. Run alone: `npm run bench:charging`
// (BENCH_CHARGING_CUSTOMERS, BENCH_CHARGING_METERS_PER_CUSTOMER change the size).
import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';
import { recreateDatabase } from './lib.js';

const CUSTOMERS = Number(process.env.BENCH_CHARGING_CUSTOMERS ?? 100_000);
const PER = Number(process.env.BENCH_CHARGING_METERS_PER_CUSTOMER ?? 10);
const HOUR = 3_600_000;
const ROUNDS = Number(process.env.BENCH_CHARGING_ROUNDS ?? 3);

function runWorker(url: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/charging-worker.ts', ...args], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`worker ${args[0]} exited ${code}: ${err}${out}`));
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`worker ${args[0]}: ${err}${out}`));
      }
    });
  });
}

async function chargingAtScale(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_charging');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  // meters run from ten hours before; rounds alternate bare and service on hours of their own
  const due = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
  const startedAt = due - 2 * (ROUNDS + 2) * HOUR;
  const seedStarted = performance.now();
  try {
    await db.query(`insert into customers (email, password_hash, first_name, last_name, billing_type)
                    select 'bench' || g || '@example.test', 'x', 'Bench', 'Customer', 'PREPAID' from generate_series(1, $1::int) g`, [CUSTOMERS]);
    await db.query(`insert into wallets (customer_id, actual_balance, current_balance) select id, 1000000, 1000500 from customers`);
    await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
                    select id, 'BalanceLogAdd', 1000000, 1000000, 0, 1000000, 1000000, 'bench', 'open-' || id, 'opening' from customers`);
    await db.query(`insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
                    select id, 'BalanceLogBonus', 500, 0, 500, 1000000, 1000500, 'bench', 'open-' || id, 'opening bonus' from customers`);
    await db.query(`insert into price_versions (price_key, location_id, monthly_price, hourly_price, effective_from)
                    select 'tier:' || k, 1, 10000 * k, round(10000 * k / 730.0, 6), '2020-01-01' from generate_series(1, 10) k`);
    await db.query(
      `insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at)
       select c.id, 'vm', c.id || '-' || k, 'VM ' || k, 'tier:' || (1 + (c.id + k) % 10), 1, 1, $1::timestamptz
       from customers c, generate_series(1, $2::int) k`,
      [new Date(startedAt).toISOString(), PER],
    );
    await db.query('vacuum analyze');
    const seedMs = performance.now() - seedStarted;

    const hourAt = (i: number) => new Date(startedAt + i * HOUR).toISOString();
    const bare: Record<string, unknown>[] = [];
    const svc: Record<string, unknown>[] = [];
    let k = 0;
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(await runWorker(url, ['bare', hourAt(k++)]));
      svc.push(await runWorker(url, ['service', hourAt(k++), ...(r === ROUNDS - 1 ? ['sweep'] : [])]));
    }
    bare.push(await runWorker(url, ['bare', hourAt(k++)]));
    const serviceHours = svc.map((_, r) => hourAt(2 * r + 1));

    const { rows: [check] } = await db.query<{ usage: number; ledger: number; bad_wallets: number }>(
      `select (select count(*) from usage_records where hour = any($1::timestamptz[]))::int as usage,
              (select count(*) from balance_logs where type = 'BalanceLogCharge' and reference_type = 'usage_charge')::int as ledger,
              (select count(*) from (select w.customer_id from wallets w join balance_logs l on l.customer_id = w.customer_id
                 group by w.customer_id, w.actual_balance, w.current_balance
                 having w.actual_balance <> sum(l.actual_amount) or w.current_balance <> sum(l.amount)) x)::int as bad_wallets`,
      [`{${serviceHours.join(',')}}`],
    );
    const ratios = svc.map((s, r) => (s.ms as number) / (((bare[r]!.ms as number) + (bare[r + 1]!.ms as number)) / 2)).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const meters = CUSTOMERS * PER;
    const last = svc[svc.length - 1]!;
    const maxRss = Math.max(...svc.map((s) => s.maxRssMb as number));
    return [
      `| service: charging.hourly, one hour of ${meters.toLocaleString('en')} meters of ${CUSTOMERS.toLocaleString('en')} prepaid customers, ${ROUNDS} rounds | ${svc.map((s) => s.ms).join(' / ')} ms | ${maxRss} MB | ${check!.usage} usage rows, ${check!.ledger} ledger entries; wallets ≠ ledger: ${check!.bad_wallets} |`,
      `| bare SQL, same inserts and wallet updates, before / between / after | ${bare.map((b) => b.ms).join(' / ')} ms | ${bare[0]!.maxRssMb} MB | |`,
      `| ratio service / bare (each round against the bare runs around it) | ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median.toFixed(2)}) | | |`,
      `| after the charge: suspension sweep and runway notices | ${last.sweepMs} ms | | |`,
      `| seeding (not timed above) | ${Math.round(seedMs)} ms | | |`,
    ];
  } finally {
    await db.end();
  }
}

export const section = {
  title: 'Hourly charging at scale',
  header: ['| run | time | peak RSS of its process | checks |', '|---|---|---|---|'],
  run: chargingAtScale,
};
