import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
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
  /** CPU time of the whole process group until ready */
  readyCpuMs: number;
  stop(): Promise<void>;
}

function procStat(pid: string | number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/** The server process of a running `npm start`: the descendant of npm that runs scripts/start.mjs. */
function serverPid(npmPid: number): number {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const parentOf = new Map(all.map((d) => [Number(d), Number(procStat(d)?.[1] ?? 0)]));
  const isDescendant = (pid: number) => {
    for (let p = parentOf.get(pid); p; p = parentOf.get(p)) if (p === npmPid) return true;
    return false;
  };
  for (const [pid] of parentOf) {
    if (!isDescendant(pid)) continue;
    try {
      // node itself, not the shell npm runs it through (whose command line names the script too)
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'node' && argv.includes('scripts/start.mjs')) return pid;
    } catch {
      // gone
    }
  }
  return npmPid;
}

/**
 * CPU time (user + system, ms) used so far by a process group: the live processes and the
 * children they have reaped (npm, its shell, esbuild, the template builder): what a start cost
 * whatever else the machine is doing.
 */
export function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const f = procStat(d);
    if (!f || Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks * 10;
}

/** Starts the service as a newcomer does (`npm start`) and waits until /readyz answers 200. */
export async function startServer(env: Record<string, string | undefined>, cwd?: string): Promise<RunningServer> {
  return startProcess('npm', ['start', '--silent'], env, '/readyz', cwd);
}

/** Starts the bare Fastify + pg baseline (bench/bare-server.mjs) in a process of its own. */
export async function startBare(env: Record<string, string | undefined>): Promise<RunningServer> {
  return startProcess(process.execPath, ['bench/bare-server.mjs'], env, '/readyz');
}

async function startProcess(command: string, args: string[], env: Record<string, string | undefined>, readyPath: string, cwd?: string): Promise<RunningServer> {
  const port = await freePort();
  const started = performance.now();
  const fullEnv: Record<string, string | undefined> = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', COOKIE_SECURE: 'false', ...env };
  for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
  const child = spawn(command, args, { env: fullEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(cwd ? { cwd } : {}) });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`${base}${readyPath}`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyMs = performance.now() - started;
  const readyCpuMs = groupCpuMs(child.pid!);
  const pid = command === 'npm' ? serverPid(child.pid!) : child.pid!;
  return {
    child: Object.assign(child, { serverPid: pid }),
    base,
    readyMs,
    readyCpuMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        // the whole process group: npm, its shell and the server
        process.kill(-child.pid!, 'SIGTERM');
      }),
  };
}

/** The pid whose memory counts: the server itself, not npm in front of it. */
export function pidOf(s: RunningServer): number {
  return (s.child as ChildProcess & { serverPid: number }).serverPid;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

export async function load(
  url: string,
  opts: { connections?: number; duration?: number; method?: string; body?: string; headers?: Record<string, string>; bodies?: () => string } = {},
): Promise<LoadResult> {
  const next = opts.bodies;
  const r = await autocannon({
    ...(next ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: next() }) }] } : {}),
    url,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? 10,
    method: (opts.method ?? 'GET') as 'GET',
    ...(opts.body ? { body: opts.body } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, total: r.requests.total };
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}
