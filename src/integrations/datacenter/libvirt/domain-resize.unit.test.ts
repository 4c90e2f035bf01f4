import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domainXml, parseDomainXml } from './domain-xml.js';
import { domainSize, hasSize, resizedDomainXml } from './domain-resize.js';

const base = domainXml({
  name: 'p-vm-1',
  uuid: 'u',
  type: 'qemu',
  vcpus: 1,
  memoryMb: 160,
  cpuLimit: 100,
  boot: { kind: 'disk' },
  rootDisk: '/img/p-vm-1.qcow2',
  dataDisk: null,
  configDrive: null,
  nics: [{ mac: '52:54:00:00:00:01', bridge: 'br0', tap: 'p-t1' }],
  console: '/state/p-vm-1.console.log',
  metadata: { reference: 'vm-1', locationId: 1, os: 'test', publicIp: '198.19.1.2', sshKeys: [], userData: null },
});
// what `virsh dumpxml --inactive` gives back: KiB, a currentMemory, a CPU topology
const dumped = base
  .replace(/<memory unit="MiB">160<\/memory>/, '<memory unit="KiB">163840</memory><currentMemory unit="KiB">163840</currentMemory>')
  .replace('<vcpu placement="static">1</vcpu>', '<vcpu placement="static" current="1">1</vcpu><cpu><topology sockets="1" cores="1" threads="1"/></cpu>');

test('a resized definition has the new vCPUs, memory and CPU limit, and keeps its disks, NICs and metadata', () => {
  assert.deepEqual(domainSize(dumped), { vcpus: 1, memoryMb: 160, quotaUs: null });
  const size = { cpu: 2, memoryMb: 256, diskGb: 3, cpuLimit: 50 };
  assert.equal(hasSize(domainSize(dumped), size), false);
  const xml = resizedDomainXml(dumped, size);
  assert.deepEqual(domainSize(xml), { vcpus: 2, memoryMb: 256, quotaUs: 50_000 });
  assert.equal(hasSize(domainSize(xml), size), true);
  assert.match(xml, /<currentMemory unit="MiB">256<\/currentMemory>/);
  assert.doesNotMatch(xml, /topology|current="1"/);
  assert.match(xml, /<period>100000<\/period>\s*<quota>50000<\/quota>/);
  const before = parseDomainXml(dumped);
  const after = parseDomainXml(xml);
  assert.deepEqual([after.disks, after.nics, after.metadata], [before.disks, before.nics, before.metadata]);

  // back to no CPU limit: the quota goes
  const unlimited = resizedDomainXml(xml, { cpu: 2, memoryMb: 256, diskGb: 3, cpuLimit: 100 });
  assert.doesNotMatch(unlimited, /quota|cputune/);
  assert.equal(domainSize(unlimited).quotaUs, null);
});
