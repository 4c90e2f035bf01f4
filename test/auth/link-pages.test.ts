import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, cookiesOf, createCustomer, loginCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';

// The embedded default: no FRONTEND_URL, so the links in the mails point at this server.
let t: TestApp;
const smtp = new TestSmtpServer();
before(async () => {
  t = await buildTestApp({ env: { SMTP_URL: await smtp.start() } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

const PUBLIC = 'http://127.0.0.1:3000';
const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The path and query of the link in a mail that points at this server. */
async function linkIn(to: string, subject: RegExp): Promise<{ path: string; token: string }> {
  const mail = await smtp.waitFor(to, (m) => subject.test(m.subject));
  const url = new URL(new RegExp(`(${PUBLIC}/\\S+)`).exec(mail.text)![1]!);
  return { path: url.pathname + url.search, token: url.searchParams.get('token')! };
}

function assertPage(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, text: RegExp) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.match(res.body, text);
}

describe('mail links land on pages of this server when no FRONTEND_URL is set', () => {
  test('verify e-mail: the GET shows a form and changes nothing, its POST activates the account, a second POST is refused', async () => {
    const email = 'page.verify@example.test';
    const password = 'Pag3!Password';
    const reg = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password, first_name: 'Page', last_name: 'User', account_type: 'P' } });
    assert.equal(reg.statusCode, 201, reg.body);
    const link = await linkIn(email, /confirm your e-mail/i);
    assert.match(link.path, /^\/auth\/verify-email\?token=/);

    const page = await t.app.inject({ method: 'GET', url: link.path });
    assertPage(page, 200, /<form method="post" action="\/auth\/verify-email">/);
    assert.ok(page.body.includes(`value="${link.token}"`));
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).json().code, 'EMAIL_NOT_VERIFIED', 'a GET (a mail scanner) changes nothing');

    const done = await t.app.inject({ method: 'POST', url: '/auth/verify-email', headers: { ...FORM, origin: PUBLIC }, payload: form({ token: link.token }) });
    assertPage(done, 200, /E-mail address confirmed/);
    await loginCustomer(t, email, password);

    const again = await t.app.inject({ method: 'POST', url: '/auth/verify-email', headers: FORM, payload: form({ token: link.token }) });
    assertPage(again, 400, /invalid, expired or already used/);
  });

  test('password reset: a weak password is refused on the page, a strong one is set', async () => {
    const c = await createCustomer(t, { email: 'page.reset@example.test' });
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: c.email } })).statusCode, 200);
    const link = await linkIn(c.email, /reset your password/i);
    assert.match(link.path, /^\/auth\/reset-password\?token=/);

    assertPage(await t.app.inject({ method: 'GET', url: link.path }), 200, /name="new_password"/);
    const weak = await t.app.inject({ method: 'POST', url: '/auth/reset-password', headers: FORM, payload: form({ token: link.token, new_password: 'short' }) });
    assertPage(weak, 400, /lowercase letter/);
    const ok = await t.app.inject({ method: 'POST', url: '/auth/reset-password', headers: FORM, payload: form({ token: link.token, new_password: 'N3w!Password' }) });
    assertPage(ok, 200, /Password changed/);
    await loginCustomer(t, c.email, 'N3w!Password');
  });

  test('confirm new e-mail: needs the session in this browser; a cross-origin POST is refused; the POST changes the address', async () => {
    const c = await createCustomer(t, { email: 'page.old@example.test' });
    const cookie = await loginCustomer(t, c.email, c.password);
    const step = (name: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/api/auth/profile/change-email/${name}`, headers: { cookie }, ...(payload ? { payload } : {}) });
    assert.equal((await step('request')).statusCode, 200);
    const otpMail = await smtp.waitFor(c.email, (m) => /verification code/i.test(m.subject));
    const code = /is (\d{6})/.exec(otpMail.text)![1]!;
    const stepToken = (await step('verify-old', { code })).json().data.token;
    assert.equal((await step('send-new', { token: stepToken, new_email: 'page.new@example.test' })).statusCode, 200);
    const link = await linkIn('page.new@example.test', /confirm your new/i);
    assert.match(link.path, /^\/account\/change-email\/confirm\?token=/);

    assertPage(await t.app.inject({ method: 'GET', url: link.path }), 401, /Log in first/);
    assertPage(await t.app.inject({ method: 'GET', url: link.path, headers: { cookie } }), 200, /Confirm the new address/);

    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/account/change-email/confirm', headers: { ...FORM, cookie, ...headers }, payload: form({ token: link.token }) });
    assertPage(await post({ origin: 'https://evil.example' }), 403, /must be sent from its own page/);
    assertPage(await post({ referer: 'https://evil.example/page' }), 403, /must be sent from its own page/);
    const done = await post({ origin: PUBLIC });
    assertPage(done, 200, /page\.new@example\.test/);
    const fresh = cookiesOf(done);
    assert.ok(fresh.access_token && fresh.refresh_token, 'this browser keeps its session with new cookies');
    const inf = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: cookieHeader(fresh) } });
    assert.equal(inf.json().data.email, 'page.new@example.test');
  });

  test('what the pages echo is escaped; a missing token or a malformed form is a 400 page; the pages are not in the OpenAPI document', async () => {
    const evil = '"><script>alert(1)</script>';
    const page = await t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${encodeURIComponent(evil)}` });
    assertPage(page, 200, /&#34;&#62;&#60;script&#62;/);
    assert.ok(!page.body.includes('<script>'));
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assertPage(await t.app.inject({ method: 'GET', url: '/auth/reset-password' }), 400, /no token/);
    assertPage(await t.app.inject({ method: 'POST', url: '/auth/verify-email', headers: FORM, payload: form({ token: 'x', extra: '1' }) }), 400, /malformed/);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.deepEqual(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/')), []);
  });

  test('with a FRONTEND_URL the mails point at the front end and these pages do not exist', async () => {
    const other = await buildTestApp({ worker: false, env: { FRONTEND_URL: 'https://app.example.test' } });
    try {
      assert.equal((await other.app.inject({ method: 'GET', url: '/auth/verify-email?token=abc' })).statusCode, 404);
    } finally {
      await other.close();
    }
  });
});
