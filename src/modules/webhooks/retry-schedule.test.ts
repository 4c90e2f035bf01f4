import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JITTER, nextAttemptAt, RETRY_DELAYS_MS } from './retry-schedule.js';

const at = new Date('2030-01-01T00:00:00Z');

test('the retries span about three days and then stop', () => {
  const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
  assert.ok(total > 2.9 * 24 * 3600_000 && total < 3.1 * 24 * 3600_000, `${total / 3600_000} h`);
  assert.equal(nextAttemptAt(at, RETRY_DELAYS_MS.length + 1, 0.5), null);
  assert.equal(nextAttemptAt(at, 1, 0.5)!.getTime() - at.getTime(), 60_000);
});

test('each wait stays within ±10 % of the schedule and grows', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: RETRY_DELAYS_MS.length }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (step, r) => {
      const wait = nextAttemptAt(at, step, r)!.getTime() - at.getTime();
      const base = RETRY_DELAYS_MS[step - 1]!;
      return wait >= base * (1 - JITTER) - 1 && wait <= base * (1 + JITTER) + 1;
    }),
  );
  for (let i = 1; i < RETRY_DELAYS_MS.length; i++) assert.ok(RETRY_DELAYS_MS[i]! >= RETRY_DELAYS_MS[i - 1]!);
});
