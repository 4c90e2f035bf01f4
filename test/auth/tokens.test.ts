import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { signJwt } from '../../src/platform/crypto/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookiesOf, createCustomer, customerSession } from '../helpers/customers.js';
import { enable2fa, nextCode } from '../helpers/two-factor.js';

let t: TestApp;
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const sessionsWith = (cookie: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie, ...headers } });

function claimsOf(jwt: string) {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
}

describe('token kinds are not interchangeable', () => {
  test('challenge, sudo and refresh tokens do not work as access tokens; access does not work as sudo', async () => {
    const s = await customerSession(t);
    const access = /access_token=([^;]+)/.exec(s.cookie)![1]!;
    const refresh = /refresh_token=([^;]+)/.exec(s.cookie)![1]!;
    assert.equal(claimsOf(access).typ, 'access');
    assert.ok(claimsOf(access).sid);

    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).json().data.token;
    assert.equal(claimsOf(sudo).typ, 'sudo');

    const twofa = await createCustomer(t);
    await enable2fa(t, clock, twofa.id);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: twofa.email, password: twofa.password } });
    const challenge = cookiesOf(login).mfa_challenge!;
    assert.equal(claimsOf(challenge).typ, 'mfa_challenge');

    for (const [what, token] of [['challenge', challenge], ['sudo', sudo], ['refresh', refresh]] as const) {
      const res = await sessionsWith(`access_token=${token}`);
      assert.equal(res.statusCode, 401, what);
      assert.equal(res.json().code, 'UNAUTHENTICATED');
    }
    // the access token as a sudo token, and the access token in the challenge cookie
    const gen = await t.app.inject({ method: 'POST', url: '/api/auth/profile/2fa/generate-code', headers: { cookie: s.cookie, 'x-access-token': access } });
    assert.equal(gen.statusCode, 403);
    assert.equal(gen.json().code, 'SUDO_REQUIRED');
    const asChallenge = await t.app.inject({ method: 'POST', url: '/api/auth/2fa/verify-code', headers: { cookie: `mfa_challenge=${access}` }, payload: { email: s.email, code: '123456' } });
    assert.equal(asChallenge.statusCode, 401);
    // a refresh token given as the access cookie is not a JWT; an access token in the refresh cookie is unknown
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${access}` } })).statusCode, 401);
    // the sudo token works for its own session only
    const other = await customerSession(t, { email: `x${Date.now()}@example.test` });
    const foreign = await t.app.inject({ method: 'POST', url: '/api/auth/profile/2fa/generate-code', headers: { cookie: other.cookie, 'x-access-token': sudo } });
    assert.equal(foreign.statusCode, 403);
    const own = await t.app.inject({ method: 'POST', url: '/api/auth/profile/2fa/generate-code', headers: { cookie: s.cookie, 'x-access-token': sudo } });
    assert.equal(own.statusCode, 200);
  });

  test('a sudo token expires after 5 minutes', async () => {
    const s = await customerSession(t);
    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } })).json().data.token;
    clock.advance(5 * 60_000 + 1000);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/profile/2fa/recovery', headers: { cookie: s.cookie, 'x-access-token': sudo } });
    assert.equal(res.statusCode, 403);
  });

  test('forged JWTs are refused: alg none, another key, tampered claims, expired', async () => {
    const s = await customerSession(t);
    const access = /access_token=([^;]+)/.exec(s.cookie)![1]!;
    const [h, p] = access.split('.') as [string, string];
    const claims = claimsOf(access);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`;
    const noneSigned = `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${access.split('.')[2]}`;
    const otherKey = signJwt('another-secret-key-of-enough-length-123', { ...claims, iat: undefined, exp: undefined } as never, clock.now(), 900);
    const hs512 = (() => {
      const head = b64({ alg: 'HS512', typ: 'JWT' });
      return `${head}.${p}.${createHmac('sha512', 'x').update(`${head}.${p}`).digest('base64url')}`;
    })();
    const tampered = `${h}.${b64({ ...claims, sub: String(Number(claims.sub) + 1) })}.${access.split('.')[2]}`;
    for (const [what, token] of Object.entries({ none, noneSigned, otherKey, hs512, tampered, garbage: 'a.b.c', empty: '' })) {
      const res = await sessionsWith(`access_token=${token}`);
      assert.equal(res.statusCode, 401, what);
    }
    assert.equal((await sessionsWith(s.cookie)).statusCode, 200);
    clock.advance(15 * 60_000 + 1000);
    assert.equal((await sessionsWith(s.cookie)).statusCode, 401, 'expired access token');
    // the refresh cookie still gives a new access token
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: s.cookie } });
    assert.equal(refreshed.statusCode, 200);
  });

  test('a 2FA challenge cookie expires after 5 minutes', async () => {
    const c = await createCustomer(t);
    const { secret } = await enable2fa(t, clock, c.id);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: c.email, password: c.password } });
    const cookie = `mfa_challenge=${cookiesOf(login).mfa_challenge}`;
    clock.advance(5 * 60_000);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/2fa/verify-code', headers: { cookie }, payload: { email: c.email, code: nextCode(clock, secret) } });
    assert.equal(res.statusCode, 401);
  });
});
