import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../config/index.js';
import { createDatacenter, DatacenterError, LibvirtDatacenter } from '../index.js';
import { parseLibvirtConfig, type LibvirtConfigInput } from './config.js';
import { domainXml, interfaceXml, parseDomainXml } from './domain-xml.js';
import { firewallScript } from './firewall.js';
import { readiness } from './guest-boot.js';
import { kernelCommandLine, noCloudFiles } from './guest-config.js';
import { haproxyConfig } from './haproxy.js';
import { HostCommandError, shellQuote, sshCommand } from './host.js';
import { hostFailureMessage } from './libvirt-datacenter.js';
import { Names } from './names.js';

const input = (): LibvirtConfigInput => ({
  prefix: 'chp',
  images: { 'debian-12': { disk: 'debian-12.qcow2' } },
  locations: {
    '1': {
      publicNetwork: '198.18.1.0/24',
      loadBalancerAddresses: '198.18.1.240/28',
      hypervisors: [
        { name: 'hv1', uri: 'qemu:///system', domainType: 'kvm', imageDir: '/var/lib/images', stateDir: '/var/lib/state', publicBridge: 'br-pub' },
        { name: 'hv2', uri: 'qemu+ssh://root@hv2.example:2222/system', domainType: 'qemu', imageDir: '/var/lib/images', stateDir: '/var/lib/state', publicBridge: 'br-pub' },
      ],
    },
  },
});

describe('libvirt configuration', () => {
  test('a valid file loads; DATACENTER=libvirt picks the adapter', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'libvirt-config-'));
    const file = path.join(dir, 'libvirt.json');
    writeFileSync(file, JSON.stringify(input()));
    const config = loadConfig({ DATABASE_URL: 'memory://', NODE_ENV: 'test', DATACENTER: 'libvirt', LIBVIRT_CONFIG: file });
    assert.equal(config.datacenter, 'libvirt');
    assert.equal(config.libvirt?.locations.get(1)?.hypervisors.length, 2);
    const dc = createDatacenter({ kind: 'libvirt', delayMs: 0, libvirt: config.libvirt });
    assert.ok(dc instanceof LibvirtDatacenter);
    // the balancers' block is kept out of the VMs' pool, and so are network, gateway and broadcast
    const pool = dc.vmHosts.publicIpPool(1);
    assert.equal(pool.cidr, '198.18.1.0/24');
    assert.equal(pool.addresses[0], '198.18.1.2');
    assert.equal(pool.addresses.at(-1), '198.18.1.239');
    assert.equal(pool.addresses.length, 238);
    assert.deepEqual(dc.vmHosts.publicIpPool(9).addresses, []);
  });

  test('one bad value stops start-up with one line naming it', () => {
    const base = { DATABASE_URL: 'memory://', NODE_ENV: 'test', DATACENTER: 'libvirt' };
    assert.throws(() => loadConfig(base), (e: unknown) => e instanceof ConfigError && /LIBVIRT_CONFIG is required/.test(e.message));
    const dir = mkdtempSync(path.join(tmpdir(), 'libvirt-config-'));
    const cases: [string, (c: LibvirtConfigInput) => void][] = [
      ['/locations/1/hypervisors/0/uri', (c) => (c.locations['1']!.hypervisors[0]!.uri = 'qemu+tcp://hv/system')],
      ['/locations/1/hypervisors/1/domainType', (c) => ((c.locations['1']!.hypervisors[1] as { domainType: string }).domainType = 'xen')],
      ['/prefix', (c) => (c.prefix = 'TooLong')],
      ['/locations/1/loadBalancerAddresses', (c) => (c.locations['1']!.loadBalancerAddresses = '10.0.0.0/28')],
      ['/locations/1/publicNetwork', (c) => (c.locations['1']!.publicNetwork = '198.18.1.1/24')],
      ['/locations/1/hypervisors/1/name', (c) => (c.locations['1']!.hypervisors[1]!.name = 'hv1')],
      ['/images/debian-12', (c) => (c.images['debian-12'] = { disk: 'x.qcow2', kernel: '/boot/vmlinuz' })],
    ];
    for (const [where, spoil] of cases) {
      const c = input();
      spoil(c);
      const file = path.join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(c));
      assert.throws(
        () => loadConfig({ ...base, LIBVIRT_CONFIG: file }),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(`Invalid configuration: LIBVIRT_CONFIG ${where}`) && !e.message.includes('\n'),
        where,
      );
    }
    writeFileSync(path.join(dir, 'broken.json'), '{');
    assert.throws(() => loadConfig({ ...base, LIBVIRT_CONFIG: path.join(dir, 'broken.json') }), /is not JSON/);
  });
});

describe('libvirt adapter pieces', () => {
  const names = new Names('chp');

  test('names: interfaces fit in 15 characters, the same reference always gives the same names', () => {
    for (const n of [names.publicTap('vm-123456'), names.privateTap('vm-123456', 'net-99', '10.0.0.2'), names.bridge('net-99'), names.vxlan('net-99'), names.dhcpVethHost('net-99'), names.balancerVethHost('lb-x')]) {
      assert.ok(n.length <= 15 && n.startsWith('chp'), n);
    }
    assert.ok(names.privateTap('vm-1', 'net-1', '10.0.0.2').startsWith(names.tapPrefix('vm-1')));
    assert.equal(names.uuid('vm-1'), new Names('chp').uuid('vm-1'));
    assert.match(names.uuid('vm-1'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(names.publicMac('vm-1'), /^52:54:00(:[0-9a-f]{2}){3}$/);
    assert.equal(names.referenceOf(names.domain('vm-7')), 'vm-7');
    assert.equal(names.referenceOf('other-vm'), undefined);
  });

  test('domain XML: values escaped, CPU limit as a per-vCPU quota, metadata read back', () => {
    const xml = domainXml({
      name: 'chp-vm-1',
      uuid: names.uuid('vm-1'),
      type: 'kvm',
      vcpus: 2,
      memoryMb: 2048,
      cpuLimit: 25,
      boot: { kind: 'kernel', kernel: '/img/vmlinuz', initrd: '/img/initrd', cmdline: 'guest.name=<vm&1>' },
      rootDisk: '/img/chp-vm-1-root.qcow2',
      dataDisk: { path: '/dev/vg0/chp-vm-1-data', block: true },
      configDrive: null,
      nics: [{ mac: '52:54:00:00:00:01', bridge: 'br-pub', tap: 'chpabcdef0pub' }],
      console: '/state/chp-vm-1.console.log',
      metadata: { reference: 'vm-1', locationId: 3, os: 'a"b', publicIp: '198.18.1.2', sshKeys: ['ssh-ed25519 AAAA x<y'], userData: '#!/bin/sh\necho "<é>\u0001 ]]>"\n' },
    });
    assert.match(xml, /<cmdline>guest\.name=&lt;vm&amp;1&gt;<\/cmdline>/);
    assert.match(xml, /<period>100000<\/period>\s*<quota>25000<\/quota>/);
    assert.match(xml, /<source dev="\/dev\/vg0\/chp-vm-1-data"\/>/);
    const parsed = parseDomainXml(xml);
    assert.deepEqual(parsed.metadata, { reference: 'vm-1', locationId: 3, os: 'a"b', publicIp: '198.18.1.2', sshKeys: ['ssh-ed25519 AAAA x<y'], userData: '#!/bin/sh\necho "<é>\u0001 ]]>"\n' });
    assert.deepEqual(parsed.nics, [{ mac: '52:54:00:00:00:01', bridge: 'br-pub', tap: 'chpabcdef0pub' }]);
    assert.match(interfaceXml(parsed.nics[0]!), /^<interface type="bridge">/);
    assert.doesNotMatch(domainXml({ ...{ name: 'n', uuid: 'u', type: 'qemu', vcpus: 1, memoryMb: 1, cpuLimit: 100, boot: { kind: 'disk' }, rootDisk: '/r', dataDisk: null, configDrive: '/c.iso', nics: [], console: '/c', metadata: { reference: 'n', locationId: 1, os: 'x', publicIp: null, sshKeys: [], userData: null } } }), /cputune/);
  });

  test('domain XML: the NoCloud drive is a CD-ROM on IDE, which every cloud kernel sees (Debian\'s has no SATA driver)', () => {
    const xml = domainXml({ name: 'n', uuid: 'u', type: 'qemu', vcpus: 1, memoryMb: 512, cpuLimit: 100, boot: { kind: 'disk' }, rootDisk: '/r.qcow2', dataDisk: null, configDrive: '/n-cidata.iso', nics: [], console: '/c', metadata: { reference: 'n', locationId: 1, os: 'debian-12', publicIp: null, sshKeys: [], userData: null } });
    assert.match(xml, /<type arch="x86_64" machine="pc">hvm<\/type>/);
    assert.match(xml, /<disk type="file" device="cdrom">\s*<driver name="qemu" type="raw"\/>\s*<source file="\/n-cidata\.iso"\/>\s*<target dev="hdc" bus="ide"\/>/);
    assert.doesNotMatch(xml, /sata/);
    assert.match(xml, /<rng model="virtio">\s*<backend model="random">\/dev\/urandom<\/backend>\s*<\/rng>/, 'entropy for a quick boot');
  });

  test('ready: a cloud image when cloud-init finished or SSH answers, not at its login prompt; an image with its own ready line by that line', () => {
    const cloud = readiness({ disk: 'debian-12.qcow2' });
    assert.equal(cloud.sshProbe, true);
    assert.equal(cloud.pattern.test('Debian GNU/Linux 12 vm-1 ttyS0\n\nvm-1 login: '), false);
    assert.equal(cloud.pattern.test('[   61.2] cloud-init[412]: Cloud-init v. 22.4.2 finished at Fri, 27 Nov 2026 19:01:02 +0000. Datasource DataSourceNoCloud [seed=/dev/sr0][dsmode=net].  Up 61.15 seconds'), true);
    assert.equal(readiness(undefined).sshProbe, true);
    const test = readiness({ disk: 'disk.qcow2', kernel: '/k', initrd: '/i', readyPattern: 'GUEST-UP ' });
    assert.deepEqual([test.sshProbe, test.pattern.test('GUEST-UP vm-1'), test.pattern.test('Cloud-init v. 22.4.2 finished at')], [false, true, false]);
  });

  test('guest settings: the kernel command line for the test image, a NoCloud drive for real images', () => {
    const id = { reference: 'vm-1', instanceId: 'chp-vm-1', publicNic: { mac: '52:54:00:00:00:01', address: '198.18.1.5', prefix: 24, gateway: '198.18.1.1' }, privateMacs: ['52:54:00:00:00:02'], sshKeys: ['ssh-ed25519 AAAAC3Nza me@host'] };
    assert.equal(kernelCommandLine(id), 'console=ttyS0 panic=-1 quiet guest.name=vm-1 guest.mac=52:54:00:00:00:01 guest.ip=198.18.1.5/24 guest.gw=198.18.1.1 guest.keys=ssh-ed25519:AAAAC3Nza');
    const files = noCloudFiles(id);
    assert.deepEqual(JSON.parse(files['meta-data']), { 'instance-id': 'chp-vm-1', 'local-hostname': 'vm-1' });
    assert.ok(files['user-data'].startsWith('#cloud-config\n'));
    assert.deepEqual(JSON.parse(files['user-data'].slice('#cloud-config\n'.length)).ssh_authorized_keys, ['ssh-ed25519 AAAAC3Nza me@host']);
    const network = JSON.parse(files['network-config']);
    assert.deepEqual(network.ethernets.public.addresses, ['198.18.1.5/24']);
    // Debian 12's cloud-init refuses `to: default` for every renderer but netplan
    assert.deepEqual(network.ethernets.public.routes, [{ to: '0.0.0.0/0', via: '198.18.1.1' }]);
    assert.equal(network.ethernets.private0.dhcp4, true);
  });

  test('firewall: a group guards only its machines on this host; inbound needs a rule, outbound only when egress rules exist', () => {
    const { script, errors } = firewallScript(names, {
      state: {
        groups: {
          'sg-web': { rules: [{ direction: 'ingress', protocol: 'tcp', portFrom: 8080, portTo: 8081, remoteCidr: '10.0.1.0/24' }, { direction: 'ingress', protocol: 'icmp', portFrom: null, portTo: null, remoteCidr: '0.0.0.0/0' }], machines: ['vm-1', 'vm-elsewhere'] },
          'sg-out': { rules: [{ direction: 'egress', protocol: 'udp', portFrom: 53, portTo: 53, remoteCidr: '2001:db8::/32' }], machines: ['vm-2'] },
        },
      },
      vms: [{ reference: 'vm-1', publicIp: '198.18.1.5' }, { reference: 'vm-2', publicIp: null }, { reference: 'vm-3', publicIp: null }],
      publicBridges: [{ name: 'br-pub', network: '198.18.1.0/24', egress: 'none' }],
    });
    assert.deepEqual(errors, []);
    assert.match(script, /ip saddr 10\.0\.1\.0\/24 tcp dport 8080-8081 accept/);
    assert.match(script, /meta nfproto ipv4 meta l4proto icmp accept/);
    assert.match(script, /ip6 daddr 2001:db8::\/32 udp dport 53 accept/);
    assert.match(script, new RegExp(`oifname "${names.tapPrefix('vm-1')}\\*" meta mark set`));
    assert.match(script, /oifname "br-pub" ip daddr 198\.18\.1\.5 jump vm_/);
    assert.match(script, new RegExp(`chain vm_${names.vmKey('vm-2')}_out`));
    assert.doesNotMatch(script, new RegExp(`chain vm_${names.vmKey('vm-1')}_out`), 'no egress rules: outbound open');
    assert.doesNotMatch(script, new RegExp(names.vmKey('vm-3')), 'a VM in no group is not filtered');
    assert.doesNotMatch(script, /vm-elsewhere/);
    assert.match(script, /iifname "br-pub" oifname != "br-pub" drop/);
    const bad = firewallScript(names, { state: { groups: { g: { rules: [{ direction: 'ingress', protocol: 'tcp', portFrom: 1, portTo: 2, remoteCidr: '1.2.3.4/8; flush ruleset' }], machines: ['vm-1'] } } }, vms: [{ reference: 'vm-1', publicIp: null }], publicBridges: [] });
    assert.equal(bad.errors.length, 1);
    assert.doesNotMatch(bad.script, /flush ruleset/);
  });

  test('HAProxy: a frontend per rule, the algorithm, the health check; UDP and odd paths are refused', () => {
    const spec = {
      reference: 'lb-1',
      locationId: 1,
      algorithm: 'least_connections' as const,
      forwardingRules: [
        { entryProtocol: 'http', entryPort: 80, targetProtocol: 'http', targetPort: 8080 },
        { entryProtocol: 'https', entryPort: 443, targetProtocol: 'https', targetPort: 443 },
      ],
      healthCheck: { protocol: 'http', port: 8080, path: '/health' },
      targets: ['vm-1', 'vm-2'],
    };
    const cfg = haproxyConfig(spec, '198.18.1.240', [
      { reference: 'vm-1', address: '198.18.1.5' },
      { reference: 'vm-2', address: '198.18.1.6' },
    ]);
    assert.match(cfg, /bind 198\.18\.1\.240:80\n {2}mode http/);
    assert.match(cfg, /bind 198\.18\.1\.240:443\n {2}mode tcp/);
    assert.match(cfg, /balance leastconn/);
    assert.match(cfg, /option httpchk GET \/health/);
    assert.match(cfg, /server vm-2 198\.18\.1\.6:8080 check port 8080 inter 2000 fall 2 rise 2/);
    assert.throws(() => haproxyConfig({ ...spec, forwardingRules: [{ entryProtocol: 'udp', entryPort: 53, targetProtocol: 'udp', targetPort: 53 }] }, '198.18.1.240', []), /UDP/);
    assert.throws(() => haproxyConfig({ ...spec, healthCheck: { protocol: 'http', port: 80, path: '/x\n  server evil 1.2.3.4:80' } }, '198.18.1.240', []), /not a URL path/);
  });

  test('commands sent over ssh are quoted word by word', () => {
    assert.equal(shellQuote('/var/lib/x'), '/var/lib/x');
    assert.equal(shellQuote("it's; rm -rf /"), `'it'\\''s; rm -rf /'`);
    const cfg = parseLibvirtConfig(input());
    assert.equal(cfg.locations.get(1)!.hypervisors[1]!.uri, 'qemu+ssh://root@hv2.example:2222/system');
  });

  test("host commands log in as virsh does: user, port, and libvirt's keyfile and no_verify of the URI", () => {
    assert.equal(sshCommand('qemu:///system'), null);
    assert.deepEqual(sshCommand('qemu+ssh://hv2.example/system'), ['ssh', '-o', 'BatchMode=yes', '-T', '-e', 'none', '--', 'hv2.example']);
    assert.deepEqual(sshCommand('qemu+ssh://root@127.0.0.1:2222/system?keyfile=/etc/chp/hv%20key&no_verify=1&no_tty=1'), ['ssh', '-o', 'BatchMode=yes', '-T', '-e', 'none', '-i', '/etc/chp/hv key', '-o', 'StrictHostKeyChecking=no', '-p', '2222', '--', 'root@127.0.0.1']);
    const cfg = input();
    cfg.locations['1']!.hypervisors[1]!.uri = 'qemu+ssh://root@hv2.example/system?keyfile=/k&no_verify=1';
    assert.equal(parseLibvirtConfig(cfg).locations.get(1)!.hypervisors[1]!.uri, 'qemu+ssh://root@hv2.example/system?keyfile=/k&no_verify=1');
    // a parameter the host commands would not follow (another ssh binary, a socket) is refused
    cfg.locations['1']!.hypervisors[1]!.uri = 'qemu+ssh://root@hv2.example/system?command=/usr/local/bin/ssh';
    assert.throws(() => parseLibvirtConfig(cfg), /\/locations\/1\/hypervisors\/1\/uri .*the parameter command is not supported/);
  });
});

describe('errors customers and staff see', () => {
  test('a host command that failed is a message naming no command, host, path or output; those are the logged detail', async () => {
    const unreachable = new HostCommandError("virsh -c qemu+ssh://root@hv9.internal/system -q domstate chp-vm-1", 1, "error: failed to connect to the hypervisor\nerror: Failed to connect socket to '/var/run/libvirt/libvirt-sock': No such file or directory");
    assert.equal(hostFailureMessage('create', unreachable), 'the hypervisor could not be reached; could not create the machine');
    const refused = new HostCommandError('qemu-img create -f qcow2 -b /var/lib/images/debian.qcow2 /var/lib/state/chp-vm-1.qcow2', 1, 'qemu-img: /var/lib/state: Permission denied');
    assert.equal(hostFailureMessage('create', refused), 'the hypervisor failed to create the machine');
    assert.equal(hostFailureMessage('stop', new HostCommandError('virsh shutdown x', null, 'did not finish within 60000 ms')), 'the hypervisor did not answer in time; could not stop the machine');
    assert.equal(hostFailureMessage('capacity', unreachable), 'the hypervisor could not be reached; could not read what the hypervisors hold');

    // through the adapter: a hypervisor nobody answers at (ssh to a closed port, or no virsh at all)
    const cfg = input();
    cfg.locations['1']!.hypervisors = [{ name: 'hv9', uri: 'qemu+ssh://nobody@127.0.0.1:1/system', domainType: 'qemu', imageDir: '/var/lib/images', stateDir: '/var/lib/state', publicBridge: 'br-pub' }];
    const dc = new LibvirtDatacenter(parseLibvirtConfig(cfg));
    const spec = { reference: 'vm-1', locationId: 1, cpu: 1, memoryMb: 128, diskGb: 1, cpuLimit: 100, os: 'debian-12', publicIp: null, blockStorage: null };
    const err = await dc.vmHosts.createVm(spec).then(
      () => assert.fail('created'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DatacenterError, String(err));
    assert.match(err.message, /^the hypervisor (could not be reached; could not|failed to) create the machine$/);
    assert.match(err.detail ?? '', /virsh -c qemu\+ssh:\/\/nobody@127\.0\.0\.1:1\/system/);
  });
});
