import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './helpers/app.js';
import { nodeEntry } from './helpers/node-entry.js';

/** `npm start` as a newcomer runs it: embedded database under DATA_DIR, nothing else set. */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
}

async function startServer(dataDir: string): Promise<Started> {
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' } as Record<string, string>;
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const child = spawn(process.execPath, nodeEntry('src/server.ts'), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!out.includes('"msg":"ready')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`server not ready: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base: `http://127.0.0.1:${port}`, output: () => out };
}

async function stop(s: Started): Promise<number | null> {
  s.child.kill('SIGTERM');
  return new Promise((resolve) => s.child.once('exit', (code) => resolve(code)));
}

describe('embedded database (the npm start default)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chp-embedded-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('serves docs and lookups, keeps its data and ids across a restart, stops cleanly', async () => {
    const first = await startServer(dataDir);
    let city: unknown;
    try {
      const ready = await (await fetch(`${first.base}/readyz`)).json();
      assert.equal(ready.database, 'pglite');
      const docs = await fetch(`${first.base}/docs/`);
      assert.equal(docs.status, 200);
      const cities = await (await fetch(`${first.base}/api/lookup/city?province_id=11`)).json();
      assert.equal(cities.data.length, 23);
      city = cities.data.find((c: any) => c.name === 'Kabupaten Aceh Selatan');
      assert.deepEqual(city, { id: 1101, province_id: 11, name: 'Kabupaten Aceh Selatan' });
      const bad = await fetch(`${first.base}/api/lookup/city`);
      assert.equal(bad.status, 400);
    } finally {
      assert.equal(await stop(first), 0);
    }
    assert.match(first.output(), /"msg":"stopped"/);

    const second = await startServer(dataDir);
    try {
      const cities = await (await fetch(`${second.base}/api/lookup/city?province_id=11`)).json();
      assert.deepEqual(cities.data.find((c: any) => c.id === 1101), city);
    } finally {
      assert.equal(await stop(second), 0);
    }
  });

  test('in-flight requests finish when the server is closed', async () => {
    let started!: () => void;
    const inHandler = new Promise<void>((r) => (started = r));
    const t = await buildTestApp({
      db: 'embedded',
      worker: false,
      extend: (app: FastifyInstance) => {
        app.get('/_test/slow', async () => {
          started();
          await new Promise((r) => setTimeout(r, 500));
          return { message: 'done', data: null };
        });
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const pending = fetch(`http://127.0.0.1:${port}/_test/slow`);
    await inHandler;
    const closing = t.close();
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('connection'), 'close', 'an answer finished while closing ends its keep-alive connection, so close() does not wait for it to time out');
    assert.deepEqual(await res.json(), { message: 'done', data: null });
    await closing;
  });
});
