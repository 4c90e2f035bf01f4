import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DatabaseHandle } from '../../src/platform/db/database.js';
import { databaseBefore, type OldDatabase } from '../helpers/old-database.js';

/*
 * A database made before firewall rule types had a default port (every migration up to the one
 * before drizzle/0025_firewall_default_port.sql), holding the types a fresh database was seeded
 * with and a few of staff's own, then migrated as a start would: the seeded types get the port
 * their description names, staff's own types keep none.
 */
let db: DatabaseHandle;
let old: OldDatabase | undefined;

async function rows<T = Record<string, unknown>>(text: string): Promise<T[]> {
  return (await db.raw.executeSql(text)).rows as T[];
}

async function setUp(kind: 'postgres' | 'embedded'): Promise<void> {
  old = await databaseBefore(kind, '_firewall_default_port');
  db = old.db;
}

async function tearDown(): Promise<void> {
  await old?.close();
  old = undefined;
}

// Not an HTTP suite: it runs on both databases itself.
for (const kind of ['postgres', 'embedded'] as const)
  describe(`the default port of firewall rule types on a database made before it (${kind})`, () => {
    before(() => setUp(kind));
    after(tearDown);
    test('the seeded types get their well-known port; staff-made types and icmp/any keep none', async () => {
      await db.raw.executeSql(`
        insert into firewall_rule_types (name, protocol, description) values
          ('SSH', 'tcp', 'Secure shell, port 22'), ('HTTP', 'tcp', 'Web traffic, port 80'), ('HTTPS', 'tcp', 'Encrypted web traffic, port 443'),
          ('DNS', 'udp', 'Domain name lookups, port 53'), ('ICMP', 'icmp', 'Ping and network diagnostics'), ('All traffic', 'any', 'Every protocol and port'),
          ('PostgreSQL', 'tcp', 'port 5432'), ('Game', 'udp', '')`);

      await db.migrate();

      const ports = await rows<{ name: string; default_port: number | null }>('select name, default_port from firewall_rule_types order by id');
      assert.deepEqual(Object.fromEntries(ports.map((r) => [r.name, r.default_port])), {
        SSH: 22,
        HTTP: 80,
        HTTPS: 443,
        DNS: 53,
        ICMP: null,
        'All traffic': null,
        PostgreSQL: null,
        Game: null,
      });
      await assert.rejects(db.raw.executeSql(`update firewall_rule_types set default_port = 7 where name = 'ICMP'`), /firewall_rule_types_default_port/);
    });
  });
