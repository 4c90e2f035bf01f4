/**
 * A CPU alert on a real QEMU guest (DATACENTER=libvirt, the busybox test image), end to end with
 * nothing run by hand: the metrics collection and the alert evaluation run by their own
 * schedules (every minute). A policy "cpu_percent above THRESHOLD on average over 2 minutes";
 * a busy loop started on the guest (its tier limited to CPU_LIMIT % of a core) fires it once (in
 * the app, by mail over real SMTP and by webhook), and once the loop is stopped it resolves once.
 * Runs where libvirt answers on qemu:///system as root; elsewhere it is skipped with the reason,
 * except under CI=true.
 *
 * The loop is started and stopped over the guest's HTTP (the test image's /cgi-bin/load), not on
 * its serial console, and the suite holds the libvirt test lock only while it creates and removes
 * its VM: so it runs its minutes beside the suites that stop libvirtd for a moment. A console
 * would end with libvirtd; a collection that misses a minute leaves a window short of samples,
 * which judges nothing and only delays the alert (or its resolution) by that minute.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { LibvirtDatacenter } from '../../src/integrations/datacenter/index.js';
import { guestLoad, libvirtAvailable, removeEverything, testSetup, withLibvirtLock, type TestSetup } from '../../src/integrations/datacenter/libvirt/test-support.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { fund, getVm, seededTier } from '../helpers/compute.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

const BOOT_MS = 240_000;
/**
 * The VM's tier gets this CPU limit (percent of its vCPU, a cgroup quota on the host): the busy loop
 * takes at most that much of a host core for its minutes instead of all a loaded host gives it.
 */
const CPU_LIMIT = 25;
/** The busy loop shows as up to CPU_LIMIT % when the host gives the guest that much; an idle guest uses a few percent. */
const THRESHOLD = 10;
/** From load to alert: a baseline sample, two busy minutes, the evaluation's minute, on a loaded host. */
const ALERT_MS = 420_000;

function writeConfig(setup: TestSetup): string {
  setup.input.images = { 'debian-12': setup.input.images.test ?? setup.input.images['debian-12']! };
  const file = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(file, JSON.stringify(setup.input));
  return file;
}

describe('a CPU alert on a real guest', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;

  before(async () => {
    setup = testSetup();
    smtp = new TestSmtpServer();
    receiver = await new WebhookReceiver().start();
    t = await buildTestApp({
      db: 'postgres',
      schedules: true,
      env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: writeConfig(setup), SMTP_URL: await smtp.start(), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    assert.ok(t.container.datacenter instanceof LibvirtDatacenter);
  });

  after(async () => {
    await t?.close();
    if (setup) await withLibvirtLock('shared', async () => removeEverything(setup));
    await receiver?.close();
    await smtp?.stop();
  });

  test('a busy loop fires the alert once and, stopped, resolves it once: app, mail and webhook', async () => {
    const app = t!;
    const c = await customerSession(app);
    await fund(app, c.id);
    let cookie = c.cookie;
    const hook = await app.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie }, payload: { url: receiver.url('/alerts'), event_types: ['alert.fired', 'alert.resolved'] } });
    assert.equal(hook.statusCode, 201, hook.body);
    const tierId = await seededTier(app);
    const limited = await app.app.inject({ method: 'PATCH', url: `/api/backoffice/tier/${tierId}/update-cpu`, headers: { cookie: (await adminSession(app)).cookie }, payload: { cpu_limit: CPU_LIMIT } });
    assert.equal(limited.statusCode, 200, limited.body);
    const { vmId, vm } = await withLibvirtLock('shared', async () => {
      const made = await app.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie }, payload: { name: 'busy-guest', location_id: 1, tier_id: tierId, os: 'debian-12' } });
      assert.equal(made.statusCode, 201, made.body);
      const vmId = made.json().data.id as number;
      const vm = await eventually(
        async () => {
          const v = await getVm(app, cookie, vmId);
          return v.pending_action === null ? v : undefined;
        },
        BOOT_MS,
        500,
      );
      return { vmId, vm };
    });
    assert.equal(vm.status, 'Running', JSON.stringify(vm));
    assert.equal(await eventually(async () => (await guestLoad(vm.public_ip, 'status')) ?? undefined, BOOT_MS, 1000), 'load off');
    const policy = await app.app.inject({
      method: 'POST',
      url: '/api/compute/alerts/policies',
      headers: { cookie },
      payload: { name: 'Guest busy', vm_id: vmId, metric: 'cpu_percent', comparison: '>', threshold: THRESHOLD, aggregation: 'avg', window_minutes: 2 },
    });
    assert.equal(policy.statusCode, 201, policy.body);

    const kinds = async () =>
      (await queryRows<{ kind: string }>(app.container.db, sql`select kind from notifications where customer_id = ${c.id} and kind like 'ALERT_%' order by id`)).map((n) => n.kind);
    const cpu = async () =>
      (await queryRows<{ minute: Date; cpu_percent: number }>(app.container.db, sql`select minute, cpu_percent from vm_metrics_minute where vm_id = ${vmId} order by minute`)).map(
        (p) => `${new Date(p.minute).toISOString().slice(11, 16)} ${Number(p.cpu_percent).toFixed(1)}`,
      );

    // the collection's schedule stores idle minutes first: nothing fires on them
    await eventually(async () => (await cpu()).length >= 2, 300_000, 2000);
    assert.deepEqual(await kinds(), [], `idle minutes fired: ${(await cpu()).join(', ')}`);

    assert.equal(await guestLoad(vm.public_ip, 'start'), 'load on');
    await eventually(async () => (await kinds()).includes('ALERT_FIRED'), ALERT_MS, 2000).catch(async (err) => {
      throw new Error(`${(err as Error).message}; cpu per minute: ${(await cpu()).join(', ')}`);
    });
    const fired = await smtp.waitFor(c.email, (m) => /Alert: Guest busy on busy-guest/.test(m.subject), 60_000);
    assert.match(fired.text, /cpu_percent \(average over the last 2 minutes\) > 10%/);
    const firedHooks = await receiver.waitFor(1, 60_000);
    assert.equal(JSON.parse(firedHooks[0]!.body).type, 'alert.fired');

    assert.equal(await guestLoad(vm.public_ip, 'stop'), 'load off');
    const [peak] = await queryRows<{ max: number }>(app.container.db, sql`select max(cpu_percent)::float8 as max from vm_metrics_minute where vm_id = ${vmId}`);
    assert.ok(Number(peak!.max) <= CPU_LIMIT + 5, `the tier's CPU limit holds on the host; cpu per minute: ${(await cpu()).join(', ')}`);
    await eventually(async () => (await kinds()).includes('ALERT_RESOLVED'), ALERT_MS, 2000).catch(async (err) => {
      throw new Error(`${(err as Error).message}; cpu per minute: ${(await cpu()).join(', ')}`);
    });
    const resolved = await smtp.waitFor(c.email, (m) => /Resolved: Guest busy on busy-guest/.test(m.subject), 60_000);
    assert.match(resolved.text, /No longer cpu_percent/);
    const hooks = await receiver.waitFor(2, 60_000);
    assert.equal(JSON.parse(hooks[1]!.body).type, 'alert.resolved');
    assert.equal(JSON.parse(hooks[1]!.body).data.resolution, 'recovered');

    // two more evaluated minutes after the resolution: still one incident, told once each way
    const [p] = await queryRows<{ evaluated_until: Date }>(app.container.db, sql`select evaluated_until from alert_policies where customer_id = ${c.id}`);
    await eventually(async () => {
      const [q] = await queryRows<{ evaluated_until: Date }>(app.container.db, sql`select evaluated_until from alert_policies where customer_id = ${c.id}`);
      return new Date(q!.evaluated_until).getTime() >= new Date(p!.evaluated_until).getTime() + 2 * 60_000;
    }, 240_000, 2000);
    assert.deepEqual(await kinds(), ['ALERT_FIRED', 'ALERT_RESOLVED'], `cpu per minute: ${(await cpu()).join(', ')}`);
    assert.equal(smtp.mails.filter((m) => m.to.includes(c.email.toLowerCase()) && /Guest busy/.test(m.subject)).length, 2);
    assert.equal(receiver.received.length, 2);
    cookie = await loginCustomer(app, c.email, c.password);
    const history = await app.app.inject({ method: 'GET', url: `/api/compute/alerts?vm_id=${vmId}`, headers: { cookie } });
    assert.equal(history.json().data.length, 1);
    assert.equal(history.json().data[0].status, 'resolved');
    assert.equal((await app.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vmId}`, headers: { cookie } })).statusCode, 200);
  });
});
