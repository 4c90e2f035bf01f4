import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startConsoleApp, type ConsoleApp } from '../helpers/browser.js';

let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('/docs, the interactive API reference', () => {
  test('renders every operation of the OpenAPI document, and "Try it out" goes to the origin the page was opened on', async () => {
    const doc = (await app.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { servers?: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head']);
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).filter((m) => methods.has(m)).length, 0);
    assert.ok(operations > 100, `only ${operations} operations in the document`);
    // a relative server: whatever address the page was opened on is the one requests go to
    assert.deepEqual(doc.servers, [{ url: '/' }]);

    const ctx = await app.context();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto('/docs/');
    // every tag group is open by default; a few hundred operations take the page some seconds on a busy machine
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, operations, { timeout: 30_000, polling: 500 }).catch(() => undefined);
    const rendered = await page.locator('.opblock').count();
    assert.deepEqual(errors, []);
    assert.equal(rendered, operations);
    // the servers box offers the page's own origin
    const server = await page.locator('.servers select option').first().textContent();
    assert.equal(server?.trim(), '/');
    await ctx.close();
  });
});
