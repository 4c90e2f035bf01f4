import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { hmacSha256Hex } from '../../src/integrations/payment-gateways/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, queueDrained, eventually, type TestApp } from '../helpers/app.js';
import { createCustomer, deposit, invoiceRow, ledgerOf, pgoneForm, pgtwoCallback, postPgone, postPgtwo, wallet, type InvoiceRow } from '../helpers/money.js';

let t: TestApp;
const invoices: InvoiceRow[] = [];
let otherGatewayInvoice: InvoiceRow;

async function moneyState() {
  const [row] = await queryRows<{ actual: string; current: string; entries: number; credited: number }>(
    t.container.db,
    sql`select (select coalesce(sum(actual_balance),0)::text from wallets) as actual,
               (select coalesce(sum(current_balance),0)::text from wallets) as current,
               (select count(*)::int from balance_logs) as entries,
               (select count(*)::int from topup_invoices where status = 'Paid') as credited`,
  );
  return row!;
}

before(async () => {
  t = await buildTestApp();
  const a = await createCustomer(t);
  const b = await createCustomer(t);
  for (const [c, amount] of [
    [a, 10000],
    [a, 25000.75],
    [b, 123456],
  ] as const) {
    invoices.push(await invoiceRow(t, (await deposit(t, c.id, { amount, gateway_name: 'pgone', method_code: 'SP' })).invoice_id));
  }
  for (const [c, amount] of [
    [a, 15000],
    [b, 99999.99],
  ] as const) {
    invoices.push(await invoiceRow(t, (await deposit(t, c.id, { amount, gateway_name: 'pgtwo', method_code: 'QRIS' })).invoice_id));
  }
  // one already paid and credited: forged repeats must not credit it again
  const paid = await invoiceRow(t, (await deposit(t, b.id, { amount: 50000 })).invoice_id);
  assert.equal((await postPgone(t, pgoneForm(t, paid))).statusCode, 200);
  await eventually(async () => (await wallet(t, b.id))?.actual_balance === '50000.00');
  invoices.push(await invoiceRow(t, paid.id));
  otherGatewayInvoice = invoices.find((i) => i.id !== paid.id && invoices.indexOf(i) >= 3)!;
});
after(() => t.close());

const pgoneInvoices = () => invoices.filter((_, i) => i < 3 || i === 5);
const pgtwoInvoices = () => invoices.filter((_, i) => i === 3 || i === 4);

type Fields = Record<string, string | string[] | undefined>;

function encode(fields: Fields): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    for (const one of ([] as string[]).concat(v)) form.append(k, one);
  }
  return form.toString();
}

/** Every mutation turns a valid success callback into one that must not credit anything. */
const pgoneMutation = fc.oneof(
  fc.record({ kind: fc.constant('amount' as const), delta: fc.integer({ min: -100000, max: 100000 }).filter((d) => d !== 0) }),
  fc.record({ kind: fc.constant('amount-text' as const), text: fc.oneof(fc.constantFrom('', '0', '-1', '1e5', 'NaN', '10,000', ' 1'), fc.string()) }),
  fc.record({ kind: fc.constant('order-id' as const), id: fc.oneof(fc.uuid(), fc.string(), fc.constantFrom("' or 1=1 --", '00000000-0000-0000-0000-000000000000')) }),
  fc.record({ kind: fc.constant('order-id-other-invoice' as const), resign: fc.boolean() }),
  fc.record({ kind: fc.constant('merchant-code' as const), code: fc.string({ minLength: 1 }) }),
  fc.record({ kind: fc.constant('wrong-key' as const), key: fc.string({ minLength: 1 }) }),
  fc.record({ kind: fc.constant('signature-upper' as const) }),
  fc.record({ kind: fc.constant('signature-length' as const), cut: fc.integer({ min: -64, max: 10 }).filter((n) => n !== 0) }),
  fc.record({ kind: fc.constant('signature-garbage' as const), sig: fc.oneof(fc.string(), fc.string({ minLength: 64, maxLength: 64 }), fc.constant('é'.repeat(64))) }),
  fc.record({ kind: fc.constant('missing' as const), field: fc.constantFrom('merchantOrderId', 'amount', 'resultCode', 'signature') }),
  fc.record({ kind: fc.constant('duplicate-field' as const), field: fc.constantFrom('merchantOrderId', 'amount', 'resultCode', 'signature') }),
  fc.record({ kind: fc.constant('result-code' as const), code: fc.oneof(fc.constantFrom('01', '02', '', '0', '000', '99', ' 00', '00 '), fc.string()).filter((c) => c !== '00') }),
  fc.record({ kind: fc.constant('resigned-wrong-amount' as const), delta: fc.integer({ min: 1, max: 1000 }) }),
);

function forgePgone(inv: InvoiceRow, m: typeof pgoneMutation extends fc.Arbitrary<infer T> ? T : never): string {
  const { pgoneMerchantCode: code, pgoneApiKey: key } = t.container.config;
  const base = new URLSearchParams(pgoneForm(t, inv));
  const fields: Fields = Object.fromEntries(base);
  const sign = (k: string, c: string, amount: string, id: string) => hmacSha256Hex(k, `${c}${amount}${id}`);
  switch (m.kind) {
    case 'amount':
      fields.amount = String(Math.max(0, Number(fields.amount) + m.delta));
      if (fields.amount === base.get('amount')) fields.amount = `${fields.amount}1`;
      break;
    case 'amount-text':
      fields.amount = m.text === base.get('amount') ? `${m.text}0` : m.text;
      break;
    case 'order-id':
      fields.merchantOrderId = m.id;
      break;
    case 'order-id-other-invoice': {
      const other = invoices.find((i) => i.id !== inv.id)!;
      fields.merchantOrderId = other.id;
      if (m.resign) fields.signature = sign(key, code, fields.amount as string, other.id);
      break;
    }
    case 'merchant-code':
      if (m.code !== code) fields.signature = sign(key, m.code, fields.amount as string, inv.id);
      else fields.signature = 'x';
      break;
    case 'wrong-key':
      fields.signature = m.key === key ? 'x' : sign(m.key, code, fields.amount as string, inv.id);
      break;
    case 'signature-upper':
      fields.signature = (fields.signature as string).toUpperCase();
      if (fields.signature === base.get('signature')) fields.signature = `${fields.signature}0`;
      break;
    case 'signature-length': {
      const s = fields.signature as string;
      fields.signature = m.cut < 0 ? s.slice(0, s.length + m.cut) : s + 'a'.repeat(m.cut);
      break;
    }
    case 'signature-garbage':
      fields.signature = m.sig === base.get('signature') ? 'x' : m.sig;
      break;
    case 'missing':
      fields[m.field] = undefined;
      break;
    case 'duplicate-field':
      fields[m.field] = [fields[m.field] as string, fields[m.field] as string];
      break;
    case 'result-code':
      fields.resultCode = m.code;
      break;
    case 'resigned-wrong-amount': {
      const amount = String(Number(fields.amount) + m.delta);
      fields.amount = amount;
      fields.signature = sign(key, code, amount, inv.id);
      break;
    }
  }
  return encode(fields);
}

const pgtwoMutation = fc.oneof(
  fc.record({ kind: fc.constant('body-after-signing' as const), field: fc.constantFrom('amount', 'external_id', 'status', 'id'), value: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
  fc.record({ kind: fc.constant('signature-upper' as const) }),
  fc.record({ kind: fc.constant('signature-length' as const), cut: fc.integer({ min: -64, max: 10 }).filter((n) => n !== 0) }),
  fc.record({ kind: fc.constant('signature-garbage' as const), sig: fc.oneof(fc.string(), fc.constant('é'.repeat(64))) }),
  fc.record({ kind: fc.constant('no-signature' as const) }),
  fc.record({ kind: fc.constant('wrong-secret' as const), secret: fc.string({ minLength: 1 }) }),
  fc.record({ kind: fc.constant('whitespace' as const) }),
  fc.record({ kind: fc.constant('resigned-status' as const), status: fc.oneof(fc.constantFrom('FAILED', 'EXPIRED', 'paid', 'PENDING', ''), fc.string()).filter((s) => s !== 'PAID' && s !== 'SETTLED') }),
  fc.record({ kind: fc.constant('resigned-wrong-amount' as const), delta: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ kind: fc.constant('resigned-missing' as const), field: fc.constantFrom('id', 'external_id', 'amount', 'status') }),
  fc.record({ kind: fc.constant('resigned-not-json' as const), body: fc.oneof(fc.string(), fc.constantFrom('[]', 'null', '"x"', '{')) }),
  fc.record({ kind: fc.constant('resigned-unknown-invoice' as const), id: fc.oneof(fc.uuid(), fc.string()) }),
);

function forgePgtwo(inv: InvoiceRow, m: typeof pgtwoMutation extends fc.Arbitrary<infer T> ? T : never): { body: string; signature?: string } {
  const secret = t.container.config.pgtwoCallbackSecret;
  const valid = pgtwoCallback(t, inv);
  const obj = JSON.parse(valid.body) as Record<string, unknown>;
  const resign = (body: string) => ({ body, signature: hmacSha256Hex(secret, body) });
  switch (m.kind) {
    case 'body-after-signing': {
      const changed = { ...obj, [m.field]: m.value };
      const body = JSON.stringify(changed);
      return { body: body === valid.body ? `${body} ` : body, signature: valid.signature };
    }
    case 'signature-upper':
      return { body: valid.body, signature: valid.signature.toUpperCase() };
    case 'signature-length':
      return { body: valid.body, signature: m.cut < 0 ? valid.signature.slice(0, 64 + m.cut) : valid.signature + 'f'.repeat(m.cut) };
    case 'signature-garbage':
      return { body: valid.body, signature: m.sig === valid.signature ? 'x' : m.sig };
    case 'no-signature':
      return { body: valid.body };
    case 'wrong-secret':
      return { body: valid.body, signature: m.secret === secret ? 'x' : hmacSha256Hex(m.secret, valid.body) };
    case 'whitespace':
      return { body: ` ${valid.body}`, signature: valid.signature };
    case 'resigned-status':
      return resign(JSON.stringify({ ...obj, status: m.status }));
    case 'resigned-wrong-amount':
      return resign(JSON.stringify({ ...obj, amount: Number(obj.amount) + m.delta }));
    case 'resigned-missing': {
      const copy = { ...obj };
      delete copy[m.field];
      return resign(JSON.stringify(copy));
    }
    case 'resigned-not-json':
      return resign(m.body);
    case 'resigned-unknown-invoice':
      return resign(JSON.stringify({ ...obj, external_id: m.id === inv.id ? randomUUID() : m.id }));
  }
}

describe('forged or altered callbacks never move money and never answer 5xx', () => {
  test('pgone (form)', async () => {
    const before = await moneyState();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pgoneInvoices()), pgoneMutation, async (inv, m) => {
        const res = await postPgone(t, forgePgone(inv, m));
        assert.ok([200, 400, 401, 404].includes(res.statusCode), `${m.kind}: HTTP ${res.statusCode} ${res.body}`);
        if (res.statusCode !== 200) assert.equal(typeof res.json().code, 'string');
      }),
      { numRuns: 400 },
    );
    await queueDrained(t, { queues: ['billing-high'] });
    assert.deepEqual(await moneyState(), before);
  });

  test('pgtwo (JSON, signed raw body)', async () => {
    const before = await moneyState();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pgtwoInvoices()), pgtwoMutation, async (inv, m) => {
        const res = await postPgtwo(t, forgePgtwo(inv, m));
        assert.ok([200, 400, 401, 404].includes(res.statusCode), `${m.kind}: HTTP ${res.statusCode} ${res.body}`);
      }),
      { numRuns: 400 },
    );
    await queueDrained(t, { queues: ['billing-high'] });
    assert.deepEqual(await moneyState(), before);
  });

  test('specific answers: 401 bad signature, 400 amount mismatch, 404 unknown invoice, 400 wrong gateway', async () => {
    const c = await createCustomer(t);
    const inv = await invoiceRow(t, (await deposit(t, c.id, { amount: 10000 })).invoice_id);
    const { pgoneMerchantCode: code, pgoneApiKey: key } = t.container.config;
    let res = await postPgone(t, pgoneForm(t, inv, '00', { signature: 'deadbeef' }));
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'INVALID_SIGNATURE');
    res = await postPgone(t, pgoneForm(t, inv, '00', { signature: undefined }));
    assert.equal(res.statusCode, 401, 'a missing signature is a signature that does not match');
    res = await postPgone(t, pgoneForm(t, inv, '00', { amount: '9999', signature: hmacSha256Hex(key, `${code}9999${inv.id}`) }));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'AMOUNT_MISMATCH');
    const ghost = randomUUID();
    res = await postPgone(t, pgoneForm(t, { id: ghost, total_amount: '10070.00' }));
    assert.equal(res.statusCode, 404);
    res = await postPgone(t, pgoneForm(t, { id: otherGatewayInvoice.id, total_amount: otherGatewayInvoice.total_amount }));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'GATEWAY_MISMATCH');
    // The real one still goes through afterwards (the checks above can fail the other way too).
    assert.equal((await postPgone(t, pgoneForm(t, inv))).statusCode, 200);
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '10000.00');
  });

  test('failed and expired results: Pending → Failed / Expired, repeats 200, no money', async () => {
    const c = await createCustomer(t);
    const one = await invoiceRow(t, (await deposit(t, c.id, { amount: 10000 })).invoice_id);
    for (let i = 0; i < 3; i++) assert.equal((await postPgone(t, pgoneForm(t, one, '01'))).statusCode, 200);
    assert.equal((await invoiceRow(t, one.id)).status, 'Failed');

    const two = await invoiceRow(t, (await deposit(t, c.id, { amount: 10000, gateway_name: 'pgtwo' })).invoice_id);
    assert.equal((await postPgtwo(t, pgtwoCallback(t, two, 'EXPIRED'))).statusCode, 200);
    assert.equal((await invoiceRow(t, two.id)).status, 'Expired');
    const three = await invoiceRow(t, (await deposit(t, c.id, { amount: 10000, gateway_name: 'pgtwo' })).invoice_id);
    assert.equal((await postPgtwo(t, pgtwoCallback(t, three, 'FAILED'))).statusCode, 200);
    assert.equal((await invoiceRow(t, three.id)).status, 'Failed');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal(await wallet(t, c.id), undefined, 'no wallet: nothing was ever credited');
  });

  test('a verified success after a failure report is credited once: the gateway took the money', async () => {
    const c = await createCustomer(t);
    const inv = await invoiceRow(t, (await deposit(t, c.id, { amount: 10000 })).invoice_id);
    assert.equal((await postPgone(t, pgoneForm(t, inv, '01'))).statusCode, 200);
    assert.equal((await invoiceRow(t, inv.id)).status, 'Failed');
    const late = await Promise.all(Array.from({ length: 5 }, () => postPgone(t, pgoneForm(t, inv, '00'))));
    for (const r of late) assert.equal(r.statusCode, 200);
    assert.equal((await invoiceRow(t, inv.id)).status, 'Paid');
    await eventually(async () => (await wallet(t, c.id))?.actual_balance === '10000.00');
    // a failure report after that does not undo the payment
    assert.equal((await postPgone(t, pgoneForm(t, inv, '01'))).statusCode, 200);
    assert.equal((await invoiceRow(t, inv.id)).status, 'Paid');
    await queueDrained(t, { queues: ['billing-high'] });
    assert.equal((await ledgerOf(t, c.id)).length, 1);
  });
});
