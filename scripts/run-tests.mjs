/* global process, console */
// Runs every *.test.ts under test/ and src/ with node's test runner, the short ones several to a
// process (see groups below). Its summary is the last thing printed and its exit code covers every
// file.
//
// The test files are bundled first, with esbuild and code splitting, into JavaScript under
// .cache/test-build/ (as scripts/start.mjs bundles the server): the application code is shared by
// all files in a few chunks, so each file's process loads plain JavaScript instead of compiling
// every module through tsx (about 4 CPU seconds a process before, under one after). Each module
// still sees its own source file as import.meta.url / dirname / filename, and stack traces point
// into the TypeScript sources (source maps).
//
// Every test runs on PostgreSQL, where a query that bypasses the open transaction of its own
// context fails loudly (platform/db/strict.ts): the embedded database's one-connection hang is
// caught on every route that way. The suites of EMBEDDED_TWINS, whose code takes a path of its own
// on the embedded database, run a second time on it (PGlite): a group or a one-line twin file sets
// TEST_DB and loads the suite, so one runner, one summary and one exit code cover both databases.
//
// The suites that mostly wait (real guests under QEMU, Ceph, Chromium) and the longest ones start
// first, so they run alongside the rest instead of after it.
//
//   node scripts/run-tests.mjs [part of a file name ...] [--embedded-only | --postgres-only] [--test-name-pattern=…]
//   TEST_CONCURRENCY (default 4): processes (files or groups) run at once
//   TEST_GROUP_BYTES (default 60000): test source per group; 0 runs every file in a process of its own
//   TEST_AUTOGROUP_NICE (default 10): the run's priority against QEMU's guests and PostgreSQL (below)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { externals, loadEsbuild } from './esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const args = process.argv.slice(2);
const embeddedOnly = args.includes('--embedded-only');
const postgresOnly = args.includes('--postgres-only');
const filters = args.filter((a) => !a.startsWith('--'));
// node's own test flags go to it as they are (--test-name-pattern=…, --test-only, …)
const testFlags = args.filter((a) => a.startsWith('--test-'));

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

/**
 * The suites that also run on the embedded database, and why: what they test goes through code of
 * the embedded database's own (its driver's types and errors, its one connection, the job queue's
 * and the notifications' adapters, its template), or, for the fuzz suite, every route once.
 */
const EMBEDDED_TWINS = new Map([
  ['test/platform/database-busy.test.ts', 'the wait for the one connection, 503 and /readyz'],
  ['test/platform/transaction-bypass.test.ts', 'the same bug answered by each database'],
  ['test/platform/database-errors.test.ts', "the driver's errors mapped to answers"],
  ['test/platform/dates.test.ts', "the driver's timestamps"],
  ['test/wallet/exact-money.test.ts', "the driver's NUMERIC and BIGINT values"],
  ['test/auth/sessions.test.ts', 'the prepared reads of every authenticated request'],
  ['test/api-tokens/rate-limits.test.ts', "a token's read beside the counting of its limits, hits counted together"],
  ['test/jobs/jobs.test.ts', "the job queue's adapter and its one worker"],
  ['test/jobs/schedules-fire.test.ts', 'schedules fired through the adapter'],
  ['test/tickets/stream.test.ts', 'LISTEN/NOTIFY inside the process'],
  ['test/settings/settings.test.ts', "the settings cache dropped by a notification"],
  ['test/billing/credit-batches.test.ts', 'top-ups credited by batched jobs woken by pg_notify'],
  ['test/platform/lifecycle.test.ts', 'leases, attempts and sweeps of durable work'],
  ['test/webhooks/delivery.test.ts', 'deliveries leased and retried by jobs'],
  ['test/retention/retention.test.ts', 'partitions created and dropped'],
  ['test/metrics/metrics.test.ts', 'metric partitions made by their writers and dropped, roll-ups on the one connection'],
  ['test/platform/no-5xx-fuzz.test.ts', 'every route of the API once on the embedded database'],
  ['test/compute/vm-suspension-in-flight.test.ts', 'a suspension and the VM jobs in flight, one transaction at a time on the one connection'],
  ['test/compute/vm-console.test.ts', 'a console ticket used once, also by two upgrades at once, on the one connection'],
]);

const gone = [...EMBEDDED_TWINS.keys()].filter((f) => !existsSync(path.join(root, f)));
if (gone.length > 0) {
  console.error(`EMBEDDED_TWINS names suites that are not there: ${gone.join(', ')}`);
  process.exit(1);
}

let files = ['test', 'src'].flatMap((d) => collect(d)).sort();
if (filters.length > 0) files = files.filter((f) => filters.some((x) => f.includes(x)));
const posix = (f) => f.split(path.sep).join('/');
const twinned = postgresOnly ? [] : files.filter((f) => EMBEDDED_TWINS.has(posix(f)));
if (embeddedOnly) files = twinned;
if (files.length === 0) {
  console.error(embeddedOnly ? 'no suite of EMBEDDED_TWINS matches' : 'no test files found');
  process.exit(1);
}

/**
 * Suites that spend their time waiting for something outside this process (QEMU guests, Ceph,
 * Chromium) and the long ones: started first, so they overlap with the rest.
 */
const WAITING = [/\/libvirt\/guest/, /\/real-/, /radosgw/, /test\/console\/(?!api-types)/, /no-5xx-fuzz/, /permission-matrix/];
const waits = (f) => WAITING.some((re) => re.test(posix(f)));
/**
 * The order the waiting suites start in: the two longest first, the real image's three boots and
 * the CPU alert on a real guest (ten minutes of its schedules), then the files that stop libvirtd.
 * The real-guest files share libvirt through a lock (withLibvirtLock): the ones that stop libvirtd
 * hold it exclusively for a moment, and while one waits for it every other file's next step waits
 * too, so those are done early, one after another in one process, while the two long files wait
 * on their guests. Meanwhile the suites that keep a core busy (the embedded twins, the fuzz suite,
 * the permission matrix) use the cores that the ones waiting on guests and on the lock leave idle.
 */
const FIRST = [/real-guests-debian/, /real-guest-alerts/, /libvirt\/guest-faults|libvirt\/guest-snapshots|compute\/real-guests\.test/, /no-5xx-fuzz|permission-matrix/];
const rank = (f) => {
  const i = FIRST.findIndex((re) => re.test(posix(f)));
  if (i >= 0) return `0-${i}`;
  return waits(f) ? '1-waiting' : '2';
};
/** The rank of the suites that keep a core busy: the embedded twins' groups start with them. */
const BUSY_RANK = `0-${FIRST.length - 1}`;

/** Entries the tests start as child processes: bundled too, into spawned/ (test/helpers/node-entry.ts). */
const SPAWNED = ['test/helpers/worker-main.ts', 'scripts/run-job.ts', 'scripts/admin-create.ts', 'src/server.ts', 'src/integrations/datacenter/libvirt/interrupted-create.fixture.ts'];

// Each run builds into a folder of its own, so two runs in one checkout do not delete each other's
// files; folders of runs that are gone are removed.
const buildRoot = path.join(root, '.cache', 'test-build');
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};
for (const name of existsSync(buildRoot) ? readdirSync(buildRoot) : []) {
  if (!/^\d+$/.test(name) || !alive(Number(name))) rmSync(path.join(buildRoot, name), { recursive: true, force: true });
}
rmSync(path.join(root, '.test-embedded'), { recursive: true, force: true });
const buildDir = path.join(buildRoot, String(process.pid));
const cleanUp = () => rmSync(buildDir, { recursive: true, force: true });

/** import.meta of a bundled module names the chunk it ended up in: give each module its own file back. */
const sourceImportMeta = {
  name: 'source-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta')) return { contents: text, loader: 'ts' };
      return {
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path)),
        loader: 'ts',
      };
    });
  },
};

// the files start in the order of their paths (sorted below): FIRST, the waiting ones, the rest
const outputName = (f) => path.join(rank(f), f.replace(/\.ts$/, ''));
const outputOf = (f) => path.join(buildDir, `${outputName(f)}.js`);

/**
 * The short suites run several to a process, one after another: a process pays about a CPU second
 * to load the application and warm it up, and three more for its first embedded database. A group
 * is an entry of its own that evaluates each file inside a suite named after it (a `require`, which
 * esbuild turns into a synchronous call), so the tests and the top-level hooks of a file belong to
 * that suite and to nothing else, as in a process of its own. A group holds about GROUP_BYTES of
 * test source, a rough measure of its tests. Grouped: the suites that start last, the embedded
 * twins but the fuzz suite's, the browser tests but the real guests', and the three files that
 * stop libvirtd (all in one); every other suite of FIRST and WAITING runs alone.
 * TEST_GROUP_BYTES=0 runs every file alone.
 */
const GROUP_BYTES = Number(process.env.TEST_GROUP_BYTES ?? 60_000);
const groupOf = (f) => {
  if (GROUP_BYTES <= 0) return null;
  if (rank(f) === '2') return 'postgres';
  if (rank(f) === '0-2') return 'libvirt-stops';
  if (rank(f) === '1-waiting' && /^test\/console\//.test(posix(f)) && !/\/real-|-real-/.test(posix(f))) return 'console';
  return null;
};
/** How much test source a group of each kind holds (the files that stop libvirtd: all in one). */
const GROUP_LIMIT = { 'libvirt-stops': Infinity, embedded: GROUP_BYTES, console: GROUP_BYTES, postgres: GROUP_BYTES };
const groupSources = path.join(buildDir, 'group-sources');
function groups(kind, members) {
  const chunks = [];
  let current = [];
  let bytes = 0;
  for (const f of members) {
    current.push(f);
    bytes += statSync(f).size;
    if (bytes >= GROUP_LIMIT[kind]) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) chunks.push(current);
  mkdirSync(groupSources, { recursive: true });
  const label = (f) => (kind === 'embedded' ? `${posix(f)} (embedded database)` : posix(f));
  return chunks.map((chunk, i) => {
    const name = `group-${kind}-${String(i + 1).padStart(2, '0')}.test`;
    const source = path.join(groupSources, `${name}.js`);
    const lines = [`import { describe } from 'node:test';`];
    if (kind === 'embedded') lines.push(`process.env.TEST_DB = 'embedded';`);
    for (const f of chunk) lines.push(`describe(${JSON.stringify(label(f))}, () => {\n  require(${JSON.stringify(path.resolve(f))});\n});`);
    writeFileSync(source, `${lines.join('\n')}\n`);
    // a group starts where its files would; the embedded twins' with the suites that keep a core busy
    const out = path.join(kind === 'embedded' ? BUSY_RANK : rank(chunk[0]), name);
    return { in: source, out, run: path.join(buildDir, `${out}.js`) };
  });
}
const single = embeddedOnly ? [] : files.filter((f) => groupOf(f) === null);
const grouped = embeddedOnly ? [] : ['libvirt-stops', 'console', 'postgres'].flatMap((kind) => groups(kind, files.filter((f) => groupOf(f) === kind)));
const twinAlone = (f) => GROUP_BYTES <= 0 || rank(f) !== '2';
grouped.push(...groups('embedded', twinned.filter((f) => !twinAlone(f))));
try {
  const result = await loadEsbuild().build({
    entryPoints: [
      ...[...new Set([...single, ...twinned.filter(twinAlone)])].map((f) => ({ in: f, out: outputName(f) })),
      ...grouped.map(({ in: source, out }) => ({ in: source, out })),
      ...SPAWNED.map((f) => ({ in: f, out: path.join('spawned', f.replace(/\.ts$/, '')) })),
    ],
    outdir: buildDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externals(root, { dev: true }),
    sourcemap: 'linked',
    plugins: [sourceImportMeta],
    logLevel: 'warning',
  });
  if (result.errors.length > 0) throw new Error('the test files do not build');
} catch (err) {
  cleanUp();
  console.error(err.message);
  process.exit(1);
}

const runs = [...single.map(outputOf), ...grouped.map((g) => g.run)];
for (const f of twinned.filter(twinAlone)) {
  const twin = outputOf(f).replace(/\.test\.js$/, '.embedded.test.js');
  writeFileSync(twin, `process.env.TEST_DB = 'embedded';\nawait import(${JSON.stringify(`./${path.basename(outputOf(f))}`)});\n`);
  runs.push(twin);
}
runs.sort();

// The browser tests (test/console/, and the real guest's graphs in test/metrics/) load the built
// console: build it once here, when stale.
const BROWSER = [/test\/console\//, /test\/metrics\/real-guests-metrics/];
if (files.some((f) => BROWSER.some((re) => re.test(posix(f))))) {
  const { buildConsole, consoleStale } = await import('./build-console.mjs');
  if (consoleStale() && !(await buildConsole())) {
    cleanUp();
    process.exit(1);
  }
}

// Four processes at once on CI's two cores. Six kept the cores busier but made every part slower:
// the run took longer and used more CPU, the guests' QEMU processes a quarter more.
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
// The kernel shares the cores between sessions first (autogroup): each QEMU guest and each
// PostgreSQL backend is a session of its own, and this run is one. A guest short of CPU boots
// slower and costs more CPU in all, and the suites waiting on it hold their slots longer, so this
// session gives way to the others: its autogroup's nice value, which leaves the nice values of its
// processes as they are (Linux only; nothing changes where it cannot be set).
try {
  writeFileSync('/proc/self/autogroup', process.env.TEST_AUTOGROUP_NICE ?? '10');
} catch {
  // not Linux, or autogroup is off
}
// node's runner gives each test, and each test file as a whole, this limit: the real-image suite
// (test/compute/real-guests-debian.test.ts) boots a real OS three times under TCG (create, resize,
// rebuild), two to four minutes a boot on a loaded machine plus two shutdowns, so a file gets 20 minutes
const TEST_TIMEOUT_MS = 1_200_000;
const child = spawn(
  process.execPath,
  ['--enable-source-maps', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${TEST_TIMEOUT_MS}`, '--test-reporter=spec', ...testFlags, ...runs],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      TEST_DB: 'postgres',
      TEST_SPAWN_DIR: path.join(buildDir, 'spawned'),
      // Node 22 and later keep the compiled code of the chunks for the run's other processes (Node
      // 20 ignores it); its entries are keyed by path, so it goes with the run's build
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(buildDir, 'compile-cache'),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 1 : 0));
});
