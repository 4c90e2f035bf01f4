import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import sshpk from 'sshpk';
import { queryRows } from '../../src/platform/db/database.js';
import { createAdmin } from '../helpers/admins.js';
import { staffLogin, startConsoleApp, type ConsoleApp } from '../helpers/browser.js';
import { createCustomer } from '../helpers/customers.js';

/*
 * The attack as it was made: a page on another port of the same host (the same "site" for the
 * browser, so SameSite=Lax cookies go along) auto-submits a form and sends fetches with
 * credentials to the API while the victim is signed in to the console.
 */

let app: ConsoleApp;
let evil: Server;
let evilBase: string;
const pages = new Map<string, string>();

before(async () => {
  app = await startConsoleApp();
  evil = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilBase = `http://127.0.0.1:${(evil.address() as { port: number }).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => (evil ? evil.close(() => resolve()) : resolve()));
  await app?.close();
});

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * An attacker's page: two fetches with the victim's cookies (a no-cors text/plain one carrying
 * JSON, a form-encoded one), then an auto-submitted form; each goes to one API route.
 */
function attackPage(opts: { fetches: { url: string; json: object }[]; form: { url: string; fields: Record<string, string> } }): string {
  const fetches = opts.fetches
    .map(({ url, json }, i) =>
      i % 2 === 0
        ? `fetch(${JSON.stringify(url)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify(json))} })`
        : `fetch(${JSON.stringify(url)}, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(new URLSearchParams(json as Record<string, string>).toString())} })`,
    )
    .map((call) => `${call}.catch(() => undefined)`)
    .join(', ');
  const inputs = Object.entries(opts.form.fields)
    .map(([k, v]) => `<input type="hidden" name="${attr(k)}" value="${attr(v)}">`)
    .join('');
  return `<!doctype html><html><head><title>Win a prize</title></head><body><h1>Win a prize</h1><form id="f" method="post" action="${attr(opts.form.url)}">${inputs}</form><script>Promise.all([${fetches}]).then(() => document.getElementById('f').submit());</script></body></html>`;
}

/**
 * Opens the attacker's page and waits until the form's answer replaces it. Returns the API routes
 * the browser sent a POST to and the status of the form's answer (the fetches' answers are
 * hidden from the page, and from the browser's own network events when CORS blocks them).
 */
async function visit(page: Page, path: string, html: string): Promise<{ sent: string[]; formStatus: number | undefined }> {
  pages.set(path, html);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${app.base}/api/`) && r.method() === 'POST') sent.push(new URL(r.url()).pathname);
  });
  const form = page.waitForResponse((r) => r.url().startsWith(`${app.base}/api/`) && r.request().isNavigationRequest());
  await page.goto(`${evilBase}${path}`);
  const formStatus = (await form).status();
  await page.waitForLoadState();
  return { sent, formStatus };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const rows = await queryRows<{ n: number }>(app.container.db, query);
  return rows[0]!.n;
}

describe('another origin of the same host cannot write with the console’s cookies', () => {
  test('staff: a signed-in Super Admin who opens the page creates no Super Admin', async () => {
    const boss = await createAdmin(app);
    const ctx = await app.context();
    const page = await ctx.newPage();
    await staffLogin(page, boss.email, boss.password);

    const { sent, formStatus } = await visit(
      page,
      '/staff.html',
      attackPage({
        fetches: [
          { url: `${app.base}/api/backoffice/admin`, json: { name: 'Evil One', email: 'one@evil.example', role: 'Super Admin' } },
          { url: `${app.base}/api/backoffice/admin`, json: { name: 'Evil Two', email: 'two@evil.example', role: 'Super Admin' } },
        ],
        form: { url: `${app.base}/api/backoffice/admin`, fields: { name: 'Evil Three', email: 'three@evil.example', role: 'Super Admin' } },
      }),
    );
    assert.deepEqual(sent, ['/api/backoffice/admin', '/api/backoffice/admin', '/api/backoffice/admin']);
    assert.equal(formStatus, 403);
    // what the person sees: the refusal, in place of the page
    await page.getByText('CROSS_ORIGIN_REQUEST').waitFor();
    assert.equal(await count(sql`select count(*)::int as n from admins where email like '%@evil.example'`), 0);

    await ctx.close();
  });

  test('customer: a signed-in customer who opens the page gets no webhook endpoint, SSH key or ticket', async () => {
    const c = await createCustomer(app, { email: 'victim@example.test' });
    const ctx = await app.context();
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(c.email);
    await page.getByLabel('Password').fill(c.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    const { publicKey } = generateKeyPairSync('ed25519');
    const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
    const { sent, formStatus } = await visit(
      page,
      '/customer.html',
      attackPage({
        fetches: [
          { url: `${app.base}/api/webhooks/endpoints`, json: { url: `${evilBase}/hook`, event_types: ['*'] } },
          { url: `${app.base}/api/ticket`, json: { title: 'Please reset my 2FA', message: 'I lost my phone' } },
        ],
        form: { url: `${app.base}/api/ssh-keys`, fields: { name: 'backdoor', public_key: key } },
      }),
    );
    assert.deepEqual(sent.sort(), ['/api/ssh-keys', '/api/ticket', '/api/webhooks/endpoints']);
    assert.equal(formStatus, 403);
    // what the person sees: the refusal, in place of the page
    await page.getByText('CROSS_ORIGIN_REQUEST').waitFor();
    assert.equal(await count(sql`select count(*)::int as n from webhook_endpoints where customer_id = ${c.id}`), 0);
    assert.equal(await count(sql`select count(*)::int as n from ssh_keys where customer_id = ${c.id}`), 0);
    assert.equal(await count(sql`select count(*)::int as n from tickets where customer_id = ${c.id}`), 0);

    // the console's own pages still write with the same cookies
    await page.goto('/tickets/new');
    await page.getByLabel('Title').fill('A real question');
    await page.getByLabel('Message').fill('Written in the console.');
    await page.getByRole('button', { name: 'Open the ticket' }).click();
    await page.getByRole('heading', { name: 'A real question' }).waitFor();
    assert.equal(await count(sql`select count(*)::int as n from tickets where customer_id = ${c.id}`), 1);
    await ctx.close();
  });
});
