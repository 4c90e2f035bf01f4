import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

// Support sees what a customer runs without acting as the customer: every VM with its owner,
// hypervisor, state and addresses, and on the customer's page every resource and ticket.

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

async function call(cookie: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}

async function ok(cookie: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await call(cookie, method, url, payload);
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('staff view of VMs and of a customer', () => {
  let ann: { id: number; email: string; cookie: string };
  let ben: { id: number; email: string; cookie: string };
  let support: { cookie: string };
  const vm: Record<string, number> = {};
  let network: string;

  before(async () => {
    ann = await customerSession(t, { firstName: 'Ann', lastName: 'Owner' });
    ben = await customerSession(t);
    for (const c of [ann, ben]) await fund(t, c.id);
    const small = await seededTier(t, 'gp.small');
    const storageTier = (await t.container.services.blockStorage.listTiers()).find((x: { isActive: boolean }) => x.isActive)!.id;
    vm.web = (await ok(ann.cookie, 'POST', '/api/compute/vm', { name: 'ann-web', location_id: 1, tier_id: small, block_storage_tier_id: storageTier, block_storage_gb: 30 })).data.id;
    await vmJobsDone(t);
    simulator(t).failNext('create');
    vm.broken = (await ok(ann.cookie, 'POST', '/api/compute/vm', { name: 'ann-broken', location_id: 2, tier_id: small, public_ip: false })).data.id;
    await vmJobsDone(t);
    vm.ben = (await createVm(t, ben.cookie, { name: 'ben-db', location_id: 1, tier_id: await seededTier(t, 'gp.medium') })).json().data.id;
    await vmJobsDone(t);
    network = (await ok(ann.cookie, 'POST', '/api/network/private', { name: 'backend', location_id: 1, cidr: 24 })).data.uuid;
    await queueDrained(t);
    await ok(ann.cookie, 'POST', `/api/network/private/${network}/assign`, { instance_id: vm.web, instance_type: 'VM' });
    await queueDrained(t);
    support = await adminSession(t, { role: 'Admin Support' });
  });

  test('the VM list filters by customer, location, status, tier and name or address, in the list envelope', async () => {
    const all = await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?customer_id=${ann.id}&limit=1`);
    assert.deepEqual(all.meta, { page: 1, limit: 1, total: 2, total_pages: 2 });
    const row = (await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?customer_id=${ann.id}&search=web`)).data[0];
    assert.equal(row.id, vm.web);
    assert.deepEqual(row.customer, { id: ann.id, email: ann.email, name: 'Ann Owner' });
    assert.equal(row.tier_name, 'gp.small');
    assert.ok(row.location_name.length > 0);
    assert.ok(row.hypervisor, 'the hypervisor it runs on');

    const byIp = await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?search=${encodeURIComponent(row.public_ip)}`);
    assert.deepEqual(byIp.data.map((v: { id: number }) => v.id), [vm.web]);
    const inError = await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?status=Error&customer_id=${ann.id}`);
    assert.deepEqual(inError.data.map((v: { id: number }) => v.id), [vm.broken]);
    const inTwo = await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?location_id=2&customer_id=${ann.id}`);
    assert.deepEqual(inTwo.data.map((v: { id: number }) => v.id), [vm.broken]);
    const medium = await ok(support.cookie, 'GET', `/api/backoffice/compute/vm?tier_id=${await seededTier(t, 'gp.medium')}&search=ben-db`);
    assert.deepEqual(medium.data.map((v: { id: number }) => v.id), [vm.ben]);
    for (const bad of ['status=Broken', 'customer_id=abc', 'limit=101', 'serach=x']) {
      assert.equal((await call(support.cookie, 'GET', `/api/backoffice/compute/vm?${bad}`)).statusCode, 400, bad);
    }
  });

  test('a VM in detail: owner, tier, hypervisor, status and error, its public and private addresses', async () => {
    const web = (await ok(support.cookie, 'GET', `/api/backoffice/compute/vm/${vm.web}`)).data;
    assert.equal(web.status, 'Running');
    assert.equal(web.customer.email, ann.email);
    assert.equal(web.tier_name, 'gp.small');
    assert.ok(web.hypervisor);
    assert.deepEqual(web.block_storage?.size_gb, 30);
    assert.equal(web.addresses.length, 2, JSON.stringify(web.addresses));
    assert.deepEqual(web.addresses[0], { type: 'public', ip: web.public_ip, network_uuid: null, network_name: null });
    assert.equal(web.addresses[1].type, 'private');
    assert.equal(web.addresses[1].network_uuid, network);
    assert.equal(web.addresses[1].network_name, 'backend');
    assert.match(web.addresses[1].ip, /^10\./);

    const broken = (await ok(support.cookie, 'GET', `/api/backoffice/compute/vm/${vm.broken}`)).data;
    assert.equal(broken.status, 'Error');
    assert.equal(broken.error.action, 'create');
    assert.ok(broken.error.message);
    assert.deepEqual(broken.addresses, []);
    assert.equal((await call(support.cookie, 'GET', '/api/backoffice/compute/vm/99999999')).statusCode, 404);
  });

  test("the customer's resources: VMs, volumes, networks, buckets, balancers, newest first, by kind, paginated", async () => {
    const bucket = `paper-${randomBytes(3).toString('hex')}`;
    await ok(ann.cookie, 'POST', '/api/storage/object', { name: bucket, location_id: 1, size: 5 });
    await ok(ann.cookie, 'POST', '/api/network/load-balancer', {
      name: 'front',
      location_id: 1,
      algorithm: 'round_robin',
      forwarding_rules: [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }],
    });
    await queueDrained(t);

    const all = await ok(support.cookie, 'GET', `/api/backoffice/customer/${ann.id}/resources?limit=100`);
    const kinds = all.data.map((r: { kind: string; name: string }) => `${r.kind}:${r.name}`).sort();
    assert.deepEqual(kinds, ['bucket:' + bucket, 'load_balancer:front', 'network:backend', 'vm:ann-broken', 'vm:ann-web', 'volume:ann-web volume'].sort());
    assert.equal(all.meta.total, 6);
    const volume = all.data.find((r: { kind: string }) => r.kind === 'volume');
    assert.equal(volume.id, String(vm.web), 'a volume is named by its VM');
    assert.match(volume.detail, /^30 GB .+, on VM ann-web$/);
    const web = all.data.find((r: { name: string }) => r.name === 'ann-web');
    assert.match(web.detail, /^gp\.small, \d+\.\d+\.\d+\.\d+$/);
    assert.ok(web.location_name);
    assert.match(all.data.find((r: { kind: string }) => r.kind === 'network').detail, /^10\.\d+\.\d+\.0\/24$/);
    assert.equal(all.data.find((r: { kind: string }) => r.kind === 'bucket').detail, '5 GB, private');
    const times = all.data.map((r: { created_at: string }) => r.created_at);
    assert.deepEqual([...times].sort().reverse(), times, 'newest first');

    const vms = await ok(support.cookie, 'GET', `/api/backoffice/customer/${ann.id}/resources?kind=vm&limit=1&page=2`);
    assert.deepEqual(vms.meta, { page: 2, limit: 1, total: 2, total_pages: 2 });
    assert.equal(vms.data[0].kind, 'vm');
    const bens = await ok(support.cookie, 'GET', `/api/backoffice/customer/${ben.id}/resources`);
    assert.deepEqual(bens.data.map((r: { name: string }) => r.name), ['ben-db'], "another customer's resources stay theirs");

    // a deleted VM leaves the list
    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.broken}`, headers: { cookie: ann.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    await vmJobsDone(t);
    assert.equal((await ok(support.cookie, 'GET', `/api/backoffice/customer/${ann.id}/resources?kind=vm`)).meta.total, 1);

    assert.equal((await call(support.cookie, 'GET', '/api/backoffice/customer/99999999/resources')).statusCode, 404);
    assert.equal((await call(support.cookie, 'GET', `/api/backoffice/customer/${ann.id}/resources?kind=disk`)).statusCode, 400);
  });

  test("the customer's tickets are listed for staff by customer", async () => {
    await ok(ann.cookie, 'POST', '/api/ticket', { title: 'Slow disk', message: 'It is slow.' });
    await ok(ben.cookie, 'POST', '/api/ticket', { title: 'Not mine', message: '...' });
    const tickets = await ok(support.cookie, 'GET', `/api/backoffice/ticket?customer_id=${ann.id}`);
    assert.deepEqual(tickets.data.map((x: { title: string }) => x.title), ['Slow disk']);
  });

  test('every route names its permission: without view_compute no VMs, without view_users no resources', async () => {
    const billing = await adminSession(t, { role: 'Admin Billing' });
    assert.equal((await call(billing.cookie, 'GET', '/api/backoffice/compute/vm')).statusCode, 403);
    assert.equal((await call(billing.cookie, 'GET', `/api/backoffice/compute/vm/${vm.web}`)).statusCode, 403);
    assert.equal((await call(billing.cookie, 'GET', `/api/backoffice/customer/${ann.id}/resources`)).statusCode, 403);
    const routes = (await ok((await adminSession(t)).cookie, 'GET', '/api/backoffice/admin/permissions')).data;
    assert.ok(JSON.stringify(routes).includes('/api/backoffice/customer/:id/resources'), 'the route map lists it');
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/backoffice/customer/${ann.id}/resources` })).statusCode, 401);
  });
});
