/**
 * A hypervisor reached over ssh (qemu+ssh://): this machine's libvirtd through a private sshd on
 * loopback (test/helpers/sshd.ts), so virsh and every host command (host.ts) go over ssh as they do
 * to a remote hypervisor. One test guest is created, backed up (the disk read by dd through
 * ssh), snapshotted, stopped, written back from the backup (dd through ssh from stdin) and
 * restored from the snapshot; its disk says each time what it should, and sshd's record of the
 * commands shows they came over ssh. One boot: the disk of the stopped guest is read from its file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { sshdInstalled, startSshd, type Sshd } from '../../../../test/helpers/sshd.js';
import type { DiskPiece } from '../backups.js';
import { parseLibvirtConfig } from './config.js';
import { skip as noLibvirt } from './guest-actions-support.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { Names } from './names.js';
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
      const s = (setup = testSetup());
      const hv = s.input.locations['1']!.hypervisors[0]!;
      hv.uri = `qemu+ssh://root@127.0.0.1:${sshd!.port}/system?keyfile=${sshd!.keyFile}&no_verify=1`;
      const dc = new LibvirtDatacenter(parseLibvirtConfig(s.input));
      const ip = dc.vmHosts.publicIpPool(1).addresses[0]!;
      const machine = `${s.prefix}-vm-r`;
      const marker = (set?: string) => httpGet(`http://${ip}/cgi-bin/marker${set ? `?set=${set}` : ''}`, 30_000);
      const answering = () => eventually(async () => (await httpGet(`http://${ip}/cgi-bin/boot`, 6000)) !== null, 30_000);
      /** the word the guest's /cgi-bin/marker keeps at the start of its disk (`MARK:<word>`), read from the disk's file */
      const diskMarker = () => {
        const out = execFileSync('qemu-io', ['-r', '-U', '-f', 'qcow2', '-c', 'read -v 0 64', new Names(s.prefix).rootDisk(hv.imageDir, 'vm-r')], { encoding: 'utf8' });
        const hex = [...out.matchAll(/^[0-9a-f]{8}:((?: +[0-9a-f]{2}){1,16})/gm)].flatMap((m) => m[1]!.trim().split(/ +/));
        return /^MARK:([A-Za-z0-9_-]+)\n/.exec(Buffer.from(hex.join(''), 'hex').toString('latin1'))?.[1] ?? null;
      };

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

      // the guest stays stopped from here: its disk is read from the file, no boot needed
      await dc.vmHosts.stopVm(machine);
      await dc.backups.writeDisk(machine, copy.sizeBytes, (async function* () {
        yield* pieces;
      })());
      assert.equal(diskMarker(), 'backed-up', 'the backup was written back');

      await dc.snapshots.restoreSnapshot({ reference: 'snap-r', machine, disks: ['boot'], start: false });
      assert.equal(diskMarker(), 'snapshotted', 'the snapshot was restored');

      const commands = sshd!.commands();
      for (const want of [/virt-ssh-helper 'qemu:\/\/\/system'/, /^flock -x /, /^qemu-img create /, /^dd if=\S+-backup-remote\.raw /, /^truncate -s /, /^dd of=\S+-backup-restore-vm-r\.raw /, /^qemu-img convert -q -O qcow2 \S+-snap-/]) {
        assert.ok(commands.some((c) => want.test(c)), `no command over ssh matches ${want}`);
      }
      console.log(`# ${commands.length} commands over ssh`);
    }));
});
