import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

/*
 * One bound for every money amount a request carries (prices, top-ups, coupons, bonus caps, redeem
 * codes, adjustments, minimum top-ups): at most 1,000,000,000 with 2 decimals. Above it is a 400
 * naming the field, never a 500 from a column that cannot hold it (a price of 730000000000000 made
 * its hourly price overflow NUMERIC(18,6) at insert; a price of 700000000000000 was accepted and
 * made the hourly charge overflow usage_records.amount for good).
 */

const MAX = 1000000000;
let t: TestApp;
let staff: { cookie: string };
before(async () => {
  t = await buildTestApp({ worker: false });
  staff = await adminSession(t);
});
after(() => t.close());

const bo = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: staff.cookie }, payload });
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

function refused(res: { statusCode: number; body: string; json(): any }, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().code, 'VALIDATION_FAILED', res.body);
  assert.ok(
    (res.json().errors ?? []).some((e: { field: string }) => e.field === field || e.field.endsWith(`/${field}`) || e.field.endsWith(`.${field}`)),
    `the error names ${field}: ${res.body}`,
  );
}

async function firstId(table: 'tiers' | 'storage_tiers' | 'components'): Promise<number> {
  const [row] = await queryRows<{ id: number }>(t.container.db, sql`select id from ${sql.raw(table)} order by id limit 1`);
  return row!.id;
}

describe('prices: every monthly price fits its column with its hourly price', () => {
  test('update-tier, update-storage-tier and update-loc refuse prices above 1,000,000,000 with a 400 (730000000000000 and 1e15 were 500s)', async () => {
    const tierId = await firstId('tiers');
    const storageTierId = await firstId('storage_tiers');
    const componentId = await firstId('components');
    for (const monthly of [730000000000000, 1000000000000000, 700000000000000, MAX + 0.01]) {
      refused(await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, monthly_price: monthly, effective_date: inOneHour() }), 'monthly_price');
      refused(await bo('POST', '/pricing/update-storage-tier', { storage_tier_id: storageTierId, location_id: 1, monthly_price: monthly, effective_date: inOneHour() }), 'monthly_price');
      refused(await bo('POST', '/pricing/update-loc', { component_id: componentId, location_id: 1, monthly_price: monthly, effective_date: inOneHour() }), 'monthly_price');
    }
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from price_schedules where monthly_price > ${MAX}`);
    assert.equal(n!.n, 0);
  });

  test('the bound itself is accepted, with its hourly price to 6 decimals', async () => {
    const res = await bo('POST', '/pricing/update-storage-tier', { storage_tier_id: await firstId('storage_tiers'), location_id: 1, monthly_price: MAX, effective_date: inOneHour() });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.monthly_price, MAX);
    assert.equal(res.json().data.hourly_price, 1369863.013699);
  });

  test('the database refuses a price beyond the bound whatever path writes it', async () => {
    await assert.rejects(
      t.container.db.execute(sql`insert into price_versions (price_key, location_id, monthly_price, hourly_price, effective_from) values ('tier:1', 1, 1000000000.01, 1369863.01, now())`),
      /price_versions_bounded|check constraint/,
    );
  });
});

describe('every other money input: the same bound, the same 400', () => {
  test('redeem codes, reward caps, balance adjustments, minimum top-ups, coupons and deposits', async () => {
    const c = await customerSession(t);
    const over = MAX + 1;
    refused(await bo('POST', '/redeem-codes', { code: 'BIG-ONE', amount: over }), 'amount');
    refused(await bo('POST', '/redeem-codes', { code: 'BIG-TWO', amount: 1e16 }), 'amount');
    const settings = { first_top_up_percent: 1, referral_percent: 1, referral_max_bonus: null };
    refused(await bo('PUT', '/rewards/settings', { ...settings, first_top_up_max_bonus: 1e16 }), 'first_top_up_max_bonus');
    refused(await bo('POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: over, description: 'too much at once' }), 'amount');
    refused(await bo('POST', `/customer/${c.id}/balance`, { type: 'DEDUCT', amount: 1e17, description: 'too much at once' }), 'amount');
    refused(await bo('PUT', `/customer/${c.id}/topup-minimum`, { minimum_amount: over }), 'minimum_amount');
    refused(await bo('POST', '/coupons', { code: 'BIGFIX', type: 'FIXED', value: over }), 'value');
    refused(await bo('POST', '/coupons', { code: 'BIGCAP', type: 'PERCENT', value: 10, max_bonus: over }), 'max_bonus');
    const dep = await t.app.inject({ method: 'POST', url: '/api/billing/deposit', headers: { cookie: c.cookie }, payload: { amount: over, gateway_name: 'pgone', method_code: 'SP' } });
    refused(dep, 'amount');
    // the bound itself is a valid amount everywhere
    assert.equal((await bo('POST', '/redeem-codes', { code: 'AT-BOUND', amount: MAX })).statusCode, 201);
    assert.equal((await bo('PUT', '/rewards/settings', { ...settings, first_top_up_max_bonus: MAX })).statusCode, 200);
    assert.equal((await bo('POST', `/customer/${c.id}/balance`, { type: 'ADD', amount: MAX, description: 'at the bound' })).statusCode, 200);
  });
});

describe('quantities: a meter counts at most 1,000,000 units', () => {
  test('metering refuses a larger quantity, and the table does too', async () => {
    const c = await customerSession(t);
    const open = (quantity: string) =>
      t.container.services.metering.open({ customerId: c.id, resourceType: 'bucket', resourceId: `q-${quantity}`, description: 'x', priceKey: 'component:1', locationId: 1, quantity, at: new Date() });
    await assert.rejects(open('1000000.000001'), /at most 1000000/);
    assert.equal((await open('1000000')).created, true);
    await assert.rejects(
      t.container.db.execute(sql`insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at)
        values (${c.id}, 'bucket', 'direct', 'x', 'component:1', 1, 1000001, now())`),
      /meters_quantity_bounded|check constraint/,
    );
  });
});
