import { ManualClock } from '../../src/platform/clock.js';
import { SETTINGS_CHANNEL } from '../../src/modules/settings/index.js';
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

let t: TestApp;
const clock = new ManualClock();
let boss: { cookie: string; id: number };
let customer: { cookie: string; email: string; password: string };

before(async () => {
  t = await buildTestApp({ worker: false, clock });
  boss = await adminSession(t);
  customer = await customerSession(t);
});
after(() => t.close());

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, cookie = boss.cookie) =>
  t.app.inject({ method, url: `/api/backoffice/setting${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
/**
 * Waits until this process has heard every settings notification sent so far: a change's own
 * notification can come back after its answer on a busy machine (the answer waits at most a
 * second for it), and would then drop the cache in the middle of the next test.
 */
async function settingsNotificationsHeard(): Promise<void> {
  const marker = randomUUID();
  let heard!: () => void;
  const done = new Promise<void>((resolve) => (heard = resolve));
  const unsubscribe = await t.container.events.subscribe<{ marker?: string }>(SETTINGS_CHANNEL, (event) => {
    if (event.marker === marker) heard();
  });
  try {
    await t.container.events.publish(SETTINGS_CHANNEL, { marker });
    await done;
  } finally {
    await unsubscribe();
  }
}
const auditCount = async () => (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs`))[0]!.n;

const valid = {
  app_name: 'Nimbus Cloud',
  privacy_policy_url: 'https://nimbus.test/privacy',
  terms_and_conditions_url: 'https://nimbus.test/terms?v=2',
  maintenance_mode: false,
};

describe('application settings', () => {
  test('read and replace; the change is audited with before and after; the public tnc link follows', async () => {
    const before = (await call('GET', '')).json().data;
    assert.deepEqual(Object.keys(before).sort(), ['app_name', 'maintenance_mode', 'privacy_policy_url', 'terms_and_conditions_url', 'updated_at']);
    const res = await call('PUT', '/update', valid);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.app_name, 'Nimbus Cloud');
    assert.deepEqual({ ...(await call('GET', '')).json().data, updated_at: undefined }, { ...valid, updated_at: undefined });
    const [entry] = await queryRows<{ before: any; after: any; actor_id: number }>(
      t.container.db,
      sql`select before, after, actor_id from audit_logs where action = 'settings.updated' order by id desc limit 1`,
    );
    assert.equal(entry!.before.app_name, before.app_name);
    assert.equal(entry!.after.app_name, 'Nimbus Cloud');
    assert.equal(entry!.actor_id, boss.id);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/tnc' })).json().data.link, valid.terms_and_conditions_url);
  });

  for (const [why, body] of [
    ['bad URL', { ...valid, privacy_policy_url: 'not a url' }],
    ['javascript URL', { ...valid, terms_and_conditions_url: 'javascript:alert(1)' }],
    ['ftp URL', { ...valid, terms_and_conditions_url: 'ftp://nimbus.test/terms' }],
    ['unknown field', { ...valid, theme: 'dark' }],
    ['missing field', { app_name: 'x', privacy_policy_url: valid.privacy_policy_url, terms_and_conditions_url: valid.terms_and_conditions_url }],
    ['empty name', { ...valid, app_name: '' }],
    ['maintenance not a boolean', { ...valid, maintenance_mode: 'maybe' }],
  ] as const) {
    test(`${why} → 400, nothing changed, nothing audited`, async () => {
      const before = (await call('GET', '')).json().data;
      const audits = await auditCount();
      const res = await call('PUT', '/update', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.deepEqual((await call('GET', '')).json().data, before);
      assert.equal(await auditCount(), audits);
    });
  }
});

describe('colors', () => {
  test('read and set (hex #RRGGBB); the public app colors follow', async () => {
    const res = await call('POST', '/color', { primary_color: '#112233', secondary_color: '#abcdef', error_color: '#FF0000' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await call('GET', '/color')).json().data, { primary_color: '#112233', secondary_color: '#ABCDEF', error_color: '#FF0000', accent_color: '#F59E0B' });
    const pub = (await t.app.inject({ method: 'GET', url: '/api/lookup/app-colors' })).json().data;
    assert.equal(pub.app_color.primary, '#112233');
  });

  for (const bad of ['#12345', '123456', '#GGGGGG', '#1234567', 'red', '#12 345']) {
    test(`bad hex "${bad}" → 400, nothing changed`, async () => {
      const before = (await call('GET', '/color')).json().data;
      const res = await call('POST', '/color', { primary_color: bad, secondary_color: '#000000', error_color: '#000000' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().errors[0].field, 'primary_color');
      assert.deepEqual((await call('GET', '/color')).json().data, before);
    });
  }

  test('unknown color field → 400', async () => {
    const res = await call('POST', '/color', { primary_color: '#000000', secondary_color: '#000000', error_color: '#000000', link_color: '#000000' });
    assert.equal(res.statusCode, 400);
  });
});

describe('firewall rule types', () => {
  test('create, list, update, delete, each audited; unique name (any case) → 409', async () => {
    const created = await call('POST', '/firewall-rule-types/create', { name: 'PostgreSQL', protocol: 'tcp', description: 'Port 5432' });
    assert.equal(created.statusCode, 201, created.body);
    const row = created.json().data;
    assert.deepEqual({ name: row.name, protocol: row.protocol, description: row.description }, { name: 'PostgreSQL', protocol: 'tcp', description: 'Port 5432' });
    const list = (await call('GET', '/firewall-rule-types')).json().data;
    assert.ok(list.some((f: any) => f.id === row.id));
    assert.ok(list.some((f: any) => f.name === 'SSH'), 'defaults are seeded');

    const dup = await call('POST', '/firewall-rule-types/create', { name: 'postgresql', protocol: 'udp', description: '' });
    assert.equal(dup.statusCode, 409);
    const updated = await call('PUT', `/firewall-rule-types/${row.id}/update`, { name: 'Postgres', protocol: 'any', description: 'All' });
    assert.equal(updated.statusCode, 200);
    assert.equal(updated.json().data.protocol, 'any');
    const clash = await call('PUT', `/firewall-rule-types/${row.id}/update`, { name: 'ssh', protocol: 'tcp', description: '' });
    assert.equal(clash.statusCode, 409);
    assert.equal((await call('PUT', '/firewall-rule-types/999999/update', { name: 'X', protocol: 'tcp', description: '' })).statusCode, 404);

    const del = await call('DELETE', `/firewall-rule-types/${row.id}/delete`);
    assert.equal(del.statusCode, 200);
    assert.equal((await call('DELETE', `/firewall-rule-types/${row.id}/delete`)).statusCode, 404);
    assert.ok(!(await call('GET', '/firewall-rule-types')).json().data.some((f: any) => f.id === row.id));
    const actions = (
      await queryRows<{ action: string }>(t.container.db, sql`select action from audit_logs where target_type = 'firewall_rule_type' and target_id = ${String(row.id)} order by id`)
    ).map((r) => r.action);
    assert.deepEqual(actions, ['firewall_rule_type.created', 'firewall_rule_type.updated', 'firewall_rule_type.deleted']);
  });

  test('the seeded types name their port; a default port is kept by an update that leaves it out, cleared by null, refused for icmp and any', async () => {
    const seeded = (await call('GET', '/firewall-rule-types')).json().data as { name: string; default_port: number | null }[];
    assert.deepEqual(
      Object.fromEntries(seeded.filter((f) => ['SSH', 'HTTP', 'HTTPS', 'DNS', 'ICMP', 'All traffic'].includes(f.name)).map((f) => [f.name, f.default_port])),
      { SSH: 22, HTTP: 80, HTTPS: 443, DNS: 53, ICMP: null, 'All traffic': null },
    );
    const created = await call('POST', '/firewall-rule-types/create', { name: 'Redis', protocol: 'tcp', description: 'Cache', default_port: 6379 });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id as number;
    assert.equal(created.json().data.default_port, 6379);
    const update = (body: object) => call('PUT', `/firewall-rule-types/${id}/update`, { name: 'Redis', description: 'Cache', ...body });
    const portNow = async () => ((await call('GET', '/firewall-rule-types')).json().data as { id: number; default_port: number | null }[]).find((f) => f.id === id)!.default_port;

    // a client that knows only name, protocol and description keeps the port
    assert.equal((await update({ protocol: 'tcp', description: 'In-memory cache' })).json().data.default_port, 6379);
    for (const body of [{ protocol: 'icmp', default_port: 6379 }, { protocol: 'any', default_port: 1 }, { protocol: 'tcp', default_port: 0 }, { protocol: 'tcp', default_port: 65536 }, { protocol: 'tcp', default_port: '22' }]) {
      const bad = await update(body);
      assert.equal(bad.statusCode, 400, JSON.stringify(body));
      assert.equal(bad.json().errors[0].field, 'default_port', JSON.stringify(body));
      assert.equal(await portNow(), 6379, 'a refused update changes nothing');
    }
    assert.equal((await update({ protocol: 'udp', default_port: 6380 })).json().data.default_port, 6380);
    assert.equal((await update({ protocol: 'tcp', default_port: null })).json().data.default_port, null);
    assert.equal((await update({ protocol: 'tcp', default_port: 6379 })).json().data.default_port, 6379);
    // a type that becomes icmp drops its port
    assert.equal((await update({ protocol: 'icmp' })).json().data.default_port, null);
    const refused = await call('POST', '/firewall-rule-types/create', { name: 'Ping 7', protocol: 'icmp', description: '', default_port: 7 });
    assert.equal(refused.statusCode, 400);
    assert.ok(!(await call('GET', '/firewall-rule-types')).json().data.some((f: { name: string }) => f.name === 'Ping 7'));
    const audit = await queryRows<{ after: { default_port: number | null } }>(
      t.container.db,
      sql`select after from audit_logs where target_type = 'firewall_rule_type' and target_id = ${String(id)} order by id`,
    );
    assert.deepEqual(audit.map((a) => a.after.default_port), [6379, 6379, 6380, null, 6379, null]);
  });

  for (const [why, body] of [
    ['bad protocol', { name: 'X', protocol: 'sctp', description: '' }],
    ['missing protocol', { name: 'X', description: '' }],
    ['blank name', { name: '   ', protocol: 'tcp', description: '' }],
    ['unknown field', { name: 'X', protocol: 'tcp', description: '', port: 22 }],
  ] as const) {
    test(`${why} → 400`, async () => {
      const before = (await call('GET', '/firewall-rule-types')).json().data.length;
      assert.equal((await call('POST', '/firewall-rule-types/create', body)).statusCode, 400);
      assert.equal((await call('GET', '/firewall-rule-types')).json().data.length, before);
    });
  }
});

describe('maintenance mode', () => {
  const ping = () => t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: customer.cookie } });

  test('the customer API answers 503 MAINTENANCE right after the switch (cache cleared), except allowed routes; the backoffice keeps working', async () => {
    assert.equal((await ping()).statusCode, 200);
    assert.equal(await t.container.services.settings.isMaintenance(), false);
    const on = await call('PUT', '/update', { ...valid, maintenance_mode: true });
    assert.equal(on.statusCode, 200);
    const res = await ping();
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().code, 'MAINTENANCE');
    assert.ok(res.headers['retry-after']);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: customer.email, password: customer.password } });
    assert.equal(login.statusCode, 200, 'customer login stays open');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/lookup/country' })).statusCode, 200);
    assert.equal((await call('GET', '')).statusCode, 200);
    const actions = (await queryRows<{ action: string }>(t.container.db, sql`select action from audit_logs where action like 'settings.maintenance%'`)).map((r) => r.action);
    assert.deepEqual(actions, ['settings.maintenance_on']);

    assert.equal((await call('PUT', '/update', { ...valid, maintenance_mode: false })).statusCode, 200);
    assert.equal((await ping()).statusCode, 200);
  });

  test('the flag is cached until a settings notification: a change behind the service is seen only when one is sent', async () => {
    await settingsNotificationsHeard();
    assert.equal(await t.container.services.settings.isMaintenance(), false);
    await t.container.db.execute(sql`update app_settings set maintenance_mode = true`);
    assert.equal((await ping()).statusCode, 200, 'still cached: no notification was sent');
    clock.advance(10 * 60_000);
    assert.equal((await ping()).statusCode, 200, 'no time limit: only a notification drops the cache');
    // what a change through the service sends in its transaction, from any process
    await t.container.db.transaction((tx) => t.container.events.publish(SETTINGS_CHANNEL, {}, tx));
    await eventually(async () => (await ping()).statusCode === 503);
    await t.container.db.transaction(async (tx) => {
      await tx.execute(sql`update app_settings set maintenance_mode = false`);
      await t.container.events.publish(SETTINGS_CHANNEL, {}, tx);
    });
    await eventually(async () => (await ping()).statusCode === 200);
  });
});

describe('the cached flags inside a transaction', () => {
  // the context of the test file, outside any transaction: what another request runs in
  const outside = AsyncLocalStorage.snapshot();

  test('a flag asked inside a transaction does not wait for a read that another request started meanwhile (the embedded database has one connection)', async () => {
    const settings = t.container.services.settings;
    // a change empties the cache of this process
    assert.equal((await call('PUT', '/update', valid)).statusCode, 200);
    // a staff login asks the staff-2FA flag inside its transaction; a customer request asks the
    // maintenance flag at the same moment, and its read waits for the connection that transaction holds
    const { here, elsewhere } = await t.container.db.transaction(async () => {
      const elsewhere = outside(() => settings.isMaintenance());
      const here = await settings.staffTwoFactorRequired();
      return { here, elsewhere };
    });
    assert.equal(here, false);
    assert.equal(await elsewhere, false);
  });
});
