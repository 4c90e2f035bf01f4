import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, loginAdminFull, strongPassword } from '../helpers/admins.js';
import { TestSmtpServer } from '../helpers/smtp.js';

let t: TestApp;
const smtp = new TestSmtpServer();
const clock = new ManualClock();
let boss: { cookie: string };
before(async () => {
  t = await buildTestApp({ clock, env: { SMTP_URL: await smtp.start() } });
  boss = await adminSession(t);
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const base = () => t.container.config.publicUrl;
const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(t.container.db, q);
let n = 0;

/** Adds a staff member as the owner does; returns the e-mail, the mailed token and the answer. */
async function addStaff() {
  const email = `staff-${Date.now()}-${n++}@staff.test`;
  const res = await t.app.inject({ method: 'POST', url: '/api/backoffice/admin', headers: { cookie: boss.cookie }, payload: { name: 'Sam Staff', email, role: 'Admin Support' } });
  assert.equal(res.statusCode, 201, res.body);
  const mail = await smtp.waitFor(email);
  const m = /(\S+\/backoffice\/set-password\?token=([A-Za-z0-9_-]+))/.exec(mail.text);
  assert.ok(m, mail.text);
  return { email, url: m[1]!, token: m[2]!, mail, body: res.json() };
}
const page = (method: 'GET' | 'POST', payload?: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url: method === 'GET' ? `/backoffice/set-password${payload ? `?token=${payload.token}` : ''}` : '/backoffice/set-password',
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', ...headers } : headers,
    ...(method === 'POST' ? { payload: new URLSearchParams(payload).toString() } : {}),
  });
const hashOf = async (email: string) => (await rows<{ h: string }>(sql`select password_hash as h from admins where email = ${email}`))[0]!.h;

describe("a new staff member's set-password link", () => {
  test('the mail carries a link, never a password; neither does the answer', async () => {
    const { url, mail, body } = await addStaff();
    assert.ok(url.startsWith(`${base()}/backoffice/set-password?token=`), url);
    assert.equal(body.data.password, undefined);
    assert.ok(Date.parse(body.data.set_password_link_expires_at) - clock.now().getTime() === 48 * 3600_000);
    assert.doesNotMatch(mail.text, /password: \S+/i);
    assert.match(mail.text, /valid for 48 hours/);
  });

  test('the link page sets the password once; the staff member then logs in with it, nothing to change', async () => {
    const { email, token } = await addStaff();
    const shown = await page('GET', { token });
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /name="new_password"/);
    assert.equal(shown.headers['cache-control'], 'no-store');
    const password = strongPassword();
    const done = await page('POST', { token, new_password: password }, { origin: new URL(base()).origin });
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /Password set/);
    const login = await loginAdminFull(t, email, password);
    assert.equal(login.body.data.must_change_password, false);
    assert.equal(login.body.data.first_login, true);
    const again = await page('POST', { token, new_password: strongPassword() });
    assert.equal(again.statusCode, 400);
    assert.match(again.body, /invalid, expired or already used/);
    await loginAdminFull(t, email, password);
  });

  test('another origin, a weak password, a wrong or expired token change nothing', async () => {
    const { email, token } = await addStaff();
    const before = await hashOf(email);
    const cross = await page('POST', { token, new_password: strongPassword() }, { origin: 'https://evil.example' });
    assert.equal(cross.statusCode, 403);
    const weak = await page('POST', { token, new_password: 'short' });
    assert.equal(weak.statusCode, 400);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/set-password', payload: { token: `${token}x`, new_password: strongPassword() } });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'INVALID_TOKEN');
    assert.equal(await hashOf(email), before);
    // the link still works before it expires, not after
    clock.advance(48 * 3600_000 + 1000);
    const late = await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/set-password', payload: { token, new_password: strongPassword() } });
    assert.equal(late.statusCode, 400);
    assert.equal(late.json().code, 'INVALID_TOKEN');
    assert.equal(await hashOf(email), before);
  });

  test('a reset mails a new link: the earlier link stops working', async () => {
    boss = await adminSession(t); // the clock moved on in the test before
    const { email, token } = await addStaff();
    const [row] = await rows<{ id: number }>(sql`select id from admins where email = ${email}`);
    const reset = await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${row!.id}/reset-password`, headers: { cookie: boss.cookie } });
    assert.equal(reset.statusCode, 200, reset.body);
    const mail = await smtp.waitFor(email, (m) => /reset/i.test(m.subject));
    const second = /set-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/set-password', payload: { token, new_password: strongPassword() } })).statusCode, 400);
    const password = strongPassword();
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/backoffice/auth/set-password', payload: { token: second, new_password: password } })).statusCode, 200);
    await loginAdminFull(t, email, password);
    const [audit] = await rows<{ n: number }>(sql`select count(*)::int as n from audit_logs where action = 'admin.password_set_by_link' and target_id = ${String(row!.id)}`);
    assert.equal(audit!.n, 1);
  });
});
