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

describe('private networks at the simulated datacenter', () => {
  test('create is keyed by reference; attach and detach are idempotent; delete of a missing network succeeds', async () => {
    const dc = new SimulatedDatacenter();
    const vm = await dc.createVm(spec('vm-1'));
    const a = await dc.createNetwork({ reference: 'net-1', locationId: 1, cidr: '10.0.1.0/24' });
    const b = await dc.createNetwork({ reference: 'net-1', locationId: 1, cidr: '10.0.1.0/24' });
    assert.equal(a.externalId, b.externalId);
    const att = { network: { externalId: a.externalId, reference: 'net-1' }, vm: { externalId: vm.externalId, reference: 'vm-1' }, ip: '10.0.1.2' };
    await dc.attachIp(att);
    await dc.attachIp(att);
    assert.deepEqual(dc.networkStateOf('net-1')?.attachments, { '10.0.1.2': 'vm-1' });
    await dc.detachIp(att);
    await dc.detachIp(att);
    assert.deepEqual(dc.networkStateOf('net-1')?.attachments, {});
    await dc.deleteNetwork({ externalId: null, reference: 'net-1' });
    await dc.deleteNetwork({ externalId: null, reference: 'net-1' });
    assert.equal(dc.networkStateOf('net-1'), undefined);
  });

  test('refuses an address outside the hosts, one held by another machine, and an unknown network; deleting a VM frees its addresses', async () => {
    const dc = new SimulatedDatacenter();
    const one = await dc.createVm(spec('vm-1'));
    const two = await dc.createVm(spec('vm-2'));
    const net = await dc.createNetwork({ reference: 'net-2', locationId: 1, cidr: '10.0.0.0/24' });
    const ref = { externalId: net.externalId, reference: 'net-2' };
    await assert.rejects(dc.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.1' }), DatacenterError);
    await assert.rejects(dc.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.255' }), DatacenterError);
    await dc.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.2' });
    await assert.rejects(dc.attachIp({ network: ref, vm: { externalId: two.externalId, reference: 'vm-2' }, ip: '10.0.0.2' }), /another machine/);
    await assert.rejects(dc.attachIp({ network: { externalId: null, reference: 'net-x' }, vm: { externalId: two.externalId, reference: 'vm-2' }, ip: '10.0.0.3' }), DatacenterError);
    await dc.deleteVm({ externalId: one.externalId, reference: 'vm-1' });
    assert.deepEqual(dc.networkStateOf('net-2')?.attachments, {});
    dc.failNext('create_network');
    await assert.rejects(dc.createNetwork({ reference: 'net-3', locationId: 1, cidr: '10.0.1.0/24' }), DatacenterError);
  });
});
