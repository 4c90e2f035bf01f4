import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { vms } from '../../src/modules/compute/compute.tables.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp();
  tierId = await seededTier(t);
});
after(() => t.close());

async function funded() {
  const c = await customerSession(t);
  await fund(t, c.id);
  return c;
}

const vmCount = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie } })).json().meta.total as number;

describe('how to reach a VM', () => {
  test('the OS catalog names the login user of each image, and a VM says its own', async () => {
    const c = await funded();
    const res = await t.app.inject({ method: 'GET', url: '/api/compute/os', headers: { cookie: c.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    const users = Object.fromEntries((res.json().data as { id: string; login_user: string }[]).map((o) => [o.id, o.login_user]));
    assert.deepEqual(users, { 'ubuntu-24.04': 'ubuntu', 'ubuntu-22.04': 'ubuntu', 'debian-12': 'debian', 'rocky-9': 'rocky', 'almalinux-9': 'almalinux' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/compute/os' })).statusCode, 401);

    const vm = (await createVm(t, c.cookie, { name: 'deb', location_id: 1, tier_id: tierId, os: 'debian-12' })).json().data;
    assert.equal(vm.login_user, 'debian');
    assert.equal(vm.has_user_data, false);
    const rocky = (await createVm(t, c.cookie, { name: 'rocky', location_id: 1, tier_id: tierId, os: 'rocky-9' })).json().data;
    assert.equal(rocky.login_user, 'rocky');
    const listed = (await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: c.cookie } })).json().data;
    assert.deepEqual(listed.map((v: { login_user: string }) => v.login_user), ['rocky', 'debian']);
  });

  test("a VM's page answer lists its private addresses", async () => {
    const c = await funded();
    const vm = (await createVm(t, c.cookie, { name: 'backend-1', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    assert.deepEqual((await getVm(t, c.cookie, vm.id)).private_addresses, []);
    const net = (await t.app.inject({ method: 'POST', url: '/api/network/private', headers: { cookie: c.cookie }, payload: { name: 'backend', location_id: 1, cidr: 24 } })).json().data;
    await vmJobsDone(t);
    const assigned = await t.app.inject({ method: 'POST', url: `/api/network/private/${net.uuid}/assign`, headers: { cookie: c.cookie }, payload: { instance_id: vm.id, instance_type: 'VM' } });
    assert.equal(assigned.statusCode, 200, assigned.body);
    assert.deepEqual((await getVm(t, c.cookie, vm.id)).private_addresses, [{ ip: assigned.json().data.ip, network_uuid: net.uuid, network_name: 'backend' }]);
  });
});

describe('user data', () => {
  const cloudConfig = '#cloud-config\npackages: [nginx]\nruncmd:\n  - systemctl enable --now nginx\n';

  test('a cloud-config or a script is kept with the VM and given to the datacenter; the answer only says there is some', async () => {
    const c = await funded();
    for (const [name, userData] of [['web', cloudConfig], ['job', '#!/bin/sh\necho "héllo" > /root/hello\n']] as const) {
      const res = await createVm(t, c.cookie, { name, location_id: 1, tier_id: tierId, user_data: userData });
      assert.equal(res.statusCode, 201, res.body);
      const vm = res.json().data;
      assert.equal(vm.has_user_data, true);
      assert.equal(vm.user_data, undefined, 'not echoed back');
      await vmJobsDone(t);
      assert.equal(simulator(t).vmHosts.stateOf(`vm-${vm.id}`)?.userData, userData);
      const [row] = await t.container.db.select({ userData: vms.userData }).from(vms).where(eq(vms.id, vm.id));
      assert.equal(row?.userData, userData, 'stored for a rebuild');
      assert.equal((await getVm(t, c.cookie, vm.id)).has_user_data, true);
    }
    const plain = (await createVm(t, c.cookie, { name: 'plain', location_id: 1, tier_id: tierId })).json().data;
    await vmJobsDone(t);
    assert.equal(simulator(t).vmHosts.stateOf(`vm-${plain.id}`)?.userData, null);
  });

  test('user data that is neither a cloud-config mapping nor a script is 400 naming user_data, and no VM is made', async () => {
    const c = await funded();
    const cases: [string, RegExp][] = [
      ['echo hi\n', /#cloud-config.*#!/],
      ['#cloud-config\npackages: [nginx\n', /not valid YAML/],
      ['#cloud-config\n- a list\n', /mapping/],
      ['#cloud-config\n', /mapping/],
      ['#cloud-config\na: 1\n---\nb: 2\n', /one YAML document/],
      ['#cloud-configuration\na: 1\n', /#cloud-config/],
      ['', /.+/],
      ['#!/bin/sh\n\0', /NUL/],
      ['#cloud-config\na: *nowhere\n', /Unresolved alias/],
      ['#cloud-config\na: !!python/object/apply:os.system [id]\n', /Unresolved tag/],
      [`#cloud-config\na: &a [x, x, x, x, x, x, x, x, x, x]\n${['b', 'c', 'd', 'e'].map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcd'[i]}`).join(', ')}]`).join('\n')}\n`, /alias/],
    ];
    for (const [userData, message] of cases) {
      const res = await createVm(t, c.cookie, { name: 'bad', location_id: 1, tier_id: tierId, user_data: userData });
      assert.equal(res.statusCode, 400, `${JSON.stringify(userData)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.equal(res.json().errors[0].field, 'user_data');
      assert.match(res.json().errors[0].message, message);
    }
    assert.equal(await vmCount(c.cookie), 0);
  });

  test('at most 64 KiB of UTF-8: counted in bytes, the limit itself is accepted', async () => {
    const c = await funded();
    const header = '#!/bin/sh\n# ';
    const exact = header + 'x'.repeat(64 * 1024 - header.length);
    assert.equal(Buffer.byteLength(exact), 65536);
    const ok = await createVm(t, c.cookie, { name: 'exact', location_id: 1, tier_id: tierId, user_data: exact });
    assert.equal(ok.statusCode, 201, ok.body);

    for (const userData of [exact + 'x', header + 'é'.repeat(33_000)]) {
      const res = await createVm(t, c.cookie, { name: 'big', location_id: 1, tier_id: tierId, user_data: userData });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.equal(res.json().errors[0].field, 'user_data');
    }
    assert.equal(await vmCount(c.cookie), 1);
  });
});
