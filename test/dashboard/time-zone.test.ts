import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { monthOf } from '../../src/modules/dashboard/index.js';

const base = { DATABASE_URL: 'memory://', NODE_ENV: 'test' };

describe('PLATFORM_TIME_ZONE', () => {
  test('UTC by default; an IANA zone with whole-hour offsets, DST or not, is accepted', () => {
    assert.equal(loadConfig(base).platformTimeZone, 'UTC');
    for (const tz of ['Asia/Jakarta', 'Europe/Berlin', 'America/New_York', 'Asia/Makassar']) {
      assert.equal(loadConfig({ ...base, PLATFORM_TIME_ZONE: tz }).platformTimeZone, tz);
    }
  });

  test('an unknown zone, or one with half-hour offsets, stops start-up naming the variable', () => {
    for (const tz of ['Mars/Olympus', 'Asia/Kolkata', 'Australia/Adelaide', 'America/St_Johns']) {
      assert.throws(
        () => loadConfig({ ...base, PLATFORM_TIME_ZONE: tz }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'PLATFORM_TIME_ZONE',
        tz,
      );
    }
  });

  test('monthOf: the calendar month of an instant in the zone', () => {
    assert.equal(monthOf(new Date('2026-10-31T16:59:59Z'), 'Asia/Jakarta'), '2026-10');
    assert.equal(monthOf(new Date('2026-10-31T17:00:00Z'), 'Asia/Jakarta'), '2026-11');
    assert.equal(monthOf(new Date('2026-10-31T17:00:00Z'), 'UTC'), '2026-10');
  });
});
