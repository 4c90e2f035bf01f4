import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allocateHost, allocateNetwork, diagramPosition, gatewayOf, hostCapacity, isHostAddress, overlaps, rangeOf } from './networks.addresses.js';

describe('allocateNetwork (10.0.0.0/8, never overlapping the customer\'s networks)', () => {
  test('the first network starts at 10.0.0.0', () => {
    assert.equal(allocateNetwork([], 24), '10.0.0.0');
    assert.equal(allocateNetwork([], 16), '10.0.0.0');
  });

  test('the next block is aligned on its own size after the ones taken', () => {
    assert.equal(allocateNetwork([{ networkIp: '10.0.0.0', cidr: 24 }], 24), '10.0.1.0');
    assert.equal(allocateNetwork([{ networkIp: '10.0.0.0', cidr: 24 }], 16), '10.1.0.0');
    assert.equal(allocateNetwork([{ networkIp: '10.0.0.0', cidr: 16 }], 24), '10.1.0.0');
    assert.equal(allocateNetwork([{ networkIp: '10.0.0.0', cidr: 24 }], 20), '10.0.16.0');
  });

  test('holes between taken blocks are reused', () => {
    const taken = [
      { networkIp: '10.0.0.0', cidr: 24 },
      { networkIp: '10.0.2.0', cidr: 24 },
    ];
    assert.equal(allocateNetwork(taken, 24), '10.0.1.0');
    assert.equal(allocateNetwork(taken, 23), '10.0.4.0');
  });

  test('whatever the order and sizes, the result never overlaps', () => {
    const taken: { networkIp: string; cidr: number }[] = [];
    const sizes = [24, 16, 20, 24, 18, 22, 16, 24, 19, 21];
    for (const cidr of sizes) {
      const ip = allocateNetwork(taken, cidr);
      assert.ok(ip);
      const block = { networkIp: ip, cidr };
      for (const other of taken) assert.equal(overlaps(block, other), false, `${ip}/${cidr} overlaps ${other.networkIp}/${other.cidr}`);
      assert.equal(rangeOf(block)[0] % 2 ** (32 - cidr), 0);
      taken.push(block);
    }
  });

  test('a full 10.0.0.0/8 gives null', () => {
    assert.equal(allocateNetwork([{ networkIp: '10.0.0.0', cidr: 8 }], 24), null);
    const halves = [
      { networkIp: '10.0.0.0', cidr: 9 },
      { networkIp: '10.128.0.0', cidr: 9 },
    ];
    assert.equal(allocateNetwork(halves, 16), null);
  });

  test('misaligned blocks and bad prefixes are refused', () => {
    assert.throws(() => rangeOf({ networkIp: '10.0.0.1', cidr: 24 }));
    assert.throws(() => allocateNetwork([], 33));
  });
});

describe('host addresses', () => {
  const net = { networkIp: '10.0.3.0', cidr: 24 };

  test('skips the network address, the gateway and the broadcast address', () => {
    assert.equal(gatewayOf(net), '10.0.3.1');
    assert.equal(allocateHost(net, new Set()), '10.0.3.2');
    assert.equal(isHostAddress(net, '10.0.3.0'), false);
    assert.equal(isHostAddress(net, '10.0.3.1'), false);
    assert.equal(isHostAddress(net, '10.0.3.255'), false);
    assert.equal(isHostAddress(net, '10.0.3.254'), true);
    assert.equal(isHostAddress(net, '10.0.4.2'), false);
  });

  test('takes the lowest free one and reuses released ones', () => {
    assert.equal(allocateHost(net, new Set(['10.0.3.2', '10.0.3.3'])), '10.0.3.4');
    assert.equal(allocateHost(net, new Set(['10.0.3.2', '10.0.3.4'])), '10.0.3.3');
  });

  test('a /29 holds 5 hosts; a full network gives null; every address handed out is a host', () => {
    const small = { networkIp: '10.0.0.8', cidr: 29 };
    assert.equal(hostCapacity(29), 5);
    assert.equal(hostCapacity(24), 253);
    assert.equal(hostCapacity(16), 65_533);
    const taken = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const ip = allocateHost(small, taken);
      assert.ok(ip && isHostAddress(small, ip));
      taken.add(ip);
    }
    assert.deepEqual([...taken], ['10.0.0.10', '10.0.0.11', '10.0.0.12', '10.0.0.13', '10.0.0.14']);
    assert.equal(allocateHost(small, taken), null);
  });

  test('diagram positions are distinct rows of 8', () => {
    assert.deepEqual(diagramPosition(net, '10.0.3.2'), { x: 100, y: 220 });
    assert.deepEqual(diagramPosition(net, '10.0.3.10'), { x: 100, y: 340 });
    assert.deepEqual(diagramPosition(net, '10.0.3.3'), { x: 220, y: 220 });
  });
});
