import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AccountLock, ACCOUNT_LOCK_RULE } from '../../src/platform/account-lock/account-lock.js';
import { ManualClock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
let t: TestApp;
let lock: AccountLock;
before(async () => {
  t = await buildTestApp({ worker: false, clock });
  lock = new AccountLock(t.container.db, clock);
});
after(() => t.close());

const locked = { code: 'RATE_LIMITED', status: 429 };

// The HTTP login tests cover the parallel attempts; the orders that decide them are fixed here.
describe('the account lock, attempt by attempt', () => {
  test('a right answer counted first is refused when wrong ones locked the account before it was released', async () => {
    const right = await lock.reserve('customer', 'id:1001');
    const wrong = [];
    for (let i = 1; i < ACCOUNT_LOCK_RULE.maxFailures; i++) wrong.push(await lock.reserve('customer', 'id:1001'));
    assert.deepEqual(wrong.map((a) => a.locks), [...Array(ACCOUNT_LOCK_RULE.maxFailures - 2).fill(false), true], 'the tenth attempt counted sets the lock');
    await assert.rejects(lock.release(right), locked);
    await assert.rejects(lock.reserve('customer', 'id:1001'), locked, 'and it stays locked');
    clock.advance((ACCOUNT_LOCK_RULE.lockSeconds + 1) * 1000);
    await lock.release(await lock.reserve('customer', 'id:1001'));
  });

  test('a right answer released before the lock starts the count again', async () => {
    const right = await lock.reserve('customer', 'id:1002');
    for (let i = 0; i < ACCOUNT_LOCK_RULE.maxFailures - 2; i++) lock.wrong(await lock.reserve('customer', 'id:1002'));
    await lock.release(right);
    for (let i = 0; i < ACCOUNT_LOCK_RULE.maxFailures - 1; i++) assert.equal((await lock.reserve('customer', 'id:1002')).locks, false);
    assert.equal((await lock.reserve('customer', 'id:1002')).locks, true, 'the tenth failure after the release locks');
  });

  test('customers and staff are counted apart', async () => {
    for (let i = 0; i < ACCOUNT_LOCK_RULE.maxFailures; i++) await lock.reserve('admin', 'id:1003');
    await assert.rejects(lock.reserve('admin', 'id:1003'), locked);
    await lock.release(await lock.reserve('customer', 'id:1003'));
  });
});
