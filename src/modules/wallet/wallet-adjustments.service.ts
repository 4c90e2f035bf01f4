import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { idempotencyRef, type IdempotencyStore } from '../../platform/idempotency/idempotency.js';
import { isMoneyInput, moneyInputRule, moneyJson, moneyString } from '../../platform/money.js';
import { BalanceLogType, type WalletService } from './wallet.service.js';
import { ledgerEntryView } from './wallet.present.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { displayMoney } from '../../platform/money-display.js';

/** The audit module's recorder, as this module needs it (container.ts passes the AuditService). */
export interface AuditRecorder {
  record(
    tx: Executor,
    entry: { actor: { type: 'admin'; id: number; ip?: string; userAgent?: string }; action: string; targetType?: string; targetId?: string | number; before?: unknown; after?: unknown },
  ): Promise<void>;
}

export interface AdjustmentInput {
  type: 'ADD' | 'DEDUCT';
  amount: number;
  description: string;
}

export interface AdminActor {
  adminId: number;
  ip?: string;
  userAgent?: string;
}

export type AdjustmentAnswer = {
  customer_id: number;
  actual_balance: string;
  current_balance: string;
  entry: ReturnType<typeof ledgerEntryView>;
};

/**
 * Manual balance adjustments by staff (docs/api.md, "Top-ups and the wallet"): ADD credits real money, DEDUCT takes real money
 * and may not take actual_balance below zero (402 INSUFFICIENT_BALANCE). Audited in the same
 * transaction; Idempotency-Key replays the first answer.
 */
/** Told about every staff ADD, in its transaction. */
export interface StaffCreditListener {
  staffCredited(tx: Executor, customerId: number): Promise<void>;
}

export class WalletAdjustmentsService {
  constructor(
    private readonly db: Database,
    private readonly wallet: WalletService,
    private readonly idempotency: IdempotencyStore,
    private readonly audit: AuditRecorder,
    private readonly mail: { mailer: Pick<Mailer, 'queueMail'>; currency: string },
    /** told about every staff ADD, in its transaction (lifting a balance suspension: src/flows/staff-credit.ts) */
    private readonly added: StaffCreditListener,
  ) {}

  /** What the customer reads: what changed, why, and the balance now. */
  private adjustedMail(firstName: string, type: 'ADD' | 'DEDUCT', amount: string, reason: string, balanceAfter: string) {
    const money = (v: string) => displayMoney(v, this.mail.currency);
    return noticeMail({
      template: type === 'ADD' ? 'balance_added' : 'balance_deducted',
      subject: type === 'ADD' ? `${money(amount)} was added to your balance` : `${money(amount)} was deducted from your balance`,
      lines: [
        `Hello ${firstName},`,
        type === 'ADD' ? `Our team added ${money(amount)} to your balance.` : `Our team deducted ${money(amount)} from your balance.`,
        `Reason: ${reason}`,
        `Your balance is now ${money(balanceAfter)}.`,
        'You can see every change under Billing in your account. If something looks wrong, open a support ticket.',
      ],
    });
  }

  async adjust(actor: AdminActor, customerId: number, input: AdjustmentInput, idempotencyKey?: string): Promise<AdjustmentAnswer> {
    if (!isMoneyInput(input.amount, true)) {
      throw new ValidationError('Validation failed', [{ field: 'amount', message: moneyInputRule(true) }]);
    }
    const description = input.description.trim();
    if (description === '') throw new ValidationError('Validation failed', [{ field: 'description', message: 'is required' }]);
    const ref = idempotencyRef('wallet.adjust', `admin:${actor.adminId}`, idempotencyKey, { customerId, ...input });
    // Claimed and answered in one transaction: a parallel repeat waits on the claim's row, then replays.
    return this.idempotency.run<AdjustmentAnswer>(ref, (key) =>
      this.db.transaction(async (tx) => {
        await key.claim(tx);
        const contact = await this.wallet.customerContact(customerId, tx);
        if (!contact) throw new NotFoundError('Customer');
        const before = await this.wallet.balances(customerId, tx);
        const common = {
          customerId,
          amount: moneyString(input.amount),
          referenceType: 'manual_adjustment',
          referenceId: randomUUID(),
          description,
          adminId: actor.adminId,
        };
        const result =
          input.type === 'ADD'
            ? await this.wallet.credit(tx, { ...common, type: BalanceLogType.AdjustAdd, part: 'actual' })
            : await this.wallet.debit(tx, { ...common, type: BalanceLogType.AdjustDeduct, from: 'actual', allowNegative: false });
        const entry = result.entry;
        if (input.type === 'ADD') await this.added.staffCredited(tx, customerId);
        await this.audit.record(tx, {
          actor: { type: 'admin', id: actor.adminId, ip: actor.ip, userAgent: actor.userAgent },
          action: input.type === 'ADD' ? 'wallet.balance_added' : 'wallet.balance_deducted',
          targetType: 'customer',
          targetId: customerId,
          before: { actual_balance: moneyString(before.actualBalance), current_balance: moneyString(before.currentBalance) },
          after: {
            actual_balance: moneyString(entry.actualBalanceAfter),
            current_balance: moneyString(entry.currentBalanceAfter),
            amount: moneyString(input.amount),
            description,
            balance_log_id: entry.id,
          },
        });
        await this.mail.mailer.queueMail(contact.email, this.adjustedMail(contact.firstName, input.type, moneyString(input.amount), description, entry.currentBalanceAfter), tx);
        const answer: AdjustmentAnswer = {
          customer_id: customerId,
          actual_balance: moneyJson(entry.actualBalanceAfter),
          current_balance: moneyJson(entry.currentBalanceAfter),
          entry: ledgerEntryView(entry),
        };
        await key.complete(tx, answer);
        return answer;
      }),
    );
  }
}
