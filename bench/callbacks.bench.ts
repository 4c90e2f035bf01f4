// Top-up callbacks, from the gateway's callback to money in the wallet, on real PostgreSQL. The
// service runs as a user runs it (`npm start`, ROLE=all: the HTTP API and the billing-high workers
// in one process); next to it, in its own process, the bare server's /callback-credit
// (bench/bare-server.mjs), which checks the same signature and credits synchronously in one
// statement. Both get the same bursts of verified pgone callbacks for distinct Pending invoices, in
// alternating rounds in the same run, on the same database (separate customers):
// callbacks per second of each, the ratio, and the time from sending a callback to the wallet
// being credited (ours: the invoice's credited_at, written by the callback's own credit, or by the
// worker's when that one could not; the bare route's: its HTTP time, since it credits before
// answering). After every burst the ledger is checked against the balances.
//
//   npm run bench -- callbacks [--write]
//   BENCH_CALLBACKS (500), BENCH_CONNECTIONS (50), BENCH_CALLBACK_ROUNDS (3) tune it.
//   BENCH_SERVER_DIR runs the service from another checkout (an earlier version).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { hmacSha256Hex } from '../src/integrations/payment-gateways/index.js';
import { cpuMs, pidOf, recreateDatabase, startBare, startServer, type RunningServer } from './lib.js';

const BURST = Number(process.env.BENCH_CALLBACKS ?? 500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_CALLBACK_ROUNDS ?? 3);
const CUSTOMERS = 50;
const MERCHANT = 'BENCH01';
const KEY = 'bench-pgone-key';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct3 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${Math.round(percentile(s, 50))} / ${Math.round(percentile(s, 95))} / ${Math.round(percentile(s, 99))}`;
};

/** A keep-alive POST of a form body; resolves to the status once the answer is read. */
function post(agent: http.Agent, base: string, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Burst {
  /** callbacks per second over the burst (first sent → last answered) */
  rps: number;
  httpMs: number[];
  /** callback sent → wallet credited, per callback */
  toWalletMs: number[];
  failures: number;
  /** CPU time of the server process per callback, µs (for ours: HTTP and crediting) */
  cpuUs: number;
}

async function main(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_callbacks');
  const server = await startServer({ DATABASE_URL: url, ROLE: 'all', NODE_ENV: 'development', PGONE_MERCHANT_CODE: MERCHANT, PGONE_API_KEY: KEY }, process.env.BENCH_SERVER_DIR);
  const bare = await startBare({ DATABASE_URL: url, PGONE_MERCHANT_CODE: MERCHANT, PGONE_API_KEY: KEY });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    // customers of each side, with wallets (the bare statement updates an existing wallet)
    const customersOf = async (side: string) => {
      const { rows } = await db.query<{ id: number }>(
        `insert into customers (email, password_hash, first_name, last_name)
         select 'bench-' || $1 || '-' || g || '@example.test', 'x', 'Bench', 'Customer' from generate_series(1, ${CUSTOMERS}) g returning id`,
        [side],
      );
      await db.query(`insert into wallets (customer_id) select unnest($1::int[])`, [rows.map((r) => r.id)]);
      return rows.map((r) => r.id);
    };
    const sides = { ours: await customersOf('ours'), bare: await customersOf('bare') };

    const invoicesFor = async (customers: number[], n: number) => {
      const invoices = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), customer: customers[i % customers.length]! }));
      await db.query(
        `insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount, currency, status, expires_at)
         select u.id, u.customer, 'pgone', 'SP', 'QRIS', 'QRIS', 10000, 0, 10000, 'IDR', 'Pending', now() + interval '1 day'
         from unnest($1::uuid[], $2::int[]) as u(id, customer)`,
        [invoices.map((c) => c.id), invoices.map((c) => c.customer)],
      );
      return invoices.map(({ id }) => ({
        id,
        body: new URLSearchParams({ merchantCode: MERCHANT, amount: '10000', merchantOrderId: id, resultCode: '00', signature: hmacSha256Hex(KEY, `${MERCHANT}10000${id}`) }).toString(),
      }));
    };

    /** One burst at one side; waits until every invoice of it is credited. */
    const burst = async (side: 'ours' | 'bare', target: RunningServer, path: string, n: number, connections: number): Promise<Burst> => {
      const invoices = await invoicesFor(sides[side], n);
      const pid = pidOf(target);
      const cpuBefore = cpuMs(pid);
      const sentAt = new Map<string, number>();
      const httpMs: number[] = [];
      let next = 0;
      let failures = 0;
      const started = performance.now();
      const startedEpoch = Date.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (next < invoices.length) {
            const inv = invoices[next++]!;
            const t0 = performance.now();
            sentAt.set(inv.id, startedEpoch + (t0 - started));
            const status = await post(agent, target.base, path, inv.body);
            if (status !== 200) failures++;
            httpMs.push(performance.now() - t0);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      const ids = invoices.map((i) => i.id);
      for (;;) {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from topup_invoices where id = any($1::uuid[]) and credited_at is null`, [ids]);
        if (rows[0]!.n === 0) break;
        if (performance.now() - started > 300_000) throw new Error(`${side}: ${rows[0]!.n} invoices not credited after 5 minutes`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const cpuUs = ((cpuMs(pid) - cpuBefore) * 1000) / n;
      let toWalletMs = httpMs;
      if (side === 'ours') {
        const { rows } = await db.query<{ id: string; at: string }>(`select id::text, extract(epoch from credited_at) * 1000 as at from topup_invoices where id = any($1::uuid[])`, [ids]);
        toWalletMs = rows.map((r) => Number(r.at) - sentAt.get(r.id)!);
      }
      return { rps: n / elapsed, httpMs, toWalletMs, failures, cpuUs };
    };

    // warm-up of both (JIT, pools, first-use compiles), then alternating rounds
    await burst('ours', server, '/api/webhook/pgone/callback', 200, CONNECTIONS);
    await burst('bare', bare, '/callback-credit', 200, CONNECTIONS);
    const ours: Burst[] = [];
    const raw: Burst[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await burst('ours', server, '/api/webhook/pgone/callback', BURST, CONNECTIONS));
      raw.push(await burst('bare', bare, '/callback-credit', BURST, CONNECTIONS));
    }
    // one at a time: latency alone
    const oursOne = await burst('ours', server, '/api/webhook/pgone/callback', 100, 1);
    const bareOne = await burst('bare', bare, '/callback-credit', 100, 1);

    const { rows: [check] } = await db.query<{ entries: number; invoices: number; ok: boolean; failures: number }>(
      `select (select count(*)::int from balance_logs) as entries,
              (select count(*)::int from topup_invoices where credited_at is not null) as invoices,
              (select count(*)::int from topup_credit_failures) as failures,
              not exists (select 1 from wallets w where w.actual_balance <> (select coalesce(sum(actual_amount), 0) from balance_logs l where l.customer_id = w.customer_id)
                                                    or w.current_balance <> (select coalesce(sum(amount), 0) from balance_logs l where l.customer_id = w.customer_id)) as ok`,
    );
    const rowOf = (name: string, bursts: Burst[], ratio: string) => {
      const rps = bursts.map((b) => Math.round(b.rps));
      const failures = bursts.reduce((n, b) => n + b.failures, 0);
      const cpu = Math.round(bursts.reduce((n, b) => n + b.cpuUs, 0) / bursts.length);
      return `| ${name} | **${median(rps)}** (${rps.join(', ')}) | ${ratio} | ${pct3(bursts.flatMap((b) => b.httpMs))} | **${pct3(bursts.flatMap((b) => b.toWalletMs))}** | ${cpu} | ${failures} |`;
    };
    const ratios = ours.map((o, i) => o.rps / raw[i]!.rps);
    return [
      rowOf(`service (\`npm start\`, ROLE=all), ${ROUNDS} × ${BURST} callbacks, ${CONNECTIONS} concurrent`, ours, `**${median(ratios).toFixed(2)}** (${ratios.map((r) => r.toFixed(2)).join(', ')})`),
      rowOf(`bare /callback-credit (credits in one statement), ${ROUNDS} × ${BURST}, ${CONNECTIONS} concurrent`, raw, '1'),
      rowOf('service, 100 callbacks one at a time', [oursOne], (oursOne.rps / bareOne.rps).toFixed(2)),
      rowOf('bare /callback-credit, 100 one at a time', [bareOne], '1'),
      '',
      `Checks after all bursts: ${check!.invoices} invoices credited, ${check!.entries} ledger entries (one per invoice: ${check!.entries === check!.invoices}), ` +
        `credit failures: ${check!.failures}, every wallet = its ledger: ${check!.ok}.`,
    ];
  } finally {
    agent.destroy();
    await db.end();
    await bare.stop();
    await server.stop();
  }
}

export const section = {
  title: 'Top-up callbacks (pgone, real server and PostgreSQL)',
  /** --write puts this section between its own markers in docs/benchmarks.md, leaving the others' figures alone */
  marker: 'CALLBACKS',
  header: [
    '| run | callbacks/s, median (rounds) | ratio service / bare | callback HTTP ms p50 / p95 / p99 | callback → wallet credited ms p50 / p95 / p99 | server CPU µs per callback | non-200 |',
    '|---|---|---|---|---|---|---|',
  ],
  run: main,
};
