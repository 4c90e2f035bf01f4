import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domainXml, GUEST_AGENT_CHANNEL } from './domain-xml.js';
import { pointInTimeCopy } from './disk-copy.js';
import type { Hypervisor } from './host-access.js';
import { HostCommandError } from './host.js';

/**
 * A hypervisor that answers virsh as libvirt does and records every command (the libvirt guest
 * tests run the same path against real QEMU: guest-snapshots.test.ts, test/backups/real-backups).
 */
function hypervisor(answers: { freeze: 'ok' | 'no agent' | 'broken'; completed: string }) {
  const calls: string[] = [];
  let jobLooks = 0;
  const hv = {
    virsh: {
      async run(args: readonly string[]) {
        calls.push(`virsh ${args.join(' ')}`);
        if (args[0] === 'domfsfreeze') {
          if (answers.freeze === 'no agent') throw new HostCommandError('virsh domfsfreeze', 1, 'error: Guest agent is not responding: QEMU guest agent is not connected');
          if (answers.freeze === 'broken') throw new HostCommandError('virsh domfsfreeze', 1, 'error: internal error: unable to execute QEMU command');
          return { code: 0, stdout: 'Froze 1 filesystem(s)', stderr: '' };
        }
        if (args[0] === 'domjobinfo' && args.includes('--completed')) return { code: 0, stdout: answers.completed, stderr: '' };
        if (args[0] === 'domjobinfo') return { code: 0, stdout: jobLooks++ === 0 ? 'Job type:         Unbounded\nOperation:        Backup' : 'Job type:         None', stderr: '' };
        return { code: 0, stdout: '', stderr: '' };
      },
    },
    host: {
      async writeFile(path: string, content: string) {
        calls.push(`write ${path} ${content}`);
      },
      async run(args: readonly string[]) {
        calls.push(args.join(' '));
        return { code: 0, stdout: '', stderr: '' };
      },
    },
  };
  return { hv: hv as unknown as Hypervisor, calls };
}

const fail = (message: string, detail?: string) => Object.assign(new Error(message), { detail });
const targets = [
  { device: 'vda', file: '/img/s-boot.part.qcow2' },
  { device: 'vdb', file: '/img/s-volume.part.qcow2' },
];

test('quiesced: the guest is frozen for the instant the job begins, thawed right after; both disks in one job; waited for', async () => {
  const { hv, calls } = hypervisor({ freeze: 'ok', completed: 'Job type:         Completed\nOperation:        Backup' });
  const r = await pointInTimeCopy(hv, 'p-vm-1', targets, { timeoutMs: 60_000, pollMs: 1, quiesce: true, fail });
  assert.deepEqual(r, { frozen: true });
  const order = calls.map((c) => c.split(' ').slice(0, 2).join(' '));
  assert.deepEqual(order, ['virsh domfsfreeze', 'write /img/s-boot.part.qcow2.xml', 'virsh backup-begin', 'virsh domfsthaw', 'rm -f', 'virsh domjobinfo', 'virsh domjobinfo', 'virsh domjobinfo']);
  const xml = calls[1]!;
  assert.match(xml, /<domainbackup mode='push'><disks><disk name='vda' type='file'><target file='\/img\/s-boot.part.qcow2'\/><driver type='qcow2'\/><\/disk><disk name='vdb'/);
});

test('a guest without an agent is copied unfrozen (crash consistency); an agent that breaks otherwise is an error; no quiesce asked: no freeze at all', async () => {
  const done = 'Job type:         Completed';
  const none = hypervisor({ freeze: 'no agent', completed: done });
  assert.deepEqual(await pointInTimeCopy(none.hv, 'p-vm-1', targets, { timeoutMs: 60_000, pollMs: 1, quiesce: true, fail }), { frozen: false });
  assert.ok(!none.calls.some((c) => c.includes('domfsthaw')), 'nothing to thaw');
  assert.ok(none.calls.some((c) => c.startsWith('virsh backup-begin')));

  const broken = hypervisor({ freeze: 'broken', completed: done });
  await assert.rejects(pointInTimeCopy(broken.hv, 'p-vm-1', targets, { timeoutMs: 60_000, pollMs: 1, quiesce: true, fail }), HostCommandError);
  assert.ok(!broken.calls.some((c) => c.startsWith('virsh backup-begin')), 'no copy of a guest in an unknown state');

  const plain = hypervisor({ freeze: 'ok', completed: done });
  assert.deepEqual(await pointInTimeCopy(plain.hv, 'p-vm-1', targets.slice(0, 1), { timeoutMs: 60_000, pollMs: 1, quiesce: false, fail }), { frozen: false });
  assert.ok(!plain.calls.some((c) => c.includes('domfsfreeze')));
});

test('a job that failed at the hypervisor is the caller’s error with the job info as its detail', async () => {
  const { hv } = hypervisor({ freeze: 'ok', completed: 'Job type:         Failed\nError message:    No space left on device' });
  await assert.rejects(pointInTimeCopy(hv, 'p-vm-1', targets, { timeoutMs: 60_000, pollMs: 1, quiesce: true, fail }), (e: Error & { detail?: string }) => e.message === 'copying the disks failed at the hypervisor' && /No space left/.test(e.detail ?? ''));
});

test('domain XML: the QEMU guest agent channel (virtio-serial, libvirt picks the host socket)', () => {
  const xml = domainXml({ name: 'n', uuid: 'u', type: 'qemu', vcpus: 1, memoryMb: 512, cpuLimit: 100, boot: { kind: 'disk' }, rootDisk: '/r.qcow2', dataDisk: null, configDrive: null, nics: [], console: '/c', metadata: { reference: 'n', locationId: 1, os: 'debian-12', publicIp: null, sshKeys: [], userData: null } });
  assert.equal(GUEST_AGENT_CHANNEL, 'org.qemu.guest_agent.0');
  assert.match(xml, /<channel type="unix">\s*<target type="virtio" name="org\.qemu\.guest_agent\.0"\/>\s*<\/channel>/);
});
