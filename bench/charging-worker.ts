// One process of the charging benchmark (bench/charging.bench.ts spawns it):
//   service <hour> [sweep]: builds the container as a worker does and charges that hour as the hourly job does (then the sweep);
//   bare <hour>: the same inserts and wallet updates as one bare set-based SQL statement.
// Prints one JSON line: { ms, sweepMs?, maxRssMb, ... }.
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { createLogger } from '../src/platform/logger.js';

const [mode, hour] = process.argv.slice(2);

async function service() {
  const config = loadConfig();
  const container = await buildContainer(config, { log: createLogger('warn'), migrate: false, skipBootstrapAdmin: true });
  try {
    const started = performance.now();
    // the job's own path for one hour (chargeDueHours charges the due hours the same way)
    const hours = await container.services.charging.chargeHour(new Date(hour!));
    const ms = performance.now() - started;
    if (process.argv[4] !== 'sweep') return { ms: Math.round(ms), hours };
    const s2 = performance.now();
    const sweep = await container.services.suspension.sweep();
    const sweepMs = performance.now() - s2;
    return { ms: Math.round(ms), sweepMs: Math.round(sweepMs), hours, sweep };
  } finally {
    await container.close();
  }
}

async function bare() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    // the same planner settings as the service's statement (JIT off: compiling cost seconds)
    await client.query('set jit = off');
    const started = performance.now();
    await client.query('begin');
    const r = await client.query(
      `with prices as (
         select distinct on (price_key, location_id) price_key, location_id, hourly_price from price_versions
         where effective_from <= $1::timestamptz order by price_key, location_id, effective_from desc
       ), u as (
         insert into usage_records (meter_id, hour, customer_id, hourly_price, quantity, seconds, amount)
         select m.id, $1::timestamptz, m.customer_id, p.hourly_price, m.quantity, 3600, p.hourly_price * m.quantity
         from meters m join prices p using (price_key, location_id)
         returning customer_id, amount
       ), s as (select customer_id, round(sum(amount), 2) as amt from u group by customer_id),
       l as (
         insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
         select s.customer_id, 'BalanceLogCharge', -s.amt, -s.amt, 0, 0, 0, 'bare', s.customer_id || '@' || $1, 'bare' from s
       )
       update wallets w set actual_balance = actual_balance - s.amt, current_balance = current_balance - s.amt from s where w.customer_id = s.customer_id`,
      [hour],
    );
    await client.query('commit');
    return { ms: Math.round(performance.now() - started), wallets: r.rowCount };
  } finally {
    await client.end();
  }
}

const result = mode === 'bare' ? await bare() : await service();
console.log(JSON.stringify({ ...result, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
process.exit(0);
