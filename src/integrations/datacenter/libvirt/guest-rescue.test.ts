/** Rescue of a real QEMU guest (the test image, also the rescue system): see guest-actions-support.ts. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { locked, skip, startGuest, type ActionGuest } from './guest-actions-support.js';

describe('VM rescue on a real guest', { skip, concurrency: false }, () => {
  let g: ActionGuest;
  before(async () => {
    g = await startGuest();
  });
  after(() => g?.remove());

  test('rescue boots the rescue system with the VM disk visible and its keys; leaving it boots the VM disk with what was written', locked(async () => {
    assert.equal(await g.marker('before-rescue'), 'before-rescue');
    await g.dc.vmHosts.rescueVm(g.spec);
    assert.ok(await g.answering());
    const rescued = await g.boot();
    assert.equal(rescued.rescue, true);
    assert.equal(await g.marker(), 'before-rescue', "the VM's own disk is vda in the rescue system");
    const info = await g.info();
    assert.match(info, new RegExp(`^key ${g.key.fingerprint.replace(/[+/]/g, (c) => `\\${c}`)} `, 'm'), 'the rescue system lets in the VM keys');
    assert.match(info, new RegExp(`^disk vdb ${1024 ** 3}$`, 'm'), 'the volume is attached too');
    await g.dc.vmHosts.rescueVm(g.spec); // again: it already runs the rescue system
    assert.equal((await g.boot()).id, rescued.id);
    assert.equal(await g.marker('fixed-in-rescue'), 'fixed-in-rescue');

    await g.dc.vmHosts.unrescueVm(g.spec, true);
    assert.ok(await g.answering());
    const normal = await g.boot();
    assert.equal(normal.rescue, false);
    assert.notEqual(normal.id, rescued.id);
    assert.equal(await g.marker(), 'fixed-in-rescue');
    await g.dc.vmHosts.unrescueVm(g.spec, true); // again: nothing to leave
    assert.equal((await g.boot()).id, normal.id);
  }));
});
