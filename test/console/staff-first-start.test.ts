import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { eventually } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';
import { nodeEntry } from '../helpers/node-entry.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let server: ChildProcess;
let out = '';
let base: string;
let browser: Browser;

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The server as `npm start` runs it, on a data folder of its own: nothing configured but where to listen.
  server = spawn(process.execPath, nodeEntry(path.resolve('src/server.ts')), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-first-start-')),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      CONSOLE_DIR: path.resolve('dist/console'),
      DATACENTER_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (out += d));
  server.stderr!.on('data', (d) => (out += d));
  await eventually(async () => {
    if (server.exitCode !== null) throw new Error(`the server exited: ${out}`);
    return out.includes('ready: API on');
  }, 180_000, 250);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});

describe('the first start, as the owner meets it', () => {
  test('the printed Super Admin password logs in; the password form comes first, 2FA is offered, then the dashboard', async () => {
    const printed = /Backoffice Super Admin created: (\S+)\s+Password[^:]*: (\S+)/.exec(out);
    assert.ok(printed, `the first start prints the Super Admin's login: ${out}`);
    const [, email, password] = printed;

    const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    await page.goto('/backoffice');
    await page.getByRole('heading', { name: 'Staff log in' }).waitFor();
    await page.getByLabel('E-mail').fill(email!);
    await page.getByLabel('Password').fill(password!);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Current password', { exact: true }).fill(password!);
    await page.getByLabel('New password', { exact: true }).fill('Owner-Chosen-Pass-1!');
    await page.getByRole('button', { name: 'Change password' }).click();

    // the first login offers two-factor authentication; it may be skipped
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // the next visit goes straight to the dashboard, and the new password is the one that works
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const oldLogin = await fetch(`${base}/api/backoffice/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    assert.equal(oldLogin.status, 401);
    await ctx.close();
  });
});
