import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession, loginAdmin } from '../helpers/admins.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { SuspensionRepository } from '../../src/modules/charging/suspension.repository.js';
import { createVm, fund, seededTier, vmJobsDone } from '../helpers/compute.js';
import { TEST_DB } from '../helpers/database.js';

const clock = new ManualClock('2030-01-01T00:00:00Z');
let t: TestApp;
let admin: { cookie: string; email: string; password: string };
before(async () => {
  t = await buildTestApp({ clock });
  admin = await adminSession(t, { role: 'Admin Billing' });
});
after(() => t.close());

/** A backoffice call; the test moves the clock past the access token's life, so it logs in again when needed. */
async function bo(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const send = () => t.app.inject({ method, url: `/api/backoffice${url}`, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });
  const res = await send();
  if (res.statusCode !== 401) return res;
  admin.cookie = await loginAdmin(t, admin.email, admin.password);
  return send();
}

const inMinutes = (m: number) => new Date(clock.now().getTime() + m * 60_000).toISOString();

async function component(code: string): Promise<number> {
  const res = await bo('GET', '/component/components');
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json().data.find((x: { code: string }) => x.code === code);
  assert.ok(c, code);
  return c.id;
}

async function locationPrice(locationId: number, componentId: number): Promise<number> {
  const res = await bo('GET', `/pricing/location/${locationId}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.find((r: { component_id: number }) => r.component_id === componentId).monthly_price;
}

describe('components and location prices', () => {
  test('components of type compute, storage and network, each priced in every location', async () => {
    const res = await bo('GET', '/component/components');
    const codes = res.json().data.map((c: { code: string }) => c.code);
    for (const code of ['vcpu', 'ram_gb', 'disk_gb', 'public_ip', 'private_network', 'object_storage_gb', 'block_storage_gb']) assert.ok(codes.includes(code), code);
    assert.ok(res.json().data.some((c: { type: string }) => c.type === 'compute'));
    assert.ok(res.json().data.some((c: { type: string }) => c.type === 'storage'));
    const ownPrice = res.json().data.filter((c: { tier_own_price: boolean }) => c.tier_own_price).map((c: { code: string }) => c.code);
    assert.deepEqual(ownPrice, ['public_ip'], 'what update-tier takes besides the package');
    const prices = (await bo('GET', '/pricing/location/1')).json().data;
    assert.equal(prices.length, codes.length - 1, 'every component but the vm_tier package is priced');
    const vcpu = prices[0];
    assert.equal(vcpu.price_per_hour, Number((vcpu.monthly_price / 730).toFixed(6)));
    assert.equal((await bo('GET', '/pricing/location/999')).statusCode, 404);
  });
});

describe('scheduled price changes', () => {
  test('a change waits, is applied by the job at its date as a new version, and the old price stays readable', async () => {
    const vcpu = await component('vcpu');
    const before = await locationPrice(1, vcpu);
    const effective = inMinutes(30);
    const res = await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu, monthly_price: 100000, effective_date: effective });
    assert.equal(res.statusCode, 201, res.body);
    const s = res.json().data;
    assert.equal(s.status, 'waiting');
    assert.equal(s.hourly_price, 136.986301, '100000 / 730 to 6 decimals');
    assert.equal(s.price_key, `component:${vcpu}`);
    const waiting = (await bo('GET', '/pricing/schedule')).json().data;
    assert.ok(waiting.some((x: { id: number }) => x.id === s.id));

    await t.container.services.pricing.applyDue();
    assert.equal(await locationPrice(1, vcpu), before, 'not yet');
    clock.advance(31 * 60_000);
    assert.equal(await t.container.services.pricing.applyDue(), 1);
    assert.equal(await locationPrice(1, vcpu), 100000);
    const applied = (await bo('GET', `/pricing/schedule/${s.id}`)).json().data;
    assert.equal(applied.status, 'applied');
    const old = await t.container.services.pricing.priceAt(`component:${vcpu}`, 1, new Date(Date.parse(effective) - 1000));
    assert.equal(Number(old!.monthlyPrice), before);
    const now = await t.container.services.pricing.priceAt(`component:${vcpu}`, 1, new Date(effective));
    assert.equal(now!.hourlyPrice, '136.986301');
    assert.equal(await t.container.services.pricing.applyDue(), 0, 'applied once');
  });

  test('effective_date in the past is 400; bad prices and unknown references are 400; a duplicate instant is 409', async () => {
    const vcpu = await component('vcpu');
    const past = await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu, monthly_price: 1, effective_date: inMinutes(-1) });
    assert.equal(past.statusCode, 400);
    assert.equal(past.json().errors[0].field, 'effective_date');
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu, monthly_price: -5, effective_date: inMinutes(5) })).statusCode, 400);
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu, monthly_price: 1.234, effective_date: inMinutes(5) })).statusCode, 400);
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: 99999, monthly_price: 1, effective_date: inMinutes(5) })).statusCode, 400);
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 999, component_id: vcpu, monthly_price: 1, effective_date: inMinutes(5) })).statusCode, 400);
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: vcpu, monthly_price: 1, effective_date: 'tomorrow' })).statusCode, 400);
    const at = inMinutes(90);
    assert.equal((await bo('POST', '/pricing/update-loc', { location_id: 2, component_id: vcpu, monthly_price: 1, effective_date: at })).statusCode, 201);
    const dup = await bo('POST', '/pricing/update-loc', { location_id: 2, component_id: vcpu, monthly_price: 2, effective_date: at });
    assert.equal(dup.statusCode, 409);
    assert.equal(dup.json().code, 'SCHEDULE_EXISTS');
  });

  test('cancel before the date answers 200 and removes it from the queue; after the date 400', async () => {
    const ram = await component('ram_gb');
    const before = await locationPrice(2, ram);
    const a = (await bo('POST', '/pricing/update-loc', { location_id: 2, component_id: ram, monthly_price: 5000, effective_date: inMinutes(10) })).json().data;
    const b = (await bo('POST', '/pricing/update-loc', { location_id: 2, component_id: ram, monthly_price: 6000, effective_date: inMinutes(20) })).json().data;
    const cancel = await bo('DELETE', `/pricing/cancel/${a.id}`);
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json().data.status, 'cancelled');
    assert.ok(!(await bo('GET', '/pricing/schedule')).json().data.some((x: { id: number }) => x.id === a.id));
    assert.equal((await bo('DELETE', `/pricing/cancel/${a.id}`)).statusCode, 404, 'gone');
    clock.advance(20 * 60_000);
    // the date has passed: even before the job ran, it can no longer be cancelled
    const late = await bo('DELETE', `/pricing/cancel/${b.id}`);
    assert.equal(late.statusCode, 400);
    assert.equal(late.json().code, 'SCHEDULE_ALREADY_APPLIED');
    await t.container.services.pricing.applyDue();
    assert.equal((await bo('DELETE', `/pricing/cancel/${b.id}`)).statusCode, 400);
    assert.equal(await locationPrice(2, ram), 6000, 'the cancelled change never applied');
    assert.notEqual(before, 6000);
  });

  test('a schedule is applied exactly once with several workers racing', async () => {
    const disk = await component('disk_gb');
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await bo('POST', '/pricing/update-loc', { location_id: 1, component_id: disk, monthly_price: 1000 + i, effective_date: inMinutes(i) });
      ids.push(r.json().data.id);
    }
    clock.advance(10 * 60_000);
    const workers: Promise<number>[] = Array.from({ length: 4 }, () => t.container.services.pricing.applyDue());
    let second: TestApp | undefined;
    if (TEST_DB === 'postgres') {
      second = await buildTestApp({ sameDatabaseAs: t, clock, worker: false });
      workers.push(second.container.services.pricing.applyDue(), second.container.services.pricing.applyDue());
    }
    const counts = await Promise.all(workers);
    await second?.close();
    assert.equal(counts.reduce((a, b) => a + b, 0), 5);
    const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from price_versions where price_key = ${`component:${disk}`} and location_id = 1 and monthly_price > 1000 and monthly_price < 1010`);
    assert.equal(row!.n, 5, 'one version per schedule');
    assert.equal(await locationPrice(1, disk), 1005);
  });

  test('price versions are immutable', async () => {
    await assert.rejects(t.container.db.execute(sql`update price_versions set monthly_price = 0`));
    await assert.rejects(t.container.db.execute(sql`delete from price_versions`));
  });
});

describe('tier prices and the revenue impact', () => {
  test('update-tier schedules the package price; impact shows running resources and revenue before and after', async () => {
    const tierId = await seededTier(t, 'gp.large');
    const prices = (await bo('GET', `/pricing/tiers/${tierId}`)).json().data;
    const loc1 = prices.find((p: { location_id: number }) => p.location_id === 1);
    assert.ok(loc1);
    assert.equal(loc1.tier_id, tierId);

    const c = await customerSession(t);
    await fund(t, c.id);
    for (const name of ['a', 'b']) assert.equal((await createVm(t, c.cookie, { name, location_id: 1, tier_id: tierId })).statusCode, 201);
    await vmJobsDone(t);

    const s = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, monthly_price: loc1.monthly_price + 10000, effective_date: inMinutes(60) });
    assert.equal(s.statusCode, 201, s.body);
    assert.equal(s.json().data.item_type, 'tier');
    const impact = await bo('GET', `/pricing/schedule/${s.json().data.id}/impact`);
    assert.equal(impact.statusCode, 200, impact.body);
    const d = impact.json().data;
    assert.ok(d.affected_resources >= 2);
    assert.equal(d.current_monthly_price, loc1.monthly_price);
    assert.equal(d.new_monthly_price, loc1.monthly_price + 10000);
    assert.equal(Math.round((d.monthly_revenue_after - d.monthly_revenue_before) * 100), d.affected_resources * 10000 * 100);
    assert.equal(d.monthly_revenue_change, d.monthly_revenue_after - d.monthly_revenue_before);

    const unknown = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, component_id: 99999, monthly_price: 1, effective_date: inMinutes(7) });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().errors[0].field, 'component_id');
    // vCPU is in the package: a tier's own price of it would charge nothing, so it is refused
    const inPackage = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, component_id: await component('vcpu'), monthly_price: 1, effective_date: inMinutes(7) });
    assert.equal(inPackage.statusCode, 400, inPackage.body);
    assert.equal(inPackage.json().errors[0].field, 'component_id');
    const pkg = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, component_id: await component('vm_tier'), monthly_price: 1, effective_date: inMinutes(8) });
    assert.equal(pkg.statusCode, 201, pkg.body);
    assert.equal(pkg.json().data.price_key, `tier:${tierId}`, 'the vm_tier component is the package');
    assert.equal(pkg.json().data.component_id, await component('vm_tier'));

    // tier rows name their component: the package is the vm_tier component
    const rows = (await bo('GET', `/pricing/tiers/${tierId}`)).json().data;
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.component_id, await component('vm_tier'), JSON.stringify(r));
  });

  test("a tier's own price of a component: scheduled by update-tier, charged to its VMs instead of the location's, previewed on its VMs only", async () => {
    const ip = await component('public_ip');
    const types = (await bo('GET', '/node/tier-types')).json().data;
    const tiers: number[] = [];
    for (const name of ['own-ip', 'plain']) {
      const created = await bo('POST', '/tier/create', { name: `${name}-${Date.now()}`, tier_type_id: types[0].id, cpu: 1, memory_mb: 1024, disk_gb: 20, cpu_limit: 50, location_id: 2 });
      assert.equal(created.statusCode, 201, created.body);
      tiers.push(created.json().data.id);
      assert.equal((await bo('POST', '/pricing/update-tier', { tier_id: created.json().data.id, monthly_price: 40000, effective_date: inMinutes(1) })).statusCode, 201);
    }
    const [own, plain] = tiers as [number, number];
    clock.advance(2 * 60_000);
    await t.container.services.pricing.applyDue();
    const c = await customerSession(t);
    await fund(t, c.id);
    const vmIds: number[] = [];
    for (const tierId of tiers) {
      const vm = await createVm(t, c.cookie, { name: `ip-${tierId}`, location_id: 2, tier_id: tierId });
      assert.equal(vm.statusCode, 201, vm.body);
      vmIds.push(vm.json().data.id);
    }
    await vmJobsDone(t);
    const locIp = await locationPrice(2, ip);

    // the preview touches the VM of that tier only
    const preview = await bo('GET', `/pricing/preview?tier_id=${own}&component_id=${ip}&monthly_price=7300`);
    assert.equal(preview.statusCode, 200, preview.body);
    const p = preview.json().data;
    assert.equal(p.price_key, `tier:${own}:component:${ip}`);
    assert.equal(p.location_id, 2);
    assert.equal(p.affected_resources, 1);
    assert.equal(p.affected_quantity, 1);
    assert.equal(p.current_monthly_price, locIp, 'what its VMs pay today: the location price');
    assert.equal(Math.round(p.monthly_revenue_change * 100), Math.round((7300 - locIp) * 100));
    const locBefore = (await bo('GET', `/pricing/preview?location_id=2&component_id=${ip}&monthly_price=1`)).json().data;

    const s = await bo('POST', '/pricing/update-tier', { tier_id: own, component_id: ip, monthly_price: 7300, effective_date: inMinutes(30) });
    assert.equal(s.statusCode, 201, s.body);
    assert.equal(s.json().data.price_key, `tier:${own}:component:${ip}`);
    assert.equal(s.json().data.component_id, ip);
    assert.equal(s.json().data.tier_id, own);
    assert.equal(s.json().data.item_type, 'tier');
    const effective = new Date(s.json().data.effective_date);

    clock.advance(3 * 3_600_000);
    await t.container.services.pricing.applyDue();
    await t.container.services.charging.runHourly();

    // tier rows: the package and the tier's own public IP price, each naming its component
    const rows = (await bo('GET', `/pricing/tiers/${own}`)).json().data;
    assert.deepEqual(
      rows.map((r: { component_id: number; monthly_price: number; location_id: number }) => [r.location_id, r.component_id, r.monthly_price]),
      [[2, await component('vm_tier'), 40000], [2, ip, 7300]].sort((a, b) => a[1]! - b[1]!),
    );

    // the location's public IP change now leaves out the VM whose tier prices its own
    const locAfter = (await bo('GET', `/pricing/preview?location_id=2&component_id=${ip}&monthly_price=1`)).json().data;
    assert.equal(locAfter.affected_resources, locBefore.affected_resources - 1);

    // charged: the tier's own price on its VM, the location's on the other
    const charged = await queryRows<{ resource_id: string; hourly_price: string }>(
      t.container.db,
      sql`select m.resource_id, u.hourly_price::text as hourly_price from usage_records u join meters m on m.id = u.meter_id
          where m.resource_type = 'vm' and m.resource_id in (${String(vmIds[0])}, ${String(vmIds[1])}) and m.description like '%public IP%'
            and u.hour >= ${effective.toISOString()}::timestamptz and u.seconds = 3600`,
    );
    const byVm = new Map<string, Set<string>>();
    for (const r of charged) byVm.set(r.resource_id, (byVm.get(r.resource_id) ?? new Set()).add(r.hourly_price));
    assert.deepEqual([...(byVm.get(String(vmIds[0])) ?? [])], ['10.000000'], `tier ${own}: 7300 / 730`);
    assert.deepEqual([...(byVm.get(String(vmIds[1])) ?? [])], [(locIp / 730).toFixed(6)], `tier ${plain}: the location's`);
    // the usage view and the burn rate (runway) read the same prices
    const cookie = await loginCustomer(t, c.email, c.password);
    const usage = (await t.app.inject({ method: 'GET', url: '/api/billing/usage', headers: { cookie } })).json().data;
    const ips = usage.running.filter((r: { description: string }) => r.description.includes('public IP'));
    const ipPrice = new Map(ips.map((r: { resource_id: string; hourly_price: number }) => [r.resource_id, r.hourly_price]));
    assert.equal(ipPrice.size, 2);
    assert.equal(ipPrice.get(String(vmIds[0])), 10);
    assert.equal(ipPrice.get(String(vmIds[1])), locIp / 730);
    const burn = await new SuspensionRepository().burnOf(t.container.db, c.id, clock.now());
    assert.equal(Number(burn), usage.hourly_burn);
  });

  test('preview: the revenue impact of a price change before it is scheduled, the same numbers as the schedule gives, nothing saved', async () => {
    const tierId = await seededTier(t, 'gp.medium');
    const loc1 = (await bo('GET', `/pricing/tiers/${tierId}`)).json().data.find((p: { location_id: number }) => p.location_id === 1);
    const c = await customerSession(t);
    await fund(t, c.id);
    assert.equal((await createVm(t, c.cookie, { name: 'preview-a', location_id: 1, tier_id: tierId })).statusCode, 201);
    await vmJobsDone(t);
    const schedulesBefore = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from price_schedules`))[0]!.n;

    const when = inMinutes(90);
    const preview = await bo('GET', `/pricing/preview?tier_id=${tierId}&location_id=1&monthly_price=${loc1.monthly_price + 5000}&effective_date=${encodeURIComponent(when)}`);
    assert.equal(preview.statusCode, 200, preview.body);
    const p = preview.json().data;
    assert.equal(p.affected_resources, 1);
    assert.equal(p.current_monthly_price, loc1.monthly_price);
    assert.equal(p.new_monthly_price, loc1.monthly_price + 5000);
    assert.equal(p.effective_date, when);
    assert.equal(p.monthly_revenue_change, 5000);
    const schedulesAfter = (await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from price_schedules`))[0]!.n;
    assert.equal(schedulesAfter, schedulesBefore, 'a preview saves nothing');

    // scheduled as previewed, the schedule's impact has the same numbers
    const s = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 1, monthly_price: loc1.monthly_price + 5000, effective_date: when });
    assert.equal(s.statusCode, 201, s.body);
    const { schedule_id: _id, status: _status, ...impact } = (await bo('GET', `/pricing/schedule/${s.json().data.id}/impact`)).json().data;
    assert.deepEqual(impact, p);

    // a component in a location, without a date (now); the schedule routes' checks apply
    const vcpu = await component('vcpu');
    const comp = await bo('GET', `/pricing/preview?location_id=1&component_id=${vcpu}&monthly_price=1`);
    assert.equal(comp.statusCode, 200, comp.body);
    assert.equal(comp.json().data.price_key, `component:${vcpu}`);
    for (const query of [
      `tier_id=${tierId}&location_id=999&monthly_price=1`,
      `location_id=1&monthly_price=1`,
      `location_id=1&component_id=${vcpu}&monthly_price=1&effective_date=2000-01-01T00:00:00Z`,
      `location_id=1&component_id=${vcpu}&monthly_price=1.234`,
      `location_id=999&component_id=${vcpu}&monthly_price=1`,
      `storage_tier_id=1&monthly_price=1`,
    ]) {
      const res = await bo('GET', `/pricing/preview?${query}`);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
    }
    const support = await adminSession(t, { role: 'Admin Support' });
    const denied = await t.app.inject({ method: 'GET', url: `/api/backoffice/pricing/preview?location_id=1&component_id=${vcpu}&monthly_price=1`, headers: { cookie: support.cookie } });
    assert.equal(denied.statusCode, 403);
  });

  test('a new tier is offered once its price applies; retiring it keeps running VMs and price history', async () => {
    const types = (await bo('GET', '/node/tier-types')).json().data;
    const created = await bo('POST', '/tier/create', { name: `t-${Date.now()}`, tier_type_id: types[0].id, cpu: 2, memory_mb: 2048, disk_gb: 40, cpu_limit: 50, location_id: 2 });
    assert.equal(created.statusCode, 201, created.body);
    const tier = created.json().data;
    assert.equal(tier.is_visible, true);
    const c = await customerSession(t);
    await fund(t, c.id);
    assert.equal((await createVm(t, c.cookie, { name: 'early', location_id: 2, tier_id: tier.id })).json().code, 'TIER_UNAVAILABLE', 'no price yet');
    assert.equal((await bo('POST', '/pricing/update-tier', { tier_id: tier.id, location_id: 1, monthly_price: 50000, effective_date: inMinutes(1) })).statusCode, 400, 'bound to location 2');
    assert.equal((await bo('POST', '/pricing/update-tier', { tier_id: tier.id, monthly_price: 50000, effective_date: inMinutes(1) })).statusCode, 201);
    clock.advance(2 * 60_000);
    await t.container.services.pricing.applyDue();
    const vm = await createVm(t, c.cookie, { name: 'later', location_id: 2, tier_id: tier.id });
    assert.equal(vm.statusCode, 201, vm.body);
    assert.equal((await createVm(t, c.cookie, { name: 'wrong-place', location_id: 1, tier_id: tier.id })).json().code, 'TIER_UNAVAILABLE');
    await vmJobsDone(t);

    const del = await bo('DELETE', `/tier/${tier.id}/delete`);
    assert.equal(del.statusCode, 200, del.body);
    assert.ok(del.json().data.deleted_at);
    assert.ok(!(await bo('GET', '/tier/tiers')).json().data.some((x: { id: number }) => x.id === tier.id));
    assert.ok((await bo('GET', '/tier/tiers?include_retired=true')).json().data.some((x: { id: number }) => x.id === tier.id));
    assert.equal((await bo('GET', `/pricing/tiers/${tier.id}`)).json().data.length, 1, 'price history stays');
    assert.equal((await createVm(t, c.cookie, { name: 'after', location_id: 2, tier_id: tier.id })).json().code, 'TIER_UNAVAILABLE');
    const running = await t.app.inject({ method: 'GET', url: `/api/compute/vm/${vm.json().data.id}`, headers: { cookie: c.cookie } });
    assert.equal(running.json().data.status, 'Running');
    assert.equal((await bo('DELETE', `/tier/${tier.id}/delete`)).statusCode, 404);
  });
});

describe('a tier price without a location', () => {
  test('applies wherever the tier is offered; location_id narrows it; the two at one instant are refused', async () => {
    const tierId = await seededTier(t, 'gp.medium');
    const pkg = await component('vm_tier');
    const when = inMinutes(90);
    // exactly what a client sends from the spec's fields: tier_id, component_id, monthly_price, effective_date
    const everywhere = await bo('POST', '/pricing/update-tier', { tier_id: tierId, component_id: pkg, monthly_price: 123456, effective_date: when });
    assert.equal(everywhere.statusCode, 201, everywhere.body);
    const s = everywhere.json().data;
    assert.equal(s.location_id, null, 'every location the tier is offered in');
    assert.equal(s.tier_id, tierId);
    assert.equal(s.component_id, pkg);
    assert.equal(s.price_key, `tier:${tierId}`);
    assert.ok((await bo('GET', '/pricing/schedule')).json().data.some((x: { id: number; location_id: number | null }) => x.id === s.id && x.location_id === null));

    // the same item at the same instant for one location would leave it to chance which price holds there
    const clash = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 2, monthly_price: 1, effective_date: when });
    assert.equal(clash.statusCode, 409, clash.body);
    assert.equal(clash.json().code, 'SCHEDULE_EXISTS');
    assert.equal((await bo('POST', '/pricing/update-tier', { tier_id: tierId, monthly_price: 2, effective_date: when })).json().code, 'SCHEDULE_EXISTS');
    // a location's own price a minute later narrows it there
    const narrow = await bo('POST', '/pricing/update-tier', { tier_id: tierId, location_id: 2, monthly_price: 99000, effective_date: inMinutes(91) });
    assert.equal(narrow.statusCode, 201, narrow.body);
    assert.equal(narrow.json().data.location_id, 2);

    // its impact adds up every location; the preview takes the same request
    const impact = await bo('GET', `/pricing/schedule/${s.id}/impact`);
    assert.equal(impact.statusCode, 200, impact.body);
    assert.equal(impact.json().data.location_id, null);
    const preview = await bo('GET', `/pricing/preview?tier_id=${tierId}&monthly_price=123456&effective_date=${encodeURIComponent(when)}`);
    assert.equal(preview.statusCode, 200, preview.body);
    assert.equal(preview.json().data.location_id, null);
    assert.equal(preview.json().data.monthly_revenue_change, impact.json().data.monthly_revenue_change);

    clock.advance(92 * 60_000);
    await t.container.services.pricing.applyDue();
    const rows = (await bo('GET', `/pricing/tiers/${tierId}`)).json().data.filter((r: { component_id: number }) => r.component_id === pkg);
    const byLocation = Object.fromEntries(rows.map((r: { location_id: number; monthly_price: number }) => [r.location_id, r.monthly_price]));
    assert.deepEqual(byLocation, { 1: 123456, 2: 99000 }, 'location 1 from the every-location price, location 2 from its own later one');
    const applied = (await bo('GET', `/pricing/schedule/${s.id}`)).json().data;
    assert.equal(applied.status, 'applied');

    // a customer in location 1 is now offered the tier at the new price
    const c = await customerSession(t);
    const catalog = (await t.app.inject({ method: 'GET', url: '/api/compute/tiers?location_id=1', headers: { cookie: c.cookie } })).json().data;
    assert.equal(catalog.find((x: { id: number }) => x.id === tierId).monthly_price, 123456);
  });

  test('storage tier price rows and schedules name the block_storage_gb component', async () => {
    const perGb = await component('block_storage_gb');
    const rows = await bo('GET', '/pricing/storage-tiers');
    assert.equal(rows.statusCode, 200, rows.body);
    assert.ok(rows.json().data.length > 0);
    for (const r of rows.json().data) assert.equal(r.component_id, perGb, JSON.stringify(r));
    const storageTierId = rows.json().data[0].storage_tier_id;
    const s = await bo('POST', '/pricing/update-storage-tier', { storage_tier_id: storageTierId, location_id: 1, monthly_price: 2000, effective_date: inMinutes(10) });
    assert.equal(s.statusCode, 201, s.body);
    assert.equal(s.json().data.component_id, perGb);
    assert.equal(s.json().data.item_type, 'storage_tier');
  });
});

describe('tier types, tiers, block storage (backoffice)', () => {
  test('tier types: create, update, unique names', async () => {
    const name = `Memory ${Date.now()}`;
    const res = await bo('POST', '/node/tier-type', { name, description: 'more RAM' });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().data.id;
    assert.equal((await bo('POST', '/node/tier-type', { name: name.toUpperCase(), description: '' })).json().code, 'NAME_TAKEN');
    const upd = await bo('POST', `/node/tier-type/${id}/update`, { name: `${name} v2`, description: 'even more' });
    assert.equal(upd.statusCode, 200, upd.body);
    assert.equal(upd.json().data.description, 'even more');
    assert.equal((await bo('POST', '/node/tier-type/999999/update', { name: 'x', description: '' })).statusCode, 404);
  });

  test('tiers: CPU limit, load balancer switch and configuration, visibility; audited', async () => {
    const types = (await bo('GET', '/node/tier-types')).json().data;
    const tier = (await bo('POST', '/tier/create', { name: `lb-${Date.now()}`, tier_type_id: types[0].id, cpu: 1, memory_mb: 512, disk_gb: 10, cpu_limit: 100 })).json().data;
    const cpu = await bo('PATCH', `/tier/${tier.id}/update-cpu`, { cpu_limit: 40 });
    assert.equal(cpu.json().data.cpu_limit, 40);
    assert.equal((await bo('PATCH', `/tier/${tier.id}/update-cpu`, { cpu_limit: 0 })).statusCode, 400);
    assert.equal((await bo('PATCH', `/tier/${tier.id}/toggle-loadbalance`)).json().data.loadbalance_enabled, true);
    const cfg = await bo('PATCH', `/tier/${tier.id}/update-loadbalance`, { loadbalance_config: { max_forwarding_rules: 5, algorithms: ['round_robin'] } });
    assert.equal(cfg.statusCode, 200, cfg.body);
    assert.deepEqual(cfg.json().data.loadbalance_config, { max_forwarding_rules: 5, algorithms: ['round_robin'] });
    assert.equal((await bo('PATCH', `/tier/${tier.id}/update-loadbalance`, { loadbalance_config: { bogus: 1 } })).statusCode, 400);
    assert.equal((await bo('PATCH', `/tier/${tier.id}/toggle-status`)).json().data.is_visible, false);
    assert.equal((await bo('POST', '/tier/create', { name: 'x', tier_type_id: 999999, cpu: 1, memory_mb: 512, disk_gb: 10, cpu_limit: 100 })).statusCode, 400);
    const [log] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs where target_type = 'tier' and target_id = ${String(tier.id)}`);
    assert.ok(log!.n >= 5);
  });

  test('block storage: machines with hypervisor IP and capacity; tiers update and toggle (a disabled tier is not offered)', async () => {
    const machines = await bo('GET', '/storage/blocks');
    assert.equal(machines.statusCode, 403, 'Admin Billing has no block storage permission');
    const ops = await adminSession(t, { role: 'Admin' });
    const h = { cookie: ops.cookie };
    const m = await t.app.inject({ method: 'GET', url: '/api/backoffice/storage/blocks', headers: h });
    assert.equal(m.statusCode, 200, m.body);
    assert.ok(m.json().data[0].hypervisor_ip);
    assert.ok(m.json().data[0].capacity_gb > 0);
    const tiers = (await t.app.inject({ method: 'GET', url: '/api/backoffice/storage/blocks/tiers', headers: h })).json().data;
    const st = tiers[0];
    const upd = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/storage/blocks/tiers/${st.id}/update`, headers: h, payload: { name: st.name, description: 'renamed' } });
    assert.equal(upd.json().data.description, 'renamed');
    const off = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/storage/blocks/tiers/${st.id}/update-status`, headers: h });
    assert.equal(off.json().data.is_active, false);
    const c = await customerSession(t);
    await fund(t, c.id);
    const tierId = await seededTier(t);
    const refused = await createVm(t, c.cookie, { name: 'vol', location_id: 1, tier_id: tierId, block_storage_tier_id: st.id });
    assert.equal(refused.json().code, 'STORAGE_TIER_UNAVAILABLE');
    const catalog = await t.app.inject({ method: 'GET', url: '/api/compute/block-storage-tiers?location_id=1', headers: { cookie: c.cookie } });
    assert.ok(!catalog.json().data.some((x: { id: number }) => x.id === st.id));
    const on = await t.app.inject({ method: 'PATCH', url: `/api/backoffice/storage/blocks/tiers/${st.id}/update-status`, headers: h });
    assert.equal(on.json().data.is_active, true);
    assert.equal((await createVm(t, c.cookie, { name: 'vol', location_id: 1, tier_id: tierId, block_storage_tier_id: st.id })).statusCode, 201);
    await vmJobsDone(t);
  });
});
