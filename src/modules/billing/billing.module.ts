import type { PaymentGateways } from '../../integrations/payment-gateways/index.js';
import type { DocumentParties } from '../../platform/pdf/pdf.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { WalletService } from '../wallet/index.js';
import { billingAdminRoutes } from './billing.admin-routes.js';
import { BillingRepository } from './billing.repository.js';
import { billingRoutes } from './billing.routes.js';
import { sandboxRoutes } from './billing.sandbox-routes.js';
import { seedPaymentMethods } from './billing.seed.js';
import { callbackRetentionJob } from './callback-retention.js';
import { paymentCallbackRoutes } from './payment-callbacks.routes.js';
import { CouponsRepository } from './coupons.repository.js';
import { CouponsService, couponsConstraintMeanings } from './coupons.service.js';
import { SandboxPaymentsService } from './sandbox.service.js';
import { TopupCallbacksService } from './topup-callbacks.service.js';
import { TopupCreditFailuresService } from './topup-credit-failures.service.js';
import { TopupCreditingService, type TopupCreditListener, type TopupNotifier } from './topup-crediting.service.js';
import { TopupExpiryService } from './topup-expiry.service.js';
import { TopupsService, type InvoiceNotifier } from './topups.service.js';

export interface BillingDeps {
  wallet: WalletService;
  gateways: PaymentGateways;
  /** in-app notices of credited top-ups (the notifications module) */
  notifications: TopupNotifier & InvoiceNotifier;
  /** who issues and who receives a receipt (company and customers) */
  parties: DocumentParties;
  /** who hears of a credited top-up (src/flows/topup-credited.ts) */
  credited: readonly { listener: TopupCreditListener; bestEffort: boolean }[];
}

/** Top-ups: their creation, coupons, the gateways' callbacks, crediting the wallet, expiry, the sandbox gateway. */
export function createBillingModule(p: Platform, deps: BillingDeps) {
  const { db, clock, log, queue, config } = p;
  const billingRepo = new BillingRepository();
  const coupons = new CouponsService(db, new CouponsRepository(), clock);
  const topups = new TopupsService(db, billingRepo, coupons, deps.gateways, p.idempotency, clock, {
    currency: config.currency,
    expiryHours: config.topupExpiryHours,
    parties: deps.parties,
  }, deps.wallet, deps.notifications);
  const topupCrediting = new TopupCreditingService(db, billingRepo, deps.wallet, coupons, queue, p.mailer, clock, log, deps.notifications, deps.credited);
  const topupCallbacks = new TopupCallbacksService(db, billingRepo, coupons, deps.gateways, queue, topupCrediting.creditJob, (id, job) => topupCrediting.creditOnPayment(id, job), clock, log);
  const topupCreditFailures = new TopupCreditFailuresService(db, billingRepo, queue, topupCrediting.creditJob);
  const topupExpiry = new TopupExpiryService(db, billingRepo, coupons, clock);
  const sandboxPayments = new SandboxPaymentsService(db, billingRepo, deps.gateways, clock, log, config.publicUrl);
  return {
    services: { coupons, topups, topupCrediting, topupCallbacks, topupCreditFailures, topupExpiry, sandboxPayments },
    seed: () => seedPaymentMethods(db, billingRepo),
    jobs: [topupCrediting.creditJob, topupCrediting.recreditInvoiceJob, topupExpiry.expireJob, topupCrediting.recreditJob, callbackRetentionJob({ db, repo: billingRepo, clock })],
    gauges: [
      {
        name: 'topup_credit_failures_open',
        help: 'Paid top-ups whose wallet credit failed and is not resolved (GET /api/backoffice/billing/credit-failures)',
        read: () => topupCreditFailures.openCreditFailures(),
      },
    ],
    routes: [
      ...(config.paymentMode === 'sandbox' ? [mount('root', sandboxRoutes, { sandbox: sandboxPayments, publicUrl: config.publicUrl }, { forms: true })] : []),
      mount('backoffice', billingAdminRoutes, { topups, coupons, callbacks: topupCallbacks, creditFailures: topupCreditFailures }),
      // Payment callbacks and redirect: public, open in maintenance mode (docs/api.md).
      mount('customer', paymentCallbackRoutes, {
        payments: topupCallbacks,
        frontendUrl: config.frontendUrl,
        consoleHere: config.console.enabled && config.frontendUrl === config.publicUrl,
        rateLimitPerMin: config.webhookRateLimitPerMin,
        rateLimits: p.rateLimits,
      }),
      mount('customer', billingRoutes, { prefix: '/api/billing', topups }),
    ],
    constraints: couponsConstraintMeanings,
  } satisfies BuiltModule;
}
