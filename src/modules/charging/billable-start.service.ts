import type { Executor } from '../../platform/db/database.js';
import { AppError, InsufficientBalanceError, NotFoundError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { SUSPEND_BALANCE, type SuspensionRepository } from './suspension.repository.js';

/**
 * The one answer to "may this customer start something billable": every use case that creates (or
 * grows, or brings back) a resource that opens a meter asks it, inside its own transaction, before
 * it writes anything (VMs and their retried create, private networks, buckets and their growth,
 * load balancers). Security groups and access keys cost nothing and are not asked.
 */
export interface BillableStartRule {
  /** Locks the customer's row (creates of one customer run one after the other) and throws when they may not. */
  assertMayStart(tx: Executor, customerId: number): Promise<void>;
}

/** 402: a suspended account (other than for its balance) starts nothing billable until the suspension is lifted. */
export class AccountSuspendedError extends AppError {
  constructor(message: string) {
    super(402, 'ACCOUNT_SUSPENDED', message);
  }
}

/**
 * The rule, the same for prepaid and postpaid accounts:
 * - a suspended account starts nothing billable: suspended for its balance → 402
 *   INSUFFICIENT_BALANCE (top up), for overdue postpaid invoices → 402 ACCOUNT_SUSPENDED (pay them);
 * - a spendable balance (`current_balance`) below zero → 402 INSUFFICIENT_BALANCE ("must not be
 *   below zero": zero is enough; a postpaid wallet only goes below zero by a staff deduction).
 * It reads the row it locks, so a suspension or a charge committed before the create is seen.
 */
export class BillableStartService implements BillableStartRule {
  constructor(private readonly repo: SuspensionRepository) {}

  async assertMayStart(tx: Executor, customerId: number): Promise<void> {
    const s = await this.repo.spendingState(tx, customerId);
    if (!s || !s.is_active) throw new NotFoundError('Customer');
    if (s.suspended_at) {
      if (s.suspend_reason === SUSPEND_BALANCE) throw new InsufficientBalanceError('Your account is suspended because its balance is below zero: top up before creating anything billable');
      throw new AccountSuspendedError('Your account is suspended for overdue invoices: pay them before creating anything billable');
    }
    if (dec(s.current_balance).lt(0)) throw new InsufficientBalanceError('Your balance is below zero: top up before creating anything billable');
  }
}
