/* global process, console, performance */
// `npm start`: runs the compiled server. src/ is bundled to dist/server.js with esbuild (the one tsx
// brings along, so nothing extra is installed) whenever a source file is newer than the bundle,
// which takes a fraction of a second; loading one JavaScript file then saves the seconds tsx spends
// compiling every module at each start. Without esbuild it falls back to tsx.
//
//   node scripts/start.mjs            build when stale, then run the server in this process
//   node scripts/start.mjs --build    only build
//   node scripts/start.mjs --prepare  build, then the embedded database's template (npm install's
//                                     postinstall: the first `npm start` then starts in seconds)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildConsoleInBackground } from './build-console.mjs';
import { externals, loadEsbuild } from './esbuild.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'src/server.ts');
const bundle = path.join(root, 'dist/server.js');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = statSync(full);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(full) : st.mtimeMs);
  }
  return newest;
}

function stale() {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  const inputs = [newestMtime(path.join(root, 'src')), ...['package.json', 'package-lock.json', 'tsconfig.json'].map((f) => (existsSync(path.join(root, f)) ? statSync(path.join(root, f)).mtimeMs : 0))];
  return inputs.some((m) => m > built);
}

/** true when dist/server.js is current (built now or before). */
function build() {
  if (!stale()) return true;
  let esbuild;
  try {
    esbuild = loadEsbuild();
  } catch {
    return false;
  }
  const result = esbuild.buildSync({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages stay in node_modules and load from there, but for the INLINED ones (esbuild.mjs).
    external: externals(root),
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  // Each file replaced whole: a server starting meanwhile reads the old bundle or the new one.
  mkdirSync(path.dirname(bundle), { recursive: true });
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  return true;
}

/**
 * The embedded database's template (src/platform/db/embedded-template.ts), built by the server's
 * entry point in a process of its own. Never fails the install: a start without a template builds
 * one itself. Skipped when DATABASE_URL names a PostgreSQL server (no embedded database then).
 */
function prepareTemplate(compiled) {
  if (process.env.DATABASE_URL?.startsWith('postgres')) return;
  const runner = compiled ? [bundle] : ['--import', 'tsx', entry];
  const started = performance.now();
  // the builder's V8 flags: BUILDER_V8_FLAGS in embedded-template.ts
  const r = spawnSync(process.execPath, ['--liftoff-only', ...runner, '--build-embedded-template'], { cwd: root, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) console.warn(`The embedded database's template was not built (${r.status ?? r.signal ?? r.error?.message}); the first \`npm start\` will build it.`);
  else console.log(`Embedded database template ready in ${seconds} s (.cache/): a new data folder starts as a copy of it.`);
}

const onlyBuild = process.argv.includes('--build');
let compiled;
try {
  compiled = build();
} catch (err) {
  if (!process.argv.includes('--prepare')) throw err;
  console.warn(`src/ not compiled: ${err.message}`);
  compiled = false;
}
if (process.argv.includes('--prepare')) {
  prepareTemplate(compiled);
} else if (onlyBuild) {
  if (!compiled) {
    console.error('esbuild not found (it comes with tsx)');
    process.exit(1);
  }
} else {
  // the web console is rebuilt beside the server when its sources changed (scripts/build-console.mjs)
  await buildConsoleInBackground();
  if (compiled) {
    process.setSourceMapsEnabled(true);
    await import(pathToFileURL(bundle).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    // the embedded template builder re-runs the entry point as a child process with these flags
    process.execArgv.push('--import', 'tsx');
    await import(pathToFileURL(entry).href);
  }
}
