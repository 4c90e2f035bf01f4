import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { moneyString } from '../../platform/money.js';
import { GatewayNameSchema } from './billing.schemas.js';
import type { SandboxPaymentsService } from './sandbox.service.js';

const Params = Type.Object({ gateway: GatewayNameSchema, invoice_id: Type.String({ format: 'uuid' }) });
const PayForm = Type.Object({ action: Type.Union([Type.Literal('pay'), Type.Literal('fail')]) }, { additionalProperties: false });

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body style="font-family:sans-serif;max-width:560px;margin:3em auto"><p style="background:#fef3c7;padding:6px 10px">SANDBOX: no real money moves</p>${body}</body></html>`;
}

/** The sandbox gateways' payment pages (only mounted when PAYMENT_MODE=sandbox; not part of the API). */
export const sandboxRoutes: FastifyPluginAsyncTypebox<{ sandbox: SandboxPaymentsService; publicUrl?: string }> = async (app, { sandbox }) => {
  app.get('/sandbox/pay/:gateway/:invoice_id', { config: { public: true }, schema: { hide: true, params: Params } }, async (req, reply) => {
    const { gateway, invoice_id } = req.params;
    const inv = await sandbox.invoice(gateway, invoice_id);
    const instructions = [
      inv.vaNumber ? `<p>Virtual account number: <b id="va">${esc(inv.vaNumber)}</b></p>` : '',
      inv.qrString ? `<p>QRIS payload: <code id="qr" style="word-break:break-all">${esc(inv.qrString)}</code></p>` : '',
    ].join('');
    const form =
      inv.status === 'Pending'
        ? `<form method="post" action="/sandbox/pay/${gateway}/${inv.id}"><button name="action" value="pay">Pay</button> <button name="action" value="fail">Fail</button></form>`
        : `<p>This invoice is <b>${esc(inv.status)}</b>.</p>`;
    const body = `<h1>${esc(gateway)} payment</h1><p>Invoice <code>${inv.id}</code></p><p>${esc(inv.methodName)}</p><p>Amount to pay: <b>${esc(inv.currency)} ${moneyString(inv.totalAmount)}</b></p><p>Expires at ${inv.expiresAt.toISOString()}</p>${instructions}${form}`;
    return reply.type('text/html; charset=utf-8').send(page(`${gateway} payment`, body));
  });

  app.post('/sandbox/pay/:gateway/:invoice_id', { config: { public: true }, schema: { hide: true, params: Params, body: PayForm } }, async (req, reply) => {
    const { gateway, invoice_id } = req.params;
    const out = await sandbox.complete(gateway, invoice_id, req.body.action === 'pay' ? 'success' : 'failed');
    if (out.callbackStatus !== 200) {
      return reply
        .status(502)
        .type('text/html; charset=utf-8')
        .send(page('Callback refused', `<h1>The service refused the callback</h1><p>HTTP ${out.callbackStatus}</p><pre>${esc(out.callbackBody)}</pre>`));
    }
    // relative: the page was opened on the address the top-up started from, and the person goes back there
    return reply.redirect(`/api/payment/redirect/${gateway}?status=${out.result === 'success' ? 'success' : 'failed'}`, 303);
  });
};
