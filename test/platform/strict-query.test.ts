import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';
import { client } from '../helpers/http.js';

let t: TestApp;
let boss: { cookie: string };
before(async () => {
  t = await buildTestApp({ worker: false });
  boss = await adminSession(t);
});
after(() => t.close());

const { get } = client(() => t, () => ({ headers: { cookie: boss.cookie } }));

function assert400(res: { statusCode: number; json(): any; body: string }, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().code, 'VALIDATION_FAILED');
  assert.deepEqual(res.json().errors.map((e: any) => e.field), [field], res.body);
}

describe('a query value that is not exactly what the schema says is a 400', () => {
  test('bracketed and unknown parameters are refused instead of ignored', async () => {
    await createCustomer(t, { email: 'strict.query@example.test' });
    assert400(await get('/api/backoffice/customer?page[]=1'), 'page[]');
    assert400(await get('/api/backoffice/customer?page[a]=1'), 'page[a]');
    assert400(await get('/api/backoffice/customer?search[]=a'), 'search[]');
    assert400(await get('/api/backoffice/customer?serach=a'), 'serach');
    assert400(await get('/api/lookup/city?province_id=31&extra=1'), 'extra');
  });

  test('numbers are plain decimal: hex, exponents, signs, spaces and leading zeros are refused', async () => {
    for (const limit of ['0x10', '1e1', '+5', '%2016', '16%20', '016', '5.0', '', 'Infinity']) {
      assert400(await get(`/api/backoffice/customer?limit=${limit}`), 'limit');
    }
    assert400(await get('/api/lookup/city?province_id=0x1F'), 'province_id');
    assert400(await get('/api/backoffice/customer/0x10'), 'id');
    assert400(await get('/api/backoffice/customer?page=1&page=2'), 'page');
  });

  test('what the schema says still works; gateways may add their own parameters to the return URL', async () => {
    const list = await get('/api/backoffice/customer?page=1&limit=5&search=strict.query');
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().data.length, 1);
    assert.equal(list.json().meta.limit, 5);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/city?province_id=31' })).statusCode, 200);
    const back = await t.app.inject({ method: 'GET', url: '/api/payment/redirect/pgone?status=success&merchantOrderId=abc&resultCode=00' });
    assert.equal(back.statusCode, 200, back.body);
  });
});
