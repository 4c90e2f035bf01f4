import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { afterFailure, definePolicy, doubling, every, leaseEnd, lostBefore, settleFailure, steps } from './index.js';

const at = new Date('2030-01-01T00:00:00Z');
const MIN = 60_000;
const policy = (over: Partial<Parameters<typeof definePolicy>[0]> = {}) =>
  definePolicy({ name: 'test', leaseMs: 10 * MIN, backoff: steps([MIN, 5 * MIN]), maxAttempts: 10, lostAfterMs: 5 * MIN, sweepSchedule: '* * * * *', onGiveUp: 'nothing', ...over });

test('doubling waits first, twice that, … up to its maximum and is never spent', () => {
  const b = doubling({ firstMs: MIN, maxMs: 30 * MIN });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50, 5000].map((n) => b.delayMs(n)! / MIN), [1, 2, 4, 8, 16, 30, 30, 30, 30]);
  assert.equal(every(15 * MIN).delayMs(99), 15 * MIN);
});

test('steps keep every jittered wait within its share of the listed one, and are spent after the list', () => {
  const b = steps([MIN, 30 * MIN], { jitter: 0.1 });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
      const base = n === 1 ? MIN : 30 * MIN;
      const wait = b.delayMs(n, r)!;
      return wait >= base * 0.9 - 1 && wait <= base * 1.1 + 1;
    }),
  );
  assert.equal(b.delayMs(3, 0.5), null);
});

test('after a failure: retry by the backoff, or give up when final, out of attempts or out of waits', () => {
  assert.deepEqual(afterFailure(policy(), { attempts: 1, at }), { giveUp: false, retryAt: new Date(at.getTime() + MIN) });
  assert.deepEqual(afterFailure(policy(), { attempts: 1, at, final: true }), { giveUp: true, retryAt: null, why: 'final' });
  assert.deepEqual(afterFailure(policy(), { attempts: 3, at }), { giveUp: true, retryAt: null, why: 'schedule' });
  assert.deepEqual(afterFailure(policy({ maxAttempts: 2 }), { attempts: 2, at }), { giveUp: true, retryAt: null, why: 'attempts' });
  const forever = policy({ backoff: doubling({ firstMs: MIN, maxMs: 30 * MIN }), maxAttempts: Infinity });
  assert.equal(afterFailure(forever, { attempts: 10_000, at }).giveUp, false);
});

test('a lease ends leaseMs after it was taken; work is lost lostAfterMs after it was due', () => {
  assert.equal(leaseEnd(policy(), at).getTime() - at.getTime(), 10 * MIN);
  assert.equal(at.getTime() - lostBefore(policy(), at).getTime(), 5 * MIN);
  assert.throws(() => leaseEnd(policy({ leaseMs: null }), at), /takes no lease/);
  assert.throws(() => policy({ maxAttempts: 0 }), /maxAttempts/);
});

test('settleFailure runs the retry hook with its time, or the give-up hook with why', () => {
  const hooks = { retry: (retryAt: Date) => `retry ${(retryAt.getTime() - at.getTime()) / MIN}`, giveUp: (why: string) => `give up: ${why}` };
  assert.equal(settleFailure(policy(), { attempts: 2, at }, hooks), 'retry 5');
  assert.equal(settleFailure(policy(), { attempts: 1, at, final: true }, hooks), 'give up: final');
  assert.equal(settleFailure(policy({ maxAttempts: 2 }), { attempts: 2, at }, hooks), 'give up: attempts');
});
