import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { createAdmin } from '../helpers/admins.js';
import { cookieHeader, cookiesOf, createCustomer, customerSession, loginCustomer } from '../helpers/customers.js';
import { client } from '../helpers/http.js';
import { CustomersRepository } from '../../src/modules/customers/customers.repository.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie } });

async function liveSessions(customerId: number): Promise<number> {
  const r = await t.container.db.execute(sql`select count(*)::int as n from customer_sessions where customer_id = ${customerId} and revoked_at is null`);
  return (r as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe('login and cookies', () => {
  test('login sets HttpOnly SameSite=Lax cookies; the access cookie opens the customer API', async () => {
    const c = await createCustomer(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email.toUpperCase(), password: c.password }, headers: { 'user-agent': 'test-agent/1' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { message: 'Logged in', data: { redirect: 'DASHBOARD' } });
    const cookies = res.cookies as any[];
    for (const name of ['access_token', 'refresh_token']) {
      const ck = cookies.find((x) => x.name === name);
      assert.ok(ck, name);
      assert.equal(ck.httpOnly, true);
      assert.equal(ck.sameSite, 'Lax');
      assert.equal(ck.path, '/');
    }
    assert.equal(cookies.find((x) => x.name === 'access_token').maxAge, 900);
    const list = await me(cookieHeader(cookiesOf(res)));
    assert.equal(list.statusCode, 200);
    const [entry] = list.json().data;
    assert.equal(entry.user_agent, 'test-agent/1');
    assert.equal(entry.current, true);
    assert.deepEqual(Object.keys(entry).sort(), ['created_at', 'current', 'id', 'impersonated', 'ip', 'last_access_at', 'user_agent']);
  });

  test('wrong password, unknown e-mail → 401 INVALID_CREDENTIALS; without cookies → 401', async () => {
    const c = await createCustomer(t);
    for (const payload of [{ email: c.email, password: 'Wr0ng!password' }, { email: 'nobody@example.test', password: c.password }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'INVALID_CREDENTIALS');
      assert.equal(res.cookies.length, 0);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'UNAUTHENTICATED');
  });

  test('an unverified or disabled account cannot log in', async () => {
    const u = await createCustomer(t, { isRegistrationCompleted: false, emailVerifiedAt: null });
    let res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'EMAIL_NOT_VERIFIED');
    const d = await createCustomer(t, { isActive: false });
    res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: d.email, password: d.password } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'ACCOUNT_DISABLED');
  });

  test('10 failed logins lock the account for 15 minutes, even for the right password', async () => {
    const c = await createCustomer(t);
    for (let i = 0; i < 9; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: `Wr0ng!pass${i}` } });
      assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
    }
    const tenth = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: 'Wr0ng!pass10' } });
    assert.equal(tenth.statusCode, 429);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } });
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().code, 'RATE_LIMITED');
    const retry = Number(res.headers['retry-after']);
    assert.ok(retry > 800 && retry <= 900, String(retry));
    assert.equal(res.cookies.length, 0);
    assert.equal(await liveSessions(c.id), 0);
    // another account is not affected
    const other = await createCustomer(t);
    assert.ok(await loginCustomer(t, other.email, other.password));
  });
});

describe('password attempts share one lock', () => {
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  test('20 parallel wrong passwords, and the right one while they are checked: at most 10 are checked, the account ends locked, no session', async () => {
    const c = await createCustomer(t);
    const guesses = Promise.all(Array.from({ length: 20 }, (_, i) => login(c.email, `Wr0ng!pass${i}`)));
    // the right password arrives once ten guesses are counted (the order that decides a right
    // password counted before them is test/platform/account-lock.test.ts)
    await eventually(async () => {
      const [row] = await queryRows<{ locked: boolean }>(t.container.db, sql`select locked_until is not null as locked from account_lockouts where scope = 'customer' and subject = ${`id:${c.id}`}`);
      return row?.locked;
    });
    const right = await login(c.email, c.password);
    const wrong = await guesses;
    for (const r of wrong) assert.ok([401, 429].includes(r.statusCode), r.body);
    assert.ok(wrong.filter((r) => r.statusCode === 401).length <= 10);
    assert.ok(wrong.filter((r) => r.statusCode === 429).length >= 10);
    assert.equal(right!.statusCode, 429, right!.body);
    assert.equal(right!.cookies.length, 0);
    assert.equal(await liveSessions(c.id), 0);
    const later = await login(c.email, c.password);
    assert.equal(later.statusCode, 429);
    assert.ok(Number(later.headers['retry-after']) > 800);
  });

  test('wrong passwords in sudo and change-password count toward the login lock', async () => {
    const s = await customerSession(t);
    const { post } = client(() => t, () => ({ headers: { cookie: s.cookie } }));
    for (let i = 0; i < 5; i++) assert.equal((await post('/api/auth/profile/sudo', { password: `Wr0ng!pass${i}` })).statusCode, 400);
    for (let i = 0; i < 4; i++) {
      assert.equal((await post('/api/auth/password/change', { current_password: `Wr0ng!pass${i}`, new_password: 'N3w!Password' })).statusCode, 400);
    }
    const tenth = await post('/api/auth/profile/sudo', { password: 'Wr0ng!pass10' });
    assert.equal(tenth.statusCode, 429);
    assert.equal(tenth.json().code, 'RATE_LIMITED');
    // locked: even the right password is refused, everywhere
    assert.equal((await post('/api/auth/profile/sudo', { password: s.password })).statusCode, 429);
    assert.equal((await post('/api/auth/password/change', { current_password: s.password, new_password: 'N3w!Password' })).statusCode, 429);
    assert.equal((await login(s.email, s.password)).statusCode, 429);
  });

  test('a right password clears the count', async () => {
    const s = await customerSession(t);
    for (let i = 0; i < 9; i++) assert.equal((await login(s.email, `Wr0ng!pass${i}`)).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).statusCode, 200);
    for (let i = 0; i < 9; i++) assert.equal((await login(s.email, `Wr0ng!pass${i}`)).statusCode, 401);
    assert.ok(await loginCustomer(t, s.email, s.password));
  });
});

describe('the summary read with the session', () => {
  test('GET /api/inf reads the balances and the unread count in the statement that checks the session; an ended session still answers 401', async () => {
    const s = await customerSession(t);
    await t.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${s.id}, 125000.01, 150000.10)`);
    await t.container.db.execute(sql`insert into notifications (customer_id, kind, title, body, reference_type, reference_id) values (${s.id}, 'LOW_BALANCE', 'Low', 'Low balance', 'test', '1'), (${s.id}, 'LOW_BALANCE', 'Low', 'Low balance', 'test', '2')`);
    const apart = CustomersRepository.prototype.findWithBalances;
    let readApart = 0;
    CustomersRepository.prototype.findWithBalances = function (...args) {
      readApart++;
      return apart.apply(this, args);
    };
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: s.cookie } });
      assert.equal(res.statusCode, 200, res.body);
      const d = res.json().data;
      assert.equal(d.id, s.id);
      assert.equal(d.email, s.email);
      assert.equal(d.actual_balance, 125000.01);
      assert.equal(d.current_balance, 150000.1);
      assert.equal(d.unread_count, 2);
      assert.equal(readApart, 0, 'the summary was read apart from the session check');

      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: s.cookie } });
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: s.cookie } })).statusCode, 401);
    } finally {
      CustomersRepository.prototype.findWithBalances = apart;
    }
  });
});

describe('refresh and logout', () => {
  test('refresh rotates the token; reusing the old one ends the session', async () => {
    const s = await customerSession(t);
    const first = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } });
    assert.equal(first.statusCode, 200, first.body);
    const rotated = cookiesOf(first);
    assert.ok(rotated.access_token && rotated.refresh_token);
    assert.notEqual(cookieHeader({ refresh_token: rotated.refresh_token }), s.cookie.split('; ')[1]);
    const next = cookieHeader(rotated);
    assert.equal((await me(next)).statusCode, 200);
    // the old refresh token again: reuse → the session is revoked
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } });
    assert.equal(reuse.statusCode, 401);
    assert.equal((await me(next)).statusCode, 401);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: next } });
    assert.equal(again.statusCode, 401);
    assert.equal(await liveSessions(s.id), 0);
  });

  test('a token rotated two generations ago is still reuse: R1 → R2 → R3, replaying R1 ends the session', async () => {
    const s = await customerSession(t);
    const refresh = (cookie: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
    const r2 = await refresh(s.cookie);
    assert.equal(r2.statusCode, 200, r2.body);
    const r3 = await refresh(cookieHeader(cookiesOf(r2)));
    assert.equal(r3.statusCode, 200, r3.body);
    const current = cookieHeader(cookiesOf(r3));
    assert.equal((await refresh(s.cookie)).statusCode, 401);
    assert.equal((await refresh(current)).statusCode, 401);
    assert.equal((await me(current)).statusCode, 401);
    assert.equal(await liveSessions(s.id), 0);
  });

  test('rotated refresh tokens are kept until a day after they expire (platform.refresh-tokens-prune)', async () => {
    const s = await customerSession(t);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } })).statusCode, 200);
    const mine = sql`realm = 'customer' and session_id in (select id::text from customer_sessions where customer_id = ${s.id})`;
    await t.container.db.execute(sql`update refresh_tokens set expires_at = now() - interval '2 days' where used_at is not null and ${mine}`);
    const job = t.container.queue.definition('platform.refresh-tokens-prune')!;
    assert.ok(job.schedule);
    await job.handler({}, { log: { info() {} } } as any);
    const left = await t.container.db.execute(sql`select count(*)::int as used, count(*) filter (where used_at is null)::int as current from refresh_tokens where ${mine}`);
    assert.deepEqual((left as unknown as { rows: unknown[] }).rows[0], { used: 1, current: 1 });
  });

  test('refresh without or with a garbage cookie → 401', async () => {
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh' })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: 'refresh_token=abc' } })).statusCode, 401);
  });

  test('logout revokes the current session and clears the cookies', async () => {
    const s = await customerSession(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: s.cookie } });
    assert.equal(res.statusCode, 200);
    const c = cookiesOf(res);
    assert.equal(c.access_token, '');
    assert.equal(c.refresh_token, '');
    assert.equal((await me(s.cookie)).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } })).statusCode, 401);
  });

  test('logout with only the refresh cookie (access token expired or gone) ends the session; with no cookies it is 200 too', async () => {
    const s = await customerSession(t);
    const refreshOnly = s.cookie.split('; ').find((x) => x.startsWith('refresh_token='))!;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `access_token=expired.garbage.token; ${refreshOnly}` } });
    assert.equal(res.statusCode, 200, res.body);
    const c = cookiesOf(res);
    assert.equal(c.access_token, '');
    assert.equal(c.refresh_token, '');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: refreshOnly } })).statusCode, 401);
    assert.equal((await me(s.cookie)).statusCode, 401);
    assert.equal(await liveSessions(s.id), 0);
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    assert.equal(none.statusCode, 200);
    assert.equal(cookiesOf(none).refresh_token, '');
  });
});

describe('device sessions', () => {
  test('a customer revokes one of their sessions; it fails at its next request', async () => {
    const c = await createCustomer(t);
    const a = await loginCustomer(t, c.email, c.password);
    const b = await loginCustomer(t, c.email, c.password);
    const list = (await me(a)).json().data;
    assert.equal(list.length, 2);
    const other = list.find((x: any) => !x.current);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other.id}`, headers: { cookie: a } });
    assert.equal(del.statusCode, 200);
    assert.equal((await me(b)).statusCode, 401);
    assert.equal((await me(a)).statusCode, 200);
    // deleting it again: it is gone
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other.id}`, headers: { cookie: a } })).statusCode, 404);
  });

  test("another customer's session id is a 404 and stays alive", async () => {
    const x = await customerSession(t);
    const y = await customerSession(t);
    const ySid = (await me(y.cookie)).json().data[0].id;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${ySid}`, headers: { cookie: x.cookie } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'NOT_FOUND');
    assert.equal((await me(y.cookie)).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/auth/sessions/not-a-uuid', headers: { cookie: x.cookie } })).statusCode, 404);
    // the list never shows another customer's sessions
    assert.deepEqual((await me(x.cookie)).json().data.map((s: any) => s.current), [true]);
  });

  test('max_session: the least recently used session is revoked at the next login', async () => {
    const c = await createCustomer(t, { maxSession: 2 });
    const first = await loginCustomer(t, c.email, c.password);
    const second = await loginCustomer(t, c.email, c.password);
    // make `second` the least recently used one
    await t.container.db.execute(sql`update customer_sessions set last_access_at = now() - interval '1 hour' where customer_id = ${c.id}`);
    await t.container.db.execute(sql`update customer_sessions set last_access_at = now() where customer_id = ${c.id} and created_at = (select min(created_at) from customer_sessions where customer_id = ${c.id})`);
    const third = await loginCustomer(t, c.email, c.password);
    assert.equal((await me(second)).statusCode, 401);
    assert.equal((await me(first)).statusCode, 200);
    assert.equal((await me(third)).statusCode, 200);
    assert.equal(await liveSessions(c.id), 2);
  });

  test('staff service functions: list, revoke one, revoke all, max_session, impersonation', async () => {
    const svc = t.container.services.sessions;
    const c = await createCustomer(t);
    const a = await loginCustomer(t, c.email, c.password);
    const b = await loginCustomer(t, c.email, c.password);
    const list = await svc.list(c.id);
    assert.equal(list.length, 2);
    const aSid = (await me(a)).json().data.find((x: any) => x.current).id;
    assert.equal(await svc.revoke(c.id, aSid), 1);
    assert.equal((await me(a)).statusCode, 401);
    assert.equal((await me(b)).statusCode, 200);
    await assert.rejects(svc.revoke(c.id + 100000, aSid), /not found/);

    const staff = await createAdmin(t, { role: 'Admin Support' });
    const imp = await svc.impersonate(c.id, staff.id, { ip: '10.0.0.1', userAgent: 'backoffice' });
    const impCookie = cookieHeader({ access_token: imp.accessToken, refresh_token: imp.refreshToken });
    const seen = (await me(impCookie)).json().data;
    assert.equal(seen.find((x: any) => x.current).impersonated, true);
    const row = await t.container.db.execute(sql`select impersonator_admin_id from customer_sessions where id = ${imp.sessionId}`);
    assert.equal((row as any).rows[0].impersonator_admin_id, staff.id);

    assert.equal(await svc.revoke(c.id, 'all'), 2);
    assert.equal((await me(b)).statusCode, 401);
    assert.equal((await me(impCookie)).statusCode, 401);

    const d = await loginCustomer(t, c.email, c.password);
    const e = await loginCustomer(t, c.email, c.password);
    await t.container.db.execute(sql`update customer_sessions set last_access_at = now() - interval '1 hour' where customer_id = ${c.id} and revoked_at is null and id <> (select id from customer_sessions where customer_id = ${c.id} order by created_at desc limit 1)`);
    assert.deepEqual(await svc.setMaxSession(c.id, 1), { revoked: 1 });
    assert.equal((await me(d)).statusCode, 401);
    assert.equal((await me(e)).statusCode, 200);
    await assert.rejects(svc.setMaxSession(c.id, 0), /Validation/);
  });

  test('a session of a customer the staff disabled fails at its next request', async () => {
    const s = await customerSession(t);
    await t.container.db.execute(sql`update customers set is_active = false where id = ${s.id}`);
    assert.equal((await me(s.cookie)).statusCode, 401);
  });
});
