/** Rebuild of a real QEMU guest (the test image, also the rescue system): see guest-actions-support.ts. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { locked, skip, startGuest, type ActionGuest } from './guest-actions-support.js';

describe('VM rebuild on a real guest', { skip, concurrency: false }, () => {
  let g: ActionGuest;
  before(async () => {
    g = await startGuest();
  });
  after(() => g?.remove());

  test('a rebuild makes the boot disk anew (what was written is gone), keeps the address and volume; repeated, it is the same rebuild', locked(async () => {
    assert.equal(await g.marker('before-rebuild'), 'before-rebuild');
    g.spec = { ...g.spec, rebuild: 1 };
    await g.dc.vmHosts.rebuildVm(g.spec);
    assert.ok(await g.answering(), 'it answers at its address after the rebuild');
    assert.equal(await g.marker(), '', 'the new boot disk has no marker');
    const info = await g.info();
    assert.match(info, new RegExp(`^disk vdb ${1024 ** 3}$`, 'm'));
    assert.equal(await g.marker('after-rebuild'), 'after-rebuild');
    const id = (await g.boot()).id;
    await g.dc.vmHosts.rebuildVm(g.spec); // a job run again: the disk is not made again
    assert.equal(await g.marker(), 'after-rebuild');
    assert.equal((await g.boot()).id, id);
    const described = await g.dc.vmHosts.describeVm('vm-r');
    assert.equal(described?.metadata?.instanceId, `${g.setup.prefix}-vm-r-rebuild-1`);
    assert.equal(described?.state, 'running');
  }));
});
