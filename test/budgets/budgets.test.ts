import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { BalanceLogType } from '../../src/modules/wallet/index.js';
import { closingMonth } from '../../src/modules/budgets/budgets.service.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { createCustomer, loginCustomer } from '../helpers/customers.js';
import { insertPrice } from '../charging/helpers.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const HOUR = 3_600_000;
// six hours before this month began: the hourly charges run from the last month into this one
const now0 = new Date();
const MONTH = Date.UTC(now0.getUTCFullYear(), now0.getUTCMonth(), 1);
const BASE = MONTH - 6 * HOUR;
const clock = new ManualClock(new Date(BASE));
let t: TestApp;
let t2: TestApp;
let receiver: WebhookReceiver;

before(async () => {
  t = await buildTestApp({ clock, db: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new WebhookReceiver().start();
  // a second process of the deployment on the same database (no workers: it only evaluates when told)
  t2 = await buildTestApp({ clock, sameDatabaseAs: t, worker: false });
  Object.assign(t.container.flows.customerSuspension, { suspendCustomer: async () => undefined, resumeCustomer: async () => undefined });
  await insertPrice(t, 'tier:931', '73000', new Date(BASE - HOUR).toISOString()); // 100.00 an hour
});
after(async () => {
  await t2?.close();
  await t?.close();
  await receiver?.close();
});

async function credit(customerId: number, amount: string, ref: string) {
  await t.container.db.transaction((tx) =>
    t.container.services.wallet.credit(tx, { customerId, type: BalanceLogType.AdjustAdd, amount, part: 'actual', referenceType: 'test', referenceId: ref, description: 'test' }),
  );
}

async function openVm(customerId: number, id: string, at = BASE) {
  await t.container.services.metering.open({ customerId, resourceType: 'vm', resourceId: id, description: 'VM', priceKey: 'tier:931', locationId: 1, at: new Date(at) });
}

/** The hourly charge as its job runs it at five past `hourMs` (the budgets are evaluated after it). */
async function chargeAt(hourMs: number) {
  clock.set(new Date(hourMs + 5 * 60_000));
  await t.container.services.charging.runHourly();
  await queueDrained(t);
}

async function kinds(customerId: number, ...only: string[]) {
  const rows = await queryRows<{ kind: string; reference_id: string; title: string }>(
    t.container.db,
    sql`select kind, reference_id, title from notifications where customer_id = ${customerId} and kind = any(${`{${only.join(',')}}`}::text[]) order by id`,
  );
  return rows;
}

async function mails(to: string, template: string) {
  return queryRows<{ subject: string }>(t.container.db, sql`select subject from mail_outbox where to_address = ${to} and template = ${template} order by id`);
}

async function events(customerId: number, type: string) {
  return (await queryRows<{ data: Record<string, unknown> }>(t.container.db, sql`select data from webhook_events where customer_id = ${customerId} and type = ${type} order by id`)).map((e) => e.data);
}

async function session(c: { email: string; password: string }) {
  return loginCustomer(t, c.email, c.password);
}

/** A customer with a webhook endpoint that takes every event (events are kept for such customers only). */
async function subscriber(overrides: Parameters<typeof createCustomer>[1] = {}) {
  const c = await createCustomer(t, overrides);
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: await session(c) }, payload: { url: receiver.url(`/c${c.id}`), event_types: ['*'] } });
  assert.equal(res.statusCode, 201, res.body);
  return c;
}

async function putBudget(cookie: string, payload: unknown) {
  return t.app.inject({ method: 'PUT', url: '/api/billing/budget', headers: { cookie }, payload: payload as object });
}

describe('budgets', () => {
  test('GET shows the defaults; PUT refuses bad input with 400 and saves good input', async () => {
    const c = await createCustomer(t);
    const cookie = await session(c);
    const get = await t.app.inject({ method: 'GET', url: '/api/billing/budget', headers: { cookie } });
    assert.equal(get.statusCode, 200, get.body);
    const d = get.json().data;
    assert.equal(d.configured, false);
    assert.equal(d.monthly_amount, null);
    assert.deepEqual(d.thresholds, [50, 80, 100]);
    assert.equal(d.runway_alert_days, 7);
    assert.equal(d.spent, 0);

    for (const bad of [
      { monthly_amount: 10.005 },
      { monthly_amount: -1 },
      { monthly_amount: 0 },
      { monthly_amount: '100' },
      { monthly_amount: 100, thresholds: [] },
      { monthly_amount: 100, thresholds: [0] },
      { monthly_amount: 100, thresholds: [50, 50] },
      { monthly_amount: 100, thresholds: [1001] },
      { monthly_amount: 100, thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      { monthly_amount: 100, runway_alert_days: 0 },
      { monthly_amount: 100, runway_alert_days: 366 },
      { monthly_amount: 100, extra: true },
      {},
    ]) {
      const res = await putBudget(cookie, bad);
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED', res.body);
    }

    const put = await putBudget(cookie, { monthly_amount: 1234.5, thresholds: [100, 25, 150], runway_alert_days: null });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().data.configured, true);
    assert.equal(put.json().data.monthly_amount, 1234.5);
    assert.deepEqual(put.json().data.thresholds, [25, 100, 150]);
    assert.equal(put.json().data.runway_alert_days, null);
    assert.match(put.body, /"monthly_amount":1234\.5\b/);

    const del = await t.app.inject({ method: 'DELETE', url: '/api/billing/budget', headers: { cookie } });
    assert.equal(del.statusCode, 200, del.body);
    const again = await t.app.inject({ method: 'DELETE', url: '/api/billing/budget', headers: { cookie } });
    assert.equal(again.statusCode, 404, again.body);
  });

  test('each threshold notifies once per month after the hourly charge, in the app, by mail and by webhook; the last hour of a month counts for that month; a new month starts over', async () => {
    clock.set(new Date(BASE));
    const c = await subscriber();
    const quiet = await createCustomer(t, { allowBillingReminder: false });
    const postpaid = await createCustomer(t, { billingType: 'POSTPAID' });
    // reaches 100 % of its budget with the month's last hour, charged after midnight
    const closing = await subscriber();
    // sets a budget only once the month has ended: it is not applied to the month before
    const late = await subscriber();
    for (const x of [c, quiet, closing, late]) await credit(x.id, '100000.00', `budget-${x.id}`);
    for (const x of [c, quiet, postpaid, closing, late]) await openVm(x.id, `vm-b-${x.id}`);
    for (const x of [c, quiet, postpaid]) {
      const put = await putBudget(await session(x), { monthly_amount: 250, runway_alert_days: null });
      assert.equal(put.statusCode, 200, put.body);
    }
    const closingPut = await putBudget(await session(closing), { monthly_amount: 600, thresholds: [50, 100], runway_alert_days: null });
    assert.equal(closingPut.statusCode, 200, closingPut.body);

    await chargeAt(BASE + HOUR); // 100 of 250: 40 %
    assert.deepEqual(await kinds(c.id, 'BUDGET_THRESHOLD'), []);
    await chargeAt(BASE + 2 * HOUR); // 200: 80 %, both 50 and 80 at once
    const last = new Date(BASE).toISOString().slice(0, 7);
    for (const x of [c, quiet, postpaid]) {
      assert.deepEqual((await kinds(x.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${last}:50`, `${last}:80`], `customer ${x.id}`);
    }
    // one mail naming the highest threshold reached; none to the customer who turned billing mails off
    assert.deepEqual((await mails(c.email, 'budget_threshold')).map((m) => m.subject), ['You have spent 80% of your monthly budget']);
    assert.deepEqual(await mails(quiet.email, 'budget_threshold'), []);
    const hooks = await events(c.id, 'budget.threshold_crossed');
    assert.deepEqual(hooks, [
      { month: last, threshold_percent: 50, budget: 250, spent: 200, currency: t.container.config.currency },
      { month: last, threshold_percent: 80, budget: 250, spent: 200, currency: t.container.config.currency },
    ]);

    // repeated runs (the hourly job again, the budgets job, the other process) change nothing
    await t.container.services.budgets.evaluateAll();
    await t2.container.services.budgets.evaluateAll();
    await chargeAt(BASE + 2 * HOUR);
    assert.equal((await kinds(c.id, 'BUDGET_THRESHOLD')).length, 2);

    await chargeAt(BASE + 3 * HOUR); // 300: 100 %
    assert.deepEqual((await kinds(c.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${last}:50`, `${last}:80`, `${last}:100`]);
    assert.deepEqual((await kinds(postpaid.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${last}:50`, `${last}:80`, `${last}:100`]);
    await chargeAt(BASE + 4 * HOUR); // 400 last month
    await chargeAt(BASE + 5 * HOUR);
    assert.equal((await kinds(c.id, 'BUDGET_THRESHOLD')).length, 3);
    assert.equal((await mails(c.email, 'budget_threshold')).length, 2);
    assert.deepEqual((await kinds(closing.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${last}:50`], '500 of 600 before the last hour');

    // five past midnight: the month's last hour is charged, and it takes the closing account to
    // 600 of 600 in the month that ended; repeated runs, the budgets job and the other process
    // change nothing
    await chargeAt(MONTH);
    await Promise.all([t.container.services.budgets.evaluateAll(), t2.container.services.budgets.evaluateAll(), t.container.services.budgets.evaluateAll(), t2.container.services.budgets.evaluateAll()]);
    await chargeAt(MONTH);
    clock.set(new Date(MONTH + 35 * 60_000));
    await t2.container.services.budgets.evaluateAll();
    const closed = await kinds(closing.id, 'BUDGET_THRESHOLD');
    assert.deepEqual(closed.map((n) => n.reference_id), [`${last}:50`, `${last}:100`]);
    assert.equal(closed[1]!.title, `You spent 100% of your monthly budget in ${last}`);
    assert.deepEqual((await events(closing.id, 'budget.threshold_crossed')).map((e) => [e.month, e.threshold_percent, e.spent]), [
      [last, 50, 300],
      [last, 100, 600],
    ]);
    assert.deepEqual((await mails(closing.email, 'budget_threshold')).map((m) => m.subject), ['You have spent 50% of your monthly budget', `You spent 100% of your monthly budget in ${last}`]);
    assert.equal((await kinds(c.id, 'BUDGET_THRESHOLD')).length, 3, 'what was already told is not told again');
    // a budget saved in the new month is this month's: the month before, 600 of it, is not measured against it
    clock.set(new Date(MONTH + 40 * 60_000));
    const latePut = await putBudget(await session(late), { monthly_amount: 100, thresholds: [100], runway_alert_days: null });
    assert.equal(latePut.statusCode, 200, latePut.body);
    await t.container.services.budgets.evaluateAll();
    assert.deepEqual(await kinds(late.id, 'BUDGET_THRESHOLD'), []);
    assert.equal(closingMonth(new Date(MONTH + 24 * HOUR)), null, 'the month before is evaluated during the first day only');

    // the new month: its first hour (charged at five past one) is 100 of 250, its second 200
    await chargeAt(MONTH + HOUR);
    const cookie = await session(c);
    const view = (await t.app.inject({ method: 'GET', url: '/api/billing/budget', headers: { cookie } })).json().data;
    assert.equal(view.month, new Date(MONTH).toISOString().slice(0, 7));
    assert.equal(view.spent, 100);
    assert.equal(view.used_percent, 40);
    assert.deepEqual(view.crossed, []);
    await chargeAt(MONTH + 2 * HOUR);
    const month = new Date(MONTH).toISOString().slice(0, 7);
    assert.deepEqual((await kinds(c.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id).slice(3), [`${month}:50`, `${month}:80`]);
    const view2 = (await t.app.inject({ method: 'GET', url: '/api/billing/budget', headers: { cookie: await session(c) } })).json().data;
    assert.deepEqual(view2.crossed.map((x: { threshold_percent: number }) => x.threshold_percent), [50, 80]);
    assert.equal(view2.used_percent, 80);
    assert.deepEqual((await kinds(late.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${month}:100`]);
    assert.deepEqual((await kinds(closing.id, 'BUDGET_THRESHOLD')).map((n) => n.reference_id), [`${last}:50`, `${last}:100`], '200 of 600 this month');
  });

  test('two processes evaluating at once notify each threshold exactly once', async () => {
    clock.set(new Date(MONTH + 3 * HOUR + 10 * 60_000));
    const accounts = [];
    for (let i = 0; i < 4; i++) {
      const c = await subscriber({ billingType: 'POSTPAID' });
      // charged 300 already this month (three hours), with no budget yet
      await t.container.db.execute(sql`
        insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
        select ${c.id}, ${new Date(MONTH).toISOString()}::timestamptz + h * interval '1 hour', true, 1, 100, 100, 0 from generate_series(0, 2) h`);
      const put = await putBudget(await session(c), { monthly_amount: 300, thresholds: [10, 50, 90, 100] });
      assert.equal(put.statusCode, 200, put.body);
      accounts.push(c);
    }
    await Promise.all([0, 1, 2].flatMap(() => [t.container.services.budgets.evaluateAll(), t2.container.services.budgets.evaluateAll()]));
    for (const c of accounts) {
      assert.equal((await kinds(c.id, 'BUDGET_THRESHOLD')).length, 4);
      assert.equal((await events(c.id, 'budget.threshold_crossed')).length, 4);
      assert.deepEqual((await mails(c.email, 'budget_threshold')).map((m) => m.subject), ['You have spent 100% of your monthly budget']);
    }
  });

  test('the runway alert notifies once per incident, and again after the runway recovered', async () => {
    const start = MONTH + 10 * HOUR;
    clock.set(new Date(start));
    const c = await subscriber();
    await credit(c.id, '2600.00', `runway-${c.id}`); // 26 hours at 100 an hour
    await openVm(c.id, `vm-r-${c.id}`, start);
    const put = await putBudget(await session(c), { monthly_amount: null, runway_alert_days: 1 });
    assert.equal(put.statusCode, 200, put.body);

    await chargeAt(start + HOUR); // 2500: 25 h
    await chargeAt(start + 2 * HOUR); // 2400: 24 h, not below one day
    assert.deepEqual(await kinds(c.id, 'RUNWAY_ALERT'), []);
    await chargeAt(start + 3 * HOUR); // 2300: 23 h
    const first = await kinds(c.id, 'RUNWAY_ALERT');
    assert.equal(first.length, 1);
    assert.equal(first[0]!.title, 'Your balance lasts about 23 hours at the current rate');
    assert.deepEqual(await events(c.id, 'budget.runway_low'), [{ runway_hours: 23, alert_days: 1, current_balance: 2300, currency: t.container.config.currency }]);
    assert.equal((await mails(c.email, 'budget_runway')).length, 1);
    await t2.container.services.budgets.evaluateAll();
    await chargeAt(start + 3 * HOUR);
    assert.equal((await kinds(c.id, 'RUNWAY_ALERT')).length, 1);
    const open = (await t.app.inject({ method: 'GET', url: '/api/billing/budget', headers: { cookie: await session(c) } })).json().data;
    assert.equal(open.runway_alert_open, true);
    assert.equal(open.runway_hours, 23);

    await credit(c.id, '200.00', `runway-top-${c.id}`); // 2500: 25 h, recovered at the next evaluation
    await t.container.services.budgets.evaluateAll();
    const recovered = (await t.app.inject({ method: 'GET', url: '/api/billing/budget', headers: { cookie: await session(c) } })).json().data;
    assert.equal(recovered.runway_alert_open, false);
    await chargeAt(start + 4 * HOUR); // 2400: 24 h
    assert.equal((await kinds(c.id, 'RUNWAY_ALERT')).length, 1);
    await chargeAt(start + 5 * HOUR); // 2300 again: a new incident
    assert.equal((await kinds(c.id, 'RUNWAY_ALERT')).length, 2);
    assert.equal((await mails(c.email, 'budget_runway')).length, 2);
  });
});
