import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Clock } from '../../src/platform/clock.js';
import { buildTestApp, type TestApp } from './app.js';
import { TestSmtpServer } from './smtp.js';

/** Debian's Chromium, headless, a fresh profile, no calls to the outside world (this machine has no network). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export function launchBrowser(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `the browser tests need Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

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

export interface ConsoleApp extends TestApp {
  /** http://127.0.0.1:<port>: the API and the console, one origin */
  base: string;
  smtp: TestSmtpServer;
  browser: Browser;
  /** a new browser context (its own cookies) on the console */
  context(opts?: { width?: number }): Promise<BrowserContext>;
}

/**
 * The whole service on PostgreSQL, listening on a free port with the console on (built by
 * scripts/run-tests.mjs before the run), a real SMTP server for its mails, and Chromium.
 */
export async function startConsoleApp(opts: { clock?: Clock; env?: Record<string, string> } = {}): Promise<ConsoleApp> {
  assert.ok(existsSync('dist/console/index.html'), 'the console is not built: run npm run console:build (scripts/run-tests.mjs does it before browser tests)');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const smtp = new TestSmtpServer();
  const t = await buildTestApp({
    db: 'postgres',
    ...(opts.clock ? { clock: opts.clock } : {}),
    env: { CONSOLE: 'on', CONSOLE_DIR: path.resolve('dist/console'), PUBLIC_URL: base, SMTP_URL: await smtp.start(), DATACENTER_DELAY_MS: '0', ...opts.env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchBrowser();
  return {
    ...t,
    base,
    smtp,
    browser,
    async context(o = {}) {
      const ctx = await browser.newContext({ baseURL: base, viewport: { width: o.width ?? 1440, height: 900 } });
      ctx.setDefaultTimeout(15_000);
      return ctx;
    },
    async close() {
      await browser.close();
      await t.close();
      await smtp.stop();
    },
  };
}

/** The link to this service in the last mail to `to` whose subject matches. */
export async function mailedLink(app: ConsoleApp, to: string, subject: RegExp): Promise<string> {
  const mail = await app.smtp.waitFor(to, (m) => subject.test(m.subject));
  const m = new RegExp(`(${app.base.replace(/[.]/g, '\\.')}/\\S+)`).exec(mail.text);
  assert.ok(m, `no link in the mail: ${mail.text}`);
  return m[1]!;
}

/** Saves a small PNG of the page for docs/screenshots (only when SCREENSHOTS=1). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync('docs/screenshots', { recursive: true });
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: false });
}

/** Puts a session made through the API (a Cookie header) into a browser context. */
export async function useSession(ctx: BrowserContext, base: string, cookieHeader: string): Promise<void> {
  const cookies = cookieHeader.split(/;\s*/).map((pair) => {
    const i = pair.indexOf('=');
    return { name: pair.slice(0, i), value: pair.slice(i + 1), url: base };
  });
  await ctx.addCookies(cookies);
}

/** Logs a staff member in through the staff console's login page (a first login skips the 2FA offer). */
export async function staffLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/backoffice/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const skip = page.getByRole('button', { name: 'Skip for now' });
  await nav.or(skip).first().waitFor();
  if (await skip.isVisible()) await skip.click();
  await nav.waitFor();
}

/**
 * Opens each of `paths` logged out and waits for the login page (its URL matching `login`); what
 * the browser logged meanwhile: answers of 400 and above, and console errors.
 */
export async function visitLoggedOut(app: ConsoleApp, paths: string[], login: RegExp): Promise<{ failed: string[]; errors: string[] }> {
  const ctx = await app.context();
  const page = await ctx.newPage();
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  try {
    for (const path of paths) {
      await page.goto(path);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      if (!login.test(page.url())) failed.push(`${path} did not land on the login page (${page.url()})`);
    }
  } finally {
    await ctx.close();
  }
  return { failed, errors };
}
