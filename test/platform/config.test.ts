import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { nodeEntry } from '../helpers/node-entry.js';

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

  describe('NODE_ENV=production refuses unsafe defaults, naming what to set', () => {
    const production = {
      DATABASE_URL: 'postgres://db.internal/app',
      NODE_ENV: 'production',
      PAYMENT_MODE: 'live',
      JWT_SECRET: 'j'.repeat(48),
      ENCRYPTION_KEY: 'ab'.repeat(32),
      PGONE_MERCHANT_CODE: 'M12345',
      PGONE_API_KEY: 'live-pgone-key-0123456789',
      PGTWO_CALLBACK_SECRET: 'live-pgtwo-callback-0123456789',
      PGTWO_API_KEY: 'live-pgtwo-api-0123456789',
    };

    test('a complete production configuration loads', () => {
      const c = loadConfig(production);
      assert.equal(c.paymentMode, 'live');
      assert.equal(c.jwtSecret, production.JWT_SECRET);
      assert.equal(c.metricsToken, undefined);
    });

    const refused: [string, Record<string, string | undefined>][] = [
      ['PAYMENT_MODE', { PAYMENT_MODE: undefined }],
      ['PAYMENT_MODE', { PAYMENT_MODE: 'sandbox' }],
      ['JWT_SECRET', { JWT_SECRET: undefined }],
      ['ENCRYPTION_KEY', { ENCRYPTION_KEY: undefined }],
      ['PGONE_API_KEY', { PGONE_API_KEY: 'sandbox-pgone-api-key' }],
      ['PGONE_MERCHANT_CODE', { PGONE_MERCHANT_CODE: 'SANDBOX01' }],
      ['PGTWO_CALLBACK_SECRET', { PGTWO_CALLBACK_SECRET: 'sandbox-pgtwo-callback-secret' }],
      ['PGTWO_API_KEY', { PGTWO_API_KEY: undefined }],
    ];
    for (const [name, change] of refused) {
      test(`${name} ${JSON.stringify(change[name] ?? null)} is refused`, () => {
        const env: Record<string, string | undefined> = { ...production, ...change };
        assert.throws(
          () => loadConfig(env),
          (err: unknown) => err instanceof ConfigError && err.variable === name && /NODE_ENV=production/.test(err.message),
        );
      });
    }

    test('METRICS_TOKEN must be long enough to be a secret', () => {
      assert.equal(loadConfig({ ...production, METRICS_TOKEN: 'm'.repeat(32) }).metricsToken, 'm'.repeat(32));
      assert.throws(() => loadConfig({ ...production, METRICS_TOKEN: 'short' }), (err: unknown) => err instanceof ConfigError && err.variable === 'METRICS_TOKEN');
    });

    test('npm start with NODE_ENV=production and nothing else stops with one line naming PAYMENT_MODE', () => {
      const res = spawnSync(process.execPath, nodeEntry('src/server.ts'), {
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: 'memory://', PAYMENT_MODE: '', JWT_SECRET: '', ENCRYPTION_KEY: '' },
        encoding: 'utf8',
        timeout: 90_000,
      });
      assert.equal(res.status, 1);
      const lines = res.stderr.trim().split('\n').filter((l) => !l.includes('ExperimentalWarning') && !l.includes('--trace-warnings'));
      assert.equal(lines.length, 1, res.stderr);
      assert.match(lines[0]!, /^Invalid configuration: PAYMENT_MODE must be live when NODE_ENV=production/);
    });
  });

  test('npm start stops with one clear line on bad configuration', () => {
    const res = spawnSync(process.execPath, nodeEntry('src/server.ts'), {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'memory://' },
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.equal(res.status, 1);
    const lines = res.stderr.trim().split('\n').filter((l) => !l.includes('ExperimentalWarning') && !l.includes('--trace-warnings'));
    assert.deepEqual(lines, ['Invalid configuration: PORT must be an integer, got "eighty"']);
  });
});
