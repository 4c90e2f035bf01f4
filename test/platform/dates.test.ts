import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';

let t: TestApp;
let boss: { cookie: string };
before(async () => {
  t = await buildTestApp({ worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const bo = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: boss.cookie }, payload });

const REFUSED = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0030-01-01T00:00:00Z',
  '0050-01-01T00:00:00Z',
  '0099-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '2030-01-01T00:00:00',
  '2030-02-30T00:00:00Z',
  '2030-01-01T24:00:00Z',
  '9999-12-31T23:00:00-05:00',
];

function assert400(res: { statusCode: number; json(): any; body: string }, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().code, 'VALIDATION_FAILED');
  assert.ok(res.json().errors.some((e: any) => e.field === field), res.body);
}

describe('date-time inputs: sane ISO 8601 instants (1970–9999 UTC, explicit offset) or 400', () => {
  test('do_not_suspend_until', async () => {
    const c = await createCustomer(t);
    for (const value of REFUSED) assert400(await bo('PATCH', `/customer/${c.id}`, { do_not_suspend_until: value }), 'do_not_suspend_until');
    const ok = await bo('PATCH', `/customer/${c.id}`, { do_not_suspend_until: '2030-01-01T07:00:00+07:00' });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().data.do_not_suspend_until, '2030-01-01T00:00:00.000Z');
    const edge = await bo('PATCH', `/customer/${c.id}`, { do_not_suspend_until: '9999-12-31T23:59:59.999Z' });
    assert.equal(edge.json().data.do_not_suspend_until, '9999-12-31T23:59:59.999Z');
    const cleared = await bo('PATCH', `/customer/${c.id}`, { do_not_suspend_until: null });
    assert.equal(cleared.json().data.do_not_suspend_until, null);
  });

  test('coupon valid_from and valid_until, on create and on patch', async () => {
    for (const value of REFUSED) {
      assert400(await bo('POST', '/coupons', { code: 'DATES1', type: 'FIXED', value: 5, valid_from: value }), 'valid_from');
      assert400(await bo('POST', '/coupons', { code: 'DATES1', type: 'FIXED', value: 5, valid_until: value }), 'valid_until');
    }
    const created = await bo('POST', '/coupons', { code: 'DATES1', type: 'FIXED', value: 5, valid_from: '1970-01-01T00:00:00Z', valid_until: '2099-12-31T23:59:59+00:00' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().data.valid_from, '1970-01-01T00:00:00.000Z');
    assert.equal(created.json().data.valid_until, '2099-12-31T23:59:59.000Z');
    const id = created.json().data.id;
    for (const value of REFUSED) assert400(await bo('PATCH', `/coupons/${id}`, { valid_until: value }), 'valid_until');
  });
});
