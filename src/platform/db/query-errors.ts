import { DrizzleQueryError } from 'drizzle-orm';
import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/**
 * drizzle reports a failed query as "Failed query: <the SQL>\nparams: <the values>", and that text
 * travels with the error to every place that keeps an error's message: the job runs staff read
 * (GET /api/backoffice/jobs), the credit and charge failures they work from, the log. Those places
 * must show what went wrong, not the statement and its values.
 *
 * So every failed query's message becomes the database's own words and its SQLSTATE, e.g.
 * "numeric field overflow (SQLSTATE 22003)". The statement stays on the error as `query` (the log
 * prints it), its parameters as a property that is not enumerated (they can hold secrets, so the
 * log leaves them out), and the driver's error stays its `cause` (codes, constraint names).
 */
export function queryErrorText(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown; code?: unknown } })?.cause;
  const message = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : 'the database refused the statement';
  const code = typeof cause?.code === 'string' && /^[0-9A-Z]{5}$/.test(cause.code) ? ` (SQLSTATE ${cause.code})` : '';
  return `${message}${code}`;
}

function hide(target: object, key: string): void {
  if (Object.prototype.propertyIsEnumerable.call(target, key)) {
    Object.defineProperty(target, key, { value: (target as Record<string, unknown>)[key], enumerable: false, writable: true, configurable: true });
  }
}

function withoutStatement(err: DrizzleQueryError): DrizzleQueryError {
  const before = err.message;
  const text = queryErrorText(err);
  err.message = text;
  if (typeof err.stack === 'string' && err.stack.includes(before)) err.stack = err.stack.replace(before, text);
  hide(err, 'params');
  // the embedded driver's own error carries the statement's values too
  if (err.cause && typeof err.cause === 'object') hide(err.cause, 'params');
  return err;
}

let installed = false;

/**
 * Makes every query error of this process carry the text above (drizzle's prepared query is the
 * one place every query of both drivers, PostgreSQL and the embedded one, passes through).
 * Idempotent; openDatabase calls it.
 */
export function installQueryErrorText(): void {
  if (installed) return;
  installed = true;
  const proto = PgPreparedQuery.prototype as unknown as { queryWithCache: (...args: unknown[]) => Promise<unknown> };
  const original = proto.queryWithCache;
  if (typeof original !== 'function') throw new Error('drizzle-orm changed: PgPreparedQuery.queryWithCache is gone (platform/db/query-errors.ts)');
  proto.queryWithCache = async function queryWithCache(this: unknown, ...args: unknown[]) {
    try {
      return await original.apply(this, args);
    } catch (err) {
      throw err instanceof DrizzleQueryError ? withoutStatement(err) : err;
    }
  };
}
