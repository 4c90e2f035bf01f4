import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDomstats } from './libvirt-metrics.js';

const OUT = `Domain: 'cp-vm-1'
  cpu.time=780000000
  cpu.user=360000000
  balloon.current=163840
  balloon.maximum=163840
  balloon.available=160000
  balloon.unused=100000
  balloon.usable=110000
  vcpu.current=2
  vcpu.maximum=2
  net.count=2
  net.0.name=cpab12cdpub
  net.0.rx.bytes=1000
  net.0.rx.pkts=10
  net.0.tx.bytes=2000
  net.0.tx.pkts=20
  net.1.name=cpab12cdn123
  net.1.rx.bytes=5
  net.1.rx.pkts=1
  net.1.tx.bytes=7
  net.1.tx.pkts=1
  block.count=3
  block.0.name=vda
  block.0.rd.reqs=100
  block.0.rd.bytes=409600
  block.0.wr.reqs=50
  block.0.wr.bytes=204800
  block.1.name=vdb
  block.1.rd.reqs=1
  block.1.rd.bytes=512
  block.1.wr.reqs=2
  block.1.wr.bytes=1024
  block.2.name=hdc
  block.2.allocation=376832

Domain: 'cp-vm-2'
  cpu.time=5
  balloon.current=163840
  vcpu.current=1
`;

test('domstats: disks and NICs summed, memory in use from the balloon statistics, null without them', () => {
  const m = parseDomstats(OUT);
  assert.deepEqual(m.get('cp-vm-1'), {
    cpuTimeNs: 780000000,
    vcpus: 2,
    memoryUsedBytes: (160000 - 110000) * 1024,
    diskReadBytes: 410112,
    diskWriteBytes: 205824,
    diskReadOps: 101,
    diskWriteOps: 52,
    netInBytes: 1005,
    netOutBytes: 2007,
    netInPackets: 11,
    netOutPackets: 21,
  });
  assert.deepEqual(m.get('cp-vm-2'), {
    cpuTimeNs: 5,
    vcpus: 1,
    memoryUsedBytes: null,
    diskReadBytes: 0,
    diskWriteBytes: 0,
    diskReadOps: 0,
    diskWriteOps: 0,
    netInBytes: 0,
    netOutBytes: 0,
    netInPackets: 0,
    netOutPackets: 0,
  });
});
