import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sshpk from 'sshpk';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

/*
 * Writes a page of another origin makes the signed-in browser send: refused with 403 before
 * anything reads the body or the session; form bodies refused with 415 on every API route.
 * The test app's PUBLIC_URL is http://127.0.0.1:3000; inject() addresses Host localhost:80.
 */

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const FORM = 'application/x-www-form-urlencoded';
const SIBLING = 'http://127.0.0.1:4000';

function sshKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
}

async function adminsNamed(email: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from admins where email = ${email}`);
  return rows[0]!.n;
}

async function keysOf(customerId: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from ssh_keys where customer_id = ${customerId}`);
  return rows[0]!.n;
}

function refused(res: { statusCode: number; json(): any; body: string }, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.request_id, 'string');
}

describe('writes sent by a page of another origin', () => {
  test('backoffice: a Super Admin browser made to post a new Super Admin from a sibling port is refused (Origin, Sec-Fetch-Site, Referer); the own origin writes', async () => {
    const boss = await adminSession(t);
    const email = 'attacker@evil.example';
    const form = new URLSearchParams({ name: 'Evil', email, role: 'Super Admin' }).toString();
    const json = JSON.stringify({ name: 'Evil', email, role: 'Super Admin' });
    const post = (headers: Record<string, string>, payload: string, type = 'application/json') =>
      t.app.inject({ method: 'POST', url: '/api/backoffice/admin', headers: { cookie: boss.cookie, 'content-type': type, ...headers }, payload });

    for (const headers of <Record<string, string>[]>[
      { origin: SIBLING, 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: SIBLING },
      { origin: 'http://127.0.0.1' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { referer: `${SIBLING}/page.html` },
    ]) {
      refused(await post(headers, form, FORM), 403, 'CROSS_ORIGIN_REQUEST');
      refused(await post(headers, json), 403, 'CROSS_ORIGIN_REQUEST');
      refused(await post(headers, json, 'text/plain'), 403, 'CROSS_ORIGIN_REQUEST');
    }
    assert.equal(await adminsNamed(email), 0);
    // other writes too: DELETE, PUT, PATCH
    for (const method of ['DELETE', 'PUT', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: `/api/backoffice/admin/${boss.id}`, headers: { cookie: boss.cookie, origin: SIBLING } });
      refused(res, 403, 'CROSS_ORIGIN_REQUEST');
    }

    // the own origin (PUBLIC_URL, or the Host the request was sent to) may write, in JSON
    const create = (headers: Record<string, string>, email: string) =>
      t.app.inject({ method: 'POST', url: '/api/backoffice/admin', headers: { cookie: boss.cookie, ...headers }, payload: { name: 'Colleague', email, role: 'Admin' } });
    assert.equal((await create({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, 'a1@staff.test')).statusCode, 201);
    assert.equal((await create({ origin: 'http://localhost' }, 'a2@staff.test')).statusCode, 201);
    assert.equal((await create({ origin: 'null', 'sec-fetch-site': 'same-origin' }, 'a3@staff.test')).statusCode, 201);
    assert.equal((await create({ 'sec-fetch-site': 'same-origin' }, 'a4@staff.test')).statusCode, 201);
    // curl and other programs send neither Origin nor fetch metadata: no page is involved
    assert.equal((await create({}, 'a5@staff.test')).statusCode, 201);
  });

  test('customer: an SSH key posted cross-origin by form or by fetch is refused and nothing is stored; reads and API tokens stay open', async () => {
    const c = await customerSession(t);
    const key = sshKey();
    const form = new URLSearchParams({ name: 'evil', public_key: key }).toString();
    const post = (headers: Record<string, string>, payload: string, type: string) =>
      t.app.inject({ method: 'POST', url: '/api/ssh-keys', headers: { cookie: c.cookie, 'content-type': type, ...headers }, payload });
    refused(await post({ origin: SIBLING, 'sec-fetch-site': 'same-site' }, form, FORM), 403, 'CROSS_ORIGIN_REQUEST');
    refused(await post({ origin: SIBLING }, JSON.stringify({ name: 'evil', public_key: key }), 'application/json'), 403, 'CROSS_ORIGIN_REQUEST');
    refused(await post({ 'sec-fetch-site': 'same-site' }, JSON.stringify({ name: 'evil', public_key: key }), 'application/json'), 403, 'CROSS_ORIGIN_REQUEST');
    assert.equal(await keysOf(c.id), 0);
    const read = await t.app.inject({ method: 'GET', url: '/api/ssh-keys', headers: { cookie: c.cookie, origin: SIBLING, 'sec-fetch-site': 'same-site' } });
    assert.equal(read.statusCode, 200);
    // the login routes too: a page of another origin cannot sign the browser into its own account
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: SIBLING }, payload: { email: c.email, password: c.password } });
    refused(login, 403, 'CROSS_ORIGIN_REQUEST');

    // an API token (Authorization: Bearer) is not a cookie: the origin rule leaves it alone
    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: c.cookie }, payload: { password: c.password } })).json().data.token;
    const made = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: { cookie: c.cookie, 'x-access-token': sudo }, payload: { name: 'ci', scopes: ['compute:*'] } });
    assert.equal(made.statusCode, 201, made.body);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ssh-keys',
      headers: { authorization: `Bearer ${made.json().data.token}`, origin: SIBLING },
      payload: { name: 'from ci', public_key: sshKey() },
    });
    assert.equal(res.statusCode, 201, res.body);
  });
});

describe('request bodies are JSON', () => {
  test('a form or text body from the own origin is 415 with the error body, on both surfaces, and changes nothing; the mail-link pages still read their forms', async () => {
    const boss = await adminSession(t);
    const c = await customerSession(t);
    const email = 'formed@staff.test';
    for (const type of [FORM, 'text/plain', 'multipart/form-data; boundary=x']) {
      const admin = await t.app.inject({
        method: 'POST',
        url: '/api/backoffice/admin',
        headers: { cookie: boss.cookie, 'content-type': type, origin: 'http://127.0.0.1:3000' },
        payload: new URLSearchParams({ name: 'Formed', email, role: 'Admin' }).toString(),
      });
      refused(admin, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const key = await t.app.inject({ method: 'POST', url: '/api/ssh-keys', headers: { cookie: c.cookie, 'content-type': type }, payload: new URLSearchParams({ name: 'k', public_key: sshKey() }).toString() });
      refused(key, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': type }, payload: new URLSearchParams({ email: c.email, password: c.password }).toString() });
      refused(login, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    assert.equal(await adminsNamed(email), 0);
    assert.equal(await keysOf(c.id), 0);

    // the server-rendered forms keep reading form bodies: the mail-link page answers its own page, not 415
    const res = await t.app.inject({ method: 'POST', url: '/auth/verify-email', headers: { 'content-type': FORM, origin: 'http://127.0.0.1:3000' }, payload: 'token=not-a-real-token' });
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /text\/html/);
    const cross = await t.app.inject({ method: 'POST', url: '/auth/verify-email', headers: { 'content-type': FORM, origin: SIBLING }, payload: 'token=not-a-real-token' });
    assert.equal(cross.statusCode, 403);
    assert.match(cross.body, /must be sent from its own page/);
  });
});
