import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';

const DAY = 24 * 3600_000;
let t: TestApp;
const clock = new ManualClock(new Date());

before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

type Session = Awaited<ReturnType<typeof customerSession>>;

async function sudoOf(s: Session): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: s.cookie }, payload: { password: s.password } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.token;
}

async function createToken(s: Session, payload: Record<string, unknown> = { name: 'ci', scopes: ['compute:read'] }) {
  return t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie, 'x-access-token': await sudoOf(s) }, payload });
}

/** Audit entries about one token (the customer activity log, or the backoffice write audit). */
const auditOf = (tokenId: number, action: string) =>
  queryRows<{ actor_type: string; actor_id: number | null; target_type: string; target_id: string; after: any }>(
    t.container.db,
    sql`select actor_type, actor_id, target_type, target_id, after from audit_logs where action = ${action} and (target_id = ${String(tokenId)}) order by id`,
  );

describe('creating a personal access token', () => {
  test('needs a sudo-fresh session; the secret is shown once and only its SHA-256 is kept', async () => {
    const s = await customerSession(t);
    const bare = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: s.cookie }, payload: { name: 'ci', scopes: ['compute:read'] } });
    assert.equal(bare.statusCode, 403);
    assert.equal(bare.json().code, 'SUDO_REQUIRED');

    const res = await createToken(s, { name: ' deploy bot ', scopes: ['network:*', 'compute:read', 'compute:read'] });
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    assert.match(data.token, /^chp_pat_[0-9A-Za-z]{36}$/);
    assert.equal(data.name, 'deploy bot');
    assert.deepEqual(data.scopes, ['compute:read', 'network:*']);
    assert.equal(data.prefix, data.token.slice(0, 12));
    assert.equal(data.state, 'active');
    assert.equal(new Date(data.expires_at).getTime() - new Date(data.created_at).getTime(), 90 * DAY);
    assert.equal(data.last_used_at, null);

    const [row] = await queryRows<Record<string, unknown>>(t.container.db, sql`select * from api_tokens where id = ${data.id}`);
    assert.equal(row!.secret_hash, createHash('sha256').update(data.token).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(data.token.slice(8)), 'the secret is not stored');

    const [audit] = await auditOf(data.id, 'api_token.created');
    assert.equal(audit!.actor_type, 'customer');
    assert.equal(audit!.actor_id, s.id);
    assert.deepEqual([audit!.target_type, audit!.target_id], ['api_token', String(data.id)]);
    assert.deepEqual(audit!.after.body.scopes, ['network:*', 'compute:read', 'compute:read']);
    assert.ok(!JSON.stringify(audit).includes(data.token.slice(8)), 'the audit entry has no secret');

    const list = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: s.cookie } });
    assert.equal(list.statusCode, 200);
    const [listed] = list.json().data;
    assert.deepEqual(Object.keys(listed).sort(), ['created_at', 'expires_at', 'id', 'last_used_at', 'last_used_ip', 'name', 'prefix', 'revoked_at', 'scopes', 'state']);
    assert.ok(!list.body.includes(data.token.slice(12)), 'a list never shows a secret');
  });

  test('an expiry is always set: 90 days by default, at most a year, in the future', async () => {
    const s = await customerSession(t);
    const days = await createToken(s, { name: 'a', scopes: ['billing:read'], expires_in_days: 7 });
    assert.equal(days.statusCode, 201);
    assert.equal(new Date(days.json().data.expires_at).getTime(), clock.now().getTime() + 7 * DAY);
    const at = new Date(clock.now().getTime() + 200 * DAY).toISOString();
    const exact = await createToken(s, { name: 'b', scopes: ['billing:read'], expires_at: at });
    assert.equal(exact.json().data.expires_at, at);
    const refused = [
      { name: 'c', scopes: ['billing:read'], expires_in_days: 366 },
      { name: 'c', scopes: ['billing:read'], expires_in_days: 0 },
      { name: 'c', scopes: ['billing:read'], expires_at: new Date(clock.now().getTime() + 366 * DAY).toISOString() },
      { name: 'c', scopes: ['billing:read'], expires_at: new Date(clock.now().getTime() - 1000).toISOString() },
      { name: 'c', scopes: ['billing:read'], expires_in_days: 5, expires_at: at },
      { name: 'c', scopes: [] },
      { name: 'c', scopes: ['billing:admin'] },
      { name: 'c', scopes: ['auth:*'] },
      { name: '  ', scopes: ['billing:read'] },
      { name: 'c', scopes: ['billing:read'], owner: 'x' },
    ];
    for (const payload of refused) {
      const res = await createToken(s, payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
    }
  });
});

describe('managing tokens', () => {
  test('rename and revoke; another customer sees none of them; every revoke is audited', async () => {
    const s = await customerSession(t);
    const other = await customerSession(t);
    const id = (await createToken(s)).json().data.id;

    const foreign = await t.app.inject({ method: 'PATCH', url: `/api/tokens/${id}`, headers: { cookie: other.cookie }, payload: { name: 'mine' } });
    assert.equal(foreign.statusCode, 404);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { cookie: other.cookie } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie: other.cookie } })).json().meta.total, 0);

    const renamed = await t.app.inject({ method: 'PATCH', url: `/api/tokens/${id}`, headers: { cookie: s.cookie }, payload: { name: 'terraform' } });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json().data.name, 'terraform');

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { cookie: s.cookie } });
    assert.equal(revoked.statusCode, 200);
    assert.equal(revoked.json().data.state, 'revoked');
    assert.ok(revoked.json().data.revoked_at);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: { cookie: s.cookie } })).statusCode, 404);
    const audits = await auditOf(id, 'api_token.revoked');
    assert.equal(audits.length, 1, 'the failed second revoke records nothing');
    assert.deepEqual([audits[0]!.actor_type, audits[0]!.actor_id], ['customer', s.id]);
  });

  test('a token past its expiry is listed as expired', async () => {
    const s = await customerSession(t);
    await createToken(s, { name: 'short', scopes: ['tickets:*'], expires_in_days: 1 });
    clock.advance(DAY + 1000);
    try {
      const cookie = await loginCustomer(t, s.email, s.password);
      const [listed] = (await t.app.inject({ method: 'GET', url: '/api/tokens', headers: { cookie } })).json().data;
      assert.equal(listed.state, 'expired');
    } finally {
      clock.advance(-(DAY + 1000));
    }
  });

  test('at most 50 live tokens per account', async () => {
    const s = await customerSession(t);
    await t.container.db.execute(
      sql`insert into api_tokens (customer_id, name, scopes, display_prefix, secret_hash, created_at, expires_at)
          select ${s.id}, 'bulk ' || g, '{compute:read}', 'chp_pat_xxxx', md5(random()::text) || g, now(), now() + interval '30 days' from generate_series(1, 50) g`,
    );
    const res = await createToken(s);
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'QUOTA_EXCEEDED');
  });

  test('revoked and expired tokens are deleted 90 days later', async () => {
    const s = await customerSession(t);
    const id = (await createToken(s, { name: 'old', scopes: ['compute:read'], expires_in_days: 1 })).json().data.id;
    const keep = (await createToken(s)).json().data.id;
    clock.advance(92 * DAY);
    try {
      await t.container.queue.runNow('api-tokens.prune');
    } finally {
      clock.advance(-92 * DAY);
    }
    const left = await queryRows<{ id: number }>(t.container.db, sql`select id from api_tokens where id in (${id}, ${keep}) order by id`);
    assert.deepEqual(left.map((r) => r.id), [keep]);
  });
});

describe('staff and a customer’s tokens', () => {
  test('staff with view_users list them without secrets; with manage_sessions they revoke one, audited', async () => {
    const s = await customerSession(t);
    const created = (await createToken(s)).json().data;
    const viewer = await adminSession(t, { permissions: ['view_users'] });
    const list = await t.app.inject({ method: 'GET', url: `/api/backoffice/customer/${s.id}/api-tokens`, headers: { cookie: viewer.cookie } });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().data[0].id, created.id);
    assert.ok(!list.body.includes(created.token.slice(12)));
    const denied = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/customer/${s.id}/api-tokens/${created.id}`, headers: { cookie: viewer.cookie } });
    assert.equal(denied.statusCode, 403);

    const support = await adminSession(t, { permissions: ['manage_sessions'] });
    const wrongCustomer = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/customer/${s.id + 1000}/api-tokens/${created.id}`, headers: { cookie: support.cookie } });
    assert.equal(wrongCustomer.statusCode, 404);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/customer/${s.id}/api-tokens/${created.id}`, headers: { cookie: support.cookie } });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal(revoked.json().data.state, 'revoked');
    const audits = await auditOf(created.id, 'api_token.revoked');
    assert.equal(audits.length, 1, 'one entry: the service records it, the surface adds none');
    assert.equal(audits[0]!.actor_type, 'admin');
    assert.equal(audits[0]!.actor_id, support.id);
    assert.deepEqual([audits[0]!.target_type, audits[0]!.after.customer_id, audits[0]!.after.revoked_by], ['api_token', s.id, 'staff']);
    const [row] = await queryRows<{ revoked_by: string }>(t.container.db, sql`select revoked_by from api_tokens where id = ${created.id}`);
    assert.equal(row!.revoked_by, 'staff');
  });
});
