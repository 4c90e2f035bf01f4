import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, IntId, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import {
  AdminTopup,
  AdminInvoiceQuery,
  Coupon,
  CouponCreateBody,
  CouponIdParams,
  CouponPatchBody,
  CreditFailure,
  CreditFailureQuery,
  CreditRetry,
  InvoiceIdPath,
  MinimumOverride,
  MinimumOverrideBody,
  PaymentCallbackEntry,
  PaymentCallbackQuery,
} from './billing.schemas.js';
import type { CouponsService } from './coupons.service.js';
import type { TopupsService } from './topups.service.js';
import type { TopupCallbacksService } from './topup-callbacks.service.js';
import type { TopupCreditFailuresService } from './topup-credit-failures.service.js';
import { adminTopupView, callbackView, couponView, creditFailureView } from './billing.present.js';

const tags = ['Backoffice billing'];

/** Backoffice: top-up invoices of all customers, per-account minimum, coupons (under /api/backoffice). */
export const billingAdminRoutes: FastifyPluginAsyncTypebox<{ topups: TopupsService; coupons: CouponsService; callbacks: TopupCallbacksService; creditFailures: TopupCreditFailuresService }> = async (
  app,
  { topups, coupons, callbacks, creditFailures },
) => {
  app.get(
    '/billing/prepaid/invoices',
    {
      config: { permission: 'view_billing' },
      schema: {
        tags,
        summary: 'Top-up invoices of all customers, newest first',
        querystring: AdminInvoiceQuery,
        response: { 200: Paginated(AdminTopup), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await topups.adminList({ status: req.query.status, customerId: req.query.customer_id }, p);
      return paginated('OK', p, { items: page.items.map(adminTopupView), total: page.total });
    },
  );

  app.get(
    '/billing/payment-callbacks',
    {
      config: { permission: 'view_transactions' },
      schema: {
        tags,
        summary: 'Every payment gateway callback received, verified or not, newest first (the reconciliation trail)',
        querystring: PaymentCallbackQuery,
        response: { 200: Paginated(PaymentCallbackEntry), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const q = req.query;
      const filter = {
        ...(q.invoice_id !== undefined ? { invoiceId: q.invoice_id } : {}),
        ...(q.gateway !== undefined ? { gatewayName: q.gateway } : {}),
        ...(q.outcome !== undefined ? { outcome: q.outcome } : {}),
        ...(q.signature_valid !== undefined ? { signatureValid: q.signature_valid } : {}),
      };
      const page = await callbacks.listCallbacks(filter, p);
      return paginated('OK', p, { items: page.items.map(callbackView), total: page.total });
    },
  );

  app.get(
    '/billing/credit-failures',
    {
      config: { permission: 'view_transactions' },
      schema: {
        tags,
        summary: 'Paid top-ups whose wallet credit failed: open ones (default) or, with resolved=true, those credited since',
        description:
          'A paid invoice always ends credited or listed here. A permanent failure (a business rule refused the credit, or 20 runs failed) is not retried until staff retry it.',
        querystring: CreditFailureQuery,
        response: { 200: Paginated(CreditFailure), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await creditFailures.listCreditFailures({ resolved: req.query.resolved ?? false }, p);
      return paginated('OK', p, { items: page.items.map(creditFailureView), total: page.total });
    },
  );

  app.post(
    '/billing/credit-failures/:invoice_id/retry',
    {
      config: { permission: 'manage_balance', audit: 'billing.credit_retried' },
      schema: {
        tags,
        summary: 'Retry crediting a paid top-up (once the cause is fixed); it is queued now and retried again by the sweep',
        params: InvoiceIdPath,
        response: { 200: Envelope(CreditRetry), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Credit queued', data: await creditFailures.retryCreditFailure(req.params.invoice_id) }),
  );

  app.put(
    '/customer/:customer_id/topup-minimum',
    {
      config: { permission: 'edit_users', audit: 'customer.topup_minimum_changed' },
      schema: {
        tags,
        summary: "Set (or with null, clear) a customer's own minimum top-up",
        params: Type.Object({ customer_id: IntId }),
        body: MinimumOverrideBody,
        response: { 200: Envelope(MinimumOverride), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Minimum top-up updated', data: await topups.setMinimum(req.params.customer_id, req.body.minimum_amount) }),
  );

  app.get(
    '/coupons',
    { config: { permission: 'manage_coupons' }, schema: { tags, summary: 'Top-up coupons', querystring: PageQuery, response: { 200: Paginated(Coupon), ...errorResponses(400, 401, 403) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await coupons.list(p);
      return paginated('OK', p, { items: page.items.map(couponView), total: page.total });
    },
  );

  app.post(
    '/coupons',
    {
      config: { permission: 'manage_coupons', audit: 'coupon.created' },
      schema: { tags, summary: 'Create a top-up coupon', body: CouponCreateBody, response: { 201: Envelope(Coupon), ...errorResponses(400, 401, 403, 409) } },
    },
    async (req, reply) => reply.status(201).send({ message: 'Coupon created', data: couponView(await coupons.create(req.body)) }),
  );

  app.get(
    '/coupons/:id',
    { config: { permission: 'manage_coupons' }, schema: { tags, summary: 'One coupon', params: CouponIdParams, response: { 200: Envelope(Coupon), ...errorResponses(401, 403, 404) } } },
    async (req) => ({ message: 'OK', data: couponView(await coupons.get(req.params.id)) }),
  );

  app.patch(
    '/coupons/:id',
    {
      config: { permission: 'manage_coupons', audit: 'coupon.updated' },
      schema: { tags, summary: 'Change a coupon', params: CouponIdParams, body: CouponPatchBody, response: { 200: Envelope(Coupon), ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (req) => ({ message: 'Coupon updated', data: couponView(await coupons.update(req.params.id, req.body)) }),
  );

  app.delete(
    '/coupons/:id',
    {
      config: { permission: 'manage_coupons', audit: 'coupon.deleted' },
      schema: { tags, summary: 'Delete a coupon (it stops working; redemptions are kept)', params: CouponIdParams, response: { 200: MessageOnly, ...errorResponses(401, 403, 404) } },
    },
    async (req) => {
      await coupons.remove(req.params.id);
      return { message: 'Coupon deleted', data: null };
    },
  );
};
