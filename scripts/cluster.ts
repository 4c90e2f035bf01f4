// `npm run cluster`: N API processes and M worker processes of this checkout on one PostgreSQL
// database, behind a round-robin HTTP proxy: the shape of a deployment on several machines, on
// one. The processes share nothing but the database and their configuration (the same secrets).
//
//   DATABASE_URL=postgres://… JWT_SECRET=… ENCRYPTION_KEY=… npm run cluster -- --api 2 --worker 1 --port 8080
//
// Without JWT_SECRET or ENCRYPTION_KEY it makes one for this run and gives it to every process
// (sessions and encrypted columns then do not outlive the run). Ctrl-C stops every process.
// test/cluster/cluster.test.ts starts one with startCluster().
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ClusterOptions {
  /** API processes (ROLE=api), at least 1 */
  apis: number;
  /** worker processes (ROLE=worker) */
  workers: number;
  /** a PostgreSQL URL: the one thing the processes share */
  databaseUrl: string;
  /** environment of every process (JWT_SECRET, ENCRYPTION_KEY, …), over this process's own */
  env?: Record<string, string>;
  /** the proxy's port (0: a free one) */
  port?: number;
  host?: string;
  /** each line a process prints, with its name (api-1, worker-1); default: kept for error messages only */
  output?: (name: string, line: string) => void;
}

export interface ClusterProcess {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  /** an API process's own address (the proxy spreads requests over these) */
  url?: string;
  /** How many lines the process has printed so far: a mark for waitForLine. */
  linesPrinted(): number;
  /** Resolves with the first line printed after the first `since` lines that matches `match`. */
  waitForLine(match: RegExp, since: number, timeoutMs?: number): Promise<string>;
}

export interface Cluster {
  /** the proxy: requests go to the API processes in turn */
  url: string;
  /** the API processes' own addresses, in order */
  apiUrls: string[];
  processes: ClusterProcess[];
  /** Kills every process (SIGTERM, SIGKILL after 5 s) and closes the proxy. */
  stop(): Promise<void>;
}

/** The response header naming the API process that answered (api-1, api-2, …). */
export const UPSTREAM_HEADER = 'x-cluster-upstream';

async function freePort(host: string): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The compiled server (dist/server.js, as `npm start` runs it), built here once when stale; tsx otherwise. */
function serverCommand(): string[] {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/start.mjs'), '--build'], { cwd: root, stdio: 'inherit' });
  return built.status === 0 ? ['--enable-source-maps', path.join(root, 'dist/server.js')] : ['--import', 'tsx', path.join(root, 'src/server.ts')];
}

function startProcess(name: string, role: 'api' | 'worker', command: string[], env: Record<string, string>, output: ClusterOptions['output']) {
  const child = spawn(process.execPath, command, { cwd: root, env: { ...process.env, ...env, ROLE: role }, stdio: ['ignore', 'pipe', 'pipe'] });
  /** the last lines printed (for error messages and waitForLine), and how many there were in all */
  const kept: string[] = [];
  let printed = 0;
  const waiters = new Set<(line: string, index: number) => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        output?.(name, line);
        kept.push(line);
        if (kept.length > 1000) kept.shift();
        printed++;
        for (const w of waiters) w(line, printed);
      }
    });
  }
  const tail = () => kept.slice(-50).join('\n');
  const waitForLine = (match: RegExp, since: number, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const seen = kept.slice(Math.max(0, kept.length - (printed - since))).find((l) => match.test(l));
      if (seen !== undefined) return resolve(seen);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        child.removeListener('exit', exited);
      };
      const waiter = (line: string) => {
        if (!match.test(line)) return;
        done();
        resolve(line);
      };
      const exited = (code: number | null, signal: string | null) => {
        done();
        reject(new Error(`${name} exited (${code ?? signal}) before it printed ${match}:\n${tail()}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${name} did not print ${match} within ${timeoutMs} ms:\n${tail()}`));
      }, timeoutMs);
      waiters.add(waiter);
      child.once('exit', exited);
    });
  return { child, waitForLine, linesPrinted: () => printed, whenReady: (timeoutMs: number) => waitForLine(/"msg":"ready: /, 0, timeoutMs).then(() => undefined) };
}

/** Headers about one connection, not the message: a proxy does not pass them on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

/**
 * A round-robin reverse proxy over `upstreams` with node:http: each request goes to the next API
 * process, streamed both ways (Server-Sent Events included), with X-Forwarded-For appended as a
 * real proxy does. A test harness, not a production balancer (no health checks, no retries).
 */
function roundRobinProxy(upstreams: { name: string; url: URL }[]): http.Server {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  return http.createServer((req, res) => {
    const target = upstreams[next++ % upstreams.length]!;
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      {
        agent,
        host: target.url.hostname,
        port: target.url.port,
        method: req.method,
        path: req.url,
        headers: { ...endToEnd(req.headers), 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host ?? '' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), [UPSTREAM_HEADER]: target.name });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json', [UPSTREAM_HEADER]: target.name }).end(JSON.stringify({ code: 'BAD_GATEWAY', message: `${target.name} did not answer` }));
      else res.destroy();
    });
    // a client that goes away (a closed event stream) closes its upstream request too
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  if (opts.apis < 1) throw new Error('a cluster needs at least one API process');
  if (!opts.databaseUrl.startsWith('postgres')) throw new Error('a cluster needs a PostgreSQL DATABASE_URL (the embedded database is one process)');
  const host = opts.host ?? '127.0.0.1';
  const command = serverCommand();
  const base: Record<string, string> = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-cluster-')),
    LOG_LEVEL: 'info',
    // the proxy connects from this address and appends the client's to X-Forwarded-For: the
    // per-IP limits count each client, not the proxy
    TRUST_PROXY: ['0.0.0.0', '::'].includes(host) ? '127.0.0.1,::1' : host,
    ...opts.env,
    DATABASE_URL: opts.databaseUrl,
    HOST: host,
  };
  const processes: ClusterProcess[] = [];
  let proxy: http.Server | undefined;
  // should this process end without stop() (an uncaught error), its children do not outlive it
  const killAll = () => {
    for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.removeListener('exit', killAll);
    await new Promise((resolve) => (proxy?.listening ? proxy.close(resolve) : resolve(undefined)));
    proxy?.closeAllConnections();
    await Promise.all(
      processes.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    const launch = async (role: 'api' | 'worker', n: number) => {
      const name = `${role}-${n}`;
      const env = { ...base };
      let url: string | undefined;
      if (role === 'api') {
        const port = await freePort(host);
        url = `http://${host}:${port}`;
        env.PORT = String(port);
      }
      const p = startProcess(name, role, command, env, opts.output);
      processes.push({ name, role, child: p.child, ...(url ? { url } : {}), linesPrinted: p.linesPrinted, waitForLine: p.waitForLine });
      return p.whenReady(120_000);
    };
    // The first process alone: on a new database it runs the migrations and seeds, once.
    await launch('api', 1);
    const rest: Promise<void>[] = [];
    for (let i = 2; i <= opts.apis; i++) rest.push(launch('api', i));
    for (let i = 1; i <= opts.workers; i++) rest.push(launch('worker', i));
    await Promise.all(rest);

    const apis = processes.filter((p) => p.role === 'api');
    proxy = roundRobinProxy(apis.map((p) => ({ name: p.name, url: new URL(p.url!) })));
    await new Promise<void>((resolve) => proxy!.listen(opts.port ?? 0, host, resolve));
    const { port } = proxy.address() as AddressInfo;
    return { url: `http://${host}:${port}`, apiUrls: apis.map((p) => p.url!), processes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { api: { type: 'string', default: '2' }, worker: { type: 'string', default: '1' }, port: { type: 'string', default: '8080' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl?.startsWith('postgres')) {
    console.error('DATABASE_URL must name a PostgreSQL database (postgres://user@host/db)');
    process.exit(1);
  }
  const env: Record<string, string> = {};
  for (const [name, bytes] of [['JWT_SECRET', 32], ['ENCRYPTION_KEY', 32]] as const) {
    if (process.env[name]) continue;
    env[name] = randomBytes(bytes).toString('hex');
    console.error(`${name} is not set: one made for this run is given to every process`);
  }
  const started = performance.now();
  const cluster = await startCluster({
    apis: Number(values.api),
    workers: Number(values.worker),
    databaseUrl,
    env,
    port: Number(values.port),
    host: values.host,
    output: (name, line) => console.log(`[${name}] ${line}`),
  });
  console.log(`cluster ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${cluster.url} → ${cluster.apiUrls.join(', ')}; ${values.worker} worker(s)`);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  for (const p of cluster.processes) {
    p.child.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(`${p.name} exited (${code ?? signal}): stopping the cluster`);
      shutdown();
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error('cluster failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
