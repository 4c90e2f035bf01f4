import type { Database, Executor } from '../../platform/db/database.js';
import { BadRequestError, InsufficientBalanceError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { Decimal, dec, isMoneyAmount, moneyJson, moneyString, type MoneyInput } from '../../platform/money.js';
import { walletBalanceColumns, type LedgerRow, type NewLedgerRow, type WalletRepository } from './wallet.repository.js';

/** Ledger entry types. A top-up credit is BalanceLogAdd (spec, Events). */
export const BalanceLogType = {
  Add: 'BalanceLogAdd',
  Bonus: 'BalanceLogBonus',
  AdjustAdd: 'BalanceLogAdjustAdd',
  AdjustDeduct: 'BalanceLogAdjustDeduct',
  Charge: 'BalanceLogCharge',
} as const;
export type BalanceLogTypeName = (typeof BalanceLogType)[keyof typeof BalanceLogType] | (string & {});

export interface LedgerReference {
  /** what the entry is about, e.g. "topup_invoice", "manual_adjustment", "usage" */
  referenceType: string;
  referenceId: string;
}

export interface CreditInput extends LedgerReference {
  customerId: number;
  type: BalanceLogTypeName;
  amount: MoneyInput;
  /** real money (actual_balance and current_balance) or bonus credit (current_balance only) */
  part: 'actual' | 'bonus';
  description: string;
  adminId?: number;
}

export interface DebitInput extends LedgerReference {
  customerId: number;
  type: BalanceLogTypeName;
  amount: MoneyInput;
  /**
   * 'actual': takes real money only (manual DEDUCT); 'bonus_first': takes bonus credit first,
   * then real money (charges, docs/decisions.md §5).
   */
  from: 'actual' | 'bonus_first';
  /** charges may take the balance below zero (the customer is then suspended); DEDUCT may not */
  allowNegative: boolean;
  description: string;
  adminId?: number;
}

export interface LedgerResult {
  /** false when an entry with the same (type, reference) already existed: nothing changed */
  applied: boolean;
  entry: LedgerRow;
}

/** Told about every applied debit, in its transaction (the notifications module: low balance). */
export interface BalanceListener {
  balanceChanged(tx: Executor, change: { customerId: number; before: string; after: string; entryId: number }): Promise<void>;
}

export interface Balances {
  actualBalance: string;
  currentBalance: string;
}

/**
 * The only writer of wallets and balance_logs. Every mutation runs inside the caller's
 * transaction, under the wallet's row lock, and appends one ledger entry whose
 * (type, reference) is unique: a repeated credit or debit for the same business event is a no-op.
 */
export class WalletService {
  /** Lets the customer's summary read its balances in the same query as the customer (GET /api/inf). */
  readonly balanceColumns = walletBalanceColumns;

  constructor(
    private readonly db: Database,
    private readonly repo: WalletRepository,
    private readonly listener: BalanceListener,
  ) {}

  async credit(tx: Executor, input: CreditInput): Promise<LedgerResult> {
    return (await this.creditMany(tx, [input]))[0]!;
  }

  /**
   * Several credits in one pass (a batch of paid top-ups): the wallets are locked in customer order,
   * the entries appended in the order given, each with its balances after, and every wallet updated
   * once, in five statements whatever the number of entries. An entry whose (type, reference)
   * exists already is not applied (its result says so), as for one credit. A single credit is the
   * batch of one.
   */
  async creditMany(tx: Executor, inputs: CreditInput[]): Promise<LedgerResult[]> {
    if (inputs.length === 0) return [];
    const amounts = inputs.map((input) => {
      const amount = dec(input.amount);
      if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > 2) throw new ValidationError('A credit needs a positive amount with at most 2 decimals');
      return { amount: amount.toFixed(2), actualPart: input.part === 'actual' ? amount.toFixed(2) : '0.00' };
    });
    const wallets = new Map((await this.repo.lockWallets(tx, inputs.map((i) => i.customerId))).map((w) => [w.customerId, { ...w }]));
    const keyOf = (e: { type: string; referenceType: string; referenceId: string }) => `${e.type}\u0000${e.referenceType}\u0000${e.referenceId}`;
    // Under the wallet locks nobody else appends for these customers, so what exists now is exact.
    // One credit skips the read: its insert finds the existing entry itself.
    const existing = new Map(inputs.length > 1 ? (await this.repo.findEntries(tx, inputs)).map((e) => [keyOf(e), e]) : []);
    const results: (LedgerResult | undefined)[] = inputs.map((input) => {
      const found = existing.get(keyOf(input));
      return found ? { applied: false, entry: found } : undefined;
    });
    const rows: NewLedgerRow[] = [];
    const rowOf: number[] = [];
    const first = new Map<string, number>();
    const repeats: [number, number][] = [];
    inputs.forEach((input, i) => {
      if (results[i]) return;
      const key = keyOf(input);
      if (first.has(key)) {
        repeats.push([i, first.get(key)!]); // the same credit twice in one batch: applied once
        return;
      }
      first.set(key, i);
      const wallet = wallets.get(input.customerId)!;
      const { amount, actualPart } = amounts[i]!;
      const actualAfter = dec(wallet.actualBalance).plus(actualPart).toFixed(2);
      const currentAfter = dec(wallet.currentBalance).plus(amount).toFixed(2);
      if (!isMoneyAmount(actualAfter) || !isMoneyAmount(currentAfter)) {
        throw new BadRequestError('BALANCE_LIMIT', 'The balance would exceed the largest amount a wallet can hold');
      }
      wallet.actualBalance = actualAfter;
      wallet.currentBalance = currentAfter;
      rows.push({
        customerId: input.customerId,
        type: input.type,
        amount,
        actualAmount: actualPart,
        bonusAmount: dec(amount).minus(actualPart).toFixed(2),
        actualBalanceAfter: actualAfter,
        currentBalanceAfter: currentAfter,
        referenceType: input.referenceType,
        referenceId: input.referenceId,
        description: input.description,
        createdByAdminId: input.adminId ?? null,
      });
      rowOf.push(i);
    });
    const appended = new Map((await this.repo.appendEntries(tx, rows)).map((e) => [keyOf(e), e]));
    const changed = new Set<number>();
    for (let r = 0; r < rows.length; r++) {
      const i = rowOf[r]!;
      const entry = appended.get(keyOf(rows[r]!));
      if (entry) {
        results[i] = { applied: true, entry };
        changed.add(entry.customerId);
        continue;
      }
      // Only a single credit gets here (a batch read the existing entries under the lock first).
      if (rows.length > 1) throw new Error(`ledger entry ${rows[r]!.type} ${rows[r]!.referenceId} appeared under the wallet lock`);
      const found = await this.repo.findEntry(tx, inputs[i]!.type, inputs[i]!.referenceType, inputs[i]!.referenceId);
      results[i] = { applied: false, entry: found! };
    }
    for (const [i, of] of repeats) results[i] = { applied: false, entry: results[of]!.entry };
    await this.repo.setBalancesMany(
      tx,
      [...changed].map((customerId) => ({ customerId, actual: wallets.get(customerId)!.actualBalance, current: wallets.get(customerId)!.currentBalance })),
    );
    return results as LedgerResult[];
  }

  async debit(tx: Executor, input: DebitInput): Promise<LedgerResult> {
    const amount = dec(input.amount);
    if (!amount.isFinite() || amount.lte(0) || amount.decimalPlaces() > 2) throw new ValidationError('A debit needs a positive amount with at most 2 decimals');
    const wallet = await this.repo.lockWallet(tx, input.customerId);
    // Checked under the lock, so a repeated debit is answered as a no-op, not as insufficient balance.
    const existing = await this.repo.findEntry(tx, input.type, input.referenceType, input.referenceId);
    if (existing) return { applied: false, entry: existing };
    const bonus = dec(wallet.currentBalance).minus(wallet.actualBalance);
    const fromBonus = input.from === 'bonus_first' ? Decimal.min(amount, Decimal.max(bonus, 0)) : dec(0);
    const fromActual = amount.minus(fromBonus);
    if (!input.allowNegative) {
      const actualAfter = dec(wallet.actualBalance).minus(fromActual);
      const currentAfter = dec(wallet.currentBalance).minus(amount);
      if (actualAfter.lt(0) || currentAfter.lt(0)) {
        throw new InsufficientBalanceError(`The balance is ${moneyString(wallet.actualBalance)}; it cannot go below zero`);
      }
    }
    const result = await this.applyLocked(tx, wallet, input, amount.neg().toFixed(2), fromActual.neg().toFixed(2), input.adminId);
    if (result.applied) {
      await this.listener.balanceChanged(tx, { customerId: input.customerId, before: wallet.currentBalance, after: result.entry.currentBalanceAfter, entryId: result.entry.id });
    }
    return result;
  }

  private async applyLocked(
    tx: Executor,
    wallet: Balances & { customerId: number },
    input: LedgerReference & { customerId: number; type: string; description: string },
    amount: string,
    actualPart: string,
    adminId: number | undefined,
  ): Promise<LedgerResult> {
    const actualAfter = dec(wallet.actualBalance).plus(actualPart).toFixed(2);
    const currentAfter = dec(wallet.currentBalance).plus(amount).toFixed(2);
    if (!isMoneyAmount(actualAfter) || !isMoneyAmount(currentAfter)) {
      throw new BadRequestError('BALANCE_LIMIT', 'The balance would exceed the largest amount a wallet can hold');
    }
    const entry = await this.repo.appendEntry(tx, {
      customerId: input.customerId,
      type: input.type,
      amount,
      actualAmount: actualPart,
      bonusAmount: dec(amount).minus(actualPart).toFixed(2),
      actualBalanceAfter: actualAfter,
      currentBalanceAfter: currentAfter,
      referenceType: input.referenceType,
      referenceId: input.referenceId,
      description: input.description,
      createdByAdminId: adminId ?? null,
    });
    if (!entry) {
      const existing = await this.repo.findEntry(tx, input.type, input.referenceType, input.referenceId);
      return { applied: false, entry: existing! };
    }
    await this.repo.setBalances(tx, input.customerId, actualAfter, currentAfter);
    return { applied: true, entry };
  }

  /** The balances (zero when the customer has no wallet yet). */
  async balances(customerId: number, ex: Executor = this.db): Promise<Balances> {
    const wallet = await this.repo.find(ex, customerId);
    return { actualBalance: wallet?.actualBalance ?? '0.00', currentBalance: wallet?.currentBalance ?? '0.00' };
  }

  /** The customers module's BalanceReader port (GET /api/inf, profile): exact decimal texts, 2 decimals. */
  async balancesOf(customerId: number): Promise<{ actual_balance: string; current_balance: string }> {
    const b = await this.balances(customerId);
    return { actual_balance: moneyJson(b.actualBalance), current_balance: moneyJson(b.currentBalance) };
  }

  history(customerId: number, p: PageRequest): Promise<Page<LedgerRow>> {
    return this.repo.listEntries(this.db, customerId, p);
  }

  /** The ledger of a customer that must exist (404 otherwise). */
  async historyOfCustomer(customerId: number, p: PageRequest): Promise<Page<LedgerRow>> {
    if (!(await this.repo.customerExists(this.db, customerId))) throw new NotFoundError('Customer');
    return this.repo.listEntries(this.db, customerId, p);
  }

  customerContact(customerId: number, ex: Executor = this.db): Promise<{ email: string; firstName: string } | undefined> {
    return this.repo.customerContact(ex, customerId);
  }

  customerExists(customerId: number, ex: Executor = this.db): Promise<boolean> {
    return this.repo.customerExists(ex, customerId);
  }
}
