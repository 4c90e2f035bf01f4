import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { idempotencyKeyOf } from '../../platform/idempotency/idempotency.js';
import { IdempotencyHeaders } from '../../platform/idempotency/idempotency.schemas.js';
import type { WalletAdjustmentsService } from './wallet-adjustments.service.js';
import { driftView, ledgerEntryView } from './wallet.present.js';
import { Adjustment, AdjustmentBody, CustomerIdParams, LedgerEntry, WalletDrift } from './wallet.schemas.js';
import type { WalletReconciliationService } from './wallet-reconciliation.service.js';
import type { WalletService } from './wallet.service.js';

const tags = ['Backoffice billing'];

/** /api/backoffice/customer/{id}/balance and credit-history (docs/api.md, "Top-ups and the wallet"). */
export const walletAdminRoutes: FastifyPluginAsyncTypebox<{ wallet: WalletService; adjustments: WalletAdjustmentsService; reconciliation: WalletReconciliationService }> = async (
  app,
  { wallet, adjustments, reconciliation },
) => {
  app.get(
    '/billing/wallet-drift',
    {
      config: { permission: 'view_transactions' },
      schema: {
        tags,
        summary: 'Wallets whose balances differed from the sums of their ledger at the last reconciliation run (job wallet.reconcile, hourly)',
        querystring: PageQuery,
        response: { 200: Paginated(WalletDrift), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await reconciliation.list(p);
      return paginated('OK', p, { items: page.items.map(driftView), total: page.total });
    },
  );

  app.post(
    '/customer/:customer_id/balance',
    {
      config: { permission: 'manage_balance', audit: 'wallet.balance_adjusted' },
      schema: {
        tags,
        summary: "Add to or deduct from a customer's wallet (real money; audited)",
        description:
          'DEDUCT may not take actual_balance below zero (402 INSUFFICIENT_BALANCE). Idempotency-Key (optional): the same key and body replay the first answer; another body is a 409.',
        params: CustomerIdParams,
        headers: IdempotencyHeaders,
        body: AdjustmentBody,
        response: { 200: Envelope(Adjustment), ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req) => {
      const admin = adminOf(req);
      const actor = { adminId: admin.adminId, ip: req.ip, userAgent: req.headers['user-agent'] };
      const data = await adjustments.adjust(actor, req.params.customer_id, req.body, idempotencyKeyOf(req.headers['idempotency-key']));
      return { message: 'Balance adjusted', data };
    },
  );

  app.get(
    '/customer/:customer_id/credit-history',
    {
      config: { permission: 'view_billing' },
      schema: {
        tags,
        summary: "A customer's wallet ledger, newest first",
        params: CustomerIdParams,
        querystring: PageQuery,
        response: { 200: Paginated(LedgerEntry), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await wallet.historyOfCustomer(req.params.customer_id, p);
      return paginated('OK', p, { items: page.items.map(ledgerEntryView), total: page.total });
    },
  );
};
