import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RETRY_MAX_MS, retryDelayMs } from './lifecycle.js';

test('automatic retries back off 1, 2, 4, 8, 16 minutes, then every 30', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelayMs(n) / 60_000), [1, 2, 4, 8, 16, 30, 30, 30]);
  assert.equal(retryDelayMs(1000), RETRY_MAX_MS);
});
