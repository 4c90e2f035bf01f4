// Webhook throughput on real PostgreSQL: a burst of events to one local receiver. The service runs
// as a user runs it (`npm start`, ROLE=all: the API and the workers in one process); the events are
// written as the modules write them, through the outbox port (`services.webhookEvents.emitMany`, in
// batches of 50 per transaction like a batch of credited top-ups) by a second process on the same
// database. The receiver answers 200 at once and notes, per delivery, the time from the event's
// timestamp (taken in its transaction, just before the commit) to the moment it answers.
//
//   npm run bench -- webhook [--write]
//   BENCH_WEBHOOK_EVENTS (10000) tunes it; BENCH_SERVER_DIR runs the server from another checkout.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { exactNumber } from '../src/modules/webhooks/index.js';
import { signJwt } from '../src/platform/crypto/index.js';
import { createLogger } from '../src/platform/logger.js';
import { cpuMs, pidOf, recreateDatabase, startServer } from './lib.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const BATCH = 50;
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef0123456789';
const ENCRYPTION_KEY = 'ab'.repeat(32);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_webhooks');
  const latencies: number[] = [];
  const ids = new Set<string>();
  let duplicates = 0;
  let lastAt = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = String(req.headers['webhook-id']);
      if (ids.has(id)) duplicates++;
      else {
        ids.add(id);
        latencies.push(now - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).timestamp));
        lastAt = now;
      }
      res.end('ok');
      if (ids.size >= EVENTS) done();
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const env = { DATABASE_URL: url, ROLE: 'all', NODE_ENV: 'development', JWT_SECRET, ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  const server = await startServer(env, process.env.BENCH_SERVER_DIR);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chp-bench-webhooks-'));
  const emitter = await buildContainer(loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), { log: createLogger('warn'), migrate: false, schedules: false, skipBootstrapAdmin: true });
  try {
    const { rows: [customer] } = await db.query<{ id: number }>(`insert into customers (email, password_hash, first_name, last_name) values ('hooks@example.test', 'x', 'Bench', 'Hooks') returning id`);
    const { rows: [session] } = await db.query<{ id: string }>(`insert into customer_sessions (customer_id, refresh_expires_at) values ($1, now() + interval '1 day') returning id`, [customer!.id]);
    const cookie = `access_token=${signJwt(JWT_SECRET, { typ: 'access', sub: String(customer!.id), sid: session!.id }, new Date(), 3600)}`;
    const created = await fetch(`${server.base}/api/webhooks/endpoints`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ url: hook, event_types: ['topup.credited'] }) });
    if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${await created.text()}`);

    const cpuBefore = cpuMs(pidOf(server));
    const started = Date.now();
    for (let i = 0; i < EVENTS; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, k) => ({
        customerId: customer!.id,
        type: 'topup.credited' as const,
        data: { invoice_id: `bench-${i + k}`, amount: exactNumber('10000.00'), currency: 'IDR' },
      }));
      await emitter.db.transaction((tx) => emitter.services.webhookEvents.emitMany(tx, batch));
    }
    const emittedMs = Date.now() - started;
    await Promise.race([all, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${ids.size} of ${EVENTS} delivered in 10 minutes`)), 600_000))]);
    const totalMs = lastAt - started;
    const cpuUs = ((cpuMs(pidOf(server)) - cpuBefore) * 1000) / EVENTS;
    // the last answers' attempts are still being recorded when the receiver has them all
    for (let i = 0; i < 300; i++) {
      const { rows: [open] } = await db.query<{ n: number }>(`select count(*)::int as n from webhook_attempts where status = 'sending'`);
      if (open!.n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { rows: [attempts] } = await db.query<{ failed: number; total: number }>(`select count(*) filter (where status <> 'succeeded')::int as failed, count(*)::int as total from webhook_attempts`);
    const sorted = [...latencies].sort((a, b) => a - b);
    return [
      `| ${EVENTS} | ${(emittedMs / 1000).toFixed(1)} s | ${(totalMs / 1000).toFixed(1)} s | **${Math.round((EVENTS * 1000) / totalMs)}** | ${pct(sorted, 50)} / **${pct(sorted, 95)}** / ${pct(sorted, 99)} ms | ${Math.round(cpuUs)} | ${attempts!.total} (${attempts!.failed} not 2xx), ${duplicates} duplicates |`,
    ];
  } finally {
    await emitter.close();
    rmSync(dataDir, { recursive: true, force: true });
    await db.end();
    await server.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

export const section = {
  title: `Webhooks: ${EVENTS} events in a burst (batches of ${BATCH} per transaction) to one local receiver`,
  marker: 'WEBHOOKS',
  header: [
    '| events | all committed after | last 2xx after | deliveries/s | commit → 2xx p50 / p95 / p99 | server CPU µs per event | attempts |',
    '|---|---|---|---|---|---|---|',
  ],
  run: main,
};
