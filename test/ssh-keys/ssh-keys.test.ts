import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sshpk from 'sshpk';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const dir = mkdtempSync(path.join(tmpdir(), 'ssh-keys-'));
/** A key pair made by OpenSSH itself, with what ssh-keygen -l says of it. */
function keygen(type: string, bits?: number): { pub: string; priv: string; fingerprint: string } {
  const file = path.join(dir, `k${Math.random().toString(36).slice(2)}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', 'me@laptop', '-f', file]);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { pub: readFileSync(`${file}.pub`, 'utf8'), priv: readFileSync(file, 'utf8'), fingerprint };
}
/** A fresh ed25519 public key line without a subprocess. */
function quickKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
}

const api = (cookie: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/ssh-keys${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

describe('SSH keys', () => {
  test('a key is validated and stored as OpenSSH writes it, with the fingerprint ssh-keygen shows; list, get, rename, delete', async () => {
    const c = await customerSession(t);
    const ed = keygen('ed25519');
    const created = await api(c.cookie, 'POST', '', { name: 'laptop', public_key: `  ${ed.pub}\n` });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json().data;
    assert.equal(key.name, 'laptop');
    assert.equal(key.key_type, 'ssh-ed25519');
    assert.equal(key.bits, 256);
    assert.equal(key.fingerprint, ed.fingerprint);
    assert.equal(key.public_key, ed.pub.trim());

    const rsa = keygen('rsa', 2048);
    const ecdsa = keygen('ecdsa', 384);
    const r = (await api(c.cookie, 'POST', '', { name: 'ci', public_key: rsa.pub })).json().data;
    assert.deepEqual([r.key_type, r.bits, r.fingerprint], ['ssh-rsa', 2048, rsa.fingerprint]);
    const e = (await api(c.cookie, 'POST', '', { name: 'yubikey', public_key: ecdsa.pub })).json().data;
    assert.deepEqual([e.key_type, e.bits, e.fingerprint], ['ecdsa-sha2-nistp384', 384, ecdsa.fingerprint]);

    const list = await api(c.cookie, 'GET', '?limit=2');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().meta, { page: 1, limit: 2, total: 3, total_pages: 2 });
    assert.deepEqual(list.json().data.map((k: { name: string }) => k.name), ['yubikey', 'ci']);

    const renamed = await api(c.cookie, 'PATCH', `/${key.id}`, { name: 'old laptop' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().data.name, 'old laptop');
    assert.equal((await api(c.cookie, 'GET', `/${key.id}`)).json().data.name, 'old laptop');
    assert.equal((await api(c.cookie, 'DELETE', `/${key.id}`)).statusCode, 200);
    assert.equal((await api(c.cookie, 'GET', `/${key.id}`)).statusCode, 404);
    assert.equal((await api(c.cookie, 'DELETE', `/${key.id}`)).statusCode, 404);
  });

  test('what a guest would refuse is refused with the field named, and nothing is stored', async () => {
    const c = await customerSession(t);
    const cases: [string, string, RegExp][] = [
      ['a private key', keygen('ed25519').priv, /private key/],
      ['garbage', 'ssh-ed25519 AAAAnot-base64 me', /not an OpenSSH public key/],
      ['two keys', `${quickKey()}\n${quickKey()}`, /one key per entry/],
      ['a short RSA key', keygen('rsa', 1024).pub, /at least 2048 bits/],
      ['a DSA key', keygen('dsa').pub, /not accepted/],
    ];
    for (const [what, publicKey, message] of cases) {
      const res = await api(c.cookie, 'POST', '', { name: what, public_key: publicKey });
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.equal(res.json().errors[0].field, 'public_key');
      assert.match(res.json().errors[0].message, message, what);
    }
    for (const body of [{ name: '', public_key: quickKey() }, { name: '   ', public_key: quickKey() }, { name: 'x', public_key: quickKey(), extra: 1 }, { name: 'x' }]) {
      assert.equal((await api(c.cookie, 'POST', '', body)).statusCode, 400, JSON.stringify(body));
    }
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from ssh_keys where customer_id = ${c.id}`);
    assert.equal(n!.n, 0);
  });

  test('a comment after the key is printable text: control characters and noncharacters are refused, anything printable is kept', async () => {
    const c = await customerSession(t);
    for (const [what, comment] of [
      ['a control character', 'me\u0001@laptop'],
      ['DEL', 'me\u007f'],
      ['a C1 control (NEL)', 'me\u0085laptop'],
      ['U+FFFE', 'me\ufffe'],
      ['U+FFFF', '\uffffme'],
      ['a line separator', 'me\u2028x'],
      ['a bidi override', 'me\u202ex'],
      ['a tab', 'me\tlaptop'],
      ['an escape sequence', 'me\u001b[31m'],
    ]) {
      const res = await api(c.cookie, 'POST', '', { name: what, public_key: `${quickKey()} ${comment}` });
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.equal(res.json().errors[0].field, 'public_key', what);
      assert.match(res.json().errors[0].message, /printable/, what);
    }
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from ssh_keys where customer_id = ${c.id}`);
    assert.equal(n!.n, 0);
    const comment = "Zoë's key (work) — 2026 ✓ <ci@host> 😀";
    const ok = await api(c.cookie, 'POST', '', { name: 'printable', public_key: `${quickKey()} ${comment}` });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.ok(ok.json().data.public_key.endsWith(` ${comment}`), ok.json().data.public_key);
  });

  test('the same key or name twice → 409; another customer may add the same key; their keys are 404 to me', async () => {
    const a = await customerSession(t);
    const b = await customerSession(t);
    const pub = quickKey();
    const mine = (await api(a.cookie, 'POST', '', { name: 'main', public_key: pub })).json().data;
    const again = await api(a.cookie, 'POST', '', { name: 'other name', public_key: pub });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'SSH_KEY_EXISTS');
    const sameName = await api(a.cookie, 'POST', '', { name: 'MAIN', public_key: quickKey() });
    assert.equal(sameName.statusCode, 409);
    assert.equal(sameName.json().code, 'NAME_TAKEN');
    assert.equal((await api(b.cookie, 'POST', '', { name: 'main', public_key: pub })).statusCode, 201);
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'mine now' }], ['DELETE']] as const) {
      assert.equal((await api(b.cookie, method, `/${mine.id}`, payload)).statusCode, 404, method);
    }
    assert.equal((await api(a.cookie, 'GET', `/${mine.id}`)).json().data.name, 'main');
  });

  test('at most 50 keys per account, also when added in parallel', async () => {
    const c = await customerSession(t);
    const results = await Promise.all(Array.from({ length: 56 }, (_, i) => api(c.cookie, 'POST', '', { name: `k${i}`, public_key: quickKey() })));
    assert.equal(results.filter((r) => r.statusCode === 201).length, 50);
    const refused = results.filter((r) => r.statusCode !== 201);
    assert.ok(refused.every((r) => r.statusCode === 409 && r.json().code === 'QUOTA_EXCEEDED'), refused.map((r) => r.body).join());
    assert.equal((await api(c.cookie, 'GET', '')).json().meta.total, 50);
  });
});
