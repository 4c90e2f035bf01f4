import type { TopupCreditListener } from '../modules/billing/index.js';
import type { PostpaidPaymentsService, SuspensionService } from '../modules/charging/index.js';
import { exactNumber, type WebhookEmitter } from '../modules/webhooks/index.js';

/** Who hears of a credited top-up (a batch of them, in the crediting transaction). */
export interface TopupCreditedListeners {
  /** each customer's webhooks get `topup.credited` (one statement for the batch) */
  webhooks: WebhookEmitter;
  currency: string;
  /** a top-up may settle a postpaid payment */
  postpaidPayments: Pick<PostpaidPaymentsService, 'onTopupsCredited'>;
  /** a top-up may lift a balance suspension */
  suspension: Pick<SuspensionService, 'maybeResumeMany'>;
  /** first top-up and referral rewards: best effort (a failure is logged, the credit stands) */
  rewards: TopupCreditListener;
}

/**
 * A top-up credited: the reaction across modules, in one place. The listeners are passed as a
 * function because the billing module that credits is built before the modules that listen
 * (charging and rewards need billing); it is called at the first credit, when all exist.
 */
export function topupCreditedFlow(listeners: () => TopupCreditedListeners): readonly { listener: TopupCreditListener; bestEffort: boolean }[] {
  return [
    {
      // required: a failure fails the credit, which is retried
      bestEffort: false,
      listener: {
        topupsCredited: async (tx, topups) => {
          const l = listeners();
          await l.webhooks.emitMany(tx, topups.map((t) => ({ customerId: t.customerId, type: 'topup.credited', data: { invoice_id: t.invoiceId, amount: exactNumber(t.amount), currency: l.currency } })));
          await l.postpaidPayments.onTopupsCredited(tx, topups);
          await l.suspension.maybeResumeMany(tx, topups.map((t) => t.customerId));
        },
      },
    },
    { bestEffort: true, listener: { topupsCredited: (tx, topups) => listeners().rewards.topupsCredited(tx, topups) } },
  ];
}
