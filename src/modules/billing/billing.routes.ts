import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { idempotencyKeyOf } from '../../platform/idempotency/idempotency.js';
import { IdempotencyHeaders } from '../../platform/idempotency/idempotency.schemas.js';
import { Topup, TopupBody, TopupCreated, TopupListQuery, InvoiceIdParams, PaymentMethod, TopupMinimum } from './billing.schemas.js';
import { paymentMethodView, topupView } from './billing.present.js';
import type { TopupsService } from './topups.service.js';

const tags = ['Billing'];

/** /api/billing: payment methods, minimum top-up and top-ups (customer surface). */
export const billingRoutes: FastifyPluginAsyncTypebox<{ topups: TopupsService }> = async (app, { topups }) => {
  app.get(
    '/payment-methods',
    { schema: { tags, summary: 'Payment methods of every gateway, with their fees', response: { 200: Envelope(Type.Array(PaymentMethod)), ...errorResponses(401) } } },
    async () => ({ message: 'OK', data: (await topups.paymentMethods()).map(paymentMethodView) }),
  );

  app.get(
    '/topup/minimum',
    { schema: { tags, summary: 'The smallest deposit this account may make', response: { 200: Envelope(TopupMinimum), ...errorResponses(401) } } },
    async (req) => ({ message: 'OK', data: await topups.minimum(customerOf(req).customerId) }),
  );

  app.post(
    '/deposit',
    {
      config: { activity: 'deposit.created' },
      schema: {
        tags,
        summary: 'Top up the wallet: creates a Pending invoice and its payment at the gateway',
        description: 'Idempotency-Key (optional): the same key and body replay the first answer without creating anything; the same key with another body is a 409.',
        headers: IdempotencyHeaders,
        body: TopupBody,
        response: { 200: Envelope(TopupCreated), ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (req) => ({
      message: 'Deposit created',
      data: await topups.createTopup(customerOf(req).customerId, req.body, idempotencyKeyOf(req.headers['idempotency-key']), startedFrom(req)),
    }),
  );

  app.get(
    '/deposit',
    { schema: { tags, summary: 'My deposits, newest first', querystring: TopupListQuery, response: { 200: Paginated(Topup), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await topups.list(customerOf(req).customerId, p);
      return paginated('OK', p, { items: page.items.map(topupView), total: page.total });
    },
  );

  app.get(
    '/deposit/export/pdf',
    {
      schema: {
        tags,
        summary: 'My deposits as a PDF statement',
        produces: ['application/pdf'],
        response: { 200: Type.Unsafe({ type: 'string', format: 'binary', description: 'PDF document' }), ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      const { filename, pdf } = await topups.exportPdf(customerOf(req).customerId);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );

  app.get(
    '/deposit/:invoice_id',
    { schema: { tags, summary: 'One of my deposits', params: InvoiceIdParams, response: { 200: Envelope(Topup), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: topupView(await topups.get(customerOf(req).customerId, req.params.invoice_id)) }),
  );
};

/**
 * The address of this service the person's browser is on, when the request says so consistently:
 * a browser sets Origin itself (a page cannot forge it), and it must name the very scheme and host
 * the request was sent to. The payment page and the return from the gateway then use that address,
 * so someone who opened the console on 127.0.0.1 comes back to 127.0.0.1 (and its cookies), not to
 * PUBLIC_URL. Any other Origin (another site, a separate front end) or none gives undefined:
 * PUBLIC_URL. Only this service's own address can come out of it, so it is never an open redirect.
 */
function startedFrom(req: FastifyRequest): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return undefined;
  return origin === `${req.protocol}://${req.host}` ? origin : undefined;
}
