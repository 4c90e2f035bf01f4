import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession, cookiesOf, createAdmin, loginAdmin, loginAdminFull, strongPassword } from '../helpers/admins.js';
import { TestSmtpServer } from '../helpers/smtp.js';

let t: TestApp;
const smtp = new TestSmtpServer();
before(async () => {
  t = await buildTestApp({ env: { SMTP_URL: await smtp.start() } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const inf = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/backoffice/admin/inf', headers: cookie ? { cookie } : {} });
const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(t.container.db, q);
const auditCount = async (action: string) => (await rows<{ n: number }>(sql`select count(*)::int as n from audit_logs where action = ${action}`))[0]!.n;

describe('backoffice login', () => {
  test('sets HttpOnly bo_ cookies, returns the profile, and the session works', async () => {
    const a = await createAdmin(t, { role: 'Admin Support' });
    const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email.toUpperCase(), password: a.password } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.data.must_change_password, false);
    assert.equal(body.data.admin.email, a.email);
    assert.equal(body.data.admin.role, 'Admin Support');
    assert.ok(body.data.admin.permissions.includes('impersonate_user'));
    assert.ok(!body.data.admin.permissions.includes('manage_admins'));
    const access = res.cookies.find((c) => c.name === 'bo_access_token')!;
    const refresh = res.cookies.find((c) => c.name === 'bo_refresh_token')!;
    assert.equal(access.httpOnly, true);
    assert.equal(access.sameSite, 'Strict');
    assert.equal(access.maxAge, 900);
    assert.equal(refresh.path, '/api/backoffice/auth');
    const me = await inf(`bo_access_token=${access.value}`);
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().data.id, a.id);
    assert.deepEqual(me.json().data.permissions, body.data.admin.permissions);
    // the JWT carries its own typ, sid, role and permissions
    const claims = JSON.parse(Buffer.from(access.value.split('.')[1]!, 'base64url').toString());
    assert.equal(claims.typ, 'bo_access');
    assert.equal(claims.role, 'Admin Support');
    assert.match(claims.sid, /^[0-9a-f-]{36}$/);
    assert.equal(claims.exp - claims.iat, 900);
    assert.ok((await auditCount('admin.login')) >= 1);
  });

  test('wrong password and unknown e-mail give the same 401 and are audited', async () => {
    const a = await createAdmin(t);
    const before = await auditCount('admin.login_failed');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: 'Wrong-pass1!' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: 'nobody@staff.test', password: 'Wrong-pass1!' } });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.json().code, 'INVALID_CREDENTIALS');
    assert.equal(wrong.json().message, unknown.json().message);
    assert.equal(wrong.cookies.length, 0);
    assert.equal(await auditCount('admin.login_failed'), before + 2);
  });

  test('unknown fields and missing fields are a 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: 'a@b.c', password: 'x', remember: true } });
    assert.equal(res.statusCode, 400);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: 'a@b.c' } })).statusCode, 400);
  });

  test('10 failed logins in 15 minutes lock the account (429), even for the right password', async () => {
    const a = await createAdmin(t);
    for (let i = 0; i < 9; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: `Wrong-${i}-Aa1!` } });
      assert.equal(r.statusCode, 401);
    }
    // the attempt that locks answers 429 already (one rule for customers and staff)
    const tenth = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: 'Wrong-10-Aa1!' } });
    assert.equal(tenth.statusCode, 429);
    const locked = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: a.password } });
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.json().code, 'RATE_LIMITED');
    assert.ok(Number(locked.headers['retry-after']) > 800);
    // another account is not affected
    const b = await createAdmin(t);
    await loginAdmin(t, b.email, b.password);
    // the lock ends after 15 minutes
    await t.container.db.execute(sql`update account_lockouts set locked_until = now() - interval '1 second' where scope = 'admin' and subject = ${`id:${a.id}`}`);
    await loginAdmin(t, a.email, a.password);
  });
});

describe('password attempts share one lock', () => {
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email, password } });

  test('20 parallel wrong passwords, and the right one while they are checked: at most 10 are checked, the account ends locked, no session', async () => {
    const a = await createAdmin(t);
    const guesses = Promise.all(Array.from({ length: 20 }, (_, i) => login(a.email, `Wrong-${i}-Aa1!`)));
    // the right password arrives once ten guesses are counted (the order that decides a right
    // password counted before them is test/platform/account-lock.test.ts)
    await eventually(async () => {
      const [row] = await queryRows<{ locked: boolean }>(t.container.db, sql`select locked_until is not null as locked from account_lockouts where scope = 'admin' and subject = ${`id:${a.id}`}`);
      return row?.locked;
    });
    const right = await login(a.email, a.password);
    const wrong = await guesses;
    for (const r of wrong) assert.ok([401, 429].includes(r.statusCode), r.body);
    assert.ok(wrong.filter((r) => r.statusCode === 401).length <= 10);
    assert.ok(wrong.filter((r) => r.statusCode === 429).length >= 10);
    assert.equal(right!.statusCode, 429, right!.body);
    assert.equal(right!.cookies.length, 0);
    const live = await t.container.db.execute(sql`select count(*)::int as n from admin_sessions where admin_id = ${a.id} and revoked_at is null`);
    assert.equal((live as unknown as { rows: { n: number }[] }).rows[0]!.n, 0);
    const later = await login(a.email, a.password);
    assert.equal(later.statusCode, 429);
    assert.ok(Number(later.headers['retry-after']) > 800);
  });

  test('wrong current passwords in change-password count toward the login lock', async () => {
    const a = await createAdmin(t);
    const cookie = await loginAdmin(t, a.email, a.password);
    const change = (current: string) =>
      t.app.inject({ method: 'POST', url: '/api/backoffice/auth/change-password', headers: { cookie }, payload: { current_password: current, new_password: 'Brand-New-Aa1!x' } });
    for (let i = 0; i < 9; i++) assert.equal((await change(`Wrong-${i}-Aa1!`)).statusCode, 400);
    assert.equal((await change('Wrong-10-Aa1!')).statusCode, 429, 'the attempt that locks answers 429 (one rule for customers and staff)');
    const locked = await change(a.password);
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.json().code, 'RATE_LIMITED');
    assert.equal((await login(a.email, a.password)).statusCode, 429);
  });
});

describe('refresh and logout', () => {
  test('refresh rotates the token; a reused refresh token kills the session', async () => {
    const a = await createAdmin(t);
    const login = await loginAdminFull(t, a.email, a.password);
    const r1 = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${login.refresh}` } });
    assert.equal(r1.statusCode, 200, r1.body);
    const c1 = cookiesOf(r1);
    assert.ok(c1.bo_access_token && c1.bo_refresh_token);
    assert.notEqual(c1.bo_refresh_token, login.refresh);
    assert.equal((await inf(`bo_access_token=${c1.bo_access_token}`)).statusCode, 200);
    // replay of the first token: refused, and the whole session ends
    const replay = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${login.refresh}` } });
    assert.equal(replay.statusCode, 401);
    assert.equal((await inf(`bo_access_token=${c1.bo_access_token}`)).statusCode, 401);
    const r2 = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${c1.bo_refresh_token}` } });
    assert.equal(r2.statusCode, 401);
    assert.equal(await auditCount('admin.refresh_token_reused'), 1);
  });

  test('refresh without or with a made-up token is a 401', async () => {
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh' })).statusCode, 401);
    const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: 'bo_refresh_token=abc' } });
    assert.equal(res.statusCode, 401);
  });

  test('logout ends the session: the access token and the refresh token stop working', async () => {
    const a = await createAdmin(t);
    const login = await loginAdminFull(t, a.email, a.password);
    const out = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/logout', headers: { cookie: login.cookie } });
    assert.equal(out.statusCode, 200);
    assert.ok(out.cookies.some((c) => c.name === 'bo_access_token' && c.value === ''));
    assert.equal((await inf(login.cookie)).statusCode, 401);
    const r = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: login.cookie } });
    assert.equal(r.statusCode, 401);
    assert.ok((await auditCount('admin.logout')) >= 1);
  });

  test('logout with only the refresh cookie (access token expired) ends the session; with no cookies it is 200 too', async () => {
    const a = await createAdmin(t);
    const login = await loginAdminFull(t, a.email, a.password);
    const refreshOnly = `bo_refresh_token=${login.refresh}`;
    const out = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/logout', headers: { cookie: `bo_access_token=expired.garbage.token; ${refreshOnly}` } });
    assert.equal(out.statusCode, 200, out.body);
    assert.ok(out.cookies.some((c) => c.name === 'bo_access_token' && c.value === ''));
    assert.ok(out.cookies.some((c) => c.name === 'bo_refresh_token' && c.value === ''));
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: refreshOnly } })).statusCode, 401);
    assert.equal((await inf(login.cookie)).statusCode, 401);
    const none = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/logout' });
    assert.equal(none.statusCode, 200);
  });
});

describe('change-password', () => {
  test('checks the current password and the rule; ends the other sessions, keeps this one', async () => {
    const a = await createAdmin(t);
    const one = await loginAdmin(t, a.email, a.password);
    const two = await loginAdmin(t, a.email, a.password);
    const change = (payload: object) => t.app.inject({ method: 'POST', url: '/api/backoffice/auth/change-password', headers: { cookie: one }, payload });
    const wrong = await change({ current_password: 'Nope-nope1!', new_password: strongPassword() });
    assert.equal(wrong.statusCode, 400);
    const weak = await change({ current_password: a.password, new_password: 'short' });
    assert.equal(weak.statusCode, 400);
    assert.equal(weak.json().errors[0].field, 'new_password');
    const same = await change({ current_password: a.password, new_password: a.password });
    assert.equal(same.statusCode, 400);
    const next = strongPassword();
    const ok = await change({ current_password: a.password, new_password: next });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await inf(one)).statusCode, 200);
    assert.equal((await inf(two)).statusCode, 401);
    const old = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: a.email, password: a.password } });
    assert.equal(old.statusCode, 401);
    await loginAdmin(t, a.email, next);
    assert.ok((await auditCount('admin.password_changed')) >= 1);
  });

  test('a generated password must be changed first: everything else is 403 PASSWORD_CHANGE_REQUIRED', async () => {
    // a generated password: the first Super Admin's (start-up or npm run admin:create without --password)
    const email = `new-${Date.now()}@staff.test`;
    const { password } = await t.container.services.admins.createSuperAdmin({ email, name: 'New One' });
    assert.match(password, /^.{20}$/);

    const login = await loginAdminFull(t, email, password);
    assert.equal(login.body.data.must_change_password, true);
    const blocked = await t.app.inject({ method: 'GET', url: '/api/backoffice/admin', headers: { cookie: login.cookie } });
    assert.equal(blocked.statusCode, 403);
    assert.equal(blocked.json().code, 'PASSWORD_CHANGE_REQUIRED');
    // the profile stays readable: it is where the console learns that the password form comes first
    const pending = await inf(login.cookie);
    assert.equal(pending.statusCode, 200, pending.body);
    assert.equal(pending.json().data.must_change_password, true);
    assert.equal(login.body.data.first_login, true);
    const next = strongPassword();
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/auth/change-password',
      headers: { cookie: login.cookie },
      payload: { current_password: password, new_password: next },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const list = await t.app.inject({ method: 'GET', url: '/api/backoffice/admin', headers: { cookie: login.cookie } });
    assert.equal(list.statusCode, 200);
    assert.equal((await inf(login.cookie)).json().data.must_change_password, false);
  });
});

describe('staff lifecycle', () => {
  test("a deleted admin's session fails at its next request; restore lets them log in again", async () => {
    const boss = await adminSession(t);
    const victim = await adminSession(t, { role: 'Admin' });
    assert.equal((await inf(victim.cookie)).statusCode, 200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${victim.id}/delete`, headers: { cookie: boss.cookie } });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((await inf(victim.cookie)).statusCode, 401);
    const again = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: victim.email, password: victim.password } });
    assert.equal(again.statusCode, 401);
    const [row] = await rows<{ deleted_at: Date | null }>(sql`select deleted_at from admins where id = ${victim.id}`);
    assert.ok(row!.deleted_at, 'soft delete keeps the row');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${victim.id}/delete`, headers: { cookie: boss.cookie } })).statusCode, 409);

    const restored = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${victim.id}/restore`, headers: { cookie: boss.cookie } });
    assert.equal(restored.statusCode, 200);
    assert.equal(restored.json().data.is_deleted, false);
    assert.equal((await inf(victim.cookie)).statusCode, 401, 'old sessions stay dead');
    await loginAdmin(t, victim.email, victim.password);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${victim.id}/restore`, headers: { cookie: boss.cookie } })).statusCode, 409);
  });

  test('only Super Admin deletes staff and resets passwords; nobody deletes themselves', async () => {
    const boss = await adminSession(t);
    const manager = await adminSession(t, { permissions: ['manage_admins', 'view_admins'] });
    const target = await createAdmin(t, { role: 'Admin Sales' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${target.id}/delete`, headers: { cookie: manager.cookie } });
    assert.equal(del.statusCode, 403);
    const reset = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${target.id}/reset-password`, headers: { cookie: manager.cookie } });
    assert.equal(reset.statusCode, 403);
    const self = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/${boss.id}/delete`, headers: { cookie: boss.cookie } });
    assert.equal(self.statusCode, 400);
    const missing = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/admin/999999/delete`, headers: { cookie: boss.cookie } });
    assert.equal(missing.statusCode, 404);
  });

  test('reset-password: the old password stops working, sessions end, a link to choose a new one is mailed (no password anywhere)', async () => {
    const boss = await adminSession(t);
    const target = await adminSession(t, { role: 'Admin Billing' });
    const res = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${target.id}/reset-password`, headers: { cookie: boss.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.password, undefined);
    assert.ok(res.json().data.set_password_link_expires_at);
    assert.equal((await inf(target.cookie)).statusCode, 401);
    const mail = await smtp.waitFor(target.email, (m) => /reset/i.test(m.subject));
    const token = /set-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', payload: { email: target.email, password: target.password } })).statusCode, 401);
    const next = strongPassword();
    const set = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/set-password', payload: { token, new_password: next } });
    assert.equal(set.statusCode, 200, set.body);
    const login = await loginAdminFull(t, target.email, next);
    assert.equal(login.body.data.must_change_password, false);
  });

  test('a role change takes effect at the next token refresh or login, not within the current access token', async () => {
    const boss = await adminSession(t);
    const a = await adminSession(t, { role: 'Admin Support' });
    const list = () => t.app.inject({ method: 'GET', url: '/api/backoffice/admin', headers: { cookie: a.cookie } });
    assert.equal((await list()).statusCode, 403);
    const change = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/admin/${a.id}/update-role`, headers: { cookie: boss.cookie }, payload: { role: 'Admin' } });
    assert.equal(change.statusCode, 200, change.body);
    assert.equal(change.json().data.role, 'Admin');
    // same session: still the old role and permissions
    assert.equal((await list()).statusCode, 403);
    assert.equal((await inf(a.cookie)).json().data.role, 'Admin Support');
    const login = await loginAdminFull(t, a.email, a.password);
    const fresh = await loginAdmin(t, a.email, a.password);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/admin', headers: { cookie: fresh } })).statusCode, 200);
    assert.equal((await inf(fresh)).json().data.role, 'Admin');
    assert.ok(login.body.data.admin.permissions.includes('view_admins'));
    const [entry] = await rows<{ before: any; after: any; actor_id: number }>(
      sql`select before, after, actor_id from audit_logs where action = 'admin.role_changed' and target_id = ${String(a.id)}`,
    );
    assert.deepEqual(entry!.before, { role: 'Admin Support' });
    assert.deepEqual(entry!.after, { role: 'Admin' });
    assert.equal(entry!.actor_id, boss.id);
  });

  test('only Super Admin grants Super Admin; unknown role 400; e-mail taken 409; nobody changes their own role', async () => {
    const boss = await adminSession(t);
    const manager = await adminSession(t, { permissions: ['manage_admins', 'view_admins'] });
    const target = await createAdmin(t, { role: 'Admin Sales' });
    const patch = (cookie: string, id: number, role: string) =>
      t.app.inject({ method: 'PATCH', url: `/api/backoffice/admin/${id}/update-role`, headers: { cookie }, payload: { role } });
    assert.equal((await patch(manager.cookie, target.id, 'Super Admin')).statusCode, 403);
    assert.equal((await patch(manager.cookie, target.id, 'Admin')).statusCode, 200);
    assert.equal((await patch(manager.cookie, boss.id, 'Admin')).statusCode, 403);
    assert.equal((await patch(boss.cookie, target.id, 'No Such Role')).statusCode, 400);
    assert.equal((await patch(boss.cookie, boss.id, 'Admin')).statusCode, 403);
    const create = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/backoffice/admin', headers: { cookie }, payload });
    assert.equal((await create(manager.cookie, { name: 'X', email: 'x1@staff.test', role: 'Super Admin' })).statusCode, 403);
    assert.equal((await create(boss.cookie, { name: 'X', email: target.email.toUpperCase(), role: 'Admin' })).statusCode, 409);
    assert.equal((await create(boss.cookie, { name: 'X', email: 'not-an-email', role: 'Admin' })).statusCode, 400);
    assert.equal((await create(boss.cookie, { name: 'X', email: 'x2@staff.test', role: 'Admin', password: 'Mine-123!' })).statusCode, 400);
  });

  test('the staff list is paginated and never shows password hashes', async () => {
    const boss = await adminSession(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/admin?page=1&limit=2', headers: { cookie: boss.cookie } });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.data.length, 2);
    assert.equal(body.meta.limit, 2);
    assert.ok(body.meta.total >= 2);
    assert.ok(!res.body.includes('argon2'));
    assert.deepEqual(Object.keys(body.data[0]).sort(), ['created_at', 'deleted_at', 'email', 'id', 'is_deleted', 'last_login_at', 'must_change_password', 'name', 'role']);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/backoffice/admin?limit=0', headers: { cookie: boss.cookie } })).statusCode, 400);
  });
});

describe('tokens', () => {
  const secret = () => t.container.config.jwtSecret;
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const sign = (h: object, p: object, key: string) => {
    const body = `${b64(h)}.${b64(p)}`;
    return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
  };
  async function realClaims() {
    const a = await adminSession(t);
    const access = /bo_access_token=([^;]+)/.exec(a.cookie)![1]!;
    return { a, access, claims: JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()) };
  }

  test('no cookie → 401; garbage → 401', async () => {
    assert.equal((await inf()).statusCode, 401);
    assert.equal((await inf()).json().code, 'UNAUTHENTICATED');
    assert.equal((await inf('bo_access_token=garbage')).statusCode, 401);
    assert.equal((await inf('bo_access_token=a.b.c')).statusCode, 401);
  });

  test('alg none, another key, another typ, expired, changed claims → 401', async () => {
    const { access, claims } = await realClaims();
    assert.equal((await inf(`bo_access_token=${access}`)).statusCode, 200);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    assert.equal((await inf(`bo_access_token=${none}`)).statusCode, 401);
    assert.equal((await inf(`bo_access_token=${sign({ alg: 'HS256', typ: 'JWT' }, claims, 'another-key-another-key-another-key')}`)).statusCode, 401);
    assert.equal((await inf(`bo_access_token=${sign({ alg: 'HS512', typ: 'JWT' }, claims, secret())}`)).statusCode, 401);
    // a customer token signed with the same secret is not a backoffice token
    const customer = { ...claims, typ: 'access', sub: claims.sub };
    assert.equal((await inf(`bo_access_token=${sign({ alg: 'HS256', typ: 'JWT' }, customer, secret())}`)).statusCode, 401);
    const expired = { ...claims, exp: Math.floor(Date.now() / 1000) - 1 };
    assert.equal((await inf(`bo_access_token=${sign({ alg: 'HS256', typ: 'JWT' }, expired, secret())}`)).statusCode, 401);
    // the signature covers the claims: more permissions in the same token fail
    const [h, , s] = access.split('.');
    const widened = `${h}.${b64({ ...claims, perms: ['manage_admins'] })}.${s}`;
    assert.equal((await inf(`bo_access_token=${widened}`)).statusCode, 401);
    // a correctly signed token for a session that does not exist
    const ghost = { ...claims, sid: '00000000-0000-4000-8000-000000000000' };
    assert.equal((await inf(`bo_access_token=${sign({ alg: 'HS256', typ: 'JWT' }, ghost, secret())}`)).statusCode, 401);
  });

  test('the refresh token is not an access token, and the access token is not a refresh token', async () => {
    const a = await createAdmin(t);
    const login = await loginAdminFull(t, a.email, a.password);
    assert.equal((await inf(`bo_access_token=${login.refresh}`)).statusCode, 401);
    const r = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/refresh', headers: { cookie: `bo_refresh_token=${login.access}` } });
    assert.equal(r.statusCode, 401);
  });

  test("the customer's access_token cookie is ignored by the backoffice", async () => {
    const { access } = await realClaims();
    assert.equal((await inf(`access_token=${access}`)).statusCode, 401);
  });
});

describe('per-IP rate limit on backoffice auth routes', () => {
  test('AUTH_RATE_LIMIT_PER_MIN requests a minute per IP, then 429 with Retry-After', async () => {
    const limited = await buildTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '3' } });
    try {
      const login = (ip: string) =>
        limited.app.inject({ method: 'POST', url: '/api/backoffice/auth/login', remoteAddress: ip, payload: { email: 'x@staff.test', password: 'Wrong-pass1!' } });
      for (let i = 0; i < 3; i++) assert.equal((await login('10.0.0.1')).statusCode, 401);
      const res = await login('10.0.0.1');
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'RATE_LIMITED');
      assert.ok(res.headers['retry-after']);
      assert.equal((await login('10.0.0.2')).statusCode, 401, 'another IP is not limited');
    } finally {
      await limited.close();
    }
  });
});
