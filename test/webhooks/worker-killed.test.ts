import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { startWorkerProcess } from '../helpers/worker-process.js';
import { customerSession } from '../helpers/customers.js';
import { verify, WebhookReceiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let receiver: WebhookReceiver;
let child: ChildProcess | undefined;
const clock = new ManualClock(new Date());

before(async () => {
  t = await buildTestApp({ db: 'postgres', clock, worker: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new WebhookReceiver().start();
});
after(async () => {
  child?.kill('SIGKILL');
  await receiver.close();
  await t.close();
});


describe('a worker killed in the middle of a delivery', () => {
  test('the delivery is made again by another worker: one success recorded, the duplicate recognisable by its webhook-id', async () => {
    const s = await customerSession(t);
    const created = await t.app.inject({ method: 'POST', url: '/api/webhooks/endpoints', headers: { cookie: s.cookie }, payload: { url: receiver.url('/hook'), event_types: ['invoice.paid'] } });
    assert.equal(created.statusCode, 201, created.body);
    const { id: endpointId, secret } = created.json().data;

    // the first request is held open: its worker dies before it hears the answer
    receiver.answer = () => (receiver.received.length === 1 ? new Promise(() => undefined) : { status: 200, body: 'ok' });
    child = await startWorkerProcess(t, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    await t.container.db.transaction((tx) => t.container.services.webhookEvents.emit(tx, { customerId: s.id, type: 'invoice.paid', data: { invoice_id: 'p-9' } }));
    const [first] = await receiver.waitFor(1, 30_000);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = undefined;

    const attempts = () =>
      queryRows<{ attempt: number; status: string; status_code: number | null }>(
        t.container.db,
        sql`select a.attempt, a.status, a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${endpointId} order by a.id`,
      );
    assert.deepEqual(await attempts(), [{ attempt: 1, status: 'sending', status_code: null }]);

    // this process takes over once the dead worker's lease has run out
    await t.container.startWorker();
    // the dead worker leased on its own system clock
    clock.set(new Date(Date.now() + 11 * 60_000));
    await t.container.queue.runNow('webhooks.sweep');
    const [, second] = await receiver.waitFor(2);
    await eventually(async () => (await attempts()).every((a) => a.status !== 'sending'));

    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id'], 'the receiver can drop the duplicate by its webhook-id');
    assert.equal(second!.body, first!.body);
    assert.equal(verify(secret, first!).ok, true);
    assert.equal(verify(secret, second!).ok, true);
    assert.deepEqual(await attempts(), [
      { attempt: 1, status: 'interrupted', status_code: null },
      { attempt: 2, status: 'succeeded', status_code: 200 },
    ]);
    const [delivery] = await queryRows<{ status: string }>(t.container.db, sql`select status from webhook_deliveries where endpoint_id = ${endpointId}`);
    assert.equal(delivery!.status, 'succeeded');
    assert.deepEqual(await t.container.services.webhookDeliveries.sweep(), { interrupted: 0, due: 0, fannedOut: 0, disabled: 0 }, 'nothing is left to send');
  });
});
