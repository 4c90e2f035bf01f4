/* global process, console */
// Builds the web console (console/) into dist/console with Vite, when a source is newer than the
// build. `npm install` runs it (the `prepare` script), so a fresh clone starts with the console
// ready; `npm start` runs it in a child process beside the server when the sources changed, and
// the server answers the console's paths with the previous build (or a "being built" page) until
// the new one is in place. The build goes to dist/console-next and is then moved into place, so
// a request never sees half a build.
//
//   node scripts/build-console.mjs           build when stale
//   node scripts/build-console.mjs --force   build anyway
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'console');
const out = path.join(root, 'dist/console');
const next = path.join(root, 'dist/console-next');

function newestMtime(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

/** true when dist/console is missing or older than a source of the console or the lock file. */
export function consoleStale() {
  const built = path.join(out, 'index.html');
  if (!existsSync(built)) return true;
  const inputs = [newestMtime(sources), statSync(path.join(root, 'package-lock.json')).mtimeMs];
  return inputs.some((m) => m > statSync(built).mtimeMs);
}

export async function buildConsole() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.warn('console: vite is not installed (npm install without --omit=dev builds it); serving the API only');
    return false;
  }
  const started = Date.now();
  rmSync(next, { recursive: true, force: true });
  await vite.build({ configFile: path.join(sources, 'vite.config.ts'), logLevel: 'warn', build: { outDir: next, emptyOutDir: true } });
  rmSync(`${out}-old`, { recursive: true, force: true });
  if (existsSync(out)) renameSync(out, `${out}-old`);
  renameSync(next, out);
  rmSync(`${out}-old`, { recursive: true, force: true });
  console.log(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--force') || consoleStale()) {
    await buildConsole().catch((err) => {
      console.error(`console: build failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    });
  }
}

/**
 * For `npm start`: when the console's sources changed since its build, builds it in a child
 * process and returns at once, so the API's start-up does not wait for it.
 */
export async function buildConsoleInBackground() {
  if (/^(0|false|no|off)$/i.test(process.env.CONSOLE ?? '') || !consoleStale()) return;
  const [{ spawn }, os] = await Promise.all([import('node:child_process'), import('node:os')]);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: 'inherit', env: process.env });
  // the API's start-up comes first: the build gets what CPU is left
  try {
    os.setPriority(child.pid, 10);
  } catch {
    // not permitted here: it builds at normal priority
  }
  child.unref();
}
