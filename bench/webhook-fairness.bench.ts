// Webhook fairness on real PostgreSQL: how long another customer's deliveries take while one
// customer's endpoint never answers and a burst of events is queued for it, against the same
// deliveries on an idle queue. The service runs as a user runs it (`npm start`, ROLE=all); the
// events are written through the outbox port by a second process on the same database, as the
// modules write them. Customer B's events are spread out (one every BENCH_FAIRNESS_GAP_MS), each
// its own transaction; its latency runs from the commit (the emitter's clock, just after COMMIT
// returned) to the receiver's 2xx answer (the same machine's clock). The black hole takes every
// request and never answers, so each of A's attempts holds its place for the 15 s timeout.
//
//   npm run bench -- fairness [--write]
//   BENCH_FAIRNESS_BURST (500), BENCH_FAIRNESS_EVENTS (100), BENCH_FAIRNESS_GAP_MS (200) tune it;
//   BENCH_SERVER_DIR runs the server from another checkout (to measure an earlier version).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { buildContainer, type Container } from '../src/container.js';
import { exactNumber } from '../src/modules/webhooks/index.js';
import { signJwt } from '../src/platform/crypto/index.js';
import { createLogger } from '../src/platform/logger.js';
import { recreateDatabase, startServer } from './lib.js';

const BURST = Number(process.env.BENCH_FAIRNESS_BURST ?? 500);
const EVENTS = Number(process.env.BENCH_FAIRNESS_EVENTS ?? 100);
const GAP_MS = Number(process.env.BENCH_FAIRNESS_GAP_MS ?? 200);
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef0123456789';
const ENCRYPTION_KEY = 'ab'.repeat(32);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server that takes requests and never answers; counts how many it holds at once. */
function blackHole() {
  let open = 0;
  const stats = { received: 0, maxOpen: 0 };
  const server = http.createServer((req) => {
    stats.received++;
    stats.maxOpen = Math.max(stats.maxOpen, ++open);
    req.resume();
    req.socket.once('close', () => open--);
  });
  return { server, stats, open: () => open };
}

/** A receiver that answers 200 at once and notes when each invoice arrived (first time only). */
function receiver() {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).data.invoice_id);
      if (!arrived.has(id)) arrived.set(id, now);
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  return { server, arrived };
}

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

async function main(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_webhook_fairness');
  const hole = blackHole();
  const rx = receiver();
  const holeUrl = await listen(hole.server);
  const rxUrl = await listen(rx.server);
  const env = { DATABASE_URL: url, ROLE: 'all', NODE_ENV: 'development', JWT_SECRET, ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  const server = await startServer(env, process.env.BENCH_SERVER_DIR);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chp-bench-fairness-'));
  const emitter: Container = await buildContainer(loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { log: createLogger('warn'), migrate: false, schedules: false, skipBootstrapAdmin: true });
  try {
    const customer = async (name: string, hook: string) => {
      const { rows: [c] } = await db.query<{ id: number }>(`insert into customers (email, password_hash, first_name, last_name) values ($1, 'x', 'Bench', $2) returning id`, [`${name}@example.test`, name]);
      const { rows: [session] } = await db.query<{ id: string }>(`insert into customer_sessions (customer_id, refresh_expires_at) values ($1, now() + interval '1 day') returning id`, [c!.id]);
      const cookie = `access_token=${signJwt(JWT_SECRET, { typ: 'access', sub: String(c!.id), sid: session!.id }, new Date(), 3600)}`;
      const created = await fetch(`${server.base}/api/webhooks/endpoints`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ url: hook, event_types: ['topup.credited'] }) });
      if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${await created.text()}`);
      return c!.id;
    };
    const a = await customer('silent', `${holeUrl}/never`);
    const b = await customer('healthy', `${rxUrl}/hook`);
    const credit = (customerId: number, ids: string[]) =>
      emitter.db.transaction((tx) => emitter.services.webhookEvents.emitMany(tx, ids.map((id) => ({ customerId, type: 'topup.credited' as const, data: { invoice_id: id, amount: exactNumber('10000.00'), currency: 'IDR' } }))));

    /** B's events one by one, GAP_MS apart; their commit → 2xx latencies, sorted. */
    const measure = async (phase: string) => {
      const committed = new Map<string, number>();
      for (let i = 0; i < EVENTS; i++) {
        const id = `${phase}-${i}`;
        await credit(b, [id]);
        committed.set(id, Date.now());
        await sleep(GAP_MS);
      }
      const deadline = Date.now() + 600_000;
      while ([...committed.keys()].some((id) => !rx.arrived.has(id))) {
        if (Date.now() > deadline) throw new Error(`${phase}: not every delivery arrived within 10 minutes`);
        await sleep(50);
      }
      return [...committed].map(([id, at]) => rx.arrived.get(id)! - at).sort((x, y) => x - y);
    };

    await credit(b, ['warm-up']); // first-use costs (connections, JIT) out of the figures
    while (!rx.arrived.has('warm-up')) await sleep(20);
    const idle = await measure('idle');

    for (let i = 0; i < BURST; i += 50) await credit(a, Array.from({ length: Math.min(50, BURST - i) }, (_, k) => `burst-${i + k}`));
    const burstAt = Date.now();
    while (hole.open() === 0) {
      if (Date.now() - burstAt > 120_000) throw new Error('the burst never reached the silent endpoint');
      await sleep(20);
    }
    const heldAtStart = hole.stats.received;
    const loaded = await measure('loaded');
    const attemptsOfA = hole.stats.received - heldAtStart;
    const { rows: [left] } = await db.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where customer_id = $1 and status = 'pending' and attempts = 0`, [a]);

    const row = (name: string, xs: number[], extra: string) => `| ${name} | ${xs.length} | ${pct(xs, 50)} | **${pct(xs, 95)}** | ${xs[xs.length - 1]} | ${extra} |`;
    return [
      row('idle queue', idle, '–'),
      row(`customer A: ${BURST} events to an endpoint that never answers`, loaded, `${hole.stats.maxOpen} at once at most; ${attemptsOfA} new attempts during the run, ${left!.n} of A's deliveries not yet tried at its end`),
      '',
      `p95 with A's burst minus p95 on an idle queue: **${pct(loaded, 95) - pct(idle, 95)} ms** (goal: at most 2000 ms).`,
    ];
  } finally {
    await emitter.close();
    rmSync(dataDir, { recursive: true, force: true });
    await db.end();
    hole.server.closeAllConnections();
    rx.server.closeAllConnections();
    await server.stop();
    hole.server.close();
    rx.server.close();
  }
}

export const section = {
  title: `Webhook fairness: customer B's deliveries (${EVENTS} events, one every ${GAP_MS} ms) while customer A's endpoint never answers`,
  marker: 'WEBHOOK_FAIRNESS',
  header: [
    "| customer B's deliveries during | events | commit → 2xx p50 ms | p95 ms | max ms | customer A's silent endpoint: requests held |",
    '|---|---|---|---|---|---|',
  ],
  run: main,
};
