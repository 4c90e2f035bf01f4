// A newcomer's first start: `git clone` of this repository into a temporary folder, `npm ci` (its
// postinstall builds the bundle and the embedded database's template), then `npm start` with
// nothing configured (the embedded database under the clone's ./data), time to the first 200 from
// /readyz; then the same data folder started again, BENCH_STARTS times. npm ci's figure includes
// downloading or unpacking the packages, which depends on npm's cache.
//
//   npm run bench -- clone [--write]
//   BENCH_CLONE_REF: the commit to clone (default HEAD: commit what you want measured);
//   BENCH_STARTS (3): later starts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBare, startServer } from './lib.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const REF = process.env.BENCH_CLONE_REF ?? 'HEAD';
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
/**
 * A newcomer's shell: nothing of ours configured, and none of the npm_* variables that `npm run
 * bench` passes down (npm_config_engine_strict from this checkout's .npmrc, say).
 */
const NPM_VARS = Object.fromEntries(Object.keys(process.env).filter((k) => k.toLowerCase().startsWith('npm_')).map((k) => [k, undefined]));
const NEWCOMER = { ...NPM_VARS, DATABASE_URL: undefined, NODE_ENV: undefined, DATA_DIR: undefined, LOG_LEVEL: 'warn' };

/** Runs a shell command in `cwd`; wall and CPU seconds (user + system of it and its children, from bash's `time`), and its output. */
function timed(command: string, cwd: string, log: string): { wall: number; cpu: number; out: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, TIMEFORMAT: '%R %U %S', CHP_BENCH_LOG: log };
  for (const k of [...Object.keys(NPM_VARS), 'DATABASE_URL']) delete env[k];
  // bash writes the `time` line after the command's own output, into the same file
  const r = spawnSync('bash', ['-c', `time (${command}) >"$CHP_BENCH_LOG" 2>&1`], { cwd, env, encoding: 'utf8' });
  const out = readFileSync(log, 'utf8');
  if (r.status !== 0) throw new Error(`${command} failed (${r.status}): ${out.slice(-2000)}`);
  const [wall, user, sys] = out.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall: wall!, cpu: user! + sys!, out };
}

async function main(): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chp-clone-'));
  const clone = path.join(dir, 'repo');
  try {
    const commit = spawnSync('git', ['rev-parse', '--short', REF], { cwd: root, encoding: 'utf8' }).stdout.trim();
    const cloned = spawnSync('git', ['clone', '--quiet', '--no-checkout', root, clone]);
    if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
    spawnSync('git', ['checkout', '--quiet', commit], { cwd: clone });
    const ci = timed('npm ci --no-audit --no-fund', clone, path.join(dir, 'npm-ci.log'));
    const first = await startServer(NEWCOMER, clone);
    await first.stop();
    const later: { ms: number; cpu: number }[] = [];
    const bare: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < STARTS; i++) {
      const s = await startServer(NEWCOMER, clone);
      later.push({ ms: s.readyMs, cpu: s.readyCpuMs });
      await s.stop();
      // the floor, in the same minutes: how fast this machine starts a bare Fastify + pg server now
      const b = await startBare({});
      bare.push({ ms: b.readyMs, cpu: b.readyCpuMs });
      await b.stop();
    }
    const sec = (ms: number) => (ms / 1000).toFixed(2);
    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const median = mid(later.map((r) => r.ms));
    const medianCpu = mid(later.map((r) => r.cpu));
    return [
      `| \`git clone\` of ${commit}, \`npm ci\` (packages and postinstall) | ${ci.wall.toFixed(2)} s | ${ci.cpu.toFixed(2)} s | |`,
      `| … of which the postinstall's template build (as it reports it) | ${/template ready in ([\d.]+) s/.exec(ci.out)?.[1] ?? '–'} s | | |`,
      `| first \`npm start\` of the clone (new data folder) | **${sec(first.readyMs)} s** | ${sec(first.readyCpuMs)} s | ≤ 5 s |`,
      `| later \`npm start\`, same data folder (median of ${STARTS}) | **${sec(median)} s** (${later.map((r) => sec(r.ms)).join(', ')}) | ${sec(medianCpu)} s | ≤ 2 s |`,
      `| \`npm ci\` + first \`npm start\` | ${(ci.wall + first.readyMs / 1000).toFixed(2)} s | ${(ci.cpu + first.readyCpuMs / 1000).toFixed(2)} s | |`,
      `| bare Fastify 5 + pg (\`node bench/bare-server.mjs\`), same minutes (median of ${STARTS}) | ${sec(mid(bare.map((r) => r.ms)))} s (${bare.map((r) => sec(r.ms)).join(', ')}) | ${sec(mid(bare.map((r) => r.cpu)))} s | the floor |`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const section = {
  title: 'A fresh clone: npm ci, first and later npm start (embedded database)',
  marker: 'FRESH-CLONE',
  header: ['| step | wall time | CPU time (all processes) | target |', '|---|---|---|---|'],
  run: main,
};
