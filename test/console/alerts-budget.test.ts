import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { startConsoleApp, useSession, type ConsoleApp } from '../helpers/browser.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { customerSession } from '../helpers/customers.js';

const MINUTE = 60_000;
let app: ConsoleApp;
before(async () => {
  app = await startConsoleApp();
});
after(() => app?.close());

describe('budgets and alerts in the console', () => {
  test('a customer sets a budget with its thresholds, is refused a bad one, and sees the month and the thresholds reached', async () => {
    const c = await customerSession(app);
    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto('/billing?tab=budget');
    const card = page.getByRole('region', { name: 'Budget', exact: true });
    await card.waitFor();
    assert.equal(await card.getByLabel('Notify at (percent of the budget)').inputValue(), '50, 80, 100');

    await card.getByLabel(/^Monthly budget/).fill('500');
    await card.getByLabel('Notify at (percent of the budget)').fill('50, 50');
    await card.getByRole('button', { name: 'Save budget' }).click();
    await card.getByText(/must not repeat a percentage/).waitFor();
    assert.equal((await queryRows(app.container.db, sql`select 1 from budgets where customer_id = ${c.id}`)).length, 0);

    await card.getByLabel('Notify at (percent of the budget)').fill('50, 90');
    await card.getByLabel('Days of balance left to warn at').fill('3');
    await card.getByRole('button', { name: 'Save budget' }).click();
    await card.getByRole('status').filter({ hasText: 'Budget saved.' }).waitFor();
    const [row] = await queryRows<{ monthly_amount: string; thresholds: number[]; runway_alert_days: number }>(
      app.container.db,
      sql`select monthly_amount::text, thresholds, runway_alert_days from budgets where customer_id = ${c.id}`,
    );
    assert.deepEqual(row, { monthly_amount: '500.00', thresholds: [50, 90], runway_alert_days: 3 });

    // 300 charged this month (postpaid accrual rows, as the hourly charge writes them): 60 %, past 50
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    await app.container.db.execute(sql`
      insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
      select ${c.id}, ${month.toISOString()}::timestamptz + h * interval '1 hour', true, 1, 100, 100, 0 from generate_series(0, 2) h`);
    await app.container.services.budgets.evaluateAll();
    await page.reload();
    await card.getByTestId('budget-spent').filter({ hasText: '300' }).waitFor();
    await card.getByText('(60%)').waitFor();
    const reached = card.getByRole('table', { name: 'Thresholds reached this month' });
    await reached.getByRole('row').filter({ hasText: '50%' }).waitFor();
    assert.equal(await reached.getByRole('row').count(), 2);
    await ctx.close();
  });

  test('a customer creates a CPU policy, sees it fire on the VM page and in the history, and deletes it', async () => {
    const c = await customerSession(app);
    await fund(app, c.id);
    const res = await createVm(app, c.cookie, { name: 'busy-1', location_id: 1, tier_id: await seededTier(app), os: 'ubuntu-24.04' });
    assert.equal(res.statusCode, 201, res.body);
    const vmId = res.json().data.id as number;
    await vmJobsDone(app);

    const ctx = await app.context();
    await useSession(ctx, app.base, c.cookie);
    const page = await ctx.newPage();
    await page.goto('/alerts');
    const form = page.getByRole('region', { name: 'New alert policy' });
    await form.waitFor();
    await form.getByLabel('Name').fill('CPU busy');
    await form.getByLabel('Virtual machine').selectOption({ label: 'busy-1' });
    await form.getByLabel('Metric').selectOption('cpu_percent');
    await form.getByLabel('Comparison').selectOption('>');
    await form.getByLabel('Threshold').fill('180');
    await form.getByLabel('Over the window').selectOption('min');
    await form.getByRole('button', { name: 'Create policy' }).click();
    // the API's own words for a bad threshold
    await form.getByText(/cpu_percent is a percentage/).waitFor();
    await form.getByLabel('Threshold').fill('80');
    await form.getByRole('button', { name: 'Create policy' }).click();
    await form.getByRole('status').filter({ hasText: 'Policy CPU busy created.' }).waitFor();
    const policies = page.getByRole('table', { name: 'Alert policies' });
    await policies.getByRole('row').filter({ hasText: 'CPU busy' }).filter({ hasText: 'busy-1' }).waitFor();

    // five busy minutes collected: the evaluation fires it
    const until = Math.floor(Date.now() / MINUTE) * MINUTE;
    const day = new Date(Date.UTC(new Date(until).getUTCFullYear(), new Date(until).getUTCMonth(), new Date(until).getUTCDate()));
    for (const d of [new Date(day.getTime() - 86_400_000), day]) {
      await app.container.db.execute(
        sql`select ensure_metrics_partition('vm_metrics_minute'::regclass, ${d.toISOString()}::timestamptz, ${new Date(d.getTime() + 86_400_000).toISOString()}::timestamptz, ${d.toISOString().slice(0, 10).replaceAll('-', '')})`,
      );
    }
    await app.container.db.execute(sql`
      insert into vm_metrics_minute (vm_id, customer_id, minute, samples, cpu_percent, cpu_percent_max, memory_samples, disk_read_bytes, disk_write_bytes, disk_read_ops, disk_write_ops, net_in_bytes, net_out_bytes, net_in_packets, net_out_packets)
      select ${vmId}, ${c.id}, ${new Date(until).toISOString()}::timestamptz - m * interval '1 minute', 1, 95, 97, 0, 0, 0, 0, 0, 0, 0, 0, 0 from generate_series(1, 5) m
      on conflict do nothing`);
    await app.container.db.execute(sql`
      insert into vm_metrics_progress (name, done_until) values ('minute', ${new Date(until).toISOString()}::timestamptz)
      on conflict (name) do update set done_until = excluded.done_until`);
    const r = await app.container.services.alertEvaluation.evaluateAll();
    assert.equal(r.fired, 1);

    await page.goto(`/vms/${vmId}`);
    const vmAlerts = page.getByRole('region', { name: 'Alerts', exact: true });
    await vmAlerts.getByRole('row').filter({ hasText: 'CPU busy' }).filter({ hasText: '95' }).waitFor();

    await page.goto('/alerts');
    const history = page.getByRole('table', { name: 'Alerts' });
    await history.getByRole('row').filter({ hasText: 'CPU busy' }).filter({ hasText: 'Firing' }).waitFor();
    const policyRow = page.getByRole('table', { name: 'Alert policies' }).getByRole('row').filter({ hasText: 'CPU busy' });
    await policyRow.getByRole('button', { name: 'Delete CPU busy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete cpu busy' }).click();
    await policyRow.waitFor({ state: 'detached' });
    await history.getByRole('row').filter({ hasText: 'CPU busy' }).filter({ hasText: 'policy deleted' }).waitFor();
    assert.equal((await queryRows(app.container.db, sql`select 1 from alert_policies where customer_id = ${c.id}`)).length, 0);
    await ctx.close();
  });
});
