// Verified pgone callbacks for distinct Pending invoices against the real server (`npm start` as a
// child process) on real PostgreSQL: callbacks per second, and the time from sending a callback to
// the wallet being credited (TopupCallbackSuccessTask done, invoice credited_at set).
// Run alone: `npm run bench -- callbacks` (BENCH_CALLBACKS, BENCH_CONNECTIONS tune the burst).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { hmacSha256Hex } from '../src/integrations/payment-gateways/index.js';
import { recreateDatabase, startServer } from './lib.js';

const BURST = Number(process.env.BENCH_CALLBACKS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MERCHANT = 'BENCH01';
const KEY = 'bench-pgone-key';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function runOnce(CALLBACKS: number, CONNECTIONS: number): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_callbacks');
  const server = await startServer({ DATABASE_URL: url, ROLE: 'all', NODE_ENV: 'development', PGONE_MERCHANT_CODE: MERCHANT, PGONE_API_KEY: KEY });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    // 50 customers, CALLBACKS Pending invoices spread over them (so wallet row locks contend a little).
    const { rows: customers } = await db.query<{ id: number }>(
      `insert into customers (email, password_hash, first_name, last_name)
       select 'bench' || g || '@example.test', 'x', 'Bench', 'Customer' from generate_series(1, 50) g returning id`,
    );
    const invoices = Array.from({ length: CALLBACKS }, (_, i) => ({ id: randomUUID(), customer: customers[i % customers.length]!.id }));
    for (let i = 0; i < invoices.length; i += 500) {
      const chunk = invoices.slice(i, i + 500);
      await db.query(
        `insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount, currency, status, expires_at)
         select u.id, u.customer, 'pgone', 'SP', 'QRIS', 'QRIS', 10000, 0, 10000, 'IDR', 'Pending', now() + interval '1 day'
         from unnest($1::uuid[], $2::int[]) as u(id, customer)`,
        [chunk.map((c) => c.id), chunk.map((c) => c.customer)],
      );
    }
    const bodies = invoices.map(({ id }) =>
      new URLSearchParams({ merchantCode: MERCHANT, amount: '10000', merchantOrderId: id, resultCode: '00', signature: hmacSha256Hex(KEY, `${MERCHANT}10000${id}`) }).toString(),
    );
    // warm-up: a few requests that are rejected (bad signature), touching the same code path
    await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.base}/api/webhook/pgone/callback`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'merchantOrderId=x&amount=1&resultCode=00&signature=y' }).then((r) => r.text()),
      ),
    );

    const sentAt = new Map<string, number>();
    const callbackMs: number[] = [];
    let next = 0;
    let failures = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < bodies.length) {
          const i = next++;
          const t0 = Date.now();
          sentAt.set(invoices[i]!.id, t0);
          const res = await fetch(`${server.base}/api/webhook/pgone/callback`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: bodies[i],
          });
          await res.text();
          if (res.status !== 200) failures++;
          callbackMs.push(Date.now() - t0);
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    // wait until every invoice is credited
    for (;;) {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from topup_invoices where credited_at is null`);
      if (rows[0]!.n === 0) break;
      if (Date.now() - started > 600_000) throw new Error(`${rows[0]!.n} invoices not credited after 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const creditedDone = (Date.now() - started) / 1000;
    const { rows: credited } = await db.query<{ id: string; at: number }>(`select id::text, extract(epoch from credited_at) * 1000 as at from topup_invoices`);
    const toCredit = credited.map((r) => Number(r.at) - sentAt.get(r.id)!).sort((a, b) => a - b);
    const { rows: check } = await db.query<{ ok: boolean; entries: number }>(
      `select (select count(*)::int from balance_logs) as entries,
              not exists (select 1 from wallets w where w.current_balance <> (select coalesce(sum(amount), 0) from balance_logs l where l.customer_id = w.customer_id)) as ok`,
    );
    callbackMs.sort((a, b) => a - b);
    return [
      `| ${CALLBACKS} verified pgone callbacks, ${CONNECTIONS} concurrent | ${Math.round(CALLBACKS / elapsed)} callbacks/s | ${percentile(callbackMs, 50)} / ${percentile(callbackMs, 95)} / ${percentile(callbackMs, 99)} | ${percentile(toCredit, 50)} / ${percentile(toCredit, 95)} / ${percentile(toCredit, 99)} | ${Math.round(CALLBACKS / creditedDone)} credits/s | ${failures} failed, ${check[0]!.entries} ledger entries, ledger = balances: ${check[0]!.ok} |`,
    ];
  } finally {
    await db.end();
    await server.stop();
  }
}

/** A burst (throughput; latency then includes the queue backlog) and one callback at a time (latency alone). */
async function run(): Promise<string[]> {
  return [...(await runOnce(BURST, CONNECTIONS)), ...(await runOnce(300, 1))];
}

export const section = {
  title: 'Top-up callbacks (pgone, real server and PostgreSQL)',
  header: [
    '| run | callback throughput | callback HTTP ms p50 / p95 / p99 | callback → wallet credited ms p50 / p95 / p99 | crediting throughput | checks |',
    '|---|---|---|---|---|---|',
  ],
  run,
};
