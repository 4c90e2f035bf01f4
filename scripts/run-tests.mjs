/* global process, console */
// Runs every *.test.ts under test/ and src/ with node's test runner (Node 20's --test does not
// expand globs or pick up .ts files by itself). Its summary is the last thing printed.
//
// Every HTTP suite (a file that calls buildTestApp) runs twice in the same run: on PostgreSQL and
// on the embedded database (PGlite), unless it says `@single-database` with the reason. The embedded
// twin is a one-line file under .test-embedded/ that sets TEST_DB and imports the suite, so one
// runner, one summary and one exit code cover both databases.
//
//   node scripts/run-tests.mjs [part of a file name ...] [--embedded-only | --postgres-only]
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const embeddedOnly = args.includes('--embedded-only');
const postgresOnly = args.includes('--postgres-only');
const filters = args.filter((a) => !a.startsWith('--'));

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

let files = ['test', 'src'].flatMap((d) => collect(d)).sort();
if (filters.length > 0) files = files.filter((f) => filters.some((x) => f.includes(x)));

// Each run writes its twins into a folder of its own, so two runs in one checkout do not delete
// each other's files; folders of runs that are gone are removed.
const twinRoot = path.resolve('.test-embedded');
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
for (const name of (() => {
  try {
    return readdirSync(twinRoot);
  } catch {
    return [];
  }
})()) {
  if (!/^\d+$/.test(name) || !alive(Number(name))) rmSync(path.join(twinRoot, name), { recursive: true, force: true });
}
const twinDir = path.join(twinRoot, String(process.pid));
const runsOnBoth = (f) => {
  const text = readFileSync(f, 'utf8');
  return text.includes('buildTestApp(') && !text.includes('@single-database');
};
const twins = postgresOnly
  ? []
  : files.filter(runsOnBoth).map((f) => {
      mkdirSync(twinDir, { recursive: true });
      const twin = path.join(twinDir, `${f.replace(/[\\/]/g, '__').replace(/\.test\.ts$/, '')}.embedded.test.ts`);
      const target = path.resolve(f).replace(/\\/g, '/');
      writeFileSync(twin, `process.env.TEST_DB = 'embedded';\nawait import(${JSON.stringify(target)});\n`);
      return twin;
    });
if (embeddedOnly) files = [];
files = [...files, ...twins];
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

// The browser tests (test/console/) load the built console: build it once here, when stale.
if (files.some((f) => f.split(path.sep).join('/').includes('test/console/'))) {
  const { buildConsole, consoleStale } = await import('./build-console.mjs');
  if (consoleStale() && !(await buildConsole())) process.exit(1);
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', TEST_DB: 'postgres' } },
);
child.on('exit', (code, signal) => {
  rmSync(twinDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
