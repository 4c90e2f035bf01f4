import type { AnyColumn, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../platform/db/database.js';

/**
 * What the customers module reads from modules that come later (wallet, compute, notifications).
 * The customers factory takes them as required dependencies (src/container.ts hands them in).
 */
export interface BalanceReader {
  balancesOf(customerId: number): Promise<{ actual_balance: string; current_balance: string }>;
  /**
   * Where the balances live, when they are a row per customer the customer's own read can join
   * (GET /api/inf then reads the customer and the balances in one query). Optional: without it
   * the summary asks balancesOf.
   */
  readonly balanceColumns?: BalanceColumns;
}

/** A table keyed by customer id, with the two balances as NUMERIC columns (a missing row means zero). */
export interface BalanceColumns {
  table: PgTable;
  customerId: PgColumn;
  actual: PgColumn;
  current: PgColumn;
}

export interface ResourceUsageReader {
  /** Current counts behind GET /api/customer/resource. */
  usageOf(customerId: number): Promise<{ vms: number; public_ips: number }>;
}

export interface UnreadCounter {
  unreadCount(customerId: number): Promise<number>;
  /**
   * The count as a scalar subquery on the customer's id column, when the customer's own read can
   * carry it (GET /api/inf then needs no query of its own for it). Optional: without it the summary
   * asks unreadCount.
   */
  unreadCountOf?(customerId: AnyColumn): SQL<number>;
}

/** Sets max_session and ends the sessions beyond it (the auth module implements it). */
export interface SessionLimiter {
  /** In `tx` when given. */
  setMaxSession(customerId: number, maxSession: number, tx?: Executor): Promise<unknown>;
}
