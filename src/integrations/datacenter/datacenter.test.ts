import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DatacenterError, SimulatedDatacenter, usableAddresses, type VmSpec } from './index.js';

const spec = (reference: string, over: Partial<VmSpec> = {}): VmSpec => ({
  reference,
  locationId: 1,
  cpu: 2,
  memoryMb: 2048,
  diskGb: 20,
  cpuLimit: 100,
  os: 'debian-12',
  publicIp: null,
  blockStorage: null,
  ...over,
});

describe('public address pools', () => {
  test('a /24 leaves out network, gateway and broadcast', () => {
    const a = usableAddresses('198.18.1.0/24');
    assert.equal(a.length, 253);
    assert.equal(a[0], '198.18.1.2');
    assert.equal(a.at(-1), '198.18.1.254');
  });
  test('a /30 has one usable host; malformed blocks are refused', () => {
    assert.deepEqual(usableAddresses('10.0.0.4/30'), ['10.0.0.6']);
    assert.throws(() => usableAddresses('10.0.0.300/24'));
    assert.throws(() => usableAddresses('10.0.0.0/8'));
  });
});

describe('simulated datacenter', () => {
  test('create is idempotent by reference; start, stop and delete are idempotent', async () => {
    const dc = new SimulatedDatacenter();
    const a = await dc.createVm(spec('vm-1'));
    const b = await dc.createVm(spec('vm-1'));
    assert.equal(a.externalId, b.externalId);
    await dc.stopVm(a.externalId);
    await dc.stopVm(a.externalId);
    assert.equal(dc.stateOf('vm-1')?.running, false);
    await dc.startVm(a.externalId);
    assert.equal(dc.stateOf('vm-1')?.running, true);
    await dc.deleteVm({ externalId: null, reference: 'vm-1' });
    await dc.deleteVm({ externalId: a.externalId, reference: 'vm-1' });
    assert.equal(dc.stateOf('vm-1'), undefined);
  });

  test('capacity per location, injected failures, addresses only from the pool and never twice', async () => {
    const dc = new SimulatedDatacenter({ hypervisorsPerLocation: 1, vcpuPerHypervisor: 4, memoryMbPerHypervisor: 8192 });
    await dc.createVm(spec('a', { cpu: 4 }));
    await assert.rejects(dc.createVm(spec('b', { cpu: 1 })), (e: unknown) => e instanceof DatacenterError && e.capacity);
    await dc.createVm(spec('c', { cpu: 4, locationId: 2 }));
    dc.failNext('start', 2, 'boom');
    await assert.rejects(dc.startVm('x'), /boom/);
    await assert.rejects(dc.startVm('x'), /boom/);
    await dc.startVm('x');
    const [ip] = dc.publicIpPool(3).addresses;
    await dc.createVm(spec('d', { locationId: 3, publicIp: ip! }));
    await assert.rejects(dc.createVm(spec('e', { locationId: 3, publicIp: ip! })), /attached/);
    await assert.rejects(dc.createVm(spec('f', { locationId: 3, publicIp: '8.8.8.8' })), /not in the pool/);
    const hv = await dc.hypervisors(1);
    assert.deepEqual([hv[0]!.vcpuUsed, hv[0]!.vcpuTotal], [4, 4]);
  });
});
