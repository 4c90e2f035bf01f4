import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/database.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client } from './helpers/http.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const { get } = client(() => t);

function assertErrorShape(body: any, code: string) {
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.match(body.request_id, /.+/);
}

describe('GET /api/lookup/country', () => {
  test('lists every ISO country with numeric ids', async () => {
    const res = await get('/api/lookup/country');
    assert.equal(res.statusCode, 200);
    const { message, data } = res.json();
    assert.equal(typeof message, 'string');
    assert.ok(data.length >= 249, `only ${data.length} countries`);
    assert.deepEqual(data.find((c: any) => c.code === 'ID'), { id: 360, code: 'ID', name: 'Indonesia' });
    assert.match(res.headers['cache-control'] as string, /public, max-age=\d+/);
  });
});

describe('GET /api/lookup/province', () => {
  test('all 38 provinces of Indonesia, with and without country_id', async () => {
    const all = (await get('/api/lookup/province')).json().data;
    const indonesia = (await get('/api/lookup/province?country_id=360')).json().data;
    assert.equal(indonesia.length, 38);
    assert.equal(all.length, 38);
    assert.deepEqual(indonesia.find((p: any) => p.id === 11), { id: 11, name: 'Aceh' });
    assert.deepEqual(Object.keys(indonesia[0]).sort(), ['id', 'name']);
  });

  test('a country without provinces gives an empty list; a bad country_id is a 400', async () => {
    assert.deepEqual((await get('/api/lookup/province?country_id=702')).json().data, []);
    const res = await get('/api/lookup/province?country_id=x');
    assert.equal(res.statusCode, 400);
    assertErrorShape(res.json(), 'VALIDATION_FAILED');
  });
});

describe('GET /api/lookup/city', () => {
  test('cities of a province, with stable ids', async () => {
    const res = await get('/api/lookup/city?province_id=11');
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.equal(data.length, 23);
    assert.deepEqual(data.find((c: any) => c.id === 1101), { id: 1101, province_id: 11, name: 'Kabupaten Aceh Selatan' });
    const total = await Promise.all(
      (await get('/api/lookup/province')).json().data.map(async (p: any) => (await get(`/api/lookup/city?province_id=${p.id}`)).json().data.length),
    );
    assert.equal(total.reduce((a: number, b: number) => a + b, 0), 514);
  });

  for (const [query, why] of [
    ['', 'missing'],
    ['?province_id=', 'empty'],
    ['?province_id=abc', 'not a number'],
    ['?province_id=1.5', 'not an integer'],
    ['?province_id=0', 'below 1'],
    ['?province_id=-3', 'negative'],
    ['?province_id=99999999999', 'too large'],
  ]) {
    test(`province_id ${why} → 400 in the error shape`, async () => {
      const res = await get(`/api/lookup/city${query}`);
      assert.equal(res.statusCode, 400);
      const body = res.json();
      assertErrorShape(body, 'VALIDATION_FAILED');
      assert.equal(body.errors[0].field, 'province_id');
      assert.equal(res.headers['x-request-id'], body.request_id);
    });
  }

  test('an unknown province gives an empty list', async () => {
    assert.deepEqual((await get('/api/lookup/city?province_id=999')).json().data, []);
  });
});

describe('GET /api/lookup/district', () => {
  test('districts of a city', async () => {
    const data = (await get('/api/lookup/district?city_id=1101')).json().data;
    assert.ok(data.length > 5);
    assert.deepEqual(data.find((d: any) => d.id === 110101), { id: 110101, city_id: 1101, name: 'Bakongan' });
  });

  test('every district of the reference data, a quoted name read whole', async () => {
    const sumenep = (await get('/api/lookup/district?city_id=3529')).json().data;
    assert.deepEqual(sumenep.find((d: any) => d.id === 352922), { id: 352922, city_id: 3529, name: 'Ra"as' });
    const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from districts`);
    assert.equal(row!.n, 7285);
  });

  test('city_id is required and must be an integer', async () => {
    for (const q of ['', '?city_id=a', '?city_id=2.2']) {
      const res = await get(`/api/lookup/district${q}`);
      assert.equal(res.statusCode, 400, q);
      assertErrorShape(res.json(), 'VALIDATION_FAILED');
    }
  });
});

describe('settings-backed and static lookups', () => {
  test('password rules give a regex the front end can use', async () => {
    const { data } = (await get('/api/lookup/password-rules')).json();
    const re = new RegExp(data.regex, 'u');
    assert.equal(typeof data.description, 'string');
    assert.equal(data.min_length, 8);
    assert.ok(re.test('Str0ng!pass'));
    assert.ok(!re.test('weak'));
    assert.ok(!re.test('alllowercase1!'));
  });

  test('tnc link and app colors come from the settings row', async () => {
    assert.match((await get('/api/lookup/tnc')).json().data.link, /^https?:\/\//);
    const colors = (await get('/api/lookup/app-colors')).json().data;
    assert.match(colors.app_color.primary, /^#[0-9A-F]{6}$/i);
    assert.match(colors.app_color.secondary, /^#[0-9A-F]{6}$/i);
    assert.match(colors.email_color.primary, /^#[0-9A-F]{6}$/i);
    await t.container.db.execute(
      (await import('drizzle-orm')).sql`update app_settings set primary_color = '#123456', terms_and_conditions_url = 'https://x.test/tos'`,
    );
    assert.equal((await get('/api/lookup/app-colors')).json().data.app_color.primary, '#123456');
    assert.equal((await get('/api/lookup/tnc')).json().data.link, 'https://x.test/tos');
  });

  test('locations include an active datacenter with id 1', async () => {
    const res = await get('/api/lookup/locations');
    const one = res.json().data.find((l: any) => l.id === 1);
    assert.deepEqual(Object.keys(one).sort(), ['code', 'country_code', 'id', 'is_active', 'name']);
    assert.equal(one.is_active, true);
  });
});
