import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { gatewayAmount, hmacSha256Hex } from '../../src/integrations/payment-gateways/index.js';
import type { TestApp } from './app.js';

/** Customers come from the identity helpers (a verified account with a password). */
export { createCustomer, customerSession } from './customers.js';

export interface InvoiceRow {
  id: string;
  customer_id: number;
  status: string;
  amount: string;
  total_amount: string;
  gateway_reference: string | null;
}

export async function invoiceRow(t: TestApp, id: string): Promise<InvoiceRow> {
  const [row] = await queryRows<InvoiceRow>(
    t.container.db,
    sql`select id::text, customer_id, status, amount::text, total_amount::text, gateway_reference from topup_invoices where id = ${id}`,
  );
  if (!row) throw new Error(`no invoice ${id}`);
  return row;
}

/** A deposit made through the service (the customer routes need a login). */
export async function deposit(t: TestApp, customerId: number, input: { amount: number; gateway_name?: string; method_code?: string; coupon_code?: string | null }, key?: string) {
  const gateway = input.gateway_name ?? 'pgone';
  return t.container.services.topups.createTopup(
    customerId,
    { amount: input.amount, gateway_name: gateway, method_code: input.method_code ?? (gateway === 'pgone' ? 'SP' : 'QRIS'), coupon_code: input.coupon_code },
    key,
  );
}

/** A correctly signed pgone callback body (form-encoded); `over` alters fields after signing. */
export function pgoneForm(
  t: TestApp,
  invoice: { id: string; total_amount: string },
  resultCode = '00',
  over: Record<string, string | undefined> = {},
): string {
  const { pgoneMerchantCode, pgoneApiKey } = t.container.config;
  const amount = gatewayAmount(invoice.total_amount);
  const fields: Record<string, string | undefined> = {
    merchantCode: pgoneMerchantCode,
    amount,
    merchantOrderId: invoice.id,
    resultCode,
    reference: 'REF123',
    signature: hmacSha256Hex(pgoneApiKey, `${pgoneMerchantCode}${amount}${invoice.id}`),
    ...over,
  };
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  return form.toString();
}

export function pgtwoCallback(
  t: TestApp,
  invoice: { id: string; total_amount: string },
  status = 'PAID',
  over: Record<string, unknown> = {},
): { body: string; signature: string } {
  const body = JSON.stringify({
    id: 'inv-gw-1',
    external_id: invoice.id,
    amount: Number(gatewayAmount(invoice.total_amount)),
    status,
    paid_at: '2030-01-01T00:00:00.000Z',
    ...over,
  });
  return { body, signature: hmacSha256Hex(t.container.config.pgtwoCallbackSecret, body) };
}

export function postPgone(t: TestApp, form: string) {
  return t.app.inject({ method: 'POST', url: '/api/webhook/pgone/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
}

export function postPgtwo(t: TestApp, cb: { body: string; signature?: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhook/pgtwo/callback',
    headers: { 'content-type': 'application/json', ...(cb.signature !== undefined ? { 'x-callback-signature': cb.signature } : {}) },
    payload: cb.body,
  });
}

export interface WalletCheck {
  customer_id: number;
  actual_balance: string;
  current_balance: string;
  ledger_actual: string;
  ledger_current: string;
  last_actual_after: string | null;
  last_current_after: string | null;
}

/** Every wallet next to the sums of its ledger (SQL, no JS arithmetic). */
export async function walletsVsLedger(t: TestApp): Promise<WalletCheck[]> {
  return queryRows<WalletCheck>(
    t.container.db,
    sql`select w.customer_id, w.actual_balance::text, w.current_balance::text,
               coalesce(sum(l.actual_amount), 0)::numeric(18,2)::text as ledger_actual,
               coalesce(sum(l.amount), 0)::numeric(18,2)::text as ledger_current,
               (select actual_balance_after::text from balance_logs x where x.customer_id = w.customer_id order by id desc limit 1) as last_actual_after,
               (select current_balance_after::text from balance_logs x where x.customer_id = w.customer_id order by id desc limit 1) as last_current_after
        from wallets w left join balance_logs l on l.customer_id = w.customer_id
        group by w.customer_id order by w.customer_id`,
  );
}

export async function wallet(t: TestApp, customerId: number): Promise<{ actual_balance: string; current_balance: string } | undefined> {
  const [row] = await queryRows<{ actual_balance: string; current_balance: string }>(
    t.container.db,
    sql`select actual_balance::text, current_balance::text from wallets where customer_id = ${customerId}`,
  );
  return row;
}

export async function ledgerOf(t: TestApp, customerId: number) {
  return queryRows<{ type: string; amount: string; actual_amount: string; bonus_amount: string; reference_type: string; reference_id: string }>(
    t.container.db,
    sql`select type, amount::text, actual_amount::text, bonus_amount::text, reference_type, reference_id from balance_logs where customer_id = ${customerId} order by id`,
  );
}

/** Jobs ever created on a queue for a payload matching the invoice. */
export async function creditJobsFor(t: TestApp, invoiceId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.container.db,
    sql`select count(*)::int as n from pgboss.job where name = 'billing-high' and data->'payload'->>'invoiceId' = ${invoiceId}`,
  );
  return row!.n;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
