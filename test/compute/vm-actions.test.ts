import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import type { MachineSpec } from '../../src/integrations/datacenter/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp();
  tierId = await seededTier(t);
});
after(() => t.close());

type Customer = Awaited<ReturnType<typeof customerSession>>;

async function runningVm(name = 'app-1', body: Record<string, unknown> = {}): Promise<{ c: Customer; id: number }> {
  const c = await customerSession(t);
  await fund(t, c.id);
  const res = await createVm(t, c.cookie, { name, location_id: 1, tier_id: tierId, ...body });
  assert.equal(res.statusCode, 201, res.body);
  await vmJobsDone(t);
  return { c, id: res.json().data.id };
}

const post = (cookie: string, url: string, payload?: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload !== undefined ? { payload } : {}) });

/** Holds the datacenter's reboots until `release` (the VM stays in flight meanwhile). */
function holdReboots(): { release: () => void; restore: () => void } {
  const dc = simulator(t).vmHosts;
  const original = dc.rebootVm.bind(dc);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  dc.rebootVm = async (id: string, hard: boolean) => {
    await gate;
    return original(id, hard);
  };
  return { release, restore: () => (dc.rebootVm = original) };
}
const machine = (id: number) => simulator(t).vmHosts.stateOf(`vm-${id}`)!;

async function activity(customerId: number, action: string) {
  return queryRows<{ target_id: string }>(t.container.db, sql`select target_id from audit_logs where actor_type = 'customer' and actor_id = ${customerId} and action = ${action}`);
}

async function stop(c: Customer, id: number) {
  assert.equal((await post(c.cookie, `/api/compute/vm/${id}/stop`)).statusCode, 200);
  await vmJobsDone(t);
  assert.equal((await getVm(t, c.cookie, id)).status, 'Stopped');
}

describe('reboot', () => {
  test('soft reboots (pending_action reboot), hard resets; the machine boots again and the VM stays Running; audited', async () => {
    const { c, id } = await runningVm();
    const boots = machine(id).boots;
    const held = holdReboots();
    const soft = await post(c.cookie, `/api/compute/vm/${id}/reboot`);
    assert.equal(soft.statusCode, 200, soft.body);
    assert.equal(soft.json().data.pending_action, 'reboot');
    assert.equal(soft.json().data.status, 'Running');
    // another change while it is in flight
    for (const url of ['reboot', 'rebuild', 'rescue', 'stop']) {
      const busy = await post(c.cookie, `/api/compute/vm/${id}/${url}`);
      assert.equal(busy.statusCode, 409, url);
      assert.equal(busy.json().code, 'VM_BUSY', url);
    }
    held.release();
    held.restore();
    await vmJobsDone(t);
    assert.equal(machine(id).boots, boots + 1);
    const hard = await post(c.cookie, `/api/compute/vm/${id}/reset`);
    assert.equal(hard.json().data.pending_action, 'reset');
    await vmJobsDone(t);
    const now = await getVm(t, c.cookie, id);
    assert.deepEqual([now.status, now.pending_action], ['Running', null]);
    assert.equal(machine(id).boots, boots + 2);
    assert.deepEqual((await activity(c.id, 'vm.rebooted')).map((r) => r.target_id), [String(id), String(id)]);
  });

  test('a Stopped VM is not rebooted (409 INVALID_VM_STATE); a failed reboot is Error, and retry reboots it', async () => {
    const { c, id } = await runningVm();
    simulator(t).hosts.failNext('reboot');
    await post(c.cookie, `/api/compute/vm/${id}/reboot`);
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, id);
    assert.equal(failed.status, 'Error');
    assert.equal(failed.error.action, 'reboot');
    const retry = await post(c.cookie, `/api/compute/vm/${id}/retry`);
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.json().data.pending_action, 'reboot');
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    await stop(c, id);
    const refused = await post(c.cookie, `/api/compute/vm/${id}/reboot`);
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'INVALID_VM_STATE');
  });
});

describe('rename', () => {
  test('PATCH renames (also while an action runs), validated like create; another customer gets 404', async () => {
    const { c, id } = await runningVm('old-name');
    const held = holdReboots();
    await post(c.cookie, `/api/compute/vm/${id}/reboot`);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie }, payload: { name: 'new.name_2' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().data.name, res.json().data.pending_action], ['new.name_2', 'reboot']);
    held.release();
    held.restore();
    await vmJobsDone(t);
    assert.equal((await getVm(t, c.cookie, id)).name, 'new.name_2');
    for (const name of ['', '-dash-first', 'has space', 'x'.repeat(64)]) {
      const bad = await t.app.inject({ method: 'PATCH', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie }, payload: { name } });
      assert.equal(bad.statusCode, 400, name);
    }
    const extra = await t.app.inject({ method: 'PATCH', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie }, payload: { name: 'ok', os: 'debian-12' } });
    assert.equal(extra.statusCode, 400);
    const other = await customerSession(t);
    const foreign = await t.app.inject({ method: 'PATCH', url: `/api/compute/vm/${id}`, headers: { cookie: other.cookie }, payload: { name: 'mine' } });
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual((await activity(c.id, 'vm.renamed')).map((r) => r.target_id), [String(id)]);
  });
});

describe('rebuild', () => {
  test('reinstalls from its own OS or another offered one, keeps address and keys, ends Running; repeated at the datacenter it is one rebuild', async () => {
    const { c, id } = await runningVm('rebuild-me', { os: 'debian-12' });
    const before = await getVm(t, c.cookie, id);
    const dc = simulator(t).vmHosts;
    const original = dc.rebuildVm.bind(dc);
    const specs: MachineSpec[] = [];
    // the job's datacenter call made twice, as a job run again after a lost finish would
    dc.rebuildVm = async (spec) => {
      specs.push(spec);
      await original(spec);
      await original(spec);
    };
    try {
      const boots = machine(id).boots;
      const res = await post(c.cookie, `/api/compute/vm/${id}/rebuild`, { os: 'rocky-9' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([res.json().data.pending_action, res.json().data.os], ['rebuild', 'rocky-9']);
      await vmJobsDone(t);
      assert.equal(machine(id).boots, boots + 1, 'one boot: the repeated call changed nothing');
      assert.deepEqual([machine(id).os, machine(id).rebuild], ['rocky-9', 1]);
      assert.equal(specs[0]!.rebuild, 1);
      const now = await getVm(t, c.cookie, id);
      assert.deepEqual([now.status, now.pending_action, now.os, now.public_ip], ['Running', null, 'rocky-9', before.public_ip]);
      // its own OS again, from Stopped: it runs afterwards
      await stop(c, id);
      assert.equal((await post(c.cookie, `/api/compute/vm/${id}/rebuild`)).statusCode, 200, 'no body: its own OS');
      await vmJobsDone(t);
      assert.deepEqual([machine(id).os, machine(id).rebuild, machine(id).running], ['rocky-9', 2, true]);
      assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    } finally {
      dc.rebuildVm = original;
    }
    assert.equal((await post(c.cookie, `/api/compute/vm/${id}/rebuild`, { os: 'windows-95' })).statusCode, 400);
    assert.equal((await activity(c.id, 'vm.rebuilt')).length, 2);
  });

  test('a Stopped VM of an account that may not start anything billable is refused (402): it would start; a Running one is rebuilt', async () => {
    const { c, id } = await runningVm();
    await stop(c, id);
    await t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = 'POSTPAID_OVERDUE' where id = ${c.id}`);
    for (const action of ['rebuild', 'rescue']) {
      const res = await post(c.cookie, `/api/compute/vm/${id}/${action}`, action === 'rebuild' ? {} : undefined);
      assert.equal(res.statusCode, 402, action);
      assert.equal(res.json().code, 'ACCOUNT_SUSPENDED');
    }
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);
    const other = await runningVm();
    await t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = 'POSTPAID_OVERDUE' where id = ${other.c.id}`);
    assert.equal((await post(other.c.cookie, `/api/compute/vm/${other.id}/rebuild`, {})).statusCode, 200);
    await vmJobsDone(t);
  });

  test('a Suspended VM (its account suspended for its balance) takes no action: 409 VM_SUSPENDED', async () => {
    const { c, id } = await runningVm();
    await t.container.services.compute.suspendCustomerVms(c.id, 'balance below zero');
    await vmJobsDone(t);
    for (const action of ['reboot', 'rebuild', 'rescue']) {
      const res = await post(c.cookie, `/api/compute/vm/${id}/${action}`, action === 'rescue' ? undefined : {});
      assert.equal(res.statusCode, 409, action);
      assert.equal(res.json().code, 'VM_SUSPENDED', action);
    }
  });
});

describe('rescue', () => {
  test('rescue boots the rescue system (rescue true), start and stop keep it, unrescue boots its own disk; a second rescue is 409', async () => {
    const { c, id } = await runningVm();
    const res = await post(c.cookie, `/api/compute/vm/${id}/rescue`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().data.pending_action, res.json().data.rescue], ['rescue', true]);
    await vmJobsDone(t);
    assert.deepEqual([machine(id).rescue, machine(id).running], [true, true]);
    const again = await post(c.cookie, `/api/compute/vm/${id}/rescue`);
    assert.deepEqual([again.statusCode, again.json().code], [409, 'INVALID_VM_STATE']);
    await stop(c, id);
    assert.equal((await post(c.cookie, `/api/compute/vm/${id}/start`)).statusCode, 200);
    await vmJobsDone(t);
    assert.equal(machine(id).rescue, true, 'a start boots the rescue system again');
    const boots = machine(id).boots;
    const leave = await post(c.cookie, `/api/compute/vm/${id}/unrescue`);
    assert.deepEqual([leave.json().data.pending_action, leave.json().data.rescue], ['unrescue', false]);
    await vmJobsDone(t);
    assert.deepEqual([machine(id).rescue, machine(id).running, machine(id).boots], [false, true, boots + 1]);
    const now = await getVm(t, c.cookie, id);
    assert.deepEqual([now.status, now.rescue, now.pending_action], ['Running', false, null]);
    assert.deepEqual([(await post(c.cookie, `/api/compute/vm/${id}/unrescue`)).statusCode], [409]);
    assert.equal((await activity(c.id, 'vm.rescued')).length, 1);
    assert.equal((await activity(c.id, 'vm.unrescued')).length, 1);
  });

  test('a Stopped VM in rescue leaves it and stays off; a failed rescue is Error and its retry rescues', async () => {
    const { c, id } = await runningVm();
    await stop(c, id);
    simulator(t).hosts.failNext('rescue');
    await post(c.cookie, `/api/compute/vm/${id}/rescue`);
    await vmJobsDone(t);
    const failed = await getVm(t, c.cookie, id);
    assert.deepEqual([failed.status, failed.error.action], ['Error', 'rescue']);
    await post(c.cookie, `/api/compute/vm/${id}/retry`);
    await vmJobsDone(t);
    assert.deepEqual([(await getVm(t, c.cookie, id)).status, machine(id).rescue], ['Running', true]);
    await stop(c, id);
    await post(c.cookie, `/api/compute/vm/${id}/unrescue`);
    await vmJobsDone(t);
    const now = await getVm(t, c.cookie, id);
    assert.deepEqual([now.status, now.rescue, machine(id).running, machine(id).rescue], ['Stopped', false, false, false]);
  });

  test('a rebuild leaves rescue', async () => {
    const { c, id } = await runningVm();
    await post(c.cookie, `/api/compute/vm/${id}/rescue`);
    await vmJobsDone(t);
    const res = await post(c.cookie, `/api/compute/vm/${id}/rebuild`, {});
    assert.equal(res.json().data.rescue, false);
    await vmJobsDone(t);
    assert.deepEqual([machine(id).rescue, machine(id).rebuild], [false, 1]);
  });
});

describe('staff', () => {
  test('with operate_compute: power actions, rebuild and rescue on a customer VM, each audited and told to the customer (notification and mail)', async () => {
    const { c, id } = await runningVm('support-me');
    const admin = await adminSession(t, { permissions: ['view_compute', 'operate_compute'] });
    const steps: [string, Record<string, unknown> | undefined, string, string][] = [
      ['stop', undefined, 'stop', 'Stopped'],
      ['start', undefined, 'start', 'Running'],
      ['reset', undefined, 'reset', 'Running'],
      ['reboot', undefined, 'reboot', 'Running'],
      ['rebuild', { os: 'debian-12' }, 'rebuild', 'Running'],
      ['rescue', undefined, 'rescue', 'Running'],
      ['unrescue', undefined, 'unrescue', 'Running'],
    ];
    for (const [path, body, action, status] of steps) {
      const res = await post(admin.cookie, `/api/backoffice/compute/vm/${id}/${path}`, body);
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      assert.equal(res.json().data.pending_action, action);
      assert.equal(res.json().data.customer.id, c.id);
      await vmJobsDone(t);
      assert.equal((await getVm(t, c.cookie, id)).status, status, path);
    }
    assert.equal(machine(id).os, 'debian-12');
    const audit = await queryRows<{ action: string; target_id: string; actor_id: number }>(
      t.container.db,
      sql`select action, target_id, actor_id from audit_logs where actor_type = 'admin' and target_type = 'vm' and target_id = ${String(id)} order by id`,
    );
    assert.deepEqual(
      audit.map((a) => a.action),
      ['vm.staff_stop', 'vm.staff_start', 'vm.staff_reset', 'vm.staff_reboot', 'vm.staff_rebuild', 'vm.staff_rescue', 'vm.staff_unrescue'],
    );
    assert.ok(audit.every((a) => a.actor_id === admin.id));
    const notes = await t.app.inject({ method: 'GET', url: '/api/notifications?limit=50', headers: { cookie: c.cookie } });
    const mine = notes.json().data.filter((n: { kind: string }) => n.kind === 'VM_STAFF_ACTION');
    assert.equal(mine.length, 7, notes.body);
    assert.ok(mine.some((n: { title: string; body: string }) => n.title === 'Your VM support-me was rebuilt by our team' && /It now runs debian-12/.test(n.body)));
    const mails = await queryRows<{ subject: string }>(t.container.db, sql`select subject from mail_outbox where to_address = ${c.email} and template = 'vm_staff_action' order by id`);
    assert.equal(mails.length, 7);
    assert.equal(mails[4]!.subject, 'Your VM support-me was rebuilt by our team');
  });

  test('without operate_compute: 403 and nothing changes; a busy VM is 409 for staff too; an unknown VM 404', async () => {
    const { c, id } = await runningVm();
    const viewer = await adminSession(t, { permissions: ['view_compute'] });
    for (const path of ['start', 'stop', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue']) {
      const res = await post(viewer.cookie, `/api/backoffice/compute/vm/${id}/${path}`);
      assert.equal(res.statusCode, 403, path);
    }
    assert.equal((await getVm(t, c.cookie, id)).pending_action, null);
    const operator = await adminSession(t, { permissions: ['operate_compute'] });
    const held = holdReboots();
    await post(c.cookie, `/api/compute/vm/${id}/reboot`);
    const busy = await post(operator.cookie, `/api/backoffice/compute/vm/${id}/stop`);
    assert.deepEqual([busy.statusCode, busy.json().code], [409, 'VM_BUSY']);
    held.release();
    held.restore();
    await vmJobsDone(t);
    assert.equal((await post(operator.cookie, '/api/backoffice/compute/vm/99999999/reboot')).statusCode, 404);
    const told = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from notifications where customer_id = ${c.id} and kind = 'VM_STAFF_ACTION'`);
    assert.equal(told[0]!.n, 0, 'refused actions tell nobody');
  });
});
