import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { afterFailure } from '../../platform/durable/index.js';
import { JITTER, RETRY_DELAYS_MS, WEBHOOK_DELIVERY } from './deliveries.policy.js';

const at = new Date('2030-01-01T00:00:00Z');
const waitAfter = (failures: number, random: number) => {
  const next = afterFailure(WEBHOOK_DELIVERY, { attempts: failures, at, random });
  return next.giveUp ? null : next.retryAt.getTime() - at.getTime();
};

test('the retries span about three days and then stop', () => {
  const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
  assert.ok(total > 2.9 * 24 * 3600_000 && total < 3.1 * 24 * 3600_000, `${total / 3600_000} h`);
  assert.equal(waitAfter(RETRY_DELAYS_MS.length + 1, 0.5), null);
  assert.equal(waitAfter(1, 0.5), 60_000);
  assert.equal(WEBHOOK_DELIVERY.maxAttempts, RETRY_DELAYS_MS.length + 1);
});

test('each wait stays within ±10 % of the schedule and grows', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: RETRY_DELAYS_MS.length }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (step, r) => {
      const wait = waitAfter(step, r)!;
      const base = RETRY_DELAYS_MS[step - 1]!;
      return wait >= base * (1 - JITTER) - 1 && wait <= base * (1 + JITTER) + 1;
    }),
  );
  for (let i = 1; i < RETRY_DELAYS_MS.length; i++) assert.ok(RETRY_DELAYS_MS[i]! >= RETRY_DELAYS_MS[i - 1]!);
});

test('a 410 gives up at once', () => {
  assert.deepEqual(afterFailure(WEBHOOK_DELIVERY, { attempts: 1, at, final: true }), { giveUp: true, retryAt: null, why: 'final' });
});
