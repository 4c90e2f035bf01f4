/**
 * The libvirt datacenter with real QEMU guests (the test image of scripts/build-guest-image.sh).
 * Runs where libvirt answers on qemu:///system as root; elsewhere it is skipped with the reason,
 * except under CI=true, where a missing libvirt fails. Everything is made under a random prefix
 * and removed in `after`, also when a test fails. Faults (libvirtd stopping, a killed create) are
 * in guest-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { VmSpec } from '../index.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { httpGet, libvirtAvailable, listEverything, opens, probeFrom, removeEverything, sshKey, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

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

const net = (reference: string) => ({ externalId: null, reference });

/** each step holds the shared lock: guest-faults.test.ts stops libvirtd only between them */
const locked = (fn: () => Promise<void>) => () => withLibvirtLock('shared', fn);

/** the domain's state as virsh reports it, or null */
function domstate(name: string): string | null {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'domstate', name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

describe('libvirt datacenter with real guests', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let dc: LibvirtDatacenter;
  let keys: { publicKey: string; fingerprint: string }[];
  const ip: Record<string, string> = {};

  before(() =>
    withLibvirtLock('shared', async () => {
    setup = testSetup();
    dc = new LibvirtDatacenter(setup.config);
    const keyDir = mkdtempSync(path.join(tmpdir(), 'guest-keys-'));
    keys = [sshKey('ed25519', keyDir), sshKey('rsa', keyDir)];
    const pool = dc.vmHosts.publicIpPool(1).addresses;
    [ip.a, ip.b, ip.c] = [pool[0]!, pool[1]!, pool[2]!];
    await dc.networkFabric.createNetwork({ reference: 'net-a', locationId: 1, cidr: '10.61.1.0/24' });
    await dc.networkFabric.createNetwork({ reference: 'net-b', locationId: 1, cidr: '10.61.2.0/24' });
    // the three guests boot together (TCG: about a core each for a few seconds)
    await Promise.all([
      dc.vmHosts.createVm(spec('vm-a', { publicIp: ip.a!, blockStorage: { machineId: 1, sizeGb: 3 }, sshKeys: keys.map((k) => k.publicKey), privateAddresses: [{ network: net('net-a'), ip: '10.61.1.10' }] })),
      dc.vmHosts.createVm(spec('vm-b', { publicIp: ip.b!, cpuLimit: 50 })),
      dc.vmHosts.createVm(spec('vm-c', { publicIp: ip.c!, privateAddresses: [{ network: net('net-b'), ip: '10.61.2.10' }] })),
    ]);
    }),
  );

  after(() => {
    if (setup) removeEverything(setup);
  });

  test('create returns once the guest is up; a second create is the same machine, with no second domain or disk', locked(async () => {
    for (const name of ['vm-a', 'vm-b', 'vm-c']) {
      assert.equal(domstate(`${setup.prefix}-${name}`), 'running');
      assert.equal(await httpGet(`http://${ip[name.slice(3)]}/`), name, `${name} serves its name`);
    }
    const described = (await dc.vmHosts.describeVm('vm-a'))!;
    assert.match(readFileSync(described.console, 'utf8'), /GUEST-UP vm-a/);
    // an image booted from its kernel gets its NoCloud drive too
    assert.ok(described.disks.includes(`${setup.dirs[0]}/${setup.prefix}-vm-a-cidata.iso`), JSON.stringify(described.disks));
    const files = () => listEverything(setup).filter((l) => l.kind === 'file' && l.name.includes('-vm-a'));
    const before = files();
    const again = await dc.vmHosts.createVm(spec('vm-a', { publicIp: ip.a!, blockStorage: { machineId: 1, sizeGb: 3 } }));
    assert.deepEqual(again, { externalId: `${setup.prefix}-vm-a`, hypervisor: 'hv-local' });
    assert.deepEqual(listEverything(setup).filter((l) => l.kind === 'domain').map((l) => l.name).sort(), ['vm-a', 'vm-b', 'vm-c'].map((n) => `${setup.prefix}-${n}`));
    assert.deepEqual(files(), before);
    // the CPU limit is a cputune quota: 50 % of each vCPU
    const xml = execFileSync('virsh', ['-c', 'qemu:///system', 'dumpxml', `${setup.prefix}-vm-b`], { encoding: 'utf8' });
    assert.match(xml, /<period>100000<\/period>\s*<quota>50000<\/quota>/);
    const hv = await dc.vmHosts.hypervisors(1);
    assert.equal(hv.length, 1);
    assert.ok(hv[0]!.vcpuUsed >= 3 && hv[0]!.memoryMbUsed >= 480, JSON.stringify(hv));
  }));

  test('the 3 GB volume is a 3 GB disk in the guest, and the SSH keys chosen at create reach it', locked(async () => {
    const info = (await httpGet(`http://${ip.a}/cgi-bin/info`))!;
    assert.match(info, new RegExp(`^disk vdb ${3 * 1024 ** 3}$`, 'm'));
    assert.match(info, new RegExp(`^disk vda ${2 * 1024 ** 3}$`, 'm'));
    const console = readFileSync((await dc.vmHosts.describeVm('vm-a'))!.console, 'utf8');
    for (const k of keys) assert.ok(console.includes(`guest-key: ${k.fingerprint} `), `the console shows ${k.fingerprint}`);
  }));

  test('two VMs of one network reach each other (attached to a running VM); a VM of another network cannot', locked(async () => {
    await dc.networkFabric.attachIp({ network: net('net-a'), vm: { externalId: `${setup.prefix}-vm-b`, reference: 'vm-b' }, ip: '10.61.1.11' });
    await dc.networkFabric.attachIp({ network: net('net-a'), vm: { externalId: null, reference: 'vm-b' }, ip: '10.61.1.11' }); // again: no second NIC
    assert.ok(await opens(ip.a!, '10.61.1.11', 80), 'vm-a reaches vm-b on net-a');
    assert.ok(await opens(ip.b!, '10.61.1.10', 9000), 'vm-b reaches vm-a on net-a');
    assert.equal((await dc.vmHosts.describeVm('vm-b'))!.nics.length, 2);
    await assert.rejects(dc.networkFabric.attachIp({ network: net('net-a'), vm: { externalId: null, reference: 'vm-c' }, ip: '10.61.1.11' }), /another machine/);
    // vm-c is on net-b only: neither address of net-a answers it
    assert.equal(await probeFrom(ip.c!, '10.61.1.10', 80), 'closed');
    assert.equal(await probeFrom(ip.c!, '10.61.1.11', 80), 'closed');
    assert.equal(await probeFrom(ip.a!, '10.61.2.10', 80), 'closed');
  }));

  test('a security group lets in only TCP 8080 from the network; removing the rule closes it on the running VM', locked(async () => {
    const rule = { direction: 'ingress' as const, protocol: 'tcp' as const, portFrom: 8080, portTo: 8080, remoteCidr: '10.61.1.0/24' };
    // the test talks to vm-b's probe page from the host (the public gateway): that stays allowed
    const control = { direction: 'ingress' as const, protocol: 'tcp' as const, portFrom: 80, portTo: 80, remoteCidr: `${setup.net3}.1/32` };
    await dc.firewalls.applySecurityGroup({ reference: 'sg-web', locationId: 1, rules: [rule, control], machines: ['vm-b'] });
    assert.ok(await opens(ip.a!, '10.61.1.11', 8080));
    assert.equal(await probeFrom(ip.a!, '10.61.1.11', 80), 'closed');
    assert.equal(await probeFrom(ip.a!, '10.61.1.11', 9000), 'closed');
    assert.equal(await httpGet(`http://${ip.b}:8080/`, 2500), null, 'not from outside the network either');
    assert.equal(await httpGet(`http://${ip.c}:8080/`), 'vm-c', 'a VM outside the group is open');
    assert.ok(await opens(ip.b!, '10.61.1.10', 80), 'outbound is not filtered without egress rules');
    await dc.firewalls.applySecurityGroup({ reference: 'sg-web', locationId: 1, rules: [control], machines: ['vm-b'] });
    assert.equal(await probeFrom(ip.a!, '10.61.1.11', 8080), 'closed');
    await dc.firewalls.deleteSecurityGroup('sg-web');
    assert.ok(await opens(ip.a!, '10.61.1.11', 80));
  }));

  test('stop shuts the domain off; start boots it again and it keeps the address it got while running', locked(async () => {
    await dc.vmHosts.stopVm(`${setup.prefix}-vm-b`);
    assert.equal(domstate(`${setup.prefix}-vm-b`), 'shut off');
    await dc.vmHosts.stopVm(`${setup.prefix}-vm-b`); // stopping a stopped machine is fine
    assert.equal(domstate(`${setup.prefix}-vm-b`), 'shut off');
    await dc.vmHosts.startVm('vm-b'); // by reference as well as by external id
    await dc.vmHosts.startVm(`${setup.prefix}-vm-b`); // and starting a running one is fine
    assert.equal(domstate(`${setup.prefix}-vm-b`), 'running');
    assert.equal(await httpGet(`http://${ip.b}/`), 'vm-b');
    assert.ok(await opens(ip.a!, '10.61.1.11', 80), 'vm-b has 10.61.1.11 again after the restart');
    await dc.networkFabric.detachIp({ network: net('net-a'), vm: { externalId: null, reference: 'vm-b' }, ip: '10.61.1.11' });
    await dc.networkFabric.detachIp({ network: net('net-a'), vm: { externalId: null, reference: 'vm-b' }, ip: '10.61.1.11' });
    assert.equal((await dc.vmHosts.describeVm('vm-b'))!.nics.length, 1);
    assert.equal(await probeFrom(ip.a!, '10.61.1.11', 80), 'closed');
  }));

  test('deleting everything leaves no domain, disk, bridge, namespace, firewall rule or dnsmasq behind', locked(async () => {
    await dc.firewalls.applySecurityGroup({ reference: 'sg-x', locationId: 1, rules: [{ direction: 'ingress', protocol: 'icmp', portFrom: null, portTo: null, remoteCidr: '0.0.0.0/0' }], machines: ['vm-a'] });
    const nftBefore = execFileSync('nft', ['list', 'table', 'inet', setup.prefix], { encoding: 'utf8' });
    assert.match(nftBefore, /chain vm_/);
    await dc.firewalls.deleteSecurityGroup('sg-x');
    for (const vm of ['vm-a', 'vm-b', 'vm-c']) await dc.vmHosts.deleteVm({ externalId: null, reference: vm });
    await dc.vmHosts.deleteVm({ externalId: `${setup.prefix}-vm-a`, reference: 'vm-a' });
    await dc.networkFabric.deleteNetwork(net('net-a'));
    await dc.networkFabric.deleteNetwork(net('net-b'));
    await dc.networkFabric.deleteNetwork(net('net-b'));

    const left = listEverything(setup);
    const publicBridge = `${setup.prefix}-pub`;
    // what stays is the host's public bridge, the adapter's (now empty) tables, its lock files and the empty group state
    const unexpected = left.filter(
      (l) => !(l.kind === 'link' && l.name === publicBridge) && l.kind !== 'nft' && !(l.kind === 'file' && /(\.lock|-firewall\.json)$/.test(l.name)),
    );
    assert.deepEqual(unexpected, []);
    const ours = ['bridge', 'inet'].map((family) => execFileSync('nft', ['list', 'table', family, setup.prefix], { encoding: 'utf8' })).join('\n');
    assert.doesNotMatch(ours, /vm_|sg_|meta mark/);
    assert.equal(spawnSync('pgrep', ['-f', `${setup.dirs[1]}/${setup.prefix}-`]).status, 1, 'no dnsmasq left');
  }));
});
