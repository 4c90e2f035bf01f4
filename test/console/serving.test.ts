import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// A console build of its own (the real one is tested in the browser), so this file needs no build step.
const dir = mkdtempSync(path.join(tmpdir(), 'chp-console-'));
mkdirSync(path.join(dir, 'assets'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let t: TestApp;
let off: TestApp | undefined;
before(async () => {
  t = await buildTestApp({ worker: false, env: { CONSOLE: 'on', CONSOLE_DIR: dir } });
});
after(async () => {
  await t.close();
  await off?.close();
});

describe('the web console is served by the API process', () => {
  test('any path outside /api is the console page, never cached, with a content security policy', async () => {
    for (const url of ['/', '/vms/12', '/backoffice', '/backoffice/customers/3?tab=sessions', '/auth/verify-email?token=abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<div id="root">/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    }
  });

  test('built files are themselves; hashed assets are cached for good; a missing asset is a 404', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    assert.equal(js.statusCode, 200);
    assert.match(String(js.headers['content-type']), /javascript/);
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'no-cache');
    assert.equal((await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/../package.json' })).statusCode === 200 && (await t.app.inject({ method: 'GET', url: '/../package.json' })).body.includes('"dependencies"'), false);
  });

  test('the API keeps its own answers: unknown /api paths are JSON 404s, /docs and /openapi.json stay', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'NOT_FOUND');
    assert.equal((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 200);
    assert.match(String((await t.app.inject({ method: 'GET', url: '/docs/' })).headers['content-type']), /text\/html/);
  });

  test('with the console on, mail links and the payment return land on its pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/payment/redirect/pgone?status=success' });
    assert.equal(res.statusCode, 302);
    // relative: the person lands on the address they came back on, the one the top-up started from
    assert.equal(res.headers.location, '/billing/topup?status=success');
    assert.equal(t.container.config.frontendUrl, 'http://127.0.0.1:3000');
  });

  test('before the first build is in place the console paths answer 503 with Retry-After; CONSOLE=off serves none', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'chp-console-empty-'));
    const building = await buildTestApp({ worker: false, env: { CONSOLE: 'on', CONSOLE_DIR: empty } });
    try {
      const res = await building.app.inject({ method: 'GET', url: '/' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '3');
      assert.match(res.body, /being built/);
    } finally {
      await building.close();
    }
    off = await buildTestApp({ worker: false, env: { CONSOLE: 'off', CONSOLE_DIR: dir } });
    assert.equal((await off.app.inject({ method: 'GET', url: '/vms' })).statusCode, 404);
  });
});
