import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sshpk from 'sshpk';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { CUSTOMER_PERMISSIONS, MEMBER_ROLES, ROLE_PERMISSIONS } from '../../src/modules/members/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { createCustomer, customerSession, loginCustomer } from '../helpers/customers.js';
import { client } from '../helpers/http.js';
import { TestSmtpServer } from '../helpers/smtp.js';

let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock();
before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start(), FRONTEND_URL: 'https://app.example.test', API_TOKEN_RATE_LIMIT_PER_MIN: '10000', API_TOKEN_IP_RATE_LIMIT_PER_MIN: '10000' } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const { get, post, patch, delete: del } = client(() => t);
/** A fresh ed25519 public key line (the argument only tells the calls apart). */
const PUBKEY = (_n: number) => sshpk.parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
let seq = 0;
const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++seq}@example.test`;

/** The owner invites `email` with `role`; returns the mailed token. */
async function invite(ownerCookie: string, email: string, role: string): Promise<string> {
  const mark = smtp.mails.length;
  const res = await post('/api/members/invitations', { email, role }, ownerCookie);
  assert.equal(res.statusCode, 201, res.body);
  const mail = await smtp.waitFor(email, (m) => /invited you/.test(m.subject) && smtp.mails.indexOf(m) >= mark);
  const url = /(https:\/\/app\.example\.test\/invitation\?token=\S+)/.exec(mail.text)![1]!;
  return new URL(url).searchParams.get('token')!;
}

/** A team: an owner and a member with `role` who accepted and switched to the owner's account. */
async function team(role: string) {
  const owner = await customerSession(t, { email: uniqueEmail('owner'), firstName: 'Olivia', lastName: 'Owner' });
  const member = await customerSession(t, { email: uniqueEmail('member') });
  const token = await invite(owner.cookie, member.email, role);
  const accepted = await post('/api/invitations/accept', { token }, member.cookie);
  assert.equal(accepted.statusCode, 200, accepted.body);
  const sw = await post('/api/accounts/switch', { account_id: owner.id }, member.cookie);
  assert.equal(sw.statusCode, 200, sw.body);
  return { owner, member, token };
}

async function sudoToken(cookie: string, password: string): Promise<string> {
  const res = await post('/api/auth/profile/sudo', { password }, cookie);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.token;
}

async function apiToken(cookie: string, password: string, scopes: string[]): Promise<string> {
  const sudo = await sudoToken(cookie, password);
  const res = await post('/api/tokens', { name: 'ci', scopes }, { cookie, 'x-access-token': sudo });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.token;
}

describe('accounts and memberships', () => {
  test('every customer owns its own account; GET /api/inf describes the account acted on', async () => {
    const c = await customerSession(t, { email: uniqueEmail('solo') });
    const accounts = await get('/api/accounts', c.cookie);
    assert.equal(accounts.statusCode, 200, accounts.body);
    assert.deepEqual(
      accounts.json().data.map((a: any) => [a.account_id, a.role, a.current, a.own]),
      [[c.id, 'owner', true, true]],
    );
    const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from account_members where account_id = ${c.id} and customer_id = ${c.id} and role = 'owner'`);
    assert.equal(row!.n, 1);
    const inf = await get('/api/inf', c.cookie);
    assert.equal(inf.statusCode, 200, inf.body);
  });

  test('the permission map is complete: every signed-in customer operation names a member permission', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const missing: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/api/') || path.startsWith('/api/backoffice')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const isPublic = Array.isArray(op.security) && op.security.length === 0;
        if (isPublic) continue;
        checked++;
        const p = op['x-member-permission'];
        if (!p || !(p in CUSTOMER_PERMISSIONS)) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    assert.ok(checked > 100, `only ${checked} customer operations found`);
    assert.deepEqual(missing, []);
    // every role's permissions come from the catalog; owner holds all, admin all but ownership
    for (const r of MEMBER_ROLES) for (const p of ROLE_PERMISSIONS[r]) assert.ok(p in CUSTOMER_PERMISSIONS, `${r}: ${p}`);
    assert.equal(ROLE_PERMISSIONS.owner.length, Object.keys(CUSTOMER_PERMISSIONS).length);
    assert.ok(!ROLE_PERMISSIONS.admin.includes('account:owner'));
  });
});

describe('the role matrix', () => {
  test('every route: a role without its permission is 403 ROLE_FORBIDDEN before anything runs; a role with it is let through', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops: { method: string; url: string; permission: string }[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const permission = op['x-member-permission'];
        // the person's own routes (every role holds self) are left out: logout would end the session
        if (permission && permission !== 'self') ops.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1'), permission });
      }
    }
    const teams = await Promise.all((['admin', 'billing', 'technical', 'read_only'] as const).map(async (role) => ({ role, ...(await team(role)) })));
    const wrong: string[] = [];
    for (const { role, member } of teams) {
      for (const op of ops) {
        const res = await t.app.inject({ method: op.method as 'GET', url: op.url, headers: { cookie: member.cookie }, ...(['POST', 'PUT', 'PATCH'].includes(op.method) ? { payload: {} } : {}) });
        const refused = res.statusCode === 403 && res.json().code === 'ROLE_FORBIDDEN';
        const allowed = (ROLE_PERMISSIONS[role] as readonly string[]).includes(op.permission);
        if (refused === allowed) wrong.push(`${role} ${op.method} ${op.url} (${op.permission}): ${res.statusCode}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});

describe('invitations', () => {
  test('an invitation mailed to an existing identity is accepted once; a second use is 409', async () => {
    const owner = await customerSession(t, { email: uniqueEmail('owner') });
    const bob = await customerSession(t, { email: uniqueEmail('bob') });
    const token = await invite(owner.cookie, bob.email, 'technical');
    const preview = await post('/api/invitations/preview', { token });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.equal(preview.json().data.role, 'technical');
    assert.equal(preview.json().data.email, bob.email);

    const accepted = await post('/api/invitations/accept', { token }, bob.cookie);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.json().data.role, 'technical');
    const again = await post('/api/invitations/accept', { token }, bob.cookie);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'INVITATION_USED');

    const list = await get('/api/members', owner.cookie);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json().data.members.map((m: any) => [m.customer_id, m.role]).sort(), [[owner.id, 'owner'], [bob.id, 'technical']].sort());
  });

  test('an address that is already a member is a 409; another address cannot use the invitation', async () => {
    const { owner, member } = await team('billing');
    const res = await post('/api/members/invitations', { email: member.email.toUpperCase(), role: 'admin' }, owner.cookie);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'ALREADY_MEMBER');
    const self = await post('/api/members/invitations', { email: owner.email, role: 'admin' }, owner.cookie);
    assert.equal(self.json().code, 'ALREADY_MEMBER');

    const carol = uniqueEmail('carol');
    const token = await invite(owner.cookie, carol, 'read_only');
    const mallory = await customerSession(t, { email: uniqueEmail('mallory') });
    const stolen = await post('/api/invitations/accept', { token }, mallory.cookie);
    assert.equal(stolen.statusCode, 403);
    assert.equal(stolen.json().code, 'INVITATION_OTHER_ADDRESS');
  });

  test('an invitation expires after 7 days (410); a new person signs up with the address and accepts a fresh one', async () => {
    const owner = await customerSession(t, { email: uniqueEmail('owner') });
    const email = uniqueEmail('newcomer');
    const token = await invite(owner.cookie, email, 'read_only');
    clock.advance(7 * 24 * 3600 * 1000 + 1000);
    owner.cookie = await loginCustomer(t, owner.email, owner.password);
    const newcomer = await customerSession(t, { email });
    const late = await post('/api/invitations/accept', { token }, newcomer.cookie);
    assert.equal(late.statusCode, 410, late.body);
    assert.equal(late.json().code, 'INVITATION_EXPIRED');
    const fresh = await invite(owner.cookie, email, 'read_only');
    const ok = await post('/api/invitations/accept', { token: fresh }, newcomer.cookie);
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('bad input changes nothing: an unknown role, the owner role, a bad address', async () => {
    const owner = await customerSession(t, { email: uniqueEmail('owner') });
    for (const body of [{ email: uniqueEmail('x'), role: 'god' }, { email: uniqueEmail('x'), role: 'owner' }, { email: 'not-an-address', role: 'admin' }, { email: uniqueEmail('x'), role: 'admin', extra: 1 }]) {
      const res = await post('/api/members/invitations', body, owner.cookie);
      assert.equal(res.statusCode, 400, res.body);
    }
    const list = await get('/api/members', owner.cookie);
    assert.deepEqual(list.json().data.invitations, []);
  });
});

describe('roles', () => {
  test('a technical member works on resources of the account, not its money; owners see who did what', async () => {
    const { owner, member } = await team('technical');
    const key = await post('/api/ssh-keys', { name: 'bob-key', public_key: PUBKEY(1) }, member.cookie);
    assert.equal(key.statusCode, 201, key.body);
    // the key is the account's: the owner sees it
    const ownerKeys = await get('/api/ssh-keys', owner.cookie);
    assert.ok(ownerKeys.json().data.some((k: any) => k.name === 'bob-key'));

    for (const url of ['/api/billing/deposit', '/api/billing/usage', '/api/activity', '/api/members']) {
      const res = await get(url, member.cookie);
      assert.equal(res.statusCode, 403, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'ROLE_FORBIDDEN');
    }
    const activity = await get('/api/activity', owner.cookie);
    assert.equal(activity.statusCode, 200, activity.body);
    const entry = activity.json().data.find((e: any) => e.action === 'ssh_key.created');
    assert.equal(entry.by.customer_id, member.id);
    assert.equal(entry.by.email, member.email);
  });

  test('a billing member sees money and no resources; a read-only member changes nothing', async () => {
    const billing = await team('billing');
    assert.equal((await get('/api/billing/deposit', billing.member.cookie)).statusCode, 200);
    assert.equal((await get('/api/compute/vm', billing.member.cookie)).statusCode, 403);
    const ro = await team('read_only');
    assert.equal((await get('/api/ssh-keys', ro.member.cookie)).statusCode, 200);
    const write = await post('/api/ssh-keys', { name: 'x', public_key: PUBKEY(2) }, ro.member.cookie);
    assert.equal(write.statusCode, 403, write.body);
  });

  test('a member who also owns another account switches between them; tokens stay bound to one', async () => {
    const { owner, member } = await team('technical');
    const mine = await post('/api/ssh-keys', { name: 'in-team', public_key: PUBKEY(3) }, member.cookie);
    assert.equal(mine.statusCode, 201, mine.body);
    const back = await post('/api/accounts/switch', { account_id: member.id }, member.cookie);
    assert.equal(back.statusCode, 200, back.body);
    // in their own account they own everything, and the team's key is not there
    assert.equal((await get('/api/billing/deposit', member.cookie)).statusCode, 200);
    assert.ok(!(await get('/api/ssh-keys', member.cookie)).json().data.some((k: any) => k.name === 'in-team'));
    // not a member of someone else's account: 404
    const stranger = await createCustomer(t, { email: uniqueEmail('stranger') });
    assert.equal((await post('/api/accounts/switch', { account_id: stranger.id }, member.cookie)).statusCode, 404);
    // a token made while acting on the team account acts on it, capped by the role
    await post('/api/accounts/switch', { account_id: owner.id }, member.cookie);
    const secret = await apiToken(member.cookie, member.password, ['compute:*', 'billing:*']);
    const bearer = { authorization: `Bearer ${secret}` };
    const keys = await get('/api/ssh-keys', bearer);
    assert.equal(keys.statusCode, 200, keys.body);
    assert.ok(keys.json().data.some((k: any) => k.name === 'in-team'));
    const money = await get('/api/billing/deposit', bearer);
    assert.equal(money.statusCode, 403);
    assert.equal(money.json().code, 'ROLE_FORBIDDEN');
    assert.equal((await post('/api/accounts/switch', { account_id: member.id }, bearer)).statusCode, 403);
  });

  test('lowering a role ends the member\'s sessions in the account at once and caps their tokens', async () => {
    const { owner, member } = await team('technical');
    const secret = await apiToken(member.cookie, member.password, ['compute:*']);
    const bearer = { authorization: `Bearer ${secret}` };
    const otherTab = await loginCustomer(t, member.email, member.password); // acts on their own account
    const res = await patch(`/api/members/${member.id}`, { role: 'read_only' }, owner.cookie);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.sessions_ended, 1);
    assert.equal((await get('/api/ssh-keys', member.cookie)).statusCode, 401);
    assert.equal((await get('/api/ssh-keys', otherTab)).statusCode, 200);
    assert.equal((await get('/api/ssh-keys', bearer)).statusCode, 200);
    const write = await post('/api/ssh-keys', { name: 'after', public_key: PUBKEY(4) }, bearer);
    assert.equal(write.statusCode, 403, write.body);
    assert.equal(write.json().code, 'ROLE_FORBIDDEN');
    const mail = await smtp.waitFor(member.email, (m) => /role/.test(m.subject));
    assert.match(mail.text, /read-only/);
  });

  test('concurrent role changes run one after the other and leave one of the roles', async () => {
    const { owner, member } = await team('technical');
    const results = await Promise.all(['billing', 'read_only', 'admin', 'technical'].map((role) => patch(`/api/members/${member.id}`, { role }, owner.cookie)));
    for (const r of results) assert.equal(r.statusCode, 200, r.body);
    const [row] = await queryRows<{ role: string; n: number }>(t.container.db, sql`select role, (select count(*)::int from account_members where account_id = ${owner.id}) as n from account_members where account_id = ${owner.id} and customer_id = ${member.id}`);
    assert.ok(['billing', 'read_only', 'admin', 'technical'].includes(row!.role));
    assert.equal(row!.n, 2);
  });

  test('an admin cannot touch the owner; the owner cannot leave or be removed', async () => {
    const { owner, member } = await team('admin');
    const demote = await patch(`/api/members/${owner.id}`, { role: 'billing' }, member.cookie);
    assert.equal(demote.statusCode, 409);
    assert.equal(demote.json().code, 'OWNER_ROLE');
    const remove = await del(`/api/members/${owner.id}`, member.cookie);
    assert.equal(remove.json().code, 'LAST_OWNER');
    const leave = await del(`/api/accounts/${owner.id}/membership`, owner.cookie);
    assert.equal(leave.statusCode, 409);
    assert.equal(leave.json().code, 'LAST_OWNER');
    // an admin holds everything but ownership
    assert.equal((await patch('/api/members/settings', { require_2fa: true }, member.cookie)).statusCode, 403);
    assert.equal((await post('/api/members/ownership-transfer', { customer_id: member.id }, member.cookie)).statusCode, 403);
    // a member may leave
    const left = await del(`/api/accounts/${owner.id}/membership`, member.cookie);
    assert.equal(left.statusCode, 200, left.body);
    assert.equal((await get('/api/inf', member.cookie)).statusCode, 401);
  });
});

describe('what each role sees of the account', () => {
  const MONEY = ['actual_balance', 'current_balance', 'billing_type', 'do_not_suspend_until', 'reward_first_top_up', 'reward_referral'];

  test('GET /api/inf and the profile: money only for roles holding billing:read; the rest for every role', async () => {
    const teams = await Promise.all((['admin', 'billing', 'technical', 'read_only'] as const).map(async (role) => ({ role, ...(await team(role)) })));
    const owner = teams[0]!.owner;
    const seen: Record<string, { status: number; withheld: string[]; balance: unknown; profileBalance: unknown; email: string; vmLimit: unknown; nulls: string[] }> = {};
    for (const who of [{ role: 'owner', cookie: owner.cookie, account: owner }, ...teams.map((x) => ({ role: x.role, cookie: x.member.cookie, account: x.owner }))]) {
      const inf = await get('/api/inf', who.cookie);
      const profile = await get('/api/customer/profile', who.cookie);
      assert.equal(profile.statusCode, 200, profile.body);
      const d = inf.json().data;
      seen[who.role] = {
        status: inf.statusCode,
        withheld: d.withheld,
        balance: d.actual_balance,
        profileBalance: profile.json().data.actual_balance,
        email: d.email,
        vmLimit: typeof d.vm_limit,
        nulls: MONEY.filter((k) => d[k] === null && k !== 'do_not_suspend_until'),
      };
      assert.equal(d.id, who.account.id, `${who.role} reads the account acted on`);
    }
    for (const role of ['owner', 'admin', 'billing', 'read_only']) {
      assert.deepEqual(seen[role]!.withheld, [], role);
      assert.equal(seen[role]!.balance, 0, role);
      assert.equal(seen[role]!.profileBalance, 0, role);
      assert.deepEqual(seen[role]!.nulls, [], role);
    }
    assert.deepEqual(seen.technical!.withheld, MONEY);
    assert.equal(seen.technical!.balance, null);
    assert.equal(seen.technical!.profileBalance, null);
    assert.deepEqual(seen.technical!.nulls, MONEY.filter((k) => k !== 'do_not_suspend_until'));
    // what is not money every role sees
    for (const role of Object.keys(seen)) {
      assert.equal(seen[role]!.status, 200, role);
      assert.equal(seen[role]!.vmLimit, 'number', role);
      assert.match(seen[role]!.email, /^owner\./, role);
    }
  });

  test('an API token without billing:read sees no money in GET /api/inf, even the owner\'s', async () => {
    const owner = await customerSession(t, { email: uniqueEmail('owner') });
    const narrow = await apiToken(owner.cookie, owner.password, ['account:read', 'compute:read']);
    const wide = await apiToken(owner.cookie, owner.password, ['account:read', 'billing:read']);
    const a = (await get('/api/inf', { authorization: `Bearer ${narrow}` })).json().data;
    const b = (await get('/api/inf', { authorization: `Bearer ${wide}` })).json().data;
    assert.equal(a.actual_balance, null);
    assert.deepEqual(a.withheld, MONEY);
    assert.equal(b.actual_balance, 0);
    assert.deepEqual(b.withheld, []);
  });
});

describe('activity of switching and leaving', () => {
  test("switching to an account and leaving it are in that account's activity log: who and when", async () => {
    const { owner, member } = await team('technical'); // team() switched the member to the owner's account
    const before = clock.now().toISOString();
    const back = await post('/api/accounts/switch', { account_id: member.id }, member.cookie);
    assert.equal(back.statusCode, 200, back.body);
    const again = await post('/api/accounts/switch', { account_id: owner.id }, member.cookie);
    assert.equal(again.statusCode, 200, again.body);
    const left = await del(`/api/accounts/${owner.id}/membership`, member.cookie);
    assert.equal(left.statusCode, 200, left.body);

    const log = (await get('/api/activity', owner.cookie)).json().data;
    const mine = log.filter((e: any) => ['member.switched_in', 'member.left'].includes(e.action)).map((e: any) => [e.action, e.by.customer_id, e.by.email, e.target_id]);
    // newest first: the leave, then the two switches into the owner's account (team() and now)
    assert.deepEqual(mine, [
      ['member.left', member.id, member.email, String(member.id)],
      ['member.switched_in', member.id, member.email, String(member.id)],
      ['member.switched_in', member.id, member.email, String(member.id)],
    ]);
    const leave = log.find((e: any) => e.action === 'member.left');
    assert.ok(leave.created_at >= before, 'when it happened');
    // leaving ended the session that acted there; switching back to their own account is in their own account's log
    const cookie = await loginCustomer(t, member.email, member.password);
    const own = (await get('/api/accounts', cookie)).json().data;
    assert.deepEqual(own.map((a: any) => a.account_id), [member.id]);
    const ownLog = (await get('/api/activity', cookie)).json().data.filter((e: any) => e.action === 'member.switched_in');
    assert.equal(ownLog.length, 1);
    assert.equal(ownLog[0].by.customer_id, member.id);
    assert.equal(ownLog[0].details.from_account_id, owner.id);
  });
});

describe('removal', () => {
  test('a removed member\'s sessions and tokens of the account end; no write of a burst succeeds after the removal commits', async () => {
    const { owner, member } = await team('technical');
    const secret = await apiToken(member.cookie, member.password, ['compute:*']);
    const bearer = { authorization: `Bearer ${secret}` };
    assert.equal((await get('/api/ssh-keys', bearer)).statusCode, 200);

    const burst = Array.from({ length: 24 }, (_, i) => post('/api/ssh-keys', { name: `burst-${i}`, public_key: PUBKEY(100 + i) }, bearer));
    const removal = del(`/api/members/${member.id}`, owner.cookie);
    const [removed, ...answers] = await Promise.all([removal, ...burst]);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(removed.json().data.tokens_revoked, 1);
    const created = answers.filter((a) => a.statusCode === 201).length;
    for (const a of answers) assert.ok([201, 401].includes(a.statusCode), `${a.statusCode} ${a.body}`);
    // every key that exists was answered 201, each with its activity entry naming the member
    const [keys] = await queryRows<{ n: number; logged: number }>(
      t.container.db,
      sql`select (select count(*)::int from ssh_keys where customer_id = ${owner.id} and name like 'burst-%') as n,
        (select count(*)::int from audit_logs where actor_id = ${owner.id} and member_id = ${member.id} and action = 'ssh_key.created') as logged`,
    );
    assert.equal(keys!.n, created);
    assert.equal(keys!.logged, created);
    // after the removal committed: nothing
    const later = await Promise.all([get('/api/ssh-keys', bearer), post('/api/ssh-keys', { name: 'late', public_key: PUBKEY(200) }, bearer), get('/api/inf', member.cookie)]);
    for (const r of later) assert.equal(r.statusCode, 401, r.body);
    await smtp.waitFor(member.email, (m) => /removed/.test(m.subject));
    // their own account is untouched
    const own = await loginCustomer(t, member.email, member.password);
    assert.equal((await get('/api/inf', own)).statusCode, 200);
  });

  test('a member\'s write in flight holds the removal until it commits; after the removal its check fails', async () => {
    const { owner, member } = await team('technical');
    const members = t.container.services.members;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    // the check every member's write makes in its own transaction (members.surface.ts)
    const write = t.container.db.transaction(async (tx) => {
      await members.confirmStillAllowed(tx, owner.id, member.id, 'compute:write');
      entered();
      await held;
    });
    await inside;
    let removedFirst = false;
    const removal = del(`/api/members/${member.id}`, owner.cookie).then((r) => {
      removedFirst = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(removedFirst, false, 'the removal waits for the write in flight');
    release();
    await write;
    assert.equal((await removal).statusCode, 200);
    await assert.rejects(
      t.container.db.transaction((tx) => members.confirmStillAllowed(tx, owner.id, member.id, 'compute:write')),
      (err: any) => err.code === 'UNAUTHENTICATED',
    );
  });
});

describe('account rules', () => {
  test('the owner can require 2FA of every member: a member without it can only use their own routes', async () => {
    const { owner, member } = await team('technical');
    const res = await patch('/api/members/settings', { require_2fa: true }, owner.cookie);
    assert.equal(res.statusCode, 200, res.body);
    const blocked = await get('/api/ssh-keys', member.cookie);
    assert.equal(blocked.statusCode, 403);
    assert.equal(blocked.json().code, 'TWO_FACTOR_REQUIRED');
    assert.equal((await get('/api/accounts', member.cookie)).statusCode, 200);
    // the owner is in their own account, not held to it
    assert.equal((await get('/api/ssh-keys', owner.cookie)).statusCode, 200);
  });

  test("a disabled account's members are refused there and keep their own account", async () => {
    const { owner, member } = await team('admin');
    await t.container.db.execute(sql`update customers set is_active = false where id = ${owner.id}`);
    const res = await get('/api/ssh-keys', member.cookie);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'ACCOUNT_DISABLED');
    const back = await post('/api/accounts/switch', { account_id: member.id }, member.cookie);
    assert.equal(back.statusCode, 200, back.body);
    assert.equal((await get('/api/ssh-keys', member.cookie)).statusCode, 200);
  });

  test('ownership moves only when the owner confirms the mailed link; the old owner stays as admin', async () => {
    const { owner, member } = await team('admin');
    const mark = smtp.mails.length;
    const req = await post('/api/members/ownership-transfer', { customer_id: member.id }, owner.cookie);
    assert.equal(req.statusCode, 202, req.body);
    const mail = await smtp.waitFor(owner.email, (m) => /Confirm handing over/.test(m.subject) && smtp.mails.indexOf(m) >= mark);
    const token = new URL(/(https:\/\/app\.example\.test\/ownership\?token=\S+)/.exec(mail.text)![1]!).searchParams.get('token')!;
    // only the owner who asked can confirm
    assert.equal((await post('/api/accounts/ownership-transfer/confirm', { token }, member.cookie)).statusCode, 404);
    const done = await post('/api/accounts/ownership-transfer/confirm', { token }, owner.cookie);
    assert.equal(done.statusCode, 200, done.body);
    const list = (await get('/api/members', member.cookie)).json().data.members;
    assert.deepEqual(Object.fromEntries(list.map((m: any) => [m.customer_id, m.role])), { [owner.id]: 'admin', [member.id]: 'owner' });
    assert.equal((await post('/api/accounts/ownership-transfer/confirm', { token }, owner.cookie)).statusCode, 409);

    // each person's list says the truth: their role in each account and who owns it now
    const entries = async (cookie: string) => Object.fromEntries((await get('/api/accounts', cookie)).json().data.map((a: any) => [a.account_id, { role: a.role, own: a.own, owner: a.owner?.customer_id, ownerName: a.owner?.name, name: a.name }]));
    assert.deepEqual(await entries(owner.cookie), { [owner.id]: { role: 'admin', own: true, owner: member.id, ownerName: 'Test Customer', name: 'Olivia Owner' } });
    assert.deepEqual(await entries(member.cookie), {
      [owner.id]: { role: 'owner', own: false, owner: member.id, ownerName: 'Test Customer', name: 'Olivia Owner' },
      [member.id]: { role: 'owner', own: true, owner: member.id, ownerName: 'Test Customer', name: 'Test Customer' },
    });
  });
});

describe('closing an account', () => {
  const close = (cookie: string, sudo: string | undefined, confirm_email: string) =>
    t.app.inject({ method: 'POST', url: '/api/members/account-closure', headers: { cookie, ...(sudo ? { 'x-access-token': sudo } : {}) }, payload: { confirm_email } });

  test('the owner closes an emptied, settled account: every session and token of it ends, every member goes, each keeps their other accounts; staff see it closed', async () => {
    const { owner, member } = await team('technical');
    await fund(t, owner.id);
    // the owner also belongs to someone else's account
    const other = await customerSession(t, { email: uniqueEmail('other') });
    const invited = await invite(other.cookie, owner.email, 'billing');
    assert.equal((await post('/api/invitations/accept', { token: invited }, owner.cookie)).statusCode, 200);
    const ownerToken = await apiToken(owner.cookie, owner.password, ['account:read']);
    const memberToken = await apiToken(member.cookie, member.password, ['compute:*']);
    const memberOwnTab = await loginCustomer(t, member.email, member.password); // acts on the member's own account

    // a VM stands in the way; the preview and the refusal say so
    const vm = await createVm(t, owner.cookie, { name: 'last-one', location_id: 1, tier_id: await seededTier(t), public_ip: false });
    assert.equal(vm.statusCode, 201, vm.body);
    await vmJobsDone(t);
    const preview = await get('/api/members/account-closure', owner.cookie);
    assert.equal(preview.statusCode, 200, preview.body);
    assert.equal(preview.json().data.can_close, false);
    assert.deepEqual(preview.json().data.blockers.map((b: any) => [b.kind, b.count]), [['vms', 1]]);
    const sudo = await sudoToken(owner.cookie, owner.password);
    const refused = await close(owner.cookie, sudo, owner.email);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'ACCOUNT_NOT_EMPTY');
    assert.deepEqual(refused.json().errors.map((e: any) => e.field), ['vms']);

    // only the owner, only re-authenticated, only with the account's address typed again
    assert.equal((await get('/api/members/account-closure', member.cookie)).json().code, 'ROLE_FORBIDDEN');
    assert.equal((await close(member.cookie, await sudoToken(member.cookie, member.password), owner.email)).json().code, 'ROLE_FORBIDDEN');
    const noSudo = await close(owner.cookie, undefined, owner.email);
    assert.equal(noSudo.statusCode, 403, noSudo.body);
    assert.equal(noSudo.json().code, 'SUDO_REQUIRED');
    const wrongAddress = await close(owner.cookie, sudo, member.email);
    assert.equal(wrongAddress.statusCode, 400, wrongAddress.body);
    assert.equal((await get('/api/members/account-closure', { authorization: `Bearer ${ownerToken}` })).statusCode, 403, 'never with a token');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vm.json().data.id}`, headers: { cookie: owner.cookie } });
    assert.ok([200, 202].includes(del.statusCode), del.body);
    await vmJobsDone(t);
    assert.equal((await get('/api/members/account-closure', owner.cookie)).json().data.can_close, true, 'credit left on the wallet does not stand in the way');

    const closed = await close(owner.cookie, sudo, owner.email.toUpperCase());
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual([closed.json().data.members_removed, closed.json().data.tokens_revoked], [2, 2]);
    assert.ok(closed.json().data.sessions_ended >= 2);

    // nothing of it answers any more: the owner's and the member's sessions there, both tokens
    for (const headers of [{ cookie: owner.cookie }, { cookie: member.cookie }, { authorization: `Bearer ${ownerToken}` }, { authorization: `Bearer ${memberToken}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/inf', headers });
      assert.equal(res.statusCode, 401, `${JSON.stringify(Object.keys(headers))}: ${res.body}`);
    }
    const [rows] = await queryRows<{ members: number; closed: boolean; logged: number }>(
      t.container.db,
      sql`select (select count(*)::int from account_members where account_id = ${owner.id}) as members,
        (select closed_at is not null from account_settings where account_id = ${owner.id}) as closed,
        (select count(*)::int from audit_logs where actor_id = ${owner.id} and action = 'account.closed') as logged`,
    );
    assert.deepEqual(rows, { members: 0, closed: true, logged: 1 });
    // both are told by mail
    await smtp.waitFor(member.email, (m) => /^The account of .* was closed$/.test(m.subject));
    await smtp.waitFor(owner.email, (m) => m.subject === 'Your account is closed');

    // each person keeps their other accounts: the member's own tab, the owner's next sign-in lands in the account they still belong to
    assert.equal((await get('/api/inf', memberOwnTab)).statusCode, 200);
    const again = await loginCustomer(t, owner.email, owner.password);
    const accounts = (await get('/api/accounts', again)).json().data;
    assert.deepEqual(accounts.map((a: any) => [a.account_id, a.role, a.current]), [[other.id, 'billing', true]]);
    const inf = await get('/api/inf', again);
    assert.equal(inf.statusCode, 200, inf.body);
    assert.equal(inf.json().data.id, other.id);
    // switching back to the closed account: not a member any more
    assert.equal((await post('/api/accounts/switch', { account_id: owner.id }, again)).statusCode, 404);

    // staff see it closed, with no members
    const staff = await adminSession(t, { permissions: ['view_users'] });
    const view = await get(`/api/backoffice/customer/${owner.id}/members`, staff.cookie);
    assert.equal(view.statusCode, 200, view.body);
    assert.equal(view.json().data.closed_at, closed.json().data.closed_at);
    assert.deepEqual(view.json().data.members, []);
  });

  test("the owner's own write in flight holds the closure until it commits; after the closure that check fails", async () => {
    const owner = await customerSession(t, { email: uniqueEmail('owner') });
    const members = t.container.services.members;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const write = t.container.db.transaction(async (tx) => {
      await members.confirmStillAllowed(tx, owner.id, owner.id, 'compute:write');
      entered();
      await held;
    });
    await inside;
    let closedFirst = false;
    const closing = close(owner.cookie, await sudoToken(owner.cookie, owner.password), owner.email).then((r) => {
      closedFirst = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(closedFirst, false, 'the closure waits for the write in flight');
    release();
    await write;
    assert.equal((await closing).statusCode, 200);
    await assert.rejects(
      t.container.db.transaction((tx) => members.confirmStillAllowed(tx, owner.id, owner.id, 'compute:write')),
      (err: any) => err.code === 'UNAUTHENTICATED',
    );
  });

  test('a person whose only account is closed still signs in, may use only their own routes, and is told why', async () => {
    const solo = await customerSession(t, { email: uniqueEmail('solo') });
    const sudo = await sudoToken(solo.cookie, solo.password);
    const closed = await close(solo.cookie, sudo, solo.email);
    assert.equal(closed.statusCode, 200, closed.body);
    const cookie = await loginCustomer(t, solo.email, solo.password);
    const inf = await get('/api/inf', cookie);
    assert.equal(inf.statusCode, 403, inf.body);
    assert.equal(inf.json().code, 'ACCOUNT_CLOSED');
    const accounts = await get('/api/accounts', cookie);
    assert.equal(accounts.statusCode, 200, accounts.body);
    assert.deepEqual(accounts.json().data, []);
    // a negative balance would have stood in the way of a second account's closure
    const debtor = await customerSession(t, { email: uniqueEmail('debtor') });
    await t.container.db.execute(sql`insert into wallets (customer_id, actual_balance, current_balance) values (${debtor.id}, -5000, -5000)
      on conflict (customer_id) do update set actual_balance = -5000, current_balance = -5000`);
    const blocked = await close(debtor.cookie, await sudoToken(debtor.cookie, debtor.password), debtor.email);
    assert.equal(blocked.statusCode, 409, blocked.body);
    assert.deepEqual(blocked.json().errors.map((e: any) => e.field), ['balance']);
  });
});
