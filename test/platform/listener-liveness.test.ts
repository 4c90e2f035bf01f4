import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { postgresOnly, TEST_SERVER_URL } from '../helpers/database.js';

/**
 * A listening connection that goes silent without being closed (a network partition, a failover
 * that sends no reset) must be noticed like one that ends: until it is, the settings cache of the
 * process is never dropped and a change of the maintenance flag never reaches it. PostgreSQL only
 * (the embedded database has no connection to lose).
 */

/** A TCP relay in front of PostgreSQL whose open connections can be frozen: bytes stop, nothing closes. */
function relay(target: URL) {
  const pairs: { client: net.Socket; server: net.Socket }[] = [];
  const held: { client: net.Socket; server: net.Socket }[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    pairs.push({ client, server: upstream });
  });
  return {
    async start(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as net.AddressInfo).port;
    },
    /** Every connection open now stops carrying bytes both ways, and none is closed. */
    freeze(): number {
      const frozen = pairs.splice(0);
      for (const p of frozen) {
        p.client.unpipe(p.server);
        p.server.unpipe(p.client);
        p.client.pause();
        p.server.pause();
        held.push(p);
      }
      return frozen.length;
    },
    async close(): Promise<void> {
      for (const p of [...pairs, ...held]) {
        p.client.destroy();
        p.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
/** Resolves when `fire` is called; rejects (naming `what`) if that takes longer than `ms`. */
function signal(what: string, ms: number) {
  let fire: () => void = () => undefined;
  const fired = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    fire = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  // awaited below; a test that failed earlier leaves it unawaited
  fired.catch(() => undefined);
  return { fire, fired };
}

describe('the PostgreSQL listening connection', postgresOnly('the listening connection of the PostgreSQL pool'), () => {
  const target = new URL(TEST_SERVER_URL);
  const proxy = relay(target);
  let db: DatabaseHandle;
  before(async () => {
    const port = await proxy.start();
    const url = new URL(TEST_SERVER_URL);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    db = await openDatabase({ url: url.toString(), dataDir: mkdtempSync(path.join(tmpdir(), 'listener-')), waitMs: 2000, log: pino({ level: 'silent' }), listenerHeartbeatMs: 100 });
  });
  after(async () => {
    await proxy.close();
    await db.close();
  });

  test('gone silent is noticed as lost: the hooks hear it, a new connection listens, and notifications arrive again', async () => {
    const lost = signal('onLost', 5000);
    const restored = signal('onRestored', 5000);
    const arrived = signal('the notification sent after the return', 5000);
    const channel = `liveness_${process.pid}`;
    const unlisten = await db.listen(channel, (payload) => payload === 'after' && arrived.fire(), { onLost: lost.fire, onRestored: restored.fire });

    assert.ok(proxy.freeze() >= 1, 'the listening connection goes through the relay');
    await lost.fired;
    await restored.fired;

    // sent from a connection of its own, not through the relay
    const sender = new pg.Client({ connectionString: TEST_SERVER_URL });
    await sender.connect();
    try {
      await sender.query('SELECT pg_notify($1, $2)', [channel, 'after']);
      await arrived.fired;
    } finally {
      await sender.end();
    }
    await unlisten();
  });
});
