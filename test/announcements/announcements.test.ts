import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
let admin: { cookie: string; id: number };
let customer: { cookie: string; id: number };
const clock = new ManualClock();

before(async () => {
  t = await buildTestApp({ clock });
  admin = await adminSession(t);
  customer = await customerSession(t);
});
after(() => t.close());

/** Access tokens last 15 minutes of the (moved) clock. */
async function relogin() {
  admin = await adminSession(t);
  customer = await customerSession(t);
}

async function call(method: string, url: string, cookie: string, payload?: unknown) {
  const res = await t.app.inject({ method: method as any, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as any } : {}) });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}
const bo = (method: string, url: string, payload?: unknown) => call(method, `/api/backoffice${url}`, admin.cookie, payload);
const me = (url: string) => call('GET', url, customer.cookie);

describe('announcements', () => {
  test('draft → Published → Withdrawn → Published; customers see only what is published', async () => {
    const created = await bo('POST', '/announcements', { title: 'Maintenance window', message: 'Saturday 02:00 UTC' });
    assert.equal(created.status, 201, created.raw);
    const a = created.body.data;
    assert.equal(a.status, 'Draft');
    assert.equal(a.published_at, null);

    assert.equal((await me('/api/announcements/highlight')).body.data?.id === a.id, false);
    assert.ok(!(await me('/api/announcements')).body.data.some((x: any) => x.id === a.id));
    assert.ok((await bo('GET', '/announcements')).body.data.some((x: any) => x.id === a.id));

    const published = await bo('POST', `/announcements/${a.id}/publish`);
    assert.equal(published.status, 200, published.raw);
    assert.equal(published.body.data.status, 'Published');
    assert.ok(published.body.data.published_at);
    const highlight = (await me('/api/announcements/highlight')).body.data;
    assert.deepEqual(highlight, { id: a.id, title: 'Maintenance window', message: 'Saturday 02:00 UTC', published_at: published.body.data.published_at });
    assert.equal((await bo('POST', `/announcements/${a.id}/publish`)).body.code, 'ALREADY_PUBLISHED');

    const withdrawn = await bo('POST', `/announcements/${a.id}/unpublish`);
    assert.equal(withdrawn.body.data.status, 'Withdrawn');
    assert.ok(!(await me('/api/announcements')).body.data.some((x: any) => x.id === a.id));
    assert.notEqual((await me('/api/announcements/highlight')).body.data?.id, a.id);
    const again = await bo('POST', `/announcements/${a.id}/unpublish`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NOT_PUBLISHED');

    // an empty JSON body is the same as none
    const republished = await t.app.inject({ method: 'POST', url: `/api/backoffice/announcements/${a.id}/publish`, headers: { cookie: admin.cookie }, payload: {} });
    assert.equal(republished.json().data.status, 'Published');

    const edited = await bo('PUT', `/announcements/${a.id}`, { title: 'Maintenance window (moved)', message: 'Sunday 02:00 UTC' });
    assert.equal(edited.body.data.status, 'Published');
    assert.equal((await me('/api/announcements/highlight')).body.data.title, 'Maintenance window (moved)');
    assert.equal((await bo('PUT', `/announcements/${a.id}`, { title: 'x' })).status, 400);

    const deleted = await bo('DELETE', `/announcements/${a.id}`);
    assert.deepEqual(deleted.body.data, { id: a.id });
    assert.equal((await bo('GET', `/announcements/${a.id}`)).status, 404);
    assert.equal((await bo('POST', `/announcements/${a.id}/publish`)).status, 404);

    const actions = await queryRows<{ action: string }>(t.container.db, sql`select action from audit_logs where target_type = 'announcement' and target_id = ${String(a.id)} order by id`);
    assert.deepEqual(
      actions.map((r) => r.action),
      ['announcement.created', 'announcement.published', 'announcement.unpublished', 'announcement.published', 'announcement.updated', 'announcement.deleted'],
    );
  });

  test('publishing an announcement notifies every active customer once', async () => {
    const other = await customerSession(t);
    const a = (await bo('POST', '/announcements', { title: 'New region', message: 'Singapore is open' })).body.data;
    await bo('POST', `/announcements/${a.id}/publish`);
    await queueDrained(t);
    await bo('POST', `/announcements/${a.id}/unpublish`);
    await bo('POST', `/announcements/${a.id}/publish`);
    await queueDrained(t);
    for (const c of [customer, other]) {
      const list = await call('GET', '/api/notifications', c.cookie);
      const mine = list.body.data.filter((n: any) => n.kind === 'ANNOUNCEMENT' && n.reference_id === String(a.id));
      assert.equal(mine.length, 1);
      assert.equal(mine[0].title, 'New region');
    }
  });

  test('scheduled publication: nothing visible before publish_at, published by the job after it', async () => {
    const a = (await bo('POST', '/announcements', { title: 'Price update', message: 'from next month' })).body.data;
    const at = new Date(clock.now().getTime() + 3600_000).toISOString();
    const scheduled = await bo('POST', `/announcements/${a.id}/publish`, { publish_at: at });
    assert.equal(scheduled.status, 200, scheduled.raw);
    assert.equal(scheduled.body.data.status, 'Draft');
    assert.equal(scheduled.body.data.publish_at, at);
    await t.container.queue.runNow('announcements.publish-due');
    assert.ok(!(await me('/api/announcements')).body.data.some((x: any) => x.id === a.id));

    clock.advance(2 * 3600_000);
    await relogin();
    await t.container.queue.runNow('announcements.publish-due');
    const now = await bo('GET', `/announcements/${a.id}`);
    assert.equal(now.body.data.status, 'Published');
    assert.equal(now.body.data.publish_at, null);
    assert.ok((await me('/api/announcements')).body.data.some((x: any) => x.id === a.id));

    // unpublish cancels a schedule that has not happened yet
    const b = (await bo('POST', '/announcements', { title: 'Later', message: 'x' })).body.data;
    await bo('POST', `/announcements/${b.id}/publish`, { publish_at: new Date(clock.now().getTime() + 3600_000).toISOString() });
    const cancelled = await bo('POST', `/announcements/${b.id}/unpublish`);
    assert.equal(cancelled.body.data.status, 'Draft');
    assert.equal(cancelled.body.data.publish_at, null);
    clock.advance(2 * 3600_000);
    await relogin();
    await t.container.queue.runNow('announcements.publish-due');
    assert.equal((await bo('GET', `/announcements/${b.id}`)).body.data.status, 'Draft');

    assert.equal((await bo('POST', `/announcements/${b.id}/publish`, { publish_at: 'tomorrow' })).status, 400);
    assert.equal((await bo('POST', `/announcements/${b.id}/publish`, { when: 'now' })).status, 400);
  });
});

describe('release notes', () => {
  test('same pattern at their own paths; customers list the published ones; no notification', async () => {
    const draft = (await bo('POST', '/release-notes', { title: 'v1.1', message: 'Draft notes' })).body.data;
    const note = (await bo('POST', '/release-notes', { title: 'v1.2', message: 'Faster VMs' })).body.data;
    assert.equal(note.status, 'Draft');
    await bo('POST', `/release-notes/${note.id}/publish`);
    const list = (await me('/api/release-notes')).body;
    assert.ok(list.data.some((x: any) => x.id === note.id));
    assert.ok(!list.data.some((x: any) => x.id === draft.id));
    // an id of the other kind is not found
    assert.equal((await bo('GET', `/announcements/${note.id}`)).status, 404);
    assert.equal((await bo('POST', `/announcements/${note.id}/unpublish`)).status, 404);
    assert.equal((await bo('GET', '/release-notes?status=Draft')).body.data.every((x: any) => x.status === 'Draft'), true);
    await queueDrained(t);
    const [n] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from notifications where reference_type = 'announcement' and reference_id = ${String(note.id)}`);
    assert.equal(n!.n, 0);
  });

  test('staff without manage_announcements are refused', async () => {
    const support = await adminSession(t, { role: 'Admin Support' });
    for (const [method, url] of [
      ['GET', '/api/backoffice/announcements'],
      ['POST', '/api/backoffice/release-notes'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: support.cookie }, ...(method === 'POST' ? { payload: { title: 'a', message: 'b' } } : {}) });
      assert.equal(res.statusCode, 403);
    }
  });
});
