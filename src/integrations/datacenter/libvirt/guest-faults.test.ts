/**
 * Faults of the libvirt datacenter with real guests: libvirtd going away in the middle of a create,
 * and a create whose process is killed half way. Runs where libvirt is available (see
 * guests.test.ts); stops libvirtd only while holding the tests' exclusive lock.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DatacenterError, type VmSpec } from '../index.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { libvirtAvailable, libvirtdAnswers, listEverything, removeEverything, startLibvirtd, stopLibvirtd, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';
import { nodeEntry } from '../../../../test/helpers/node-entry.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

const spec = (reference: string, over: Partial<VmSpec> = {}): VmSpec => ({
  reference,
  locationId: 1,
  cpu: 1,
  memoryMb: 160,
  diskGb: 2,
  cpuLimit: 100,
  os: 'test',
  publicIp: null,
  blockStorage: null,
  ...over,
});

function domstate(name: string): string | null {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'domstate', name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

describe('libvirt datacenter faults', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let dc: LibvirtDatacenter;
  let stopLibvirt = false;
  let outage: unknown;
  const faultSpec = () => spec('vm-f', { publicIp: dc.vmHosts.publicIpPool(1).addresses[0]!, blockStorage: { machineId: 1, sizeGb: 1 } });

  // the outage comes first, before the other real-guest files hold the lock for their boots
  before(() =>
    withLibvirtLock('exclusive', async () => {
      setup = testSetup();
      dc = new LibvirtDatacenter(setup.config, {
        onCreateStep: (step) => {
          if (step === 'disks' && stopLibvirt) stopLibvirtd();
        },
      });
      stopLibvirt = true;
      try {
        outage = await dc.vmHosts.createVm(faultSpec()).then(
          () => 'the create succeeded',
          (e: unknown) => e,
        );
      } finally {
        stopLibvirt = false;
        startLibvirtd();
      }
    }),
  );

  after(() => {
    if (!libvirtdAnswers()) startLibvirtd();
    if (setup) removeEverything(setup);
  });

  const vmFiles = (ref: string) =>
    listEverything(setup)
      .filter((l) => l.kind === 'file' && l.name.includes(`${setup.prefix}-${ref}`))
      .map((l) => path.basename(l.name))
      .sort();
  const domains = () =>
    listEverything(setup)
      .filter((l) => l.kind === 'domain')
      .map((l) => l.name)
      .sort();
  const expectedFiles = (ref: string) => [`${setup.prefix}-${ref}-cidata.iso`, `${setup.prefix}-${ref}-data.qcow2`, `${setup.prefix}-${ref}-root.qcow2`, `${setup.prefix}-${ref}.boot`, `${setup.prefix}-${ref}.console.log`];

  test('libvirtd stopped in the middle of a create: a DatacenterError, and the retry succeeds once it is back', async () => {
    const s = faultSpec();
    assert.ok(outage instanceof DatacenterError && outage.operation === 'create' && !outage.capacity, String(outage));
    await withLibvirtLock('shared', async () => {
      assert.deepEqual(domains(), []);
      const made = await dc.vmHosts.createVm(s);
      assert.equal(made.externalId, `${setup.prefix}-vm-f`);
      assert.deepEqual(domains(), [`${setup.prefix}-vm-f`]);
      assert.deepEqual(vmFiles('vm-f'), expectedFiles('vm-f'));
      await dc.vmHosts.deleteVm({ externalId: made.externalId, reference: 'vm-f' });
      assert.deepEqual(vmFiles('vm-f'), []);
    });
  });

  test('a create killed half way (after its disks, after the define) and repeated: one domain, no leaked disk', () =>
    withLibvirtLock('shared', async () => {
      const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
      writeFileSync(configFile, JSON.stringify(setup.input));
      const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'interrupted-create.fixture.ts');
      const pool = dc.vmHosts.publicIpPool(1).addresses;
      const specs = { disks: spec('vm-k1', { publicIp: pool[1]!, blockStorage: { machineId: 1, sizeGb: 1 } }), defined: spec('vm-k2', { publicIp: pool[2]!, blockStorage: { machineId: 1, sizeGb: 1 } }) };
      const killedAt = (step: 'disks' | 'defined') =>
        new Promise<NodeJS.Signals | null>((resolve) => {
          const child = spawn(process.execPath, [...nodeEntry(fixture), configFile, JSON.stringify(specs[step]), step], { stdio: 'inherit' });
          child.on('exit', (_code, signal) => resolve(signal));
        });
      assert.deepEqual(await Promise.all([killedAt('disks'), killedAt('defined')]), ['SIGKILL', 'SIGKILL']);
      // killed after the disks, before the define: a disk and no domain; after the define: a domain that never started
      assert.ok(existsSync(path.join(setup.dirs[0]!, `${setup.prefix}-vm-k1-root.qcow2`)));
      assert.deepEqual(domains(), [`${setup.prefix}-vm-k2`]);
      assert.equal(domstate(`${setup.prefix}-vm-k2`), 'shut off');

      await Promise.all([dc.vmHosts.createVm(specs.disks), dc.vmHosts.createVm(specs.defined)]);
      assert.deepEqual(domains(), [`${setup.prefix}-vm-k1`, `${setup.prefix}-vm-k2`]);
      assert.equal(domstate(`${setup.prefix}-vm-k1`), 'running');
      assert.equal(domstate(`${setup.prefix}-vm-k2`), 'running');
      assert.deepEqual(vmFiles('vm-k1'), expectedFiles('vm-k1'));
      assert.deepEqual(vmFiles('vm-k2'), expectedFiles('vm-k2'));
      await Promise.all(['vm-k1', 'vm-k2'].map((reference) => dc.vmHosts.deleteVm({ externalId: null, reference })));
      assert.deepEqual(domains(), []);
      assert.deepEqual([...vmFiles('vm-k1'), ...vmFiles('vm-k2')], []);
    }));
});
