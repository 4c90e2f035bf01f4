import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VmHostError } from '../../src/integrations/datacenter/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const url = (locationId: number) => `/api/backoffice/compute/locations/${locationId}/hypervisors`;

describe("a location's hypervisors (backoffice)", () => {
  test('support sees each hypervisor with its memory, free memory and machines; a new VM shows on one of them', async () => {
    simulator(t).setHypervisors(2, [
      { name: 'hv-a', vcpuTotal: 16, memoryMbTotal: 32_768 },
      { name: 'hv-b', vcpuTotal: 8, memoryMbTotal: 16_384 },
    ]);
    const support = await adminSession(t, { role: 'Admin Support' });
    const empty = await t.app.inject({ method: 'GET', url: url(2), headers: { cookie: support.cookie } });
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.json().data, [
      { name: 'hv-a', vcpu_total: 16, vcpu_used: 0, memory_mb_total: 32_768, memory_mb_used: 0, memory_mb_free: 32_768, machines: 0 },
      { name: 'hv-b', vcpu_total: 8, vcpu_used: 0, memory_mb_total: 16_384, memory_mb_used: 0, memory_mb_free: 16_384, machines: 0 },
    ]);

    const c = await customerSession(t);
    await fund(t, c.id);
    const vm = (await createVm(t, c.cookie, { name: 'placed', location_id: 2, tier_id: await seededTier(t) })).json().data;
    await vmJobsDone(t);
    const now = (await t.app.inject({ method: 'GET', url: url(2), headers: { cookie: support.cookie } })).json().data as { name: string; machines: number; memory_mb_used: number; memory_mb_free: number; memory_mb_total: number }[];
    const holder = now.find((h) => h.machines === 1);
    assert.ok(holder, JSON.stringify(now));
    assert.equal(holder.name, simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.hypervisor);
    assert.equal(holder.memory_mb_used, vm.memory_mb);
    assert.equal(holder.memory_mb_free, holder.memory_mb_total - vm.memory_mb);
  });

  test('an unknown location is 404, the permission is required, and a datacenter that does not answer is 503 with its message', async () => {
    const support = await adminSession(t, { role: 'Admin Support' });
    assert.equal((await t.app.inject({ method: 'GET', url: url(99_999), headers: { cookie: support.cookie } })).statusCode, 404);
    const sales = await adminSession(t, { role: 'Admin Sales' });
    assert.equal((await t.app.inject({ method: 'GET', url: url(1), headers: { cookie: sales.cookie } })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: url(1) })).statusCode, 401);

    const dc = t.container.datacenter;
    const original = dc.vmHosts.hypervisors.bind(dc.vmHosts);
    dc.vmHosts.hypervisors = () => Promise.reject(new VmHostError('create', 'the hypervisor is unreachable'));
    try {
      const res = await t.app.inject({ method: 'GET', url: url(1), headers: { cookie: support.cookie } });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'DATACENTER_UNAVAILABLE');
      assert.match(res.json().message, /the hypervisor is unreachable/);
    } finally {
      dc.vmHosts.hypervisors = original;
    }
  });
});
