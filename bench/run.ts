// `npm run bench`: the service (`npm start`, its own process) next to a bare Fastify 5 + pg server
// (bench/bare-server.mjs, its own process) doing the same database work, in the same run, on real
// PostgreSQL; then start-up time and idle memory of `npm start` on the embedded database next to
// the bare server's start. Prints markdown and, with `--write`, replaces the figures in
// docs/benchmarks.md (between the BENCH:BEGIN / BENCH:END markers).
//
//   npm run bench [-- <part of a section title> ...] [--write]
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_STARTS (3) tune it.
//   BENCH_SERVER_DIR runs the service of the token section from another checkout (an earlier version).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { signJwt } from '../src/platform/crypto/index.js';
import { hmacSha256Hex } from '../src/integrations/payment-gateways/index.js';
import { newTokenSecret } from '../src/modules/api-tokens/token-secret.js';
import { cpuMs, load, machine, pidOf, recreateDatabase, rssMb, startBare, startServer, type LoadResult } from './lib.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
const PROVINCE = 32; // Jawa Barat: 27 cities and regencies
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * The sandbox gateways (live mode asks the real gateway to confirm every callback over HTTP), so
 * NODE_ENV=development, which production refuses sandbox keys in; LOG_LEVEL=warn as in production.
 */
const SECRETS = {
  NODE_ENV: 'development',
  PAYMENT_MODE: 'sandbox',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
  ENCRYPTION_KEY: 'ab'.repeat(32),
  PGONE_MERCHANT_CODE: 'BENCH01',
  PGONE_API_KEY: 'bench-pgone-key',
  PGTWO_CALLBACK_SECRET: 'bench-pgtwo-secret',
  PGTWO_API_KEY: 'bench-pgtwo-key',
  WEBHOOK_RATE_LIMIT_PER_MIN: '1000000',
};

const ROUNDS = 3;

interface Measured extends LoadResult {
  cpuUsPerReq: number;
}

/** A load run with the CPU time the server process spent on it, per request (robust to other load on the machine). */
async function measured(pid: number, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuMs(pid);
  const r = await run();
  return { ...r, cpuUsPerReq: ((cpuMs(pid) - before) * 1000) / Math.max(1, r.total) };
}

/** Rounds together: mean req/s, median p50 and p99, summed errors, CPU per request over all rounds. */
function combine(rounds: Measured[]): Measured {
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const total = rounds.reduce((n, r) => n + r.total, 0);
  return {
    rps: Math.round(rounds.reduce((n, r) => n + r.rps, 0) / rounds.length),
    p50: med(rounds.map((r) => r.p50)),
    p99: med(rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    total,
    cpuUsPerReq: rounds.reduce((n, r) => n + r.cpuUsPerReq * r.total, 0) / Math.max(1, total),
  };
}

const fmt = (r: Measured) => `${r.rps} | ${r.p50} | ${r.p99} | ${Math.round(r.cpuUsPerReq)} | ${r.errors + r.non2xx}`;

async function requestsVsBare(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench');
  const server = await startServer({ ...SECRETS, DATABASE_URL: url, ROLE: 'api' });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const bare = await startBare({ ...SECRETS, DATABASE_URL: url });
  try {
    // one customer with a wallet and a live session; its access cookie signed as the service signs it
    const { rows: [customer] } = await db.query<{ id: number }>(
      `insert into customers (email, password_hash, first_name, last_name) values ('bench@example.test', 'x', 'Bench', 'Customer') returning id`,
    );
    await db.query(`insert into wallets (customer_id, actual_balance, current_balance) values ($1, 125000, 150000)`, [customer!.id]);
    const { rows: [session] } = await db.query<{ id: string }>(
      `insert into customer_sessions (customer_id, refresh_expires_at) values ($1, now() + interval '1 day') returning id`,
      [customer!.id],
    );
    const token = signJwt(SECRETS.JWT_SECRET, { typ: 'access', sub: String(customer!.id), sid: session!.id }, new Date(), 3600);
    const cookie = { cookie: `access_token=${token}` };

    // distinct Pending invoices, so every callback takes the full path (verify, mark Paid, queue the credit)
    const perServer = Math.max(20_000, (DURATION + 3) * 4000);
    const invoices = async () => {
      const ids = Array.from({ length: perServer }, () => randomUUID());
      for (let i = 0; i < ids.length; i += 5000) {
        await db.query(
          `insert into topup_invoices (id, customer_id, gateway_name, method_code, method_name, method_type, amount, fee, total_amount, currency, status, expires_at)
           select u, $2, 'pgone', 'SP', 'QRIS', 'QRIS', 10000, 0, 10000, 'IDR', 'Pending', now() + interval '1 day' from unnest($1::uuid[]) as u`,
          [ids.slice(i, i + 5000), customer!.id],
        );
      }
      let next = 0;
      return {
        body: () => {
          const id = ids[next++ % ids.length]!;
          return new URLSearchParams({ merchantCode: SECRETS.PGONE_MERCHANT_CODE, amount: '10000', merchantOrderId: id, resultCode: '00', signature: hmacSha256Hex(SECRETS.PGONE_API_KEY, `${SECRETS.PGONE_MERCHANT_CODE}10000${id}`) }).toString();
        },
        used: () => next,
      };
    };
    const svcInvoices = await invoices();
    const bareInvoices = await invoices();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const targets = [
      { name: 'GET /api/inf', svc: (duration: number) => load(`${server.base}/api/inf`, { duration, connections: CONNECTIONS, headers: cookie }), raw: (duration: number) => load(`${bare.base}/inf`, { duration, connections: CONNECTIONS, headers: cookie }) },
      { name: `GET /api/lookup/city?province_id=${PROVINCE}`, svc: (duration: number) => load(`${server.base}/api/lookup/city?province_id=${PROVINCE}`, { duration, connections: CONNECTIONS }), raw: (duration: number) => load(`${bare.base}/city?province_id=${PROVINCE}`, { duration, connections: CONNECTIONS }) },
      {
        name: 'POST /api/webhook/pgone/callback (distinct Pending invoices)',
        svc: (duration: number) => load(`${server.base}/api/webhook/pgone/callback`, { duration, connections: CONNECTIONS, method: 'POST', headers: form, bodies: svcInvoices.body }),
        raw: (duration: number) => load(`${bare.base}/callback`, { duration, connections: CONNECTIONS, method: 'POST', headers: form, bodies: bareInvoices.body }),
      },
    ];
    const rows: string[] = [];
    const svcPid = pidOf(server);
    const barePid = pidOf(bare);
    for (const t of targets) {
      // warm-up (JIT, connection pools, first-use compiles), then rounds that alternate between the
      // two servers, so a change in the machine's load hits both alike
      await t.svc(3);
      await t.raw(3);
      const svc: Measured[] = [];
      const raw: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        svc.push(await measured(svcPid, () => t.svc(DURATION / ROUNDS)));
        raw.push(await measured(barePid, () => t.raw(DURATION / ROUNDS)));
      }
      const a = combine(svc);
      const b = combine(raw);
      rows.push(`| ${t.name} | ${fmt(a)} | ${fmt(b)} | **${(a.rps / b.rps).toFixed(2)}** | ${(b.cpuUsPerReq / a.cpuUsPerReq).toFixed(2)} |`);
    }
    if (svcInvoices.used() > perServer || bareInvoices.used() > perServer) rows.push(`\nSome callbacks repeated an invoice (more than ${perServer} sent): those took the cheaper "already handled" path.`);
    return rows;
  } finally {
    await db.end();
    await bare.stop();
    await server.stop();
  }
}

/**
 * `GET /api/inf` with a personal access token (`Authorization: Bearer`) next to the session cookie,
 * on one server, in alternating rounds of the same run. The token path counts its two rate limits
 * (token, client address; the process's concurrent requests counted together by one statement)
 * beside the read of the token with its account's state; the cookie path verifies the JWT and
 * reads the session. The limits are set high enough not to
 * refuse anything, so every request pays for counting.
 */
async function bearerVsCookie(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench_tokens');
  const server = await startServer({ ...SECRETS, DATABASE_URL: url, ROLE: 'api', API_TOKEN_RATE_LIMIT_PER_MIN: '1000000', API_TOKEN_IP_RATE_LIMIT_PER_MIN: '1000000' }, process.env.BENCH_SERVER_DIR);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows: [customer] } = await db.query<{ id: number }>(
      `insert into customers (email, password_hash, first_name, last_name) values ('tokens@example.test', 'x', 'Bench', 'Tokens') returning id`,
    );
    await db.query(`insert into wallets (customer_id, actual_balance, current_balance) values ($1, 125000, 150000)`, [customer!.id]);
    const { rows: [session] } = await db.query<{ id: string }>(
      `insert into customer_sessions (customer_id, refresh_expires_at) values ($1, now() + interval '1 day') returning id`,
      [customer!.id],
    );
    const cookie = { cookie: `access_token=${signJwt(SECRETS.JWT_SECRET, { typ: 'access', sub: String(customer!.id), sid: session!.id }, new Date(), 3600)}` };
    const pat = newTokenSecret();
    await db.query(
      `insert into api_tokens (customer_id, name, scopes, display_prefix, secret_hash, created_at, expires_at) values ($1, 'bench', '{account:read}', $2, $3, now(), now() + interval '1 day')`,
      [customer!.id, pat.displayPrefix, pat.hash],
    );
    const bearer = { authorization: `Bearer ${pat.secret}` };
    const run = (headers: Record<string, string>) => (duration: number) => load(`${server.base}/api/inf`, { duration, connections: CONNECTIONS, headers });
    const pid = pidOf(server);
    await run(cookie)(3);
    await run(bearer)(3);
    const byCookie: Measured[] = [];
    const byToken: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      byCookie.push(await measured(pid, () => run(cookie)(DURATION / ROUNDS)));
      byToken.push(await measured(pid, () => run(bearer)(DURATION / ROUNDS)));
    }
    const a = combine(byToken);
    const b = combine(byCookie);
    return [`| GET /api/inf | ${fmt(a)} | ${fmt(b)} | **${(a.rps / b.rps).toFixed(2)}** |`];
  } finally {
    await db.end();
    await server.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** idle RSS: 5 s after ready, nothing requested */
async function idleRss(s: Awaited<ReturnType<typeof startServer>>): Promise<number> {
  await new Promise((r) => setTimeout(r, 5000));
  return rssMb(pidOf(s));
}

async function startupAndMemory(): Promise<string[]> {
  const newcomer = { DATABASE_URL: undefined, NODE_ENV: undefined, LOG_LEVEL: 'warn' };
  const rows: string[] = [];
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'chp-bench-'));
    dirs.push(d);
    return d;
  };
  try {
    // a start that finds no template (an install without its scripts, a new migration): it builds one in a child process, then copies it
    const cache = path.join(root, '.cache');
    if (existsSync(cache)) for (const n of readdirSync(cache)) if (n.startsWith('embedded-')) rmSync(path.join(cache, n), { recursive: true, force: true });
    const first = await startServer({ ...newcomer, DATA_DIR: fresh() });
    const firstRss = await idleRss(first);
    const firstCpu = first.readyCpuMs;
    await first.stop();

    type Run = { ms: number; cpu: number; rss: number };
    const freshRuns: Run[] = [];
    const reopenRuns: Run[] = [];
    const bareRuns: Run[] = [];
    for (let i = 0; i < STARTS; i++) {
      const dir = fresh();
      const a = await startServer({ ...newcomer, DATA_DIR: dir });
      freshRuns.push({ ms: a.readyMs, cpu: a.readyCpuMs, rss: await idleRss(a) });
      await a.stop();
      const b = await startServer({ ...newcomer, DATA_DIR: dir });
      reopenRuns.push({ ms: b.readyMs, cpu: b.readyCpuMs, rss: await idleRss(b) });
      await b.stop();
      const c = await startBare({});
      bareRuns.push({ ms: c.readyMs, cpu: c.readyCpuMs, rss: await idleRss(c) });
      await c.stop();
    }
    const sec = (ms: number) => (ms / 1000).toFixed(2);
    const row = (name: string, runs: Run[], target: string) =>
      `| ${name} | **${sec(median(runs.map((r) => r.ms)))} s** (${runs.map((r) => sec(r.ms)).join(', ')}) | ${sec(median(runs.map((r) => r.cpu)))} s | **${median(runs.map((r) => r.rss))} MB** (${runs.map((r) => r.rss).join(', ')}) | ${target} |`;
    const bareMs = median(bareRuns.map((r) => r.ms));
    const bareCpu = median(bareRuns.map((r) => r.cpu));
    rows.push(row('`npm start`, embedded, new data folder (template present)', freshRuns, '≤ 5 s, ≤ 400 MB'));
    rows.push(row('`npm start`, embedded, existing data folder', reopenRuns, '≤ 2 s, ≤ 400 MB'));
    rows.push(`| \`npm start\`, embedded, no template yet (the start builds it first) | ${sec(first.readyMs)} s | ${sec(firstCpu)} s | ${firstRss} MB | once per schema version, if \`npm install\` did not |`);
    rows.push(row('bare Fastify 5 + pg (`node bench/bare-server.mjs`)', bareRuns, 'the floor'));
    rows.push(
      `| ratio to bare: new folder, existing folder | ${(median(freshRuns.map((r) => r.ms)) / bareMs).toFixed(1)}×, ${(median(reopenRuns.map((r) => r.ms)) / bareMs).toFixed(1)}× | ${(median(freshRuns.map((r) => r.cpu)) / bareCpu).toFixed(1)}×, ${(median(reopenRuns.map((r) => r.cpu)) / bareCpu).toFixed(1)}× | | |`,
    );
    return rows;
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** `marker`: --write puts the section's figures between <!-- BENCH:<marker>:BEGIN/END --> instead of the main block. */
const sections: { title: string; header: string[]; marker?: string; run: () => Promise<string[]> }[] = [
  {
    title: `Requests on PostgreSQL, service and bare server each in its own process (${CONNECTIONS} connections, ${DURATION} s each)`,
    header: [
      '| route | service req/s | p50 ms | p99 ms | CPU µs/req | errors | bare req/s | p50 ms | p99 ms | CPU µs/req | errors | req/s service / bare | CPU per request bare / service |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ],
    run: requestsVsBare,
  },
  {
    title: `API token against the session cookie, one server on PostgreSQL (${CONNECTIONS} connections, ${DURATION} s each)`,
    marker: 'TOKENS',
    header: [
      '| route | Bearer token req/s | p50 ms | p99 ms | CPU µs/req | errors | cookie req/s | p50 ms | p99 ms | CPU µs/req | errors | req/s token / cookie |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ],
    run: bearerVsCookie,
  },
  {
    title: `Start-up to ready and idle memory (median of ${STARTS}; RSS of the server process 5 s after ready)`,
    marker: 'STARTUP',
    header: ['| case | time to /readyz | CPU time to /readyz (all processes) | idle RSS | target |', '|---|---|---|---|---|'],
    run: startupAndMemory,
  },
];

// Other benchmarks register themselves in bench/*.bench.ts and export `section`.
for (const file of readdirSync(path.dirname(new URL(import.meta.url).pathname)).filter((f) => f.endsWith('.bench.ts')).sort()) {
  const mod = (await import(`./${file}`)) as { section: (typeof sections)[number] };
  sections.push(mod.section);
}

const args = process.argv.slice(2);
const write = args.includes('--write');
const only = args.filter((a) => !a.startsWith('--'));
const load0 = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' / ');
const out: string[] = [`Machine: ${machine()}`, `Date: ${new Date().toISOString()}`, `Load average at the start (1 / 5 / 15 min): ${load0}`, ''];
console.log(out.join('\n'));
const own: { marker: string; text: string }[] = [];
let mainRan = false;
for (const s of sections) {
  if (only.length > 0 && !only.some((o) => s.title.toLowerCase().includes(o.toLowerCase()))) continue;
  const rows = await s.run();
  const text = `### ${s.title}\n\n${[...s.header, ...rows].join('\n')}\n`;
  console.log(text);
  if (s.marker) own.push({ marker: s.marker, text: `${out.slice(0, 3).join('\n')}\n\n${text}` });
  else {
    out.push(text);
    mainRan = true;
  }
}
if (write) {
  const file = path.join(root, 'docs/benchmarks.md');
  let doc = readFileSync(file, 'utf8');
  const replace = (name: string, body: string) => {
    const begin = name ? `<!-- BENCH:${name}:BEGIN -->` : '<!-- BENCH:BEGIN -->';
    const end = name ? `<!-- BENCH:${name}:END -->` : '<!-- BENCH:END -->';
    const i = doc.indexOf(begin);
    const j = doc.indexOf(end);
    const block = `${begin}\n${body}\n${end}`;
    doc = i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  };
  // the main block only when one of its sections ran, so `-- callbacks --write` keeps the others' figures
  if (mainRan) replace('', out.join('\n'));
  for (const o of own) replace(o.marker, o.text);
  writeFileSync(file, doc);
  console.log(`figures written to ${path.relative(process.cwd(), file)}`);
}
process.exit(0);
