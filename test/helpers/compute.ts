import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import type { SimulatedDatacenter } from '../../src/integrations/datacenter/index.js';
import { queueDrained, type TestApp } from './app.js';

/** Gives the customer real money (a manual ADD in the ledger). */
export async function fund(t: TestApp, customerId: number, amount = '1000000.00'): Promise<void> {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.credit(tx, {
      customerId,
      type: BalanceLogType.AdjustAdd,
      amount,
      part: 'actual',
      referenceType: 'test_funding',
      referenceId: randomBytes(6).toString('hex'),
      description: 'test funding',
    }),
  );
}

/** The simulated datacenter of the test app (failure injection, capacity). */
export function simulator(t: TestApp): SimulatedDatacenter {
  return t.container.datacenter as SimulatedDatacenter;
}

/** The seeded gp.small tier (priced in the active locations 1 and 2). */
export async function seededTier(t: TestApp, name = 'gp.small'): Promise<number> {
  const tier = (await t.container.services.tiers.list({ includeRetired: false })).find((x) => x.name === name);
  assert.ok(tier, `seeded tier ${name}`);
  return tier.id;
}

export async function createVm(t: TestApp, cookie: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie }, payload: body });
}

export async function getVm(t: TestApp, cookie: string, id: number) {
  const res = await t.app.inject({ method: 'GET', url: `/api/compute/vm/${id}`, headers: { cookie } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** Waits until the resource lifecycle's jobs (VMs and every other resource at the datacenter) are done. */
export function vmJobsDone(t: TestApp): Promise<void> {
  return queueDrained(t, { queues: ['resources'] });
}

/** Makes every automatic retry of a failed resource due now (as if its back-off had passed). */
export async function retriesDue(t: TestApp): Promise<void> {
  const now = t.container.clock.now().toISOString();
  await t.container.db.execute(sql`update resource_lifecycle set retry_at = ${now}::timestamptz, due_at = ${now}::timestamptz where retry_at is not null`);
}
