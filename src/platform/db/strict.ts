import type pg from 'pg';
import { insideOpenTransaction } from './ambient.js';

/**
 * A query that reached the root database from code running inside an open transaction, past the
 * ambient transaction (a query built on the root before the transaction began, a client or pool
 * held directly). On the embedded database's one connection it waits for that transaction, which
 * waits for it: the request hangs until DATABASE_WAIT_TIMEOUT_MS. PostgreSQL's pool hands out a
 * second connection and hides it, so under test (NODE_ENV=test) the PostgreSQL database refuses
 * such a query with this error, and records it so that a caller who swallows the error does not
 * hide it either (test/helpers/app.ts fails the test app's close).
 */
export class TransactionBypassError extends Error {
  constructor(what: string) {
    super(
      `a query bypassed the open transaction of its own context (it would wait forever on the embedded database's one connection): ${what.slice(0, 200)}`,
    );
    this.name = 'TransactionBypassError';
  }
}

/** What a strict database refused, in order. */
export type BypassLog = TransactionBypassError[];

function statementOf(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && 'text' in first) return String((first as { text: unknown }).text);
  return 'a statement';
}

/**
 * Makes `pool` refuse what arrives from inside an open transaction's context: a query on the pool
 * itself, or a connection taken for a transaction of its own. Either answers the way the pool
 * would have answered a failure (the callback, else a rejected promise).
 */
export function refuseBypasses(pool: pg.Pool, log: BypassLog): void {
  const refuse = (what: string, args: unknown[]) => {
    const err = new TransactionBypassError(what);
    log.push(err);
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      queueMicrotask(() => (callback as (e: Error) => void)(err));
      return undefined;
    }
    return Promise.reject(err);
  };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => (insideOpenTransaction() ? refuse(statementOf(args), args) : query(...args))) as typeof pool.query;
  pool.connect = ((...args: unknown[]) => (insideOpenTransaction() ? refuse('a connection for a second transaction', args) : connect(...args))) as typeof pool.connect;
}

/** Throws (and records) when called from inside an open transaction's context. */
export function assertOutsideTransaction(what: string, log: BypassLog): void {
  if (!insideOpenTransaction()) return;
  const err = new TransactionBypassError(what);
  log.push(err);
  throw err;
}
