import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BUILD_TEMPLATE_ENV, buildEmbeddedTemplate, ensureEmbeddedTemplate } from '../../src/platform/db/embedded-template.js';

const fakeBuilder = fileURLToPath(new URL('../helpers/fake-template-builder.ts', import.meta.url));
/** The fake builder is TypeScript; this test file runs as bundled JavaScript (scripts/run-tests.mjs). */
const tsx = ['--import', 'tsx'];

/** A fake database build: a data folder with PG_VERSION and a file naming who built it. */
const fakeBuild = (who: string) => async (dataDir: string) => {
  mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
  writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '18\n');
  await new Promise((resolve) => setImmediate(resolve));
  writeFileSync(path.join(dataDir, 'pglite', 'built-by'), who);
};

function cacheDir() {
  return mkdtempSync(path.join(tmpdir(), 'chp-template-'));
}

describe('embedded template', () => {
  test('is built in a folder of its own and renamed into place; a second build finds it', async () => {
    const cache = cacheDir();
    const target = path.join(cache, 'embedded-abc');
    assert.equal(await buildEmbeddedTemplate(target, fakeBuild('first')), 'built');
    assert.equal(readFileSync(path.join(target, 'built-by'), 'utf8'), 'first');
    assert.equal(await buildEmbeddedTemplate(target, fakeBuild('second')), 'present');
    assert.equal(readFileSync(path.join(target, 'built-by'), 'utf8'), 'first');
    assert.deepEqual(readdirSync(cache), ['embedded-abc']);
  });

  test('a build that fails leaves neither a template nor its build folder', async () => {
    const cache = cacheDir();
    const target = path.join(cache, 'embedded-abc');
    await assert.rejects(
      buildEmbeddedTemplate(target, async (dataDir) => {
        mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
        writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '18\n');
        throw new Error('migration failed');
      }),
      /migration failed/,
    );
    assert.deepEqual(readdirSync(cache), []);
  });

  test('concurrent builds: the first to finish is the template, the others drop theirs', async () => {
    const cache = cacheDir();
    const target = path.join(cache, 'embedded-abc');
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const build = (who: string) => async (dataDir: string) => {
      await fakeBuild(who)(dataDir);
      if (++started === 3) release();
      await allStarted;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((who) => buildEmbeddedTemplate(target, build(who))));
    assert.deepEqual([...results].sort(), ['built', 'present', 'present']);
    assert.equal(readFileSync(path.join(target, 'built-by'), 'utf8'), ['a', 'b', 'c'][results.indexOf('built')]);
    assert.deepEqual(readdirSync(cache), ['embedded-abc']);
  });

  test('builders in several processes at once: one template, each of them succeeds', async () => {
    const cache = cacheDir();
    const target = path.join(cache, 'embedded-abc');
    const statuses = await Promise.all([1, 2, 3].map(() => runBuilder(target)));
    assert.deepEqual(statuses, [0, 0, 0]);
    assert.ok(existsSync(path.join(target, 'PG_VERSION')));
    assert.deepEqual(readdirSync(cache), ['embedded-abc']);
  });

  test('a crashed build is never taken for a template, and the next builder removes it', async () => {
    const cache = cacheDir();
    const target = path.join(cache, 'embedded-abc');
    const warnings: string[] = [];
    process.env.FAKE_BUILDER = 'crash';
    try {
      assert.equal(ensureEmbeddedTemplate(fakeBuilder, (m) => warnings.push(m), target, tsx), undefined);
    } finally {
      delete process.env.FAKE_BUILDER;
    }
    assert.match(warnings.join('\n'), /builder exited with 3/);
    assert.equal(existsSync(target), false);
    const [halfBuilt] = readdirSync(cache);
    assert.match(String(halfBuilt), /^embedded-abc\.build-\d+-[0-9a-f]+$/);
    assert.ok(existsSync(path.join(cache, halfBuilt!, 'pglite', 'PG_VERSION')), 'the crashed build looks complete inside');

    assert.equal(ensureEmbeddedTemplate(fakeBuilder, (m) => warnings.push(m), target, tsx), target);
    assert.ok(existsSync(path.join(target, 'built-by')));
    assert.deepEqual(readdirSync(cache), ['embedded-abc']);
  });

  test('older templates go once a new one is built', async () => {
    const cache = cacheDir();
    await buildEmbeddedTemplate(path.join(cache, 'embedded-old'), fakeBuild('old'));
    await buildEmbeddedTemplate(path.join(cache, 'embedded-new'), fakeBuild('new'));
    assert.deepEqual(readdirSync(cache), ['embedded-new']);
  });
});

function runBuilder(target: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fakeBuilder], { env: { ...process.env, [BUILD_TEMPLATE_ENV]: target }, stdio: 'inherit' });
    child.once('exit', (status) => resolve(status));
  });
}
