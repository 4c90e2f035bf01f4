import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { ALL_SCOPES, requireTokenScopes, TOKEN_ROUTE_SCOPES, TOKEN_UNREACHABLE_PREFIXES } from '../../src/modules/api-tokens/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';

const DAY = 24 * 3600_000;
const clock = new ManualClock(new Date());
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

type Session = Awaited<ReturnType<typeof customerSession>>;

/** One login per customer and clock minute (logins at one frozen instant would push each other out as least recently used). */
const logins = new Map<number, { cookie: string; sudo: string; at: number }>();
async function sessionOf(s: Session) {
  const known = logins.get(s.id);
  if (known && clock.now().getTime() - known.at < 60_000 && clock.now().getTime() >= known.at) return known;
  const cookie = await loginCustomer(t, s.email, s.password);
  const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie }, payload: { password: s.password } })).json().data.token;
  const fresh = { cookie, sudo, at: clock.now().getTime() };
  logins.set(s.id, fresh);
  return fresh;
}

async function tokenFor(s: Session, scopes: string[], extra: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const { cookie, sudo } = await sessionOf(s);
  const res = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie, 'x-access-token': sudo }, payload: { name: 'test', scopes, ...extra } });
  assert.equal(res.statusCode, 201, res.body);
  return { id: res.json().data.id, token: res.json().data.token };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const inject = (method: string, url: string, token: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

/** A concrete URL for a route pattern (ids that exist nowhere: the gate is what is tested). */
function concrete(url: string): string {
  return url
    .replace(':event_id', 'evt_00000000-0000-4000-8000-000000000000')
    .replace(/:(uuid|bucketUuid|invoice_id)/g, '00000000-0000-4000-8000-000000000000')
    .replace(':accessKey', 'AKIAEXAMPLEEXAMPLE00')
    .replace(/:[a-z_]+/gi, '1');
}

describe('the route table', () => {
  test('every signed-in customer route is in the scope table, and every entry is a route (checked against the OpenAPI document)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const customerOps: string[] = [];
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (p.startsWith('/api/backoffice') || !JSON.stringify(op.security ?? []).includes('customerCookie')) continue;
        // Fastify's URL of a route: `:param`, no trailing slash (the document writes `{param}` and keeps one)
        const route = `${method.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`;
        customerOps.push(route);
        const unreachable = TOKEN_UNREACHABLE_PREFIXES.some((x) => p.startsWith(x));
        const scope = TOKEN_ROUTE_SCOPES[route];
        if (unreachable) assert.ok(!JSON.stringify(op.security).includes('apiToken'), `${method} ${p} is documented as unreachable`);
        else assert.deepEqual(op.security, [{ customerCookie: [] }, { apiToken: [scope] }], `${method} ${p}`);
      }
    }
    const mapped = customerOps.filter((op) => !TOKEN_UNREACHABLE_PREFIXES.some((x) => op.split(' ')[1]!.startsWith(x)));
    assert.deepEqual([...mapped].sort(), Object.keys(TOKEN_ROUTE_SCOPES).sort(), 'no stale entries and no missing ones');
  });

  test('a customer route without an entry stops start-up', async () => {
    const app = Fastify();
    await assert.rejects(async () => {
      await app.register(async (scope) => {
        requireTokenScopes(scope);
        scope.get('/api/brand-new', async () => 'x');
      });
      await app.ready();
    }, /GET \/api\/brand-new has no entry in src\/modules\/api-tokens\/token-scopes\.ts/);
    const publicOnly = Fastify();
    await publicOnly.register(async (scope) => {
      requireTokenScopes(scope);
      scope.get('/api/open', { config: { public: true } }, async () => 'x');
    });
    await publicOnly.ready();
    await publicOnly.close();
  });

  test('each mapped route passes with its scope and answers 403 naming it without; account security routes refuse every token', async () => {
    const s = await customerSession(t);
    const all = await tokenFor(s, [...ALL_SCOPES]);
    const tokens = new Map<string, { with: string; without: string }>();
    for (const [route, scope] of Object.entries(TOKEN_ROUTE_SCOPES)) {
      const [method, url] = route.split(' ') as [string, string];
      assert.ok(scope, `${route} is reachable`);
      if (!tokens.has(scope)) {
        const family = scope.split(':')[0];
        tokens.set(scope, { with: (await tokenFor(s, [scope])).token, without: (await tokenFor(s, ALL_SCOPES.filter((x) => x !== scope && x !== `${family}:*`))).token });
      }
      const { with: withScope, without } = tokens.get(scope)!;
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const allowed = await inject(method, concrete(url), withScope, body);
      const code = allowed.headers['content-type']?.toString().startsWith('application/json') ? allowed.json().code : undefined;
      assert.ok(allowed.statusCode !== 401 && !['INSUFFICIENT_SCOPE', 'TOKEN_NOT_ALLOWED'].includes(code), `${route} with ${scope}: ${allowed.statusCode} ${allowed.body.slice(0, 200)}`);
      const refused = await inject(method, concrete(url), without, body);
      assert.equal(refused.statusCode, 403, `${route} without ${scope}`);
      assert.equal(refused.json().code, 'INSUFFICIENT_SCOPE');
      assert.deepEqual(refused.json().errors, [{ field: 'scope', message: scope }]);
      assert.ok(refused.json().message.includes(scope), refused.body);
    }
    const security = [
      ['POST', '/api/auth/password/change', { current_password: s.password, new_password: 'N3w!Passw0rd-long' }],
      ['GET', '/api/auth/sessions'],
      ['DELETE', '/api/auth/sessions/all'],
      ['POST', '/api/auth/profile/sudo', { password: s.password }],
      ['POST', '/api/auth/profile/2fa/generate-code', {}],
      ['POST', '/api/auth/profile/change-email/request', {}],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens', { name: 'x', scopes: ['compute:read'] }],
      ['DELETE', `/api/tokens/${all.id}`],
    ] as const;
    for (const [method, url, payload] of security) {
      const res = await inject(method, url, all.token, payload);
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
      assert.equal(res.json().code, 'TOKEN_NOT_ALLOWED');
    }
    const [live] = await queryRows<{ revoked_at: Date | null }>(t.container.db, sql`select revoked_at from api_tokens where id = ${all.id}`);
    assert.equal(live!.revoked_at, null);
  });
});

describe('requests with a token', () => {
  test('the same answer as the cookie, a write within scope, and last use recorded at most once a minute', async () => {
    const s = await customerSession(t);
    // billing:read too: without it the summary leaves the money out (test/members/teams.test.ts)
    const { id, token } = await tokenFor(s, ['account:read', 'billing:read', 'compute:*']);
    const withCookie = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: s.cookie } });
    const withToken = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { ...bearer(token), 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '198.51.100.7' });
    assert.equal(withToken.statusCode, 200, withToken.body);
    assert.deepEqual(withToken.json(), withCookie.json());
    const lastUse = async () => (await queryRows<{ last_used_at: string | Date; last_used_ip: string }>(t.container.db, sql`select last_used_at, last_used_ip from api_tokens where id = ${id}`))[0]!;
    const first = await lastUse();
    assert.equal(new Date(first.last_used_at).getTime(), clock.now().getTime());
    assert.equal(first.last_used_ip, '198.51.100.7');

    const key = execSshKey();
    clock.advance(30_000);
    const added = await inject('POST', '/api/ssh-keys', token, { name: 'laptop', public_key: key });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(new Date((await lastUse()).last_used_at).getTime(), new Date(first.last_used_at).getTime(), 'not written again within the minute');
    clock.advance(31_000);
    assert.equal((await inject('GET', '/api/ssh-keys', token)).json().data[0].name, 'laptop');
    assert.equal(new Date((await lastUse()).last_used_at).getTime(), clock.now().getTime());
    const listed = (await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: (await sessionOf(s)).cookie } })).json().data.find((x: any) => x.id === id);
    assert.equal(listed.last_used_at, clock.now().toISOString());
  });

  test('a revoked token answers 401 at its next use, and an expired one once the clock passes its expiry', async () => {
    const s = await customerSession(t);
    const revoked = await tokenFor(s, ['account:read']);
    const expiring = await tokenFor(s, ['account:read'], { expires_in_days: 1 });
    assert.equal((await inject('GET', '/api/inf', revoked.token)).statusCode, 200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${revoked.id}`, headers: { cookie: (await sessionOf(s)).cookie } });
    assert.equal(del.statusCode, 200);
    const after = await inject('GET', '/api/inf', revoked.token);
    assert.equal(after.statusCode, 401);
    assert.equal(after.json().code, 'UNAUTHENTICATED');

    assert.equal((await inject('GET', '/api/inf', expiring.token)).statusCode, 200);
    clock.advance(DAY);
    try {
      const expired = await inject('GET', '/api/inf', expiring.token);
      assert.equal(expired.statusCode, 401);
      assert.match(expired.json().message, /expired/);
    } finally {
      clock.advance(-DAY);
    }
  });

  test('suspension pauses an account’s tokens (403) and deactivation stops them (401)', async () => {
    const s = await customerSession(t);
    const { token } = await tokenFor(s, ['account:read']);
    await t.container.db.execute(sql`update customers set suspended_at = now(), suspend_reason = 'INSUFFICIENT_BALANCE' where id = ${s.id}`);
    const paused = await inject('GET', '/api/inf', token);
    assert.equal(paused.statusCode, 403);
    assert.equal(paused.json().code, 'ACCOUNT_SUSPENDED');
    await t.container.db.execute(sql`update customers set suspended_at = null, suspend_reason = null where id = ${s.id}`);
    assert.equal((await inject('GET', '/api/inf', token)).statusCode, 200);

    const staff = await adminSession(t, { permissions: ['edit_users'] });
    const off = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/customer/${s.id}`, headers: { cookie: staff.cookie }, payload: { is_active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal((await inject('GET', '/api/inf', token)).statusCode, 401);
  });

  test('a malformed or mistyped token is 401 and never confused with a session', async () => {
    const s = await customerSession(t);
    const { token } = await tokenFor(s, ['account:read']);
    const typo = `${token.slice(0, 20)}${token[20] === 'a' ? 'b' : 'a'}${token.slice(21)}`;
    for (const header of [`Bearer ${typo}`, 'Bearer chp_pat_short', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', `Bearer ${token} extra`]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { authorization: header, cookie: s.cookie } });
      assert.equal(res.statusCode, 401, header);
    }
    const none = await t.app.inject({ method: 'GET', url: '/api/inf' });
    assert.equal(none.statusCode, 401);
  });
});

function execSshKey(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pat-key-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ci@runner', '-f', path.join(dir, 'k')]);
  return readFileSync(path.join(dir, 'k.pub'), 'utf8');
}
