import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterFailure } from '../durable/index.js';
import { RESOURCE_APPLY } from './lifecycle.js';

const at = new Date('2030-01-01T00:00:00Z');

test('automatic retries back off 1, 2, 4, 8, 16 minutes, then every 30, and never give up by count', () => {
  const waits = [1, 2, 3, 4, 5, 6, 7, 50, 1000].map((n) => {
    const next = afterFailure(RESOURCE_APPLY, { attempts: n, at });
    assert.equal(next.giveUp, false);
    return (next.retryAt!.getTime() - at.getTime()) / 60_000;
  });
  assert.deepEqual(waits, [1, 2, 4, 8, 16, 30, 30, 30, 30]);
  assert.deepEqual(afterFailure(RESOURCE_APPLY, { attempts: 1, at, final: true }), { giveUp: true, retryAt: null, why: 'final' });
});
