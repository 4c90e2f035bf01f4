import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { fund, seededTier } from '../helpers/compute.js';

/*
 * "May this customer start something billable" is one rule every create of a metered resource
 * asks (a suspended prepaid customer at -1939.58 created a load balancer whose meter then ran at
 * 146,000 a month, while VMs, networks and buckets refused). The rule: not suspended, and a
 * spendable balance not below zero; a suspension for overdue postpaid invoices is 402
 * ACCOUNT_SUSPENDED. What costs nothing (security groups, access keys) and what stops costs
 * (deleting) stays allowed.
 */

let t: TestApp;
let tierId: number;
before(async () => {
  t = await buildTestApp({ worker: false });
  tierId = await seededTier(t, 'gp.small');
});
after(() => t.close());

type Customer = { id: number; cookie: string };
const call = (c: Customer, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: c.cookie }, ...(payload ? { payload } : {}) });
let n = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

/** One call per kind of billable resource a customer can start. */
const starts: Record<string, (c: Customer) => ReturnType<typeof call>> = {
  vm: (c) => call(c, 'POST', '/api/compute/vm', { name: 'v', location_id: 1, tier_id: tierId }),
  network: (c) => call(c, 'POST', '/api/network/private', { name: 'n', location_id: 1, cidr: 24 }),
  bucket: (c) => call(c, 'POST', '/api/storage/object', { name: unique('b'), location_id: 1 }),
  load_balancer: (c) =>
    call(c, 'POST', '/api/network/load-balancer', {
      name: 'lb',
      location_id: 1,
      algorithm: 'round_robin',
      forwarding_rules: [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }],
    }),
};

async function counts(customerId: number) {
  const [row] = await queryRows<{ vms: number; networks: number; buckets: number; lbs: number }>(
    t.container.db,
    sql`select (select count(*) from vms where customer_id = ${customerId})::int as vms,
          (select count(*) from private_networks where customer_id = ${customerId})::int as networks,
          (select count(*) from object_storage_buckets where customer_id = ${customerId})::int as buckets,
          (select count(*) from load_balancers where customer_id = ${customerId})::int as lbs`,
  );
  return row!;
}

async function debt(customerId: number, amount: string) {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.debit(tx, { customerId, type: 'BalanceLogCharge', amount, from: 'bonus_first', allowNegative: true, referenceType: 'test', referenceId: unique('debt'), description: 'test debt' }),
  );
}

const suspend = (customerId: number, reason: string) =>
  t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = ${reason} where id = ${customerId}`);

async function refusedEverywhere(c: Customer, code: string) {
  for (const [kind, start] of Object.entries(starts)) {
    const res = await start(c);
    assert.equal(res.statusCode, 402, `${kind}: ${res.body}`);
    assert.equal(res.json().code, code, `${kind}: ${res.body}`);
  }
  assert.deepEqual(await counts(c.id), { vms: 0, networks: 0, buckets: 0, lbs: 0 }, 'nothing was created');
}

describe('one rule for starting anything billable', () => {
  test('a suspended prepaid customer below zero (the reported -1939.58) is refused for every kind: VM, network, bucket, load balancer', async () => {
    const c = await customerSession(t);
    await debt(c.id, '1939.58');
    await suspend(c.id, 'INSUFFICIENT_BALANCE');
    await refusedEverywhere(c, 'INSUFFICIENT_BALANCE');
  });

  test('below zero without a suspension yet (do_not_suspend_until, or before the sweep): refused too', async () => {
    const c = await customerSession(t, { doNotSuspendUntil: new Date(Date.now() + 86_400_000) });
    await debt(c.id, '0.01');
    await refusedEverywhere(c, 'INSUFFICIENT_BALANCE');
  });

  test('a postpaid customer suspended for overdue invoices: 402 ACCOUNT_SUSPENDED for every kind; free things and reads still work', async () => {
    const c = await customerSession(t, { billingType: 'POSTPAID' });
    await suspend(c.id, 'POSTPAID_OVERDUE');
    await refusedEverywhere(c, 'ACCOUNT_SUSPENDED');
    assert.equal((await call(c, 'POST', '/api/network/security-group', { name: 'free', location_id: 1 })).statusCode, 201);
    assert.equal((await call(c, 'POST', '/api/storage/object/keys', { name: 'free', location_id: 1 })).statusCode, 201);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/billing/postpaid/invoices', headers: { cookie: c.cookie } })).statusCode, 200);
  });

  test('growing a bucket and retrying a failed VM create start costs too: refused while suspended; shrinking and deleting are not', async () => {
    const c = await customerSession(t);
    await fund(t, c.id, '100.00');
    const bucket = await starts.bucket!(c);
    assert.equal(bucket.statusCode, 201, bucket.body);
    const vm = await starts.vm!(c);
    assert.equal(vm.statusCode, 201, vm.body);
    const vmId = vm.json().data.id;
    // the create failed at the datacenter
    await t.container.db.execute(sql`update vms set status = 'Error', task = null, failed_task = 'create' where id = ${vmId}`);
    await debt(c.id, '200.00');
    await suspend(c.id, 'INSUFFICIENT_BALANCE');
    const uuid = bucket.json().data.uuid;
    const grow = await call(c, 'PATCH', `/api/storage/object/${uuid}/resize`, { size: 20 });
    assert.equal(grow.statusCode, 402, grow.body);
    const retry = await call(c, 'POST', `/api/compute/vm/${vmId}/retry`);
    assert.equal(retry.statusCode, 402, retry.body);
    assert.equal((await call(c, 'PATCH', `/api/storage/object/${uuid}/resize`, { size: 5 })).statusCode, 200);
    assert.equal((await call(c, 'DELETE', `/api/compute/vm/${vmId}`)).statusCode, 200);
  });

  test('zero is enough ("must not be below zero"), prepaid or postpaid: every kind is created', async () => {
    for (const c of [await customerSession(t), await customerSession(t, { billingType: 'POSTPAID' })]) {
      for (const [kind, start] of Object.entries(starts)) {
        const res = await start(c);
        assert.equal(res.statusCode, 201, `${kind}: ${res.body}`);
      }
    }
  });
});
