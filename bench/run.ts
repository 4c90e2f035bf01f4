// `npm run bench`: the service against real PostgreSQL, next to a bare Fastify route running the
// same query in the same run, plus start-up time and idle memory on the embedded database.
// Figures go to docs/benchmarks.md (by hand, with the machine line printed here).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { freePort, load, machine, recreateDatabase, rssMb, startServer } from './lib.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PROVINCE = 32; // Jawa Barat: 27 cities and regencies

async function bareFastify(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/city', async (req) => {
    const provinceId = Number((req.query as { province_id: string }).province_id);
    const { rows } = await pool.query('select id, province_id, name from cities where province_id = $1 order by name', [provinceId]);
    return { message: 'OK', data: rows };
  });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${port}`, close: async () => { await app.close(); await pool.end(); } };
}

async function lookupVsBare(): Promise<string[]> {
  const url = await recreateDatabase('chp_bench');
  const server = await startServer({ DATABASE_URL: url, ROLE: 'all' });
  const bare = await bareFastify(url);
  try {
    const path_ = `/api/lookup/city?province_id=${PROVINCE}`;
    // warm-up
    await load(`${server.base}${path_}`, { duration: 2, connections: CONNECTIONS });
    await load(`${bare.base}/city?province_id=${PROVINCE}`, { duration: 2, connections: CONNECTIONS });
    const svc = await load(`${server.base}${path_}`, { duration: DURATION, connections: CONNECTIONS });
    const raw = await load(`${bare.base}/city?province_id=${PROVINCE}`, { duration: DURATION, connections: CONNECTIONS });
    const ratio = (svc.rps / raw.rps).toFixed(2);
    return [
      `| GET /api/lookup/city?province_id=${PROVINCE} (service) | ${svc.rps} | ${svc.p50} | ${svc.p99} | ${svc.errors + svc.non2xx} |`,
      `| same query, bare Fastify + pg | ${raw.rps} | ${raw.p50} | ${raw.p99} | ${raw.errors + raw.non2xx} |`,
      `| ratio service / bare | ${ratio} | | | |`,
    ];
  } finally {
    await bare.close();
    await server.stop();
  }
}

async function startupAndMemory(): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chp-bench-'));
  try {
    const cold = await startServer({ DATA_DIR: dataDir });
    await new Promise((r) => setTimeout(r, 5000));
    const coldRss = rssMb(cold.child.pid!);
    await cold.stop();
    const warm = await startServer({ DATA_DIR: dataDir });
    await new Promise((r) => setTimeout(r, 5000));
    const warmRss = rssMb(warm.child.pid!);
    await warm.stop();
    const pgUrl = await recreateDatabase('chp_bench_start');
    const onPg = await startServer({ DATABASE_URL: pgUrl });
    await new Promise((r) => setTimeout(r, 5000));
    const pgRss = rssMb(onPg.child.pid!);
    await onPg.stop();
    return [
      `| npm start, embedded, empty data folder (migrate + seed) | ${Math.round(cold.readyMs)} ms | ${coldRss} MB |`,
      `| npm start, embedded, existing data folder | ${Math.round(warm.readyMs)} ms | ${warmRss} MB |`,
      `| npm start, PostgreSQL, empty database | ${Math.round(onPg.readyMs)} ms | ${pgRss} MB |`,
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sections: { title: string; header: string[]; run: () => Promise<string[]> }[] = [
  {
    title: `Lookup throughput (${CONNECTIONS} connections, ${DURATION} s each)`,
    header: ['| target | req/s | p50 ms | p99 ms | errors |', '|---|---|---|---|---|'],
    run: lookupVsBare,
  },
  {
    title: 'Start-up to ready and idle memory (RSS 5 s after ready)',
    header: ['| case | time to ready | idle RSS |', '|---|---|---|'],
    run: startupAndMemory,
  },
];

// Other benchmarks register themselves in bench/*.bench.ts and export `section`.
const extra = (await import('node:fs')).readdirSync(path.dirname(new URL(import.meta.url).pathname)).filter((f) => f.endsWith('.bench.ts'));
for (const file of extra.sort()) {
  const mod = (await import(`./${file}`)) as { section: (typeof sections)[number] };
  sections.push(mod.section);
}

const only = process.argv.slice(2);
console.log(`# Benchmarks\n\nMachine: ${machine()}\nDate: ${new Date().toISOString()}\n`);
for (const s of sections) {
  if (only.length > 0 && !only.some((o) => s.title.toLowerCase().includes(o.toLowerCase()))) continue;
  const rows = await s.run();
  console.log(`## ${s.title}\n\n${[...s.header, ...rows].join('\n')}\n`);
}
process.exit(0);
