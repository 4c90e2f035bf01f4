/** Reboot of a real QEMU guest (the test image, also the rescue system): see guest-actions-support.ts. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { locked, skip, startGuest, type ActionGuest } from './guest-actions-support.js';

describe('VM reboot on a real guest', { skip, concurrency: false }, () => {
  let g: ActionGuest;
  before(async () => {
    g = await startGuest();
  });
  after(() => g?.remove());

  test('a soft reboot and a hard reset each boot the guest again (its boot id changes)', locked(async () => {
    const first = (await g.boot()).id;
    assert.ok(first);
    await g.dc.vmHosts.rebootVm(g.spec.externalId, false);
    assert.ok(await g.answering());
    const second = (await g.boot()).id;
    assert.ok(second && second !== first, `${first} then ${second}`);
    await g.dc.vmHosts.rebootVm(g.spec.externalId, true);
    assert.ok(await g.answering());
    const third = (await g.boot()).id;
    assert.ok(third && third !== second, `${second} then ${third}`);
  }));
});
