/** Snapshots of a real QEMU guest (the test image): see guest-actions-support.ts. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SnapshotError } from '../snapshots.js';
import { locked, skip, startGuest, type ActionGuest } from './guest-actions-support.js';
import { eventually, httpGet, libvirtdAnswers, listEverything, startLibvirtd, stopLibvirtd, withLibvirtLock } from './test-support.js';

describe('VM snapshots on a real guest', { skip, concurrency: false }, () => {
  let g: ActionGuest;
  before(async () => {
    g = await startGuest();
  });
  after(() => g?.remove());

  const files = () => listEverything(g.setup).filter((l) => l.name.includes('-snap-')).map((l) => l.name.split('/').pop()!).sort();
  const restore = (start = true) => g.dc.snapshots.restoreSnapshot({ reference: 'snap-1', machine: g.spec.externalId, disks: ['boot', 'volume'], start });

  test('snapshot while it runs, write, restore: what was on the disk at the snapshot is back; the copy is kept apart from the machine', locked(async () => {
    assert.equal(await g.marker('before-snapshot'), 'before-snapshot');
    let t0 = Date.now();
    const taken = await g.dc.snapshots.takeSnapshot({ reference: 'snap-1', machine: g.spec.externalId, disks: ['boot', 'volume'] });
    const snapshotMs = Date.now() - t0;
    assert.equal(taken.consistency, 'crash', 'the test guest has no guest agent');
    assert.deepEqual(taken.disks.map((d) => [d.disk, d.diskGb]), [['boot', 2], ['volume', 1]]);
    assert.ok(taken.disks.every((d) => d.storedBytes > 0));
    // taken again (a job run twice): the same snapshot, not a new copy
    assert.deepEqual(await g.dc.snapshots.takeSnapshot({ reference: 'snap-1', machine: g.spec.externalId, disks: ['boot', 'volume'] }), taken);
    assert.ok((await g.boot()).id, 'the guest kept running');
    assert.equal(await g.marker('after-snapshot'), 'after-snapshot');
    t0 = Date.now();
    await restore();
    const restoreMs = Date.now() - t0;
    assert.ok(await g.answering(), 'it runs again after the restore');
    assert.equal(await g.marker(), 'before-snapshot', 'the disk is as it was at the snapshot');
    assert.match(await g.info(), new RegExp(`^disk vdb ${1024 ** 3}$`, 'm'));
    const described = await g.dc.vmHosts.describeVm('vm-r');
    assert.equal(described?.state, 'running');
    console.log(`# snapshot of a 2 GB boot disk and a 1 GB volume: ${snapshotMs} ms; restore (shut down, write back, boot): ${restoreMs} ms`);
  }));

  test('libvirtd stopped during a restore: a SnapshotError safe to show; once it is back the restore is done again', async () => {
    await withLibvirtLock('shared', async () => {
      await g.marker('changed-again');
    });
    await withLibvirtLock('exclusive', async () => {
      stopLibvirtd();
      try {
        await assert.rejects(restore(), (err: unknown) => {
          assert.ok(err instanceof SnapshotError);
          assert.equal(err.message, 'the hypervisor could not be reached; could not restore the machine from its snapshot');
          return true;
        });
      } finally {
        if (!libvirtdAnswers()) startLibvirtd();
      }
    });
    await withLibvirtLock('shared', async () => {
      await restore();
      assert.ok(await g.answering());
      assert.equal(await g.marker(), 'before-snapshot');
    });
  });

  test('a new machine from the snapshot boots a copy of its boot disk, grown to its own size', locked(async () => {
    const ip = g.dc.vmHosts.publicIpPool(1).addresses[1]!;
    const spec = { ...g.spec, reference: 'vm-c', diskGb: 3, publicIp: ip, blockStorage: null, fromSnapshot: { reference: 'snap-1' } };
    try {
      await g.dc.vmHosts.createVm(spec);
      assert.ok(await eventually(async () => (await httpGet(`http://${ip}/cgi-bin/boot`, 6000)) !== null, 30_000));
      assert.equal(await httpGet(`http://${ip}/cgi-bin/marker`, 30_000), 'before-snapshot');
    } finally {
      await g.dc.vmHosts.deleteVm({ externalId: null, reference: 'vm-c' });
    }
  }));

  test('delete removes the copies; deleting again succeeds', locked(async () => {
    assert.ok(files().length >= 3, files().join(' '));
    await g.dc.snapshots.deleteSnapshot('snap-1', 1);
    assert.deepEqual(files(), []);
    await g.dc.snapshots.deleteSnapshot('snap-1', 1);
    await assert.rejects(restore(), SnapshotError);
  }));
});
