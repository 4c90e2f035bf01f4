import type { DocumentParties } from '../../platform/pdf/pdf.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { TopupsService } from '../billing/index.js';
import type { WalletService } from '../wallet/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { BillableStartService } from './billable-start.service.js';
import { BillingUsageService } from './billing-usage.service.js';
import { ChargingRepository } from './charging.repository.js';
import { chargingAdminRoutes, chargingRoutes } from './charging.routes.js';
import { ChargingService, type AfterCharging } from './charging.service.js';
import { MeteringService } from './metering.service.js';
import { PostpaidPaymentsService } from './postpaid-payments.service.js';
import { PostpaidRepository } from './postpaid.repository.js';
import { postpaidAdminRoutes, postpaidRoutes } from './postpaid.routes.js';
import { PostpaidService } from './postpaid.service.js';
import { SuspensionRepository, UsageViewRepository } from './suspension.repository.js';
import { SuspensionService, type ChargingNotifier, type ResourceSuspender } from './suspension.service.js';

export interface ChargingDeps {
  wallet: WalletService;
  /** top-ups: a postpaid payment is made as one, and one download serves every invoice */
  topups: TopupsService;
  notifications: ChargingNotifier;
  webhookEvents: WebhookEmitter;
  /** who issues and who receives an invoice (company and customers) */
  parties: DocumentParties;
  /** what a suspension stops and a resumption starts (src/flows/customer-suspension.ts) */
  suspender: ResourceSuspender;
  /** told after each run of the hourly charge, after the suspension sweep (src/flows/hourly-charged.ts) */
  charged: AfterCharging;
}

/**
 * Charging: meters, the hourly charge, suspension, postpaid invoices and their payments. Resource
 * modules meter themselves through `metering` and ask `billableStart` before a create.
 */
export function createChargingModule(p: Platform, deps: ChargingDeps) {
  const { db, clock, log, queue, mailer, config } = p;
  const chargingRepo = new ChargingRepository();
  const metering = new MeteringService(db, chargingRepo);
  const suspensionRepo = new SuspensionRepository();
  // "may this customer start something billable": every create of a metered resource asks it
  const billableStart = new BillableStartService(suspensionRepo);
  const suspension = new SuspensionService(db, suspensionRepo, queue, mailer, clock, log, config.currency, deps.webhookEvents, deps.notifications, deps.suspender);
  // after each run's charges, the suspension sweep; a customer set aside and charged again gets
  // the postpaid invoices they waited for (postpaid is built below: it charges due hours itself)
  const afterCharging: AfterCharging = {
    afterCharging: async () => {
      await suspension.afterCharging();
      await deps.charged.afterCharging();
    },
  };
  const charging: ChargingService = new ChargingService(db, chargingRepo, clock, log, afterCharging, { chargesResolved: (customerId, firstHour): Promise<void> => postpaid.chargesResolved(customerId, firstHour) });
  const billingUsage = new BillingUsageService(db, new UsageViewRepository(), suspensionRepo, clock);
  const postpaidRepo = new PostpaidRepository();
  const postpaid = new PostpaidService(db, postpaidRepo, queue, mailer, charging, suspension, clock, log, config.currency, deps.webhookEvents, deps.parties, deps.topups);
  const postpaidPayments = new PostpaidPaymentsService(db, postpaidRepo, deps.wallet, deps.topups, p.idempotency, queue, mailer, suspension, clock, config.currency, deps.webhookEvents);
  return {
    services: { metering, charging, suspension, billingUsage, postpaid, postpaidPayments },
    billableStart,
    jobs: [charging.hourlyJob, suspension.applyJob, suspension.sweepJob, postpaid.issueJob, postpaid.overdueJob],
    gauges: [
      {
        name: 'charge_failures_open',
        help: 'Customers the hourly charge set aside because charging them failed (GET /api/backoffice/billing/charge-failures)',
        read: () => charging.openFailures(),
      },
    ],
    routes: [
      mount('backoffice', chargingAdminRoutes, { usage: billingUsage, charging }),
      mount('backoffice', postpaidAdminRoutes, { postpaid, payments: postpaidPayments }),
      mount('customer', chargingRoutes, { prefix: '/api/billing', usage: billingUsage }),
      mount('customer', postpaidRoutes, { prefix: '/api/billing', postpaid, payments: postpaidPayments }),
    ],
  } satisfies BuiltModule;
}
