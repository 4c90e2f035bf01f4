import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const base = { DATABASE_URL: 'memory://', NODE_ENV: 'test' };

describe('configuration', () => {
  test('defaults need nothing set', () => {
    const c = loadConfig(base);
    assert.equal(c.port, 3000);
    assert.equal(c.role, 'all');
    assert.equal(c.paymentMode, 'sandbox');
    assert.equal(c.currency, 'IDR');
    assert.equal(c.topupExpiryHours, 24);
    assert.equal(c.encryptionKey.length, 32);
    assert.ok(c.jwtSecret.length >= 32);
    assert.equal(c.trustProxy, false);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy, 1);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, '10.0.0.0/8, 127.0.0.1');
  });

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ROLE', 'both'],
    ['PAYMENT_MODE', 'test'],
    ['COOKIE_SECURE', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['TOPUP_EXPIRY_HOURS', '0'],
    ['PUBLIC_URL', 'not a url'],
    ['FRONTEND_URL', 'ftp://x'],
    ['SMTP_URL', 'http://mail'],
    ['JWT_SECRET', 'short'],
    ['ENCRYPTION_KEY', 'zz'],
    ['CURRENCY', 'rupiah'],
    ['BOOTSTRAP_ADMIN_EMAIL', 'nobody'],
    ['TRUST_PROXY', 'the load balancer'],
  ] as const) {
    test(`a bad ${name} names the variable`, () => {
      assert.throws(
        () => loadConfig({ ...base, [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === name && err.message.includes(name),
      );
    });
  }

  test('npm start stops with one clear line on bad configuration', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'memory://' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(res.status, 1);
    const lines = res.stderr.trim().split('\n').filter((l) => !l.includes('ExperimentalWarning') && !l.includes('--trace-warnings'));
    assert.deepEqual(lines, ['Invalid configuration: PORT must be an integer, got "eighty"']);
  });
});
