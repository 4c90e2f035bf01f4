import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { client } from '../helpers/http.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const { get, patch } = client(() => t);

async function row(id: number) {
  const r = await t.container.db.execute(sql`select * from customers where id = ${id}`);
  return (r as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
}

describe('GET /api/inf', () => {
  test('every field of the customer summary', async () => {
    const s = await customerSession(t, { firstName: 'Ana', lastName: 'Lee', accountType: 'P' });
    const res = await get('/api/inf', s.cookie);
    assert.equal(res.statusCode, 200);
    const d = res.json().data;
    assert.deepEqual(Object.keys(d).sort(), [
      'account_type', 'account_type_description', 'actual_balance', 'billing_type', 'block_storage_limit', 'business', 'current_balance',
      'do_not_suspend_until', 'email', 'first_name', 'full_name', 'id', 'is_2fa_active', 'is_active', 'is_identity_verified',
      'is_registration_completed', 'last_name', 'loadbalancer_limit', 'notification_setting', 'object_storage_limit', 'personal',
      'private_ip_limit', 'public_ip_limit', 'reward_first_top_up', 'reward_referral', 'snapshot_limit', 'suspend_reason', 'suspended_at', 'unread_count', 'vm_limit', 'withheld',
    ]);
    assert.deepEqual(d.withheld, [], 'the owner sees the money');
    assert.equal(d.id, s.id);
    assert.equal(d.full_name, 'Ana Lee');
    assert.equal(d.account_type_description, 'Personal');
    assert.equal(d.billing_type, 'PREPAID');
    assert.equal(d.actual_balance, 0);
    assert.equal(d.current_balance, 0);
    assert.equal(d.unread_count, 0);
    assert.deepEqual(d.business, {});
    assert.equal(d.personal.country_id, null);
    assert.deepEqual(d.notification_setting, { allow_marketing_email: false, allow_billing_reminder: true });
    assert.equal((await get('/api/inf')).statusCode, 401);
  });
});

describe('profile', () => {
  test('GET and PATCH with a valid area chain, business profile for B accounts', async () => {
    const s = await customerSession(t);
    const res = await patch('/api/customer/profile', {
      firstname: ' Budi ',
      lastname: 'Santoso',
      personal_profile: { phone: '+62 812 000', country_id: '360', province_id: '11', city_id: '1101', district_id: '110101', tax_number: '12.345' },
    }, s.cookie);
    assert.equal(res.statusCode, 200, res.body);
    const d = res.json().data;
    assert.equal(d.firstname, 'Budi');
    assert.equal(d.full_name, 'Budi Santoso');
    assert.equal(d.personal_profile.district_id, '110101');
    assert.equal(d.personal_profile.address, null);
    assert.deepEqual(d.business_profile, {});
    assert.deepEqual((await get('/api/customer/profile', s.cookie)).json().data, d);

    // partial update keeps the rest; an outside-the-reference place uses *_custom
    const p2 = await patch('/api/customer/profile', { personal_profile: { province_id: null, city_id: '', district_id: null, country_id: '702', city_custom: 'Singapore' } }, s.cookie);
    assert.equal(p2.statusCode, 200, p2.body);
    assert.equal(p2.json().data.personal_profile.city_id, null);
    assert.equal(p2.json().data.personal_profile.phone, '+62 812 000');

    const b = await patch('/api/customer/profile', { account_type: 'B', business_profile: { name: 'Acme', website_url: 'https://acme.test' } }, s.cookie);
    assert.equal(b.statusCode, 200, b.body);
    assert.equal(b.json().data.account_type, 'B');
    assert.equal(b.json().data.business_profile.name, 'Acme');
    assert.equal((await get('/api/inf', s.cookie)).json().data.account_type_description, 'Business');
  });

  test('bad input is a 400 in the error shape and changes nothing', async () => {
    const s = await customerSession(t);
    await patch('/api/customer/profile', { personal_profile: { country_id: '360', province_id: '11' } }, s.cookie);
    const before = await row(s.id);
    const cases: [unknown, string][] = [
      [{ firstname: 'X', nickname: 'y' }, 'nickname'],
      [{ account_type: 'X' }, 'account_type'],
      [{ firstname: '' }, 'firstname'],
      [{}, 'body'],
      [{ personal_profile: { country_id: 'abc' } }, 'personal_profile.country_id'],
      [{ personal_profile: { country_id: '99999' } }, 'personal_profile.country_id'],
      [{ personal_profile: { province_id: '12', city_id: '1101' } }, 'personal_profile.city_id'],
      [{ personal_profile: { district_id: '999999' } }, 'personal_profile.district_id'],
      [{ personal_profile: { colour: 'red' } }, 'personal_profile.colour'],
      [{ business_profile: { name: 'Acme' } }, 'business_profile'],
      [{ firstname: 'Changed', personal_profile: { province_id: '99' } }, 'personal_profile.province_id'],
    ];
    for (const [body, field] of cases) {
      const res = await patch('/api/customer/profile', body, s.cookie);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      const err = res.json();
      assert.equal(err.code, 'VALIDATION_FAILED');
      assert.match(err.request_id, /.+/);
      if (field !== 'body') assert.ok(err.errors.some((e: any) => e.field === field), `${JSON.stringify(body)} → ${JSON.stringify(err.errors)}`);
    }
    assert.deepEqual(await row(s.id), before);
  });

  test('notification settings and resource quota', async () => {
    const s = await customerSession(t, { vmLimit: 7, publicIpLimit: 3 });
    const res = await patch('/api/customer/profile/notification-setting', { allow_marketing_email: true }, s.cookie);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, { allow_marketing_email: true, allow_billing_reminder: true });
    assert.equal((await patch('/api/customer/profile/notification-setting', { allow_marketing_email: 'yes please' }, s.cookie)).statusCode, 400);
    assert.equal((await patch('/api/customer/profile/notification-setting', { spam: true }, s.cookie)).statusCode, 400);
    assert.deepEqual((await get('/api/inf', s.cookie)).json().data.notification_setting, { allow_marketing_email: true, allow_billing_reminder: true });
    const q = await get('/api/customer/resource', s.cookie);
    assert.deepEqual(q.json().data, { max_vm: 7, current_vm: 0, max_ip: 3, current_ip: 0 });
  });

  test('one customer never sees or changes another one', async () => {
    const a = await customerSession(t, { firstName: 'Alice' });
    const b = await customerSession(t, { firstName: 'Bob' });
    await patch('/api/customer/profile', { firstname: 'Alicia' }, a.cookie);
    assert.equal((await get('/api/customer/profile', b.cookie)).json().data.firstname, 'Bob');
    assert.equal((await row(b.id)).first_name, 'Bob');
    assert.equal((await get('/api/inf', a.cookie)).json().data.id, a.id);
  });
});

describe('staff service functions', () => {
  test('list with search and pagination, detail, update', async () => {
    const svc = t.container.services.customers;
    const tag = `zeta${Date.now()}`;
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await customerSession(t, { email: `${tag}-${i}@example.test`, lastName: `Omega${i}` }));
    const page1 = await svc.list({ page: 1, limit: 2 }, tag);
    assert.equal(page1.total, 3);
    assert.deepEqual(page1.items.map((c) => c.email), [`${tag}-2@example.test`, `${tag}-1@example.test`]);
    assert.equal((await svc.list({ page: 2, limit: 2 }, tag)).items.length, 1);
    assert.equal((await svc.list({ page: 1, limit: 10 }, '%')).total, 0);
    assert.equal((await svc.list({ page: 1, limit: 10 }, 'omega1')).items[0]!.id, made[1]!.id);

    const target = made[0]!;
    const detail = await svc.detail(target.id);
    assert.equal(detail.maxSession, 5);
    const { before, after: updated } = await svc.adminUpdate(target.id, {
      billing_type: 'POSTPAID',
      is_identity_verified: true,
      do_not_suspend_until: '2030-01-01T00:00:00.000Z',
      vm_limit: 20,
      public_ip_limit: 9,
      max_session: 3,
    });
    assert.equal(before.billingType, 'PREPAID');
    assert.equal(updated.billingType, 'POSTPAID');
    assert.equal(updated.isIdentityVerified, true);
    assert.equal(updated.doNotSuspendUntil?.toISOString(), '2030-01-01T00:00:00.000Z');
    assert.equal(updated.vmLimit, 20);
    assert.equal(updated.maxSession, 3);
    await assert.rejects(svc.adminUpdate(target.id, { vm_limit: -1 }), /Validation/);
    await assert.rejects(svc.adminUpdate(target.id, { email: 'x@y.z' } as never), /Validation/);
    await assert.rejects(svc.detail(999999), /not found/);

    // disabling the account ends its sessions at their next request
    assert.equal((await get('/api/inf', target.cookie)).statusCode, 200);
    await svc.adminUpdate(target.id, { is_active: false });
    assert.equal((await get('/api/inf', target.cookie)).statusCode, 401);
  });
});
