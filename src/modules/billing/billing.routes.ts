import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { idempotencyKeyOf } from '../../platform/idempotency/idempotency.js';
import { IdempotencyHeaders } from '../../platform/idempotency/idempotency.schemas.js';
import { Deposit, DepositBody, DepositCreated, DepositListQuery, InvoiceIdParams, PaymentMethod, TopupMinimum } from './billing.schemas.js';
import type { DepositsService } from './deposits.service.js';

const tags = ['Billing'];

/** /api/billing: payment methods, minimum top-up and deposits (customer surface). */
export const billingRoutes: FastifyPluginAsyncTypebox<{ deposits: DepositsService }> = async (app, { deposits }) => {
  app.get(
    '/payment-methods',
    { schema: { tags, summary: 'Payment methods of every gateway, with their fees', response: { 200: Envelope(Type.Array(PaymentMethod)), ...errorResponses(401) } } },
    async () => ({ message: 'OK', data: await deposits.paymentMethods() }),
  );

  app.get(
    '/topup/minimum',
    { schema: { tags, summary: 'The smallest deposit this account may make', response: { 200: Envelope(TopupMinimum), ...errorResponses(401) } } },
    async (req) => ({ message: 'OK', data: await deposits.minimum(customerOf(req).customerId) }),
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
        body: DepositBody,
        response: { 200: Envelope(DepositCreated), ...errorResponses(400, 401, 409, 502) },
      },
    },
    async (req) => ({
      message: 'Deposit created',
      data: await deposits.createDeposit(customerOf(req).customerId, req.body, idempotencyKeyOf(req.headers['idempotency-key'])),
    }),
  );

  app.get(
    '/deposit',
    { schema: { tags, summary: 'My deposits, newest first', querystring: DepositListQuery, response: { 200: Paginated(Deposit), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      return paginated('OK', p, await deposits.list(customerOf(req).customerId, p));
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
      const { filename, pdf } = await deposits.exportPdf(customerOf(req).customerId);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );

  app.get(
    '/deposit/:invoice_id',
    { schema: { tags, summary: 'One of my deposits', params: InvoiceIdParams, response: { 200: Envelope(Deposit), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: await deposits.get(customerOf(req).customerId, req.params.invoice_id) }),
  );
};
