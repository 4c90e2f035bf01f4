import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, eventually, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { deposit, invoiceRow, ledgerOf, pgoneForm, postPgone, wallet } from '../helpers/money.js';

let t: TestApp;
let settingsAdmin: { cookie: string };
before(async () => {
  t = await buildTestApp();
  settingsAdmin = await adminSession(t, { permissions: ['manage_settings', 'view_settings'] });
});
after(() => t.close());

const inf = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie } })).json().data;
const putSettings = (body: Record<string, unknown>, cookie = settingsAdmin.cookie) => t.app.inject({ method: 'PUT', url: '/api/backoffice/rewards/settings', headers: { cookie }, payload: body });

async function pay(invoiceId: string, times: number) {
  const inv = await invoiceRow(t, invoiceId);
  const answers = await Promise.all(Array.from({ length: times }, () => postPgone(t, pgoneForm(t, inv))));
  assert.ok(answers.every((r) => r.statusCode === 200));
}

describe('rewards', () => {
  test('settings: off by default, set by manage_settings (audited)', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/api/backoffice/rewards/settings', headers: { cookie: settingsAdmin.cookie } });
    assert.equal(get.statusCode, 200);
    assert.equal(get.json().data.first_top_up_percent, 0);
    const billing = await adminSession(t, { permissions: ['manage_coupons'] });
    assert.equal((await putSettings({ first_top_up_percent: 10, first_top_up_max_bonus: null, referral_percent: 5, referral_max_bonus: null }, billing.cookie)).statusCode, 403);
    assert.equal((await putSettings({ first_top_up_percent: 101, first_top_up_max_bonus: null, referral_percent: 5, referral_max_bonus: null })).statusCode, 400);
  });

  test('with rewards off, a first top-up earns nothing and the flag stays false', async () => {
    const c = await customerSession(t);
    const d = await deposit(t, c.id, { amount: 10000 });
    await pay(d.invoice_id, 3);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '10000.00');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal((await ledgerOf(t, c.id)).length, 1);
    assert.equal((await inf(c.cookie)).reward_first_top_up, false);
  });

  test('first top-up and referral: each once, its own bonus entry, even with parallel callbacks of two invoices', async () => {
    const ok = await putSettings({ first_top_up_percent: 10, first_top_up_max_bonus: 5000, referral_percent: 2.5, referral_max_bonus: null });
    assert.equal(ok.statusCode, 200, ok.body);
    const referrer = await customerSession(t);
    const mine = await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: referrer.cookie } });
    assert.equal(mine.statusCode, 200);
    const code = mine.json().data.code as string;
    assert.match(code, /^[A-Z0-9]{8}$/);
    assert.deepEqual(mine.json().data, { code, referred_count: 0, earned: 0 });
    // the same code on every ask
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: referrer.cookie } })).json().data.code, code);
    const claim = (cookie: string, c: string) => t.app.inject({ method: 'POST', url: '/api/customer/referral/claim', headers: { cookie }, payload: { code: c } });
    assert.equal((await claim(referrer.cookie, code)).json().code, 'OWN_REFERRAL_CODE');
    assert.equal((await claim(referrer.cookie, 'NOSUCHCODE')).json().code, 'REFERRAL_CODE_NOT_FOUND');

    const referred = await customerSession(t);
    assert.equal((await claim(referred.cookie, code.toLowerCase())).statusCode, 200);
    assert.equal((await claim(referred.cookie, code)).json().code, 'ALREADY_REFERRED');

    const a = await deposit(t, referred.id, { amount: 100000 });
    const b = await deposit(t, referred.id, { amount: 20000 });
    await Promise.all([pay(a.invoice_id, 15), pay(b.invoice_id, 15)]);
    await eventually(async () => (await wallet(t, referred.id))?.actual_balance === '120000.00');
    await queueDrained(t, { queues: ['billing-high'] });

    const entries = await ledgerOf(t, referred.id);
    const rewards = entries.filter((e) => e.reference_type === 'reward_first_top_up');
    assert.equal(rewards.length, 1);
    assert.equal(rewards[0]!.type, 'BalanceLogBonus');
    assert.equal(rewards[0]!.bonus_amount, rewards[0]!.amount);
    // 10% of whichever invoice was credited first: 100000 → capped at 5000, 20000 → 2000
    assert.ok(['5000.00', '2000.00'].includes(rewards[0]!.amount));
    assert.equal(entries.length, 3);
    const refEntries = await ledgerOf(t, referrer.id);
    assert.equal(refEntries.length, 1);
    assert.equal(refEntries[0]!.reference_type, 'reward_referral');
    assert.ok(['2500.00', '500.00'].includes(refEntries[0]!.amount));
    assert.equal(refEntries[0]!.actual_amount, '0.00');

    assert.equal((await inf(referred.cookie)).reward_first_top_up, true);
    assert.equal((await inf(referred.cookie)).reward_referral, false);
    assert.equal((await inf(referrer.cookie)).reward_referral, true);
    assert.equal((await inf(referrer.cookie)).reward_first_top_up, false);
    const stats = (await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: referrer.cookie } })).json().data;
    assert.equal(stats.referred_count, 1);
    assert.equal(stats.earned, Number(refEntries[0]!.amount));

    // a later top-up earns nothing more; a claim after the first top-up is refused
    const c = await deposit(t, referred.id, { amount: 30000 });
    await pay(c.invoice_id, 2);
    await eventually(async () => (await wallet(t, referred.id))?.actual_balance === '150000.00');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal((await ledgerOf(t, referred.id)).length, 4);
    assert.equal((await ledgerOf(t, referrer.id)).length, 1);
    const other = await customerSession(t);
    const otherCode = (await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: other.cookie } })).json().data.code;
    assert.equal((await claim(referred.cookie, otherCode)).json().code, 'REFERRAL_TOO_LATE');
    assert.equal((await claim(referrer.cookie, otherCode)).statusCode, 200);
  });
  test('a customer registers with a referral code (docs/decisions.md §9); an unknown code refuses the registration and keeps nothing', async () => {
    const referrer = await customerSession(t);
    const code = (await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: referrer.cookie } })).json().data.code as string;
    const body = (email: string, referral_code?: string) => ({ email, password: 'Str0ng!Passw0rd#', first_name: 'Ref', last_name: 'Erred', account_type: 'P', ...(referral_code ? { referral_code } : {}) });
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body('referred-bad@example.com', 'NOSUCHCODE') });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().code, 'REFERRAL_CODE_NOT_FOUND');
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body('referred-bad@example.com') });
    assert.equal(again.statusCode, 201, 'the refused registration kept nothing: the address is still free');
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body('referred-ok@example.com', code.toLowerCase()) });
    assert.equal(ok.statusCode, 201, ok.body);
    const stats = (await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie: referrer.cookie } })).json().data;
    assert.equal(stats.referred_count, 1);
  });

  test('no referral cycle of any length: A→B→C→A is refused at its last claim, and so are cycles that parallel claims would close together', async () => {
    const codeOf = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/customer/referral', headers: { cookie } })).json().data.code as string;
    const claim = (cookie: string, code: string) => t.app.inject({ method: 'POST', url: '/api/customer/referral/claim', headers: { cookie }, payload: { code } });
    const [a, b, c, d] = await Promise.all([customerSession(t), customerSession(t), customerSession(t), customerSession(t)]);
    const [codeA, codeB, codeC, codeD] = await Promise.all([codeOf(a!.cookie), codeOf(b!.cookie), codeOf(c!.cookie), codeOf(d!.cookie)]);
    assert.equal((await claim(a!.cookie, codeB)).statusCode, 200);
    assert.equal((await claim(b!.cookie, codeC)).statusCode, 200);
    const third = await claim(c!.cookie, codeA);
    assert.equal(third.statusCode, 400, third.body);
    assert.equal(third.json().code, 'REFERRAL_CYCLE');
    // a longer one: C → D, then D → A would close A→B→C→D→A
    assert.equal((await claim(c!.cookie, codeD)).statusCode, 200);
    assert.equal((await claim(d!.cookie, codeA)).json().code, 'REFERRAL_CYCLE');

    // two customers claiming each other's code at the same moment: one succeeds, the other is a cycle
    for (let round = 0; round < 5; round++) {
      const [x, y] = await Promise.all([customerSession(t), customerSession(t)]);
      const [codeX, codeY] = await Promise.all([codeOf(x!.cookie), codeOf(y!.cookie)]);
      const answers = await Promise.all([claim(x!.cookie, codeY), claim(y!.cookie, codeX)]);
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400], answers.map((r) => r.body).join(' '));
      assert.equal(answers.find((r) => r.statusCode === 400)!.json().code, 'REFERRAL_CYCLE');
    }
    // three customers closing a ring of three at once: at most two of the claims succeed
    for (let round = 0; round < 5; round++) {
      const ring = await Promise.all([customerSession(t), customerSession(t), customerSession(t)]);
      const codes = await Promise.all(ring.map((r) => codeOf(r.cookie)));
      const answers = await Promise.all(ring.map((r, i) => claim(r.cookie, codes[(i + 1) % 3]!)));
      assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 200, 400], answers.map((r) => r.body).join(' '));
    }
  });
});
