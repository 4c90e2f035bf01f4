// `npm run bench:dashboard`: the five backoffice dashboard endpoints against the real server
// (src/server.ts as a child process) on PostgreSQL, with 100,000 customers and 1,000,000 ledger
// rows seeded by set-based SQL. Each endpoint gets timed requests, one at a time and then
// BENCH_DASHBOARD_CONCURRENCY (default 10) at once; the goal is p95 ≤ 100 ms. After the run the
// dashboard's totals are checked against sums over the ledger and the invoices.
// BENCH_CUSTOMERS, BENCH_LEDGER_ROWS, BENCH_VMS, BENCH_DASHBOARD_REQUESTS change the sizes.
import os from 'node:os';
import pg from 'pg';
import { machine, recreateDatabase, startServer } from './lib.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const VMS = Number(process.env.BENCH_VMS ?? 50_000);
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_DASHBOARD_CONCURRENCY ?? 10);
/** a fifth of the ledger is top-up credits (one per paid invoice), the rest hourly charges */
const TOPUPS = Math.floor(LEDGER_ROWS / 5);
const ADMIN = { email: 'bench-admin@example.test', password: 'Bench-Admin-Pw-1!' };

/** The backoffice dashboard's endpoints, as the console calls them (bench/history.bench.ts reads them too). */
export const ENDPOINTS = [
  '/api/backoffice/dashboard/customer/insight',
  '/api/backoffice/dashboard/billing/revenue',
  '/api/backoffice/dashboard/billing/deposit',
  '/api/backoffice/dashboard/hv/total-vm',
  '/api/backoffice/dashboard/hv/total-vm?group_by=os&location_id=1',
  '/api/backoffice/dashboard/hv/ip-occupation',
];

async function timed(db: pg.Client, label: string, text: string): Promise<void> {
  const t0 = performance.now();
  await db.query(text);
  console.error(`  seeded ${label} in ${Math.round(performance.now() - t0)} ms`);
}

/** Everything spread over the last 14 months, so the 12-month trend and the all-time total differ. */
async function seed(db: pg.Client): Promise<void> {
  const span = `interval '425 days'`;
  await timed(
    db,
    `${CUSTOMERS} customers`,
    `insert into customers (email, password_hash, first_name, last_name, is_active, is_registration_completed, created_at)
     select 'bench' || g || '@example.test', 'x', 'Bench', 'Customer', g % 20 <> 0, true, now() - random() * ${span}
     from generate_series(1, ${CUSTOMERS}) g`,
  );
  await timed(
    db,
    'wallets',
    `insert into wallets (customer_id, actual_balance, current_balance)
     select id, round((random() * 500000)::numeric, 2), 0 from customers`,
  );
  await db.query(`update wallets set current_balance = actual_balance + round((random() * 1000)::numeric, 2)`);
  await timed(
    db,
    `${TOPUPS} paid top-up invoices`,
    `insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount, currency, status, expires_at, paid_at, credited_at, created_at)
     select gen_random_uuid(), c, 'pgone', 'SP', 'QRIS', 'QRIS', a, round(a * 0.007, 2), a + round(a * 0.007, 2), 'IDR', 'Paid', at + interval '1 day', at, at, at
     from (select (select min(id) from customers) + (g % ${CUSTOMERS}) as c, (10000 + (g % 50) * 5000)::numeric(18, 2) as a, now() - random() * ${span} as at
           from generate_series(1, ${TOPUPS}) g) s`,
  );
  await timed(
    db,
    `${TOPUPS} top-up credits (BalanceLogAdd)`,
    `insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
     select customer_id, 'BalanceLogAdd', amount, amount, 0, amount, amount, 'topup_invoice', id::text, 'Top-up', paid_at from topup_invoices where status = 'Paid'`,
  );
  await timed(
    db,
    `${LEDGER_ROWS - TOPUPS} charges (BalanceLogCharge)`,
    `insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description, created_at)
     select (select min(id) from customers) + (g % ${CUSTOMERS}), 'BalanceLogCharge', -a, -a, 0, 0, 0, 'usage', 'u' || g, 'Hourly charge', now() - random() * ${span}
     from (select g, (1 + (g % 90))::numeric(18, 2) as a from generate_series(1, ${LEDGER_ROWS - TOPUPS}) g) s`,
  );
  await timed(
    db,
    `${VMS} VMs (a tenth Deleted, 250 public IPs per active location)`,
    `with t as (select array_agg(id order by id) as ids, array_agg(cpu order by id) as cpus, array_agg(memory_mb order by id) as mems, count(*)::int as n from tiers),
          v as (select g, (select min(id) from customers) + (g * 7 % ${CUSTOMERS}) as c, 1 + g % 2 as loc, 1 + g % (select n from t) as ti,
                       (array['ubuntu-24.04','ubuntu-22.04','debian-12','rocky-9','almalinux-9'])[1 + g % 5] as os,
                       case when g % 10 = 0 then 'Deleted' when g % 7 = 0 then 'Stopped' else 'Running' end as status
                from generate_series(1, ${VMS}) g)
     insert into vms (customer_id, name, location_id, tier_id, os, cpu, memory_mb, disk_gb, status, public_ip, created_at)
     select v.c, 'vm-' || v.g, v.loc, t.ids[v.ti], v.os, t.cpus[v.ti], t.mems[v.ti], 25, v.status,
            case when v.status <> 'Deleted' and v.g <= 500 then '198.18.' || v.loc || '.' || (2 + v.g / 2) end, now() - random() * ${span}
     from v, t`,
  );
  await timed(db, 'vacuum analyze (autovacuum would do it after bulk loads)', 'vacuum analyze');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function measure(base: string, path: string, cookie: string, concurrency: number): Promise<{ p50: number; p95: number; p99: number; rps: number; failures: number }> {
  const ms: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < REQUESTS) {
        next++;
        const t0 = performance.now();
        const res = await fetch(`${base}${path}`, { headers: { cookie } });
        await res.arrayBuffer();
        ms.push(performance.now() - t0);
        if (res.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  ms.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { p50: r(percentile(ms, 50)), p95: r(percentile(ms, 95)), p99: r(percentile(ms, 99)), rps: Math.round(REQUESTS / seconds), failures };
}

export async function dashboardBench(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_dashboard');
  const server = await startServer({
    DATABASE_URL: url,
    ROLE: 'api',
    NODE_ENV: 'development',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT_PER_MIN: '100000',
  });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await seed(db);
    const login = await fetch(`${server.base}/api/backoffice/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${await login.text()}`);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const rows: string[] = [];
    for (const path of ENDPOINTS) {
      for (let i = 0; i < 20; i++) await (await fetch(`${server.base}${path}`, { headers: { cookie } })).arrayBuffer(); // warm-up
      const one = await measure(server.base, path, cookie, 1);
      const many = await measure(server.base, path, cookie, CONCURRENCY);
      const ok = (p95: number) => (p95 <= 100 ? 'yes' : 'NO');
      rows.push(
        `| GET ${path.replace('/api/backoffice/dashboard', '…')} | ${one.p50} / ${one.p95} / ${one.p99} | ${many.p50} / ${many.p95} / ${many.p99} | ${many.rps} | ${one.failures + many.failures} | ${ok(one.p95)} / ${ok(many.p95)} |`,
      );
      console.error(rows[rows.length - 1]);
    }
    // the figures are the ledger's and the invoices'
    const dep = (await (await fetch(`${server.base}/api/backoffice/dashboard/billing/deposit`, { headers: { cookie } })).json()) as { data: { total: number; count: number } };
    const rev = (await (await fetch(`${server.base}/api/backoffice/dashboard/billing/revenue`, { headers: { cookie } })).json()) as { data: { total: number } };
    const { rows: sums } = await db.query<{ deposits: string; n: string; revenue: string; ledger: string }>(
      `select (select sum(actual_amount) from balance_logs where type = 'BalanceLogAdd')::text as deposits,
              (select count(*) from balance_logs where type = 'BalanceLogAdd')::text as n,
              (select sum(total_amount) from topup_invoices where status = 'Paid')::text as revenue,
              (select count(*) from balance_logs)::text as ledger`,
    );
    const s = sums[0]!;
    const same = Number(s.deposits) === dep.data.total && Number(s.n) === dep.data.count && Number(s.revenue) === rev.data.total;
    rows.push(
      '',
      `Load average (1, 5, 15 min) at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} on ${os.cpus().length} cores.`,
      '',
      `Data: ${CUSTOMERS} customers, ${s.ledger} ledger rows (${s.n} top-up credits), ${TOPUPS} paid invoices, ${VMS} VMs. ` +
        `Check: deposit total ${dep.data.total} and revenue total ${rev.data.total} ${same ? 'equal' : 'DIFFER FROM'} the sums over the ledger and the invoices.`,
    );
    return rows;
  } finally {
    await db.end();
    await server.stop();
  }
}

export const section = {
  title: 'Dashboard (100,000 customers, 1,000,000 ledger rows)',
  header: [
    `${REQUESTS} timed requests per endpoint and column, after 20 warm-up requests; ms p50 / p95 / p99.`,
    '',
    `| endpoint | one at a time | ${CONCURRENCY} concurrent | req/s (${CONCURRENCY} concurrent) | non-200 | p95 ≤ 100 ms (one / ${CONCURRENCY}) |`,
    '|---|---|---|---|---|---|',
  ],
  run: dashboardBench,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`## ${section.title}\n\nMachine: ${machine()}\nDate: ${new Date().toISOString()}\n`);
  console.log([...section.header, ...(await dashboardBench())].join('\n'));
  process.exit(0);
}
