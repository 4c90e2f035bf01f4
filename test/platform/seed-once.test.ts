import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/platform/logger.js';
import { openDatabase, projectRoot, seedDataFiles, seedFingerprint, type DatabaseHandle } from '../../src/platform/db/database.js';
import { sourceFiles, sourceFingerprint } from '../../src/platform/db/schema-files.js';
import { templateDir } from '../../src/platform/db/embedded-template.js';
import { createTestDatabase, embeddedSnapshot, templateName, type TestDatabase } from '../helpers/database.js';

describe('seed fingerprint', () => {
  test('of a compiled bundle: the bundle itself, and it changes with the code', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seed-fp-'));
    const bundle = path.join(dir, 'server.js');
    writeFileSync(bundle, 'console.log(1)');
    const first = seedFingerprint(bundle);
    assert.match(String(first), /^[0-9a-f]{64}$/);
    assert.equal(seedFingerprint(bundle), first);
    writeFileSync(bundle, 'console.log(2)');
    assert.notEqual(seedFingerprint(bundle), first);
    assert.equal(seedFingerprint(path.join(dir, 'container.ts')), sourceFingerprint(), 'code run as TypeScript: the fingerprint of the sources');
  });

  test('the sources fingerprint covers every source file, and names both templates', () => {
    const src = mkdtempSync(path.join(tmpdir(), 'seed-src-'));
    mkdirSync(path.join(src, 'modules/a'), { recursive: true });
    for (const f of ['modules/a/a.service.ts', 'modules/a/a.seed.ts', 'modules/a/a.test.ts', 'modules/a/notes.md', 'b.ts']) writeFileSync(path.join(src, f), '');
    assert.deepEqual(sourceFiles(src).map((f) => path.relative(src, f)), ['b.ts', 'modules/a/a.seed.ts', 'modules/a/a.service.ts']);
    assert.ok(sourceFiles().includes(path.join(projectRoot, 'src/modules/settings/settings.service.ts')), 'seeds that live in services are covered');
    const fingerprint = sourceFingerprint().slice(0, 16);
    assert.equal(templateName(), `chp_tpl_${fingerprint}`);
    assert.equal(path.basename(templateDir()), `embedded-${fingerprint}`);
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

    test('a database made from the template records the seeds of this code, so a start does not run them again', async () => {
      const { rows } = await database.raw.executeSql('SELECT fingerprint FROM drizzle.seed_fingerprint WHERE id = 1');
      assert.equal(rows[0]?.fingerprint, sourceFingerprint());
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
