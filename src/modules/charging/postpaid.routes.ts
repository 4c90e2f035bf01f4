import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminOf, customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { idempotencyKeyOf } from '../../platform/idempotency/idempotency.js';
import { IdempotencyHeaders } from '../../platform/idempotency/idempotency.schemas.js';
import type { PostpaidPaymentsService } from './postpaid-payments.service.js';
import type { PostpaidService } from './postpaid.service.js';
import { invoiceDetailView, invoiceView } from './charging.present.js';
import {
  AdminListQuery,
  AdminPostpaidInvoiceDetail,
  BulkPayBody,
  CustomerListQuery,
  ExportQuery,
  InvoiceParams,
  PayAnswer,
  PayBody,
  PostpaidInvoice,
  PostpaidInvoiceDetail,
  PostpaidSummary,
  VerifyBody,
} from './postpaid.schemas.js';

const Pdf = Type.Unsafe({ type: 'string', format: 'binary', description: 'PDF document' });

/** /api/billing/postpaid/* and /api/billing/invoice/{id}/download (docs/api.md, "Postpaid invoices"). */
export const postpaidRoutes: FastifyPluginAsyncTypebox<{ postpaid: PostpaidService; payments: PostpaidPaymentsService }> = async (app, { postpaid, payments }) => {
  const tags = ['Billing (postpaid)'];
  app.get('/postpaid/summary', { schema: { tags, summary: 'Unpaid total, counts, next due date and this month so far', response: { 200: Envelope(PostpaidSummary), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: await postpaid.summary(customerOf(req).customerId),
  }));
  app.get(
    '/postpaid/invoices',
    { schema: { tags, summary: 'My postpaid invoices, newest first', querystring: CustomerListQuery, response: { 200: Paginated(PostpaidInvoice), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await postpaid.list({ customerId: customerOf(req).customerId, status: req.query.status }, p);
      return paginated('OK', p, { items: page.items.map(invoiceView), total: page.total });
    },
  );
  app.get(
    '/postpaid/invoices/unpaid',
    { schema: { tags, summary: 'My invoices with status UNPAID or OVERDUE', response: { 200: Envelope(Type.Array(PostpaidInvoice)), ...errorResponses(401) } } },
    async (req) => ({ message: 'OK', data: (await postpaid.unpaid(customerOf(req).customerId)).map(invoiceView) }),
  );
  app.get(
    '/postpaid/invoices/:invoice_id',
    { schema: { tags, summary: 'One invoice with its lines (a line per resource and period)', params: InvoiceParams, response: { 200: Envelope(PostpaidInvoiceDetail), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: invoiceDetailView(await postpaid.detail(req.params.invoice_id, customerOf(req).customerId), false) }),
  );
  app.post(
    '/postpaid/invoices/:invoice_id/pay',
    {
      config: { activity: 'postpaid.payment_made' },
      schema: {
        tags,
        summary: 'Pay an invoice: the wallet first, a gateway payment link for the remainder',
        description:
          'method_code and gateway_name are needed only when the wallet does not cover the invoice (400 PAYMENT_METHOD_REQUIRED otherwise). The link is a top-up of at least the minimum top-up; once it is paid the invoice becomes PAID and anything above the remainder stays in the wallet. One open payment per invoice: the same request while its link is open answers that payment again (nothing more is taken); a payment naming one of its invoices with others is 409 PAYMENT_IN_PROGRESS. Idempotency-Key (optional).',
        params: InvoiceParams,
        headers: IdempotencyHeaders,
        body: PayBody,
        response: { 200: Envelope(PayAnswer), ...errorResponses(400, 401, 402, 404, 409, 502) },
      },
    },
    async (req) => ({
      message: 'Payment started',
      data: await payments.pay(customerOf(req).customerId, [req.params.invoice_id], req.body ?? {}, idempotencyKeyOf(req.headers['idempotency-key'])),
    }),
  );
  app.post(
    '/postpaid/payment',
    {
      config: { activity: 'postpaid.payment_made' },
      schema: {
        tags,
        summary: 'Pay several invoices at once: the wallet first, one gateway payment for the remainder',
        description: 'One open payment per invoice, as for a single invoice: the same invoices again answer the open payment; any other set with one of them is 409 PAYMENT_IN_PROGRESS.',
        headers: IdempotencyHeaders,
        body: BulkPayBody,
        response: { 200: Envelope(PayAnswer), ...errorResponses(400, 401, 402, 404, 409, 502) },
      },
    },
    async (req) => ({
      message: 'Payment started',
      data: await payments.pay(customerOf(req).customerId, req.body.invoice_ids, req.body, idempotencyKeyOf(req.headers['idempotency-key'])),
    }),
  );
  app.get(
    '/invoice/:invoice_id/download',
    {
      schema: {
        tags,
        summary: 'Any of my invoices as PDF: a postpaid invoice, or a top-up invoice (its receipt once paid)',
        description: 'File name invoice_<number>.pdf for a postpaid invoice, invoice_<invoice id>.pdf for a top-up. Another customer\'s invoice is a 404.',
        produces: ['application/pdf'],
        params: InvoiceParams,
        response: { 200: Pdf, ...errorResponses(401, 404) },
      },
    },
    async (req, reply) => {
      const { filename, pdf } = await postpaid.pdf(req.params.invoice_id, customerOf(req).customerId);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );
};

/** /api/backoffice/billing/postpaid/* and export-invoice (docs/api.md, "Postpaid invoices"). */
export const postpaidAdminRoutes: FastifyPluginAsyncTypebox<{ postpaid: PostpaidService; payments: PostpaidPaymentsService }> = async (app, { postpaid, payments }) => {
  const tags = ['Backoffice billing'];
  app.get(
    '/billing/postpaid/invoices',
    {
      config: { permission: 'view_billing' },
      schema: { tags, summary: 'All postpaid invoices (filters: status, customer_id, period YYYY-MM, search)', querystring: AdminListQuery, response: { 200: Paginated(PostpaidInvoice), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await postpaid.list({ status: req.query.status, customerId: req.query.customer_id, period: req.query.period, search: req.query.search }, p);
      return paginated('OK', p, { items: page.items.map(invoiceView), total: page.total });
    },
  );
  app.get(
    '/billing/postpaid/invoices/:invoice_id',
    { config: { permission: 'view_billing' }, schema: { tags, summary: 'One postpaid invoice with its lines', params: InvoiceParams, response: { 200: Envelope(AdminPostpaidInvoiceDetail), ...errorResponses(401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: invoiceDetailView(await postpaid.detail(req.params.invoice_id), true) as never }),
  );
  app.patch(
    '/billing/postpaid/invoices/:invoice_id/verify',
    {
      config: { permission: 'verify_invoices', audit: 'postpaid.invoice_verified' },
      schema: {
        tags,
        summary: 'Mark an UNPAID or OVERDUE invoice PAID after checking a manual transfer (receipt e-mailed)',
        params: InvoiceParams,
        body: VerifyBody,
        response: { 200: Envelope(PostpaidInvoice), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => ({ message: 'Invoice verified', data: await payments.verify(adminOf(req).adminId, req.params.invoice_id, req.body.paid_note) }),
  );
  app.get(
    '/billing/export-invoice',
    { config: { permission: 'view_billing' }, schema: { tags, summary: 'Any invoice as PDF, postpaid or top-up (admin_invoice_YYYY-MM.pdf: the postpaid period, or the month the top-up invoice was made)', produces: ['application/pdf'], querystring: ExportQuery, response: { 200: Pdf, ...errorResponses(400, 401, 403, 404) } } },
    async (req, reply) => {
      const { filename, pdf } = await postpaid.pdf(req.query.id);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );
};
