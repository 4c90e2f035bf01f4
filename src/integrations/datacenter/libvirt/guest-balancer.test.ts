/**
 * Load balancers of the libvirt datacenter over real guests: HAProxy in its own namespace on the
 * public bridge. Runs where libvirt is available (see guests.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { LoadBalancerSpec, VmSpec } from '../index.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { connect, eventually, httpGet, libvirtAvailable, listEverything, removeEverything, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

const spec = (reference: string, publicIp: string): VmSpec => ({ reference, locationId: 1, cpu: 1, memoryMb: 160, diskGb: 1, cpuLimit: 100, os: 'test', publicIp, blockStorage: null });
const locked = (fn: () => Promise<void>) => () => withLibvirtLock('shared', fn);

/** the first line a TCP service sends, or null */
async function tcpLine(host: string, port: number): Promise<string | null> {
  try {
    const s = await connect(host, port);
    return await new Promise((resolve) => {
      let got = '';
      s.setEncoding('utf8').on('data', (d: string) => (got += d));
      s.on('close', () => resolve(got.trim() || null));
      setTimeout(() => {
        s.destroy();
        resolve(got.trim() || null);
      }, 3000);
    });
  } catch {
    return null;
  }
}

describe('libvirt datacenter load balancers with real guests', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let dc: LibvirtDatacenter;
  const ip: Record<string, string> = {};

  before(() =>
    withLibvirtLock('shared', async () => {
      setup = testSetup();
      dc = new LibvirtDatacenter(setup.config);
      const pool = dc.vmHosts.publicIpPool(1).addresses;
      ip['vm-d'] = pool[0]!;
      ip['vm-e'] = pool[1]!;
      await Promise.all(['vm-d', 'vm-e'].map((r) => dc.vmHosts.createVm(spec(r, ip[r]!))));
    }),
  );

  after(() => {
    if (setup) removeEverything(setup);
  });

  const lbSpec: LoadBalancerSpec = {
    reference: 'lb-web',
    locationId: 1,
    algorithm: 'round_robin',
    forwardingRules: [{ entryProtocol: 'http', entryPort: 80, targetProtocol: 'http', targetPort: 80 }],
    healthCheck: { protocol: 'http', port: 80, path: '/' },
    targets: ['vm-d', 'vm-e'],
  };

  test('it alternates between its targets, reloads without dropping a request, and drops a stopped target after its health check', locked(async () => {
    const lb = await dc.balancers.applyLoadBalancer(lbSpec);
    assert.equal(lb.address, `${setup.net3}.240`, 'the first address of the balancers block');
    assert.ok(!dc.vmHosts.publicIpPool(1).addresses.includes(lb.address), 'VMs never get a balancer address');
    // both targets in rotation (each passed its health checks) before the alternation is counted
    assert.ok(await eventually(async () => new Set([await httpGet(`http://${lb.address}/`), await httpGet(`http://${lb.address}/`)]).size === 2, 30_000));
    const seen: (string | null)[] = [];
    for (let i = 0; i < 6; i++) seen.push(await httpGet(`http://${lb.address}/`));
    assert.deepEqual(new Set(seen), new Set(['vm-d', 'vm-e']), seen.join(','));
    assert.ok(seen.every((s, i) => i === 0 || s !== seen[i - 1]), `round robin: ${seen.join(',')}`);

    // a request in flight during a reload is answered (master-worker reload: the old worker finishes it)
    const slow = httpGet(`http://${lb.address}/cgi-bin/slow`, 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    const again = await dc.balancers.applyLoadBalancer({ ...lbSpec, forwardingRules: [...lbSpec.forwardingRules, { entryProtocol: 'tcp', entryPort: 9000, targetProtocol: 'tcp', targetPort: 9000 }] });
    assert.deepEqual(again, lb, 'the same balancer and address');
    assert.match((await slow) ?? 'dropped', /^vm-[de]$/);
    assert.ok(await eventually(async () => /^vm-[de]$/.test((await tcpLine(lb.address, 9000)) ?? ''), 10_000), 'the new tcp rule forwards to the nc listeners');

    // vm-e stops: the health check takes it out
    await dc.vmHosts.stopVm(`${setup.prefix}-vm-e`);
    assert.ok(
      await eventually(async () => {
        const four = await Promise.all([1, 2, 3, 4].map(() => httpGet(`http://${lb.address}/`)));
        return four.every((b) => b === 'vm-d');
      }, 20_000),
      'only vm-d answers once vm-e is down',
    );
    // a target that does not exist is refused (the job retries once the machine is there)
    await assert.rejects(dc.balancers.applyLoadBalancer({ ...lbSpec, targets: ['vm-d', 'vm-nope'] }), /vm-nope does not exist/);
    await assert.rejects(dc.balancers.applyLoadBalancer({ ...lbSpec, forwardingRules: [{ entryProtocol: 'udp', entryPort: 53, targetProtocol: 'udp', targetPort: 53 }] }), /UDP/);
  }));

  test('deleting the balancer and its targets leaves no HAProxy, namespace, link or disk behind', locked(async () => {
    await dc.balancers.deleteLoadBalancer('lb-web');
    await dc.balancers.deleteLoadBalancer('lb-web');
    await Promise.all(['vm-d', 'vm-e'].map((reference) => dc.vmHosts.deleteVm({ externalId: null, reference })));
    const left = listEverything(setup).filter((l) => !(l.kind === 'link' && l.name === `${setup.prefix}-pub`) && l.kind !== 'nft' && !(l.kind === 'file' && /\.lock$/.test(l.name)));
    assert.deepEqual(left, []);
    assert.equal(spawnSync('pgrep', ['-f', `${setup.dirs[1]}/${setup.prefix}-lb`]).status, 1, 'no HAProxy left');
  }));
});
