/**
 * An account suspended (charging's sweep, below zero) while one of its VMs is still being created,
 * resized or rebuilt: once the datacenter work in flight is done no machine of the account runs,
 * nothing starts being billed, and the resumption brings every VM back to what it was meant to
 * be. The lifecycle is run by hand (no worker), so the order of the suspension and the VM's job is
 * the test's: before the job, while the datacenter works, after the job.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { VM_KIND } from '../../src/modules/compute/index.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { TEST_DB } from '../helpers/database.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, simulator } from '../helpers/compute.js';

let t: TestApp;
let small: number;
let medium: number;
before(async () => {
  t = await buildTestApp({ worker: false });
  small = await seededTier(t, 'gp.small');
  medium = await seededTier(t, 'gp.medium');
});
after(() => t.close());

type Customer = Awaited<ReturnType<typeof customerSession>>;

async function fundedCustomer(): Promise<Customer> {
  const c = await customerSession(t);
  await fund(t, c.id, '100.00');
  return c;
}

const runJob = (vmId: number) => t.container.lifecycle.run(VM_KIND, vmId);
const machine = (vmId: number) => simulator(t).vmHosts.stateOf(`vm-${vmId}`);
const openMeters = async (vmId: number) =>
  (await queryRows<{ price_key: string }>(t.container.db, sql`select price_key from meters where resource_type = 'vm' and resource_id = ${String(vmId)} and stopped_at is null order by price_key`)).map((m) => m.price_key);

/** The balance falls below zero and charging's sweep marks the account suspended (its job, `apply`, suspends the resources). */
async function markSuspended(c: Customer): Promise<void> {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.debit(tx, { customerId: c.id, type: BalanceLogType.Charge, amount: '1000.00', from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: randomBytes(6).toString('hex'), description: 'test debt' }),
  );
  assert.equal((await t.container.services.suspension.sweep({ notices: false })).suspended, 1);
}

/** Suspended for its balance, as after an hourly charge. */
async function suspendForBalance(c: Customer): Promise<void> {
  await markSuspended(c);
  await t.container.services.suspension.apply(c.id);
}

/** A top-up brings the balance back above zero: the sweep lifts the suspension. */
async function resume(c: Customer): Promise<void> {
  await fund(t, c.id, '5000.00');
  assert.equal((await t.container.services.suspension.sweep({ notices: false })).resumed, 1);
  await t.container.services.suspension.apply(c.id);
}

async function newVm(c: Customer, body: Record<string, unknown> = {}): Promise<number> {
  const res = await createVm(t, c.cookie, { name: 'in-flight', location_id: 1, tier_id: small, ...body });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json().data.status, 'Creating');
  return res.json().data.id;
}

async function runningVm(c: Customer): Promise<number> {
  const id = await newVm(c);
  await runJob(id);
  assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
  return id;
}

/** Runs `during` once, while the datacenter carries out the next call of `op` (the VM's job has read the VM before). */
async function whileDatacenterWorks<K extends 'createVm' | 'resizeVm' | 'rebuildVm'>(op: K, during: () => Promise<void>, work: () => Promise<void>): Promise<void> {
  const hosts = simulator(t).vmHosts;
  const real = hosts[op].bind(hosts) as (...args: unknown[]) => Promise<unknown>;
  let fired = false;
  (hosts as unknown as Record<string, unknown>)[op] = async (...args: unknown[]) => {
    if (!fired) {
      fired = true;
      await during();
    }
    return real(...args);
  };
  try {
    await work();
  } finally {
    (hosts as unknown as Record<string, unknown>)[op] = real;
  }
  assert.ok(fired, `${op} was called`);
}

describe('a VM suspended while it is being created', () => {
  test('suspended before the create job ran: the job makes it and leaves it stopped, Suspended and not billed; resumed, it starts and is billed from then', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await suspendForBalance(c);
    const suspended = await getVm(t, c.cookie, id);
    assert.deepEqual([suspended.status, suspended.pending_action, suspended.suspend_reason], ['Suspended', 'suspend', 'INSUFFICIENT_BALANCE']);

    await runJob(id);
    const after = await getVm(t, c.cookie, id);
    assert.deepEqual([after.status, after.pending_action, after.error], ['Suspended', null, null]);
    assert.equal(machine(id)?.running, false, 'the machine exists and is off');
    assert.deepEqual(await openMeters(id), [], 'nothing is billed: it never ran');
    const start = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/start`, headers: { cookie: c.cookie } });
    assert.equal(start.json().code, 'VM_SUSPENDED');

    await resume(c);
    assert.equal((await getVm(t, c.cookie, id)).pending_action, 'resume');
    await runJob(id);
    const resumed = await getVm(t, c.cookie, id);
    assert.deepEqual([resumed.status, resumed.pending_action, resumed.suspend_reason], ['Running', null, null]);
    assert.equal(machine(id)?.running, true);
    assert.equal((await openMeters(id)).length, 2, 'its tier and its public IP, from its first Running');
  });

  test('the suspension commits while the datacenter makes the machine: the create’s finish is dropped and the machine is stopped', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await whileDatacenterWorks('createVm', () => suspendForBalance(c), () => runJob(id));
    const after = await getVm(t, c.cookie, id);
    assert.deepEqual([after.status, after.pending_action], ['Suspended', null]);
    assert.equal(machine(id)?.running, false);
    assert.deepEqual(await openMeters(id), []);

    await resume(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
    assert.equal((await openMeters(id)).length, 2);
  });

  test('the create finished first: the suspension takes a Running VM (billed like every suspended VM); resumed, it runs again', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    await suspendForBalance(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Suspended');
    assert.equal(machine(id)?.running, false);
    await resume(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
  });

  test('resumed before the suspension’s job ran: the machine is made and started once, billed from then', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await suspendForBalance(c);
    await resume(c);
    await runJob(id);
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action, vm.suspend_reason], ['Running', null, null]);
    assert.equal(machine(id)?.running, true);
    assert.equal((await openMeters(id)).length, 2);
  });

  test('the datacenter refuses the create of a suspended VM: Error with the create as the failed action, its retry refused until resumed', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await suspendForBalance(c);
    simulator(t).failNext('create', 1, 'no hypervisor has room');
    await runJob(id);
    const vm = await getVm(t, c.cookie, id);
    assert.equal(vm.status, 'Error');
    assert.deepEqual(vm.error, { action: 'create', message: 'no hypervisor has room' });
    const retry = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/retry`, headers: { cookie: c.cookie } });
    assert.equal(retry.statusCode, 402, retry.body);
    await resume(c);
    const again = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/retry`, headers: { cookie: c.cookie } });
    assert.equal(again.statusCode, 200, again.body);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
  });
});

describe('a VM in Error is left as it is', () => {
  test('its failed start is not retried while the account is suspended (it would run); resumed, it is', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/stop`, headers: { cookie: c.cookie } })).statusCode, 200);
    await runJob(id);
    simulator(t).failNext('start', 1, 'the hypervisor is down');
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/start`, headers: { cookie: c.cookie } })).statusCode, 200);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Error');

    await suspendForBalance(c);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Error', 'the suspension leaves it');
    const retry = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/retry`, headers: { cookie: c.cookie } });
    assert.equal(retry.statusCode, 402, retry.body);
    assert.equal(retry.json().code, 'INSUFFICIENT_BALANCE');
    assert.equal(machine(id)?.running, false);

    await resume(c);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/retry`, headers: { cookie: c.cookie } })).statusCode, 200);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
  });
});

describe('a VM suspended while it is being resized or rebuilt', () => {
  const resize = (c: Customer, id: number) => t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/resize`, headers: { cookie: c.cookie }, payload: { tier_id: medium } });

  test('a resize not yet done: Suspended on its old tier, stopped; resumed, the resize runs and it ends Running on the new tier', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    assert.equal((await resize(c, id)).statusCode, 200);
    await suspendForBalance(c);
    await runJob(id);
    const suspended = await getVm(t, c.cookie, id);
    assert.deepEqual([suspended.status, suspended.pending_action, suspended.tier_id], ['Suspended', null, small]);
    assert.equal(machine(id)?.running, false);
    assert.equal(machine(id)?.cpu, 1, 'the machine was not resized');

    await resume(c);
    const resuming = await getVm(t, c.cookie, id);
    assert.deepEqual([resuming.status, resuming.pending_action], ['Running', 'resize']);
    await runJob(id);
    const resized = await getVm(t, c.cookie, id);
    assert.deepEqual([resized.status, resized.pending_action, resized.tier_id, resized.cpu], ['Running', null, medium, 2]);
    assert.equal(machine(id)?.running, true);
    assert.equal(machine(id)?.cpu, 2);
    assert.ok((await openMeters(id)).includes(`tier:${medium}`), 'billed at the new tier from the resize');
  });

  test('suspended while the datacenter resizes: the machine ends stopped with the new size; resumed, the VM takes the new tier and runs', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    assert.equal((await resize(c, id)).statusCode, 200);
    await whileDatacenterWorks('resizeVm', () => suspendForBalance(c), () => runJob(id));
    const suspended = await getVm(t, c.cookie, id);
    assert.deepEqual([suspended.status, suspended.pending_action], ['Suspended', null]);
    assert.equal(machine(id)?.running, false, 'stopped after the resize it was doing');

    await resume(c);
    await runJob(id);
    const resized = await getVm(t, c.cookie, id);
    assert.deepEqual([resized.status, resized.tier_id], ['Running', medium]);
    assert.equal(machine(id)?.running, true);
    assert.equal(machine(id)?.cpu, 2);
  });

  test('a rebuild taken over by the suspension is carried out on resumption (the disk made once), and the VM runs', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    const rebuild = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/rebuild`, headers: { cookie: c.cookie }, payload: {} });
    assert.equal(rebuild.statusCode, 200, rebuild.body);
    await suspendForBalance(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Suspended');
    assert.equal(machine(id)?.running, false);
    assert.equal(machine(id)?.rebuild, 0, 'not rebuilt while suspended');

    await resume(c);
    assert.equal((await getVm(t, c.cookie, id)).pending_action, 'rebuild');
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
    assert.equal(machine(id)?.rebuild, 1);
  });

  test('suspended while the datacenter rebuilds: stopped once the rebuild is done; resumed, it runs on the new disk without a second rebuild', async () => {
    const c = await fundedCustomer();
    const id = await runningVm(c);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/compute/vm/${id}/rebuild`, headers: { cookie: c.cookie }, payload: {} })).statusCode, 200);
    await whileDatacenterWorks('rebuildVm', () => suspendForBalance(c), () => runJob(id));
    assert.equal((await getVm(t, c.cookie, id)).status, 'Suspended');
    assert.equal(machine(id)?.running, false);
    assert.equal(machine(id)?.rebuild, 1);
    const boots = machine(id)!.boots;

    await resume(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.rebuild, 1);
    assert.equal(machine(id)?.boots, boots + 1, 'only started again');
  });
});

/**
 * The suspension and the create's finish at the same moment, each transaction waiting for the
 * other's row lock (PostgreSQL: the embedded database runs one transaction at a time, so its
 * orders are the ones above).
 */
describe('a suspension and the create’s finish at the same moment', { skip: TEST_DB === 'embedded' }, () => {
  /** Runs `held` while a session of its own holds `lock`, and lets go once `waiters` sessions wait for a lock. */
  async function holding(lockSql: string, held: () => Promise<unknown>[], waiters: number): Promise<void> {
    const lock = new pg.Client({ connectionString: t.database!.url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query(lockSql);
      const running = held();
      await eventually(async () => {
        const { rows } = await lock.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
        return rows[0].n >= waiters;
      });
      await lock.query('commit');
      await Promise.all(running);
    } finally {
      await lock.end();
    }
  }

  test('the suspension holds the VM row when the finish comes: the finish records nothing, the job then stops the machine; never billed', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await markSuspended(c);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let suspension!: Promise<void>;
    // while the datacenter makes the machine, the suspension updates the VM and stays open
    await whileDatacenterWorks(
      'createVm',
      async () => {
        let applied!: () => void;
        const done = new Promise<void>((r) => (applied = r));
        suspension = t.container.db.transaction(async () => {
          await t.container.services.suspension.apply(c.id);
          applied();
          await gate;
        });
        await done;
      },
      async () => {
        const job = runJob(id);
        try {
          // the finish waits for the VM row the suspension holds
          await eventually(async () => {
            const rows = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update "vms"%'`);
            return rows[0]!.n >= 1;
          });
        } finally {
          release();
          await suspension;
          await job;
        }
      },
    );
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action], ['Suspended', null]);
    assert.equal(machine(id)?.running, false);
    assert.deepEqual(await openMeters(id), [], 'its create never finished as Running');
    await resume(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal((await openMeters(id)).length, 2);
  });

  test('the finish holds the VM row when the suspension comes: the suspension waits and takes a Running VM, which its job stops', async () => {
    const c = await fundedCustomer();
    const id = await newVm(c);
    await markSuspended(c);
    // the finish waits on the meters after its update of the VM; the suspension waits on the VM row
    let job!: Promise<void>;
    let suspension!: Promise<void>;
    await holding(
      'lock table meters in exclusive mode',
      () => {
        job = runJob(id);
        suspension = eventually(async () => {
          const rows = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
          return rows[0]!.n >= 1;
        }).then(() => t.container.services.suspension.apply(c.id));
        return [job, suspension];
      },
      2,
    );
    await runJob(id);
    const vm = await getVm(t, c.cookie, id);
    assert.deepEqual([vm.status, vm.pending_action], ['Suspended', null]);
    assert.equal(machine(id)?.running, false);
    assert.equal((await openMeters(id)).length, 2, 'it ran: billed like every suspended VM');
    await resume(c);
    await runJob(id);
    assert.equal((await getVm(t, c.cookie, id)).status, 'Running');
    assert.equal(machine(id)?.running, true);
  });
});
