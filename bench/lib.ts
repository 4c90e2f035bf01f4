import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';

export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function dbUrl(name: string): string {
  const u = new URL(SERVER_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function recreateDatabase(name: string): Promise<string> {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return dbUrl(name);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  base: string;
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts `src/server.ts` as `npm start` does and waits for its ready line. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', COOKIE_SECURE: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMs = performance.now() - started;
  return {
    child,
    base,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, opts: { connections?: number; duration?: number; method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const r = await autocannon({
    url,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? 10,
    method: (opts.method ?? 'GET') as 'GET',
    ...(opts.body ? { body: opts.body } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}
