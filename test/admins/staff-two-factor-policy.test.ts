import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { totpCode } from '../../src/platform/crypto/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookiesOf, createAdmin, createCustomRole, strongPassword } from '../helpers/admins.js';
import { client } from '../helpers/http.js';

let t: TestApp;
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());
// every test starts with nobody required; the service is used, as a Super Admin without 2FA would be locked out of the route
beforeEach(() => t.container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'nobody' }));

const { post, get, request } = client(() => t, () => ({ prefix: '/api/backoffice' }));
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  Object.entries(cookiesOf(res))
    .filter(([k, v]) => v !== '' && k.startsWith('bo_'))
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
const login = async (email: string, password: string) => {
  const res = await post('/auth/login', { email, password });
  assert.equal(res.statusCode, 200, res.body);
  return { data: res.json().data, cookie: cookieOf(res) };
};
const enrol = async (password: string, cookie: string) => {
  const gen = await post('/auth/2fa/generate', { password }, cookie);
  assert.equal(gen.statusCode, 200, gen.body);
  clock.advance(30_000);
  const en = await post('/auth/2fa/enable', { code: totpCode(gen.json().data.secret, clock.now()) }, cookie);
  assert.equal(en.statusCode, 200, en.body);
};
const scope = async () => (await queryRows<{ s: string }>(t.container.db, sql`select staff_two_factor_scope as s from app_settings`))[0]!.s;

describe('the staff-2fa setting: nobody, the roles that move money, or all staff', () => {
  test('the owner sets it through the API; GET reads it back; bad bodies change nothing', async () => {
    const boss = await createAdmin(t);
    const { cookie } = await login(boss.email, boss.password);
    assert.deepEqual((await get('/setting/staff-2fa', cookie)).json().data, { required_for: 'nobody', required: false });
    for (const bad of [{}, { required_for: 'everyone' }, { required_for: 'all_staff', required: true }, { required: 'yes' }]) {
      const res = await request('PUT', '/setting/staff-2fa', bad, cookie);
      assert.equal(res.statusCode, 400, JSON.stringify(bad));
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    assert.equal(await scope(), 'nobody');
    const set = await request('PUT', '/setting/staff-2fa', { required_for: 'money_roles' }, cookie);
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json().data, { required_for: 'money_roles', required: true });
    assert.equal(await scope(), 'money_roles');
    const [audit] = await queryRows<{ after: unknown }>(t.container.db, sql`select after from audit_logs where action = 'settings.staff_2fa_changed' order by id desc limit 1`);
    assert.deepEqual(audit!.after, { staff_two_factor_required_for: 'money_roles' });
  });

  test('money_roles: a role holding verify_invoices must enrol; a support role is not asked', async () => {
    const money = await createAdmin(t, { role: await createCustomRole(t, ['view_billing', 'verify_invoices']) });
    const support = await createAdmin(t, { role: 'Admin Support' });
    await t.container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'money_roles' });
    const m = await login(money.email, money.password);
    assert.equal(m.data.two_factor_setup_required, true);
    assert.equal((await get('/billing/prepaid/invoices', m.cookie)).json().code, 'TWO_FACTOR_SETUP_REQUIRED');
    const s = await login(support.email, support.password);
    assert.equal(s.data.two_factor_setup_required, false);
    assert.equal((await get('/customer', s.cookie)).statusCode, 200);
  });

  test('all_staff: every staff member without 2FA is led through set-up, then works', async () => {
    const support = await createAdmin(t, { role: 'Admin Support' });
    await t.container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'all_staff' });
    const s = await login(support.email, support.password);
    assert.equal(s.data.two_factor_setup_required, true);
    const blocked = await get('/customer', s.cookie);
    assert.equal(blocked.statusCode, 403);
    assert.equal(blocked.json().code, 'TWO_FACTOR_SETUP_REQUIRED');
    await enrol(support.password, s.cookie);
    assert.equal((await get('/customer', s.cookie)).statusCode, 200);
  });

  test('a generated password under the requirement: the password change comes first, then 2FA set-up, then the backoffice', async () => {
    await t.container.services.settings.setStaffTwoFactor(SYSTEM_ACTOR, { required_for: 'all_staff' });
    const email = `owner-${Date.now()}@staff.test`;
    const { password } = await t.container.services.admins.createSuperAdmin({ email, name: 'Owner' });
    const first = await login(email, password);
    assert.equal(first.data.must_change_password, true);
    assert.equal(first.data.first_login, true);
    // the profile says what comes first
    const inf = await get('/admin/inf', first.cookie);
    assert.equal(inf.statusCode, 200, inf.body);
    assert.equal(inf.json().data.must_change_password, true);
    assert.equal(inf.json().data.two_factor_enabled, false);
    assert.equal((await get('/customer', first.cookie)).json().code, 'PASSWORD_CHANGE_REQUIRED');
    const next = strongPassword();
    const changed = await post('/auth/change-password', { current_password: password, new_password: next }, first.cookie);
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await get('/customer', first.cookie)).json().code, 'TWO_FACTOR_SETUP_REQUIRED');
    await enrol(next, first.cookie);
    assert.equal((await get('/customer', first.cookie)).statusCode, 200);
    assert.equal((await get('/admin/inf', first.cookie)).json().data.two_factor_enabled, true);
  });
});
