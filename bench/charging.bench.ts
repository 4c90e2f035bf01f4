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
  // the last complete hour is the one the job charges; the bare statement writes the hour before
  const due = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
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
      [new Date(due).toISOString(), PER],
    );
    await db.query('vacuum analyze');
    const seedMs = performance.now() - seedStarted;

    const bare1 = await runWorker(url, ['bare', new Date(due - HOUR).toISOString()]);
    const svc = await runWorker(url, ['service']);
    const bare2 = await runWorker(url, ['bare', new Date(due - 2 * HOUR).toISOString()]);

    const { rows: [check] } = await db.query<{ usage: number; ledger: number; bad_wallets: number; drift: number }>(
      `select (select count(*) from usage_records where hour = $1::timestamptz)::int as usage,
              (select count(*) from balance_logs where type = 'BalanceLogCharge' and reference_type = 'usage_charge')::int as ledger,
              (select count(*) from (select w.customer_id from wallets w join balance_logs l on l.customer_id = w.customer_id
                 group by w.customer_id, w.actual_balance, w.current_balance
                 having w.actual_balance <> sum(l.actual_amount) or w.current_balance <> sum(l.amount)) x)::int as bad_wallets,
              (select count(*) from usage_charges where usage_amount <> amount + carry)::int as drift`,
      [new Date(due).toISOString()],
    );
    const bareMs = ((bare1.ms as number) + (bare2.ms as number)) / 2;
    const ratio = ((svc.ms as number) / bareMs).toFixed(2);
    const meters = CUSTOMERS * PER;
    return [
      `| service: charging.hourly, one hour (${meters.toLocaleString('en')} meters, ${CUSTOMERS.toLocaleString('en')} customers) | ${svc.ms} ms | ${svc.maxRssMb} MB | ${check!.usage} usage rows, ${check!.ledger} ledger entries, wallets ≠ ledger: ${check!.bad_wallets}, usage ≠ charged + carry: ${check!.drift} |`,
      `| bare SQL, same inserts and wallet updates (before / after) | ${bare1.ms} / ${bare2.ms} ms | ${bare1.maxRssMb} MB | |`,
      `| ratio service / bare (mean) | ${ratio} | | |`,
      `| after the charge: suspension sweep and runway notices (${meters.toLocaleString('en')} meters) | ${svc.sweepMs} ms | | |`,
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
