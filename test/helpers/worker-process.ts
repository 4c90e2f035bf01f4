import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, type TestApp } from './app.js';
import { nodeEntry } from './node-entry.js';

/**
 * Another worker process of the deployment on the test app's PostgreSQL database, with the same
 * keys and its own system clock (test/helpers/worker-main.ts); resolves once it says it is ready.
 */
export async function startWorkerProcess(t: TestApp, env: Record<string, string> = {}): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./worker-main.ts', import.meta.url));
  const proc = spawn(process.execPath, nodeEntry(script), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-worker-')),
      DATABASE_URL: t.database!.url,
      JWT_SECRET: t.container.config.jwtSecret,
      ENCRYPTION_KEY: t.container.config.encryptionKey.toString('hex'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await eventually(async () => {
    if (proc.exitCode !== null) throw new Error(`worker exited: ${out}`);
    return out.includes('worker ready');
  }, 60_000);
  return proc;
}
