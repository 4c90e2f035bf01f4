import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/platform/logger.js';
import { openDatabase, projectRoot, seedDataFiles, seedFingerprint, type DatabaseHandle } from '../../src/platform/db/database.js';
import { createTestDatabase, embeddedSnapshot, type TestDatabase } from '../helpers/database.js';

describe('seed fingerprint', () => {
  test('known only for compiled code, and it changes with the code', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seed-fp-'));
    const bundle = path.join(dir, 'server.js');
    writeFileSync(bundle, 'console.log(1)');
    const first = seedFingerprint(bundle);
    assert.match(String(first), /^[0-9a-f]{64}$/);
    assert.equal(seedFingerprint(bundle), first);
    writeFileSync(bundle, 'console.log(2)');
    assert.notEqual(seedFingerprint(bundle), first);
    assert.equal(seedFingerprint(path.join(dir, 'container.ts')), undefined, 'TypeScript run through tsx seeds at every start');
  });

  test('covers the files in data folders, which seeds read at run time', () => {
    const src = mkdtempSync(path.join(tmpdir(), 'seed-data-'));
    mkdirSync(path.join(src, 'modules/a/data/nested'), { recursive: true });
    writeFileSync(path.join(src, 'modules/a/a.seed.ts'), '');
    writeFileSync(path.join(src, 'modules/a/data/b.csv'), '');
    writeFileSync(path.join(src, 'modules/a/data/nested/c.csv'), '');
    assert.deepEqual(seedDataFiles(src).map((f) => path.relative(src, f)), ['modules/a/data/b.csv', 'modules/a/data/nested/c.csv']);
    assert.ok(seedDataFiles().includes(path.join(projectRoot, 'src/modules/lookups/data/districts.csv')));
  });
});

for (const kind of ['postgres', 'embedded'] as const) {
  describe(`seeds run once per fingerprint on ${kind}`, () => {
    let testDb: TestDatabase | undefined;
    let database: DatabaseHandle;
    before(async () => {
      testDb = kind === 'postgres' ? await createTestDatabase() : undefined;
      database = await openDatabase({
        url: testDb?.url ?? 'memory://',
        dataDir: '/tmp',
        waitMs: 10_000,
        log: createLogger('silent'),
        ...(kind === 'embedded' ? { snapshot: await embeddedSnapshot() } : {}),
      });
    });
    after(async () => {
      await database.close();
      await testDb?.drop();
    });

    test('a fingerprint already recorded skips the seeds; a new one, a failed run or none runs them', async () => {
      const runs: string[] = [];
      const seed = (label: string) => async () => void runs.push(label);
      await database.seedOnce('build-1', seed('a'));
      await database.seedOnce('build-1', seed('b'));
      await database.seedOnce('build-2', seed('c'));
      await database.seedOnce('build-2', seed('d'));
      await assert.rejects(database.seedOnce('build-3', async () => Promise.reject(new Error('seed failed'))));
      await database.seedOnce('build-3', seed('e'));
      await database.seedOnce(undefined, seed('f'));
      await database.seedOnce(undefined, seed('g'));
      assert.deepEqual(runs, ['a', 'c', 'e', 'f', 'g']);
    });
  });
}
