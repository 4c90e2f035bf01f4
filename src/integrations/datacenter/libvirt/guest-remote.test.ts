/**
 * A hypervisor reached over ssh (qemu+ssh://): this machine's libvirtd through a private sshd on
 * loopback (test/helpers/sshd.ts), so virsh and every host command (host.ts) go over an ssh login
 * as they do to a remote hypervisor. One test guest is created, backed up (the disk read by dd
 * through ssh), snapshotted, written back from the backup (dd through ssh from stdin) and restored
 * from the snapshot; its disk says each time what it should, and sshd's record of the commands
 * shows they came over ssh.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sshdInstalled, startSshd, type Sshd } from '../../../../test/helpers/sshd.js';
import type { DiskPiece } from '../backups.js';
import { parseLibvirtConfig } from './config.js';
import { skip as noLibvirt } from './guest-actions-support.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { eventually, httpGet, removeEverything, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

const skip = noLibvirt || (sshdInstalled() ? false : 'openssh-server is not installed');
const PIECE_BYTES = 4 * 1024 * 1024;

describe('a hypervisor over qemu+ssh://', { skip }, () => {
  let sshd: Sshd | undefined;
  let setup: TestSetup | undefined;
  before(async () => {
    sshd = await startSshd();
  });
  after(async () => {
    if (setup) removeEverything(setup);
    await sshd?.stop();
  });

  test('create, back up, snapshot, write the backup back, restore the snapshot: all through ssh', () =>
    withLibvirtLock('shared', async () => {
      setup = testSetup();
      const hv = setup.input.locations['1']!.hypervisors[0]!;
      hv.uri = `qemu+ssh://root@127.0.0.1:${sshd!.port}/system?keyfile=${sshd!.keyFile}&no_verify=1`;
      const dc = new LibvirtDatacenter(parseLibvirtConfig(setup.input));
      const ip = dc.vmHosts.publicIpPool(1).addresses[0]!;
      const machine = `${setup.prefix}-vm-r`;
      const marker = (set?: string) => httpGet(`http://${ip}/cgi-bin/marker${set ? `?set=${set}` : ''}`, 30_000);
      const answering = () => eventually(async () => (await httpGet(`http://${ip}/cgi-bin/boot`, 6000)) !== null, 30_000);

      await dc.vmHosts.createVm({ reference: 'vm-r', locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: ip, blockStorage: null, sshKeys: [] });
      assert.ok(await answering());
      assert.equal(await marker('backed-up'), 'backed-up');

      const copy = await dc.backups.copyDisk(machine, 'remote');
      const pieces: DiskPiece[] = [];
      try {
        let offset = 0;
        for await (const piece of copy.pieces(PIECE_BYTES)) {
          if (piece) pieces.push({ offset, data: Buffer.from(piece) });
          offset += PIECE_BYTES;
        }
      } finally {
        await copy.close();
      }
      assert.ok(pieces.length > 0 && pieces.length < copy.sizeBytes / PIECE_BYTES, 'only the pieces with data were read');

      assert.equal(await marker('snapshotted'), 'snapshotted');
      await dc.snapshots.takeSnapshot({ reference: 'snap-r', machine, disks: ['boot'] });
      assert.equal(await marker('changed'), 'changed');

      await dc.vmHosts.stopVm(machine);
      await dc.backups.writeDisk(machine, copy.sizeBytes, (async function* () {
        yield* pieces;
      })());
      await dc.vmHosts.startVm(machine);
      assert.ok(await answering());
      assert.equal(await marker(), 'backed-up', 'the backup was written back');

      await dc.snapshots.restoreSnapshot({ reference: 'snap-r', machine, disks: ['boot'], start: true });
      assert.ok(await answering());
      assert.equal(await marker(), 'snapshotted', 'the snapshot was restored');

      const commands = sshd!.commands();
      for (const want of [/virt-ssh-helper 'qemu:\/\/\/system'/, /^flock -x /, /^qemu-img create /, /^dd if=\S+-backup-remote\.raw /, /^truncate -s /, /^dd of=\S+-backup-restore-vm-r\.raw /, /^qemu-img convert -q -O qcow2 \S+-snap-/]) {
        assert.ok(commands.some((c) => want.test(c)), `no command over ssh matches ${want}`);
      }
      console.log(`# ${commands.length} commands over ssh`);
    }));
});
