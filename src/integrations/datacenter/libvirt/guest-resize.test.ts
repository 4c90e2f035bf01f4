/**
 * Resizing a real QEMU guest (the test image of scripts/build-guest-image.sh): new vCPUs, memory
 * and a larger boot disk, seen from inside the guest. Runs where libvirt answers on
 * qemu:///system as root; elsewhere it is skipped with the reason, except under CI=true, where a
 * missing libvirt fails. Everything is made under a random prefix and removed in `after`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { httpGet, libvirtAvailable, removeEverything, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

const locked = (fn: () => Promise<void>) => () => withLibvirtLock('shared', fn);

/** What the guest's /cgi-bin/info says of its vCPUs, memory (kB) and boot disk (bytes). */
async function seen(ip: string) {
  const info = await httpGet(`http://${ip}/cgi-bin/info`, 5000);
  assert.ok(info, 'the guest answers /cgi-bin/info');
  const num = (re: RegExp) => Number(re.exec(info)?.[1] ?? NaN);
  return { cpus: num(/^cpus (\d+)$/m), memoryKb: num(/^memory_kb (\d+)$/m), diskBytes: num(/^disk vda (\d+)$/m) };
}

describe('resizing a libvirt guest', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let dc: LibvirtDatacenter;
  let ip: string;
  let id: string;

  before(() =>
    withLibvirtLock('shared', async () => {
      setup = testSetup();
      dc = new LibvirtDatacenter(setup.config);
      ip = dc.vmHosts.publicIpPool(1).addresses[0]!;
      const made = await dc.vmHosts.createVm({ reference: 'vm-r', locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: ip, blockStorage: null });
      id = made.externalId;
    }),
  );

  after(() => {
    if (setup) removeEverything(setup);
  });

  const domain = () => execFileSync('virsh', ['-c', 'qemu:///system', 'dumpxml', '--inactive', id], { encoding: 'utf8' });
  const state = () => execFileSync('virsh', ['-c', 'qemu:///system', 'domstate', id], { encoding: 'utf8' }).trim();
  const boots = () => (readFileSync(`${setup.dirs[1]}/${id}.console.log`, 'utf8').match(/GUEST-UP vm-r/g) ?? []).length;

  test('a running guest is shut down, given 2 vCPUs, 256 MB and a 3 GB disk, and comes back up with them', locked(async () => {
    const before = await seen(ip);
    assert.deepEqual([before.cpus, before.diskBytes], [1, 2 * 1024 ** 3]);
    assert.ok(before.memoryKb <= 160 * 1024, `MemTotal ${before.memoryKb} kB`);
    const bootsBefore = boots();

    await dc.vmHosts.resizeVm(id, { cpu: 2, memoryMb: 256, diskGb: 3, cpuLimit: 50 }, true);
    assert.equal(state(), 'running');
    assert.equal(boots(), bootsBefore + 1, 'it was booted again');
    const after = await seen(ip);
    assert.equal(after.cpus, 2);
    assert.equal(after.diskBytes, 3 * 1024 ** 3);
    assert.ok(after.memoryKb > 160 * 1024 && after.memoryKb <= 256 * 1024, `MemTotal ${after.memoryKb} kB`);
    assert.match(domain(), /<quota>50000<\/quota>/);

    // the same size again changes nothing: no restart
    await dc.vmHosts.resizeVm(id, { cpu: 2, memoryMb: 256, diskGb: 3, cpuLimit: 50 }, true);
    assert.equal(boots(), bootsBefore + 1);
  }));

  test('a stopped guest is changed and stays stopped; a smaller disk never shrinks it', locked(async () => {
    await dc.vmHosts.stopVm(id);
    await dc.vmHosts.resizeVm(id, { cpu: 1, memoryMb: 192, diskGb: 2, cpuLimit: 100 }, false);
    assert.equal(state(), 'shut off');
    const xml = domain();
    assert.match(xml, /<vcpu placement="static">1<\/vcpu>|<vcpu placement='static'>1<\/vcpu>/);
    assert.match(xml, /<memory unit=["']KiB["']>196608<\/memory>/);
    assert.doesNotMatch(xml, /<quota>/);
    await dc.vmHosts.startVm(id);
    const now = await seen(ip);
    assert.equal(now.cpus, 1);
    assert.equal(now.diskBytes, 3 * 1024 ** 3, 'the disk kept its 3 GB');
  }));
});
