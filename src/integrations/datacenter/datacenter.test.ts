import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  asFailureOf,
  BalancerError,
  DatacenterError,
  FirewallError,
  NetworkFabricError,
  SimulatedDatacenter,
  usableAddresses,
  VmHostError,
  type VmSpec,
} from './index.js';

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
    const a = await dc.vmHosts.createVm(spec('vm-1'));
    const b = await dc.vmHosts.createVm(spec('vm-1'));
    assert.equal(a.externalId, b.externalId);
    await dc.vmHosts.stopVm(a.externalId);
    await dc.vmHosts.stopVm(a.externalId);
    assert.equal(dc.vmHosts.stateOf('vm-1')?.running, false);
    await dc.vmHosts.startVm(a.externalId);
    assert.equal(dc.vmHosts.stateOf('vm-1')?.running, true);
    await dc.vmHosts.deleteVm({ externalId: null, reference: 'vm-1' });
    await dc.vmHosts.deleteVm({ externalId: a.externalId, reference: 'vm-1' });
    assert.equal(dc.vmHosts.stateOf('vm-1'), undefined);
  });

  test('capacity per location, injected failures, addresses only from the pool and never twice', async () => {
    const dc = new SimulatedDatacenter({ hypervisorsPerLocation: 1, vcpuPerHypervisor: 4, memoryMbPerHypervisor: 8192 });
    await dc.vmHosts.createVm(spec('a', { cpu: 4 }));
    await assert.rejects(dc.vmHosts.createVm(spec('b', { cpu: 1 })), (e: unknown) => e instanceof DatacenterError && e.capacity);
    await dc.vmHosts.createVm(spec('c', { cpu: 4, locationId: 2 }));
    dc.failNext('start', 2, 'boom');
    await assert.rejects(dc.vmHosts.startVm('x'), /boom/);
    await assert.rejects(dc.vmHosts.startVm('x'), /boom/);
    await dc.vmHosts.startVm('x');
    const [ip] = dc.vmHosts.publicIpPool(3).addresses;
    await dc.vmHosts.createVm(spec('d', { locationId: 3, publicIp: ip! }));
    await assert.rejects(dc.vmHosts.createVm(spec('e', { locationId: 3, publicIp: ip! })), /attached/);
    await assert.rejects(dc.vmHosts.createVm(spec('f', { locationId: 3, publicIp: '8.8.8.8' })), /not in the pool/);
    const hv = await dc.vmHosts.hypervisors(1);
    assert.deepEqual([hv[0]!.vcpuUsed, hv[0]!.vcpuTotal], [4, 4]);
  });
});

describe('private networks at the simulated datacenter', () => {
  test('create is keyed by reference; attach and detach are idempotent; delete of a missing network succeeds', async () => {
    const dc = new SimulatedDatacenter();
    const vm = await dc.vmHosts.createVm(spec('vm-1'));
    const a = await dc.networkFabric.createNetwork({ reference: 'net-1', locationId: 1, cidr: '10.0.1.0/24' });
    const b = await dc.networkFabric.createNetwork({ reference: 'net-1', locationId: 1, cidr: '10.0.1.0/24' });
    assert.equal(a.externalId, b.externalId);
    const att = { network: { externalId: a.externalId, reference: 'net-1' }, vm: { externalId: vm.externalId, reference: 'vm-1' }, ip: '10.0.1.2' };
    await dc.networkFabric.attachIp(att);
    await dc.networkFabric.attachIp(att);
    assert.deepEqual(dc.networkFabric.networkStateOf('net-1')?.attachments, { '10.0.1.2': 'vm-1' });
    await dc.networkFabric.detachIp(att);
    await dc.networkFabric.detachIp(att);
    assert.deepEqual(dc.networkFabric.networkStateOf('net-1')?.attachments, {});
    await dc.networkFabric.deleteNetwork({ externalId: null, reference: 'net-1' });
    await dc.networkFabric.deleteNetwork({ externalId: null, reference: 'net-1' });
    assert.equal(dc.networkFabric.networkStateOf('net-1'), undefined);
  });

  test('refuses an address outside the hosts, one held by another machine, and an unknown network; deleting a VM frees its addresses', async () => {
    const dc = new SimulatedDatacenter();
    const one = await dc.vmHosts.createVm(spec('vm-1'));
    const two = await dc.vmHosts.createVm(spec('vm-2'));
    const net = await dc.networkFabric.createNetwork({ reference: 'net-2', locationId: 1, cidr: '10.0.0.0/24' });
    const ref = { externalId: net.externalId, reference: 'net-2' };
    await assert.rejects(dc.networkFabric.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.1' }), DatacenterError);
    await assert.rejects(dc.networkFabric.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.255' }), DatacenterError);
    await dc.networkFabric.attachIp({ network: ref, vm: { externalId: one.externalId, reference: 'vm-1' }, ip: '10.0.0.2' });
    await assert.rejects(dc.networkFabric.attachIp({ network: ref, vm: { externalId: two.externalId, reference: 'vm-2' }, ip: '10.0.0.2' }), /another machine/);
    await assert.rejects(dc.networkFabric.attachIp({ network: { externalId: null, reference: 'net-x' }, vm: { externalId: two.externalId, reference: 'vm-2' }, ip: '10.0.0.3' }), DatacenterError);
    await dc.vmHosts.deleteVm({ externalId: one.externalId, reference: 'vm-1' });
    assert.deepEqual(dc.networkFabric.networkStateOf('net-2')?.attachments, {});
    dc.failNext('create_network');
    await assert.rejects(dc.networkFabric.createNetwork({ reference: 'net-3', locationId: 1, cidr: '10.0.1.0/24' }), DatacenterError);
  });
});

describe('simulated datacenter: security groups and load balancers', () => {
  test('applying the same desired state twice is harmless; delete of a missing one succeeds', async () => {
    const dc = new SimulatedDatacenter();
    const sg = { reference: 'sg-1', locationId: 1, rules: [{ direction: 'ingress' as const, protocol: 'tcp' as const, portFrom: 22, portTo: 22, remoteCidr: '0.0.0.0/0' }], machines: ['vm-1'] };
    await dc.firewalls.applySecurityGroup(sg);
    await dc.firewalls.applySecurityGroup(sg);
    assert.deepEqual(dc.firewalls.securityGroupOf('sg-1')?.spec, sg);
    assert.equal(dc.firewalls.securityGroupOf('sg-1')?.applied, 2);
    await dc.firewalls.deleteSecurityGroup('sg-1');
    await dc.firewalls.deleteSecurityGroup('sg-1');
    assert.equal(dc.firewalls.securityGroupOf('sg-1'), undefined);

    const lb = { reference: 'lb-1', locationId: 1, algorithm: 'round_robin' as const, forwardingRules: [], healthCheck: null, targets: ['vm-1'] };
    const first = await dc.balancers.applyLoadBalancer(lb);
    const again = await dc.balancers.applyLoadBalancer({ ...lb, targets: ['vm-1', 'vm-2'] });
    assert.deepEqual(again, first);
    assert.deepEqual(dc.balancers.loadBalancerOf('lb-1')?.spec.targets, ['vm-1', 'vm-2']);
    dc.failNext('load_balancer');
    await assert.rejects(dc.balancers.deleteLoadBalancer('lb-1'), DatacenterError);
    await dc.balancers.deleteLoadBalancer('lb-1');
    await dc.balancers.deleteLoadBalancer('lb-1');
    assert.equal(dc.balancers.loadBalancerOf('lb-1'), undefined);
  });
});

describe('failures by capability', () => {
  test("each capability fails with its own error class, so a module recognises its own capability's failures", async () => {
    const dc = new SimulatedDatacenter();
    dc.failNext('any', 4, 'down');
    const vm = await dc.vmHosts.startVm('x').catch((e: unknown) => e);
    const net = await dc.networkFabric.deleteNetwork({ externalId: null, reference: 'net-1' }).catch((e: unknown) => e);
    const fw = await dc.firewalls.deleteSecurityGroup('sg-1').catch((e: unknown) => e);
    const lb = await dc.balancers.deleteLoadBalancer('lb-1').catch((e: unknown) => e);
    assert.ok(vm instanceof VmHostError && vm.operation === 'start' && vm.name === 'VmHostError', String(vm));
    assert.ok(net instanceof NetworkFabricError && !(net instanceof VmHostError), String(net));
    assert.ok(fw instanceof FirewallError && fw instanceof DatacenterError, String(fw));
    assert.ok(lb instanceof BalancerError && !(lb instanceof FirewallError), String(lb));
  });

  test("another capability's failure met on the way becomes a failure of the operation at hand, detail and capacity kept", () => {
    const firewall = new FirewallError('security_group', 'the rules do not apply', false, 'nft: syntax error');
    const asCreate = asFailureOf('create', firewall);
    assert.ok(asCreate instanceof VmHostError && asCreate.operation === 'create', String(asCreate));
    assert.equal(asCreate.message, 'the rules do not apply');
    assert.equal(asCreate.detail, 'nft: syntax error');
    const own = new VmHostError('create', 'no room', true);
    assert.equal(asFailureOf('start', own), own);
    const bug = new TypeError('a bug');
    assert.equal(asFailureOf('create', bug), bug);
  });
});
