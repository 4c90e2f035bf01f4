import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import { createAdmin, loginAdmin } from './admins.js';
import { queueDrained } from './app.js';
import type { ConsoleApp } from './browser.js';
import { createVm, fund, seededTier, vmJobsDone } from './compute.js';
import { customerSession } from './customers.js';
import { postData } from './http.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Fixture {
  customerCookie: string;
  staffCookie: string;
  ids: Record<string, string | number>;
}

/** A customer with one of each resource (so every detail screen has something to show) and a Super Admin. */
export async function fixture(app: ConsoleApp): Promise<Fixture> {
  const customer = await customerSession(app);
  await fund(app, customer.id);
  // a deposit paid through the sandbox gateway (a real signed callback), so the dashboard has a trend
  const deposit = await postData(app, customer.cookie, '/api/billing/deposit', { amount: 250000, gateway_name: 'pgone', method_code: (await app.container.services.topups.paymentMethods()).find((m) => m.gatewayName === 'pgone')!.methodCode });
  await app.container.services.sandboxPayments.complete('pgone', deposit.invoice_id, 'success');
  const tier = await seededTier(app);
  await app.container.services.tiers.toggleLoadbalance(SYSTEM_ACTOR, tier);
  const ids: Record<string, string | number> = { customer: customer.id };
  ids.vm = (await createVm(app, customer.cookie, { name: 'web-1', location_id: 1, tier_id: tier })).json().data.id;
  await vmJobsDone(app);
  ids.network = (await postData(app, customer.cookie, '/api/network/private', { name: 'backend', location_id: 1, cidr: 24 })).uuid;
  await queueDrained(app);
  await postData(app, customer.cookie, `/api/network/private/${ids.network}/assign`, { instance_id: ids.vm, instance_type: 'VM' });
  ids.group = (await postData(app, customer.cookie, '/api/network/security-group', { name: 'web', location_id: 1 })).uuid;
  ids.balancer = (
    await postData(app, customer.cookie, '/api/network/load-balancer', { name: 'front', location_id: 1, algorithm: 'round_robin', forwarding_rules: [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }] })
  ).uuid;
  ids.ticket = (await postData(app, customer.cookie, '/api/ticket', { title: 'Slow disk', message: 'It is slow.' })).id;
  const staff = await createAdmin(app);
  return { customerCookie: customer.cookie, staffCookie: await loginAdmin(app, staff.email, staff.password), ids };
}

/**
 * Opens a route and waits until its page is drawn: the h1 is there and nothing is still loading.
 * Inside a console already open it navigates as a click on a link does (history and the router),
 * which is what people do and spares reloading the scripts for each route.
 */
export async function open(page: Page, route: string): Promise<void> {
  const inShell = (await page.locator('main[data-path]').count()) > 0;
  const sameConsole = (await page.evaluate(() => location.pathname.startsWith('/backoffice'))) === route.startsWith('/backoffice');
  if (inShell && sameConsole) {
    await page.evaluate((to) => {
      history.pushState({}, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, route);
    await page.locator(`main[data-path="${route}"]`).waitFor();
  } else {
    await page.goto(route);
  }
  await page.locator('h1').first().waitFor();
  // the page's queries have answered (no loading indicator left); the ticket stream stays open, so no "network idle"
  await page.locator('[role=status][aria-live=polite]', { hasText: 'Loading' }).first().waitFor({ state: 'detached' });
}

export interface Violation {
  route: string;
  width: number;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The widths every accessibility check runs at: a desktop and a phone. */
export const VIEWPORTS = [1440, 375] as const;

/** axe-core's serious and critical findings (WCAG 2.1 A and AA, and best practice) on a route. */
export async function scan(page: Page, route: string, width: number): Promise<Violation[]> {
  await open(page, route);
  return findings(page, route, width);
}

/** The same findings for the page as it is now (a dialog open, say), under the name `route`. */
export async function findings(page: Page, route: string, width: number): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ route, width, id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

/** One line per rule and element, with the routes where it was found (what the assertion shows). */
export function report(found: Violation[]): string[] {
  const lines = new Map<string, string[]>();
  for (const v of found) {
    const key = `${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`;
    lines.set(key, [...(lines.get(key) ?? []), `${v.route}@${v.width}`]);
  }
  return [...lines].map(([k, routes]) => `${k} on ${routes.slice(0, 4).join(' ')}${routes.length > 4 ? ` and ${routes.length - 4} more` : ''}`);
}
