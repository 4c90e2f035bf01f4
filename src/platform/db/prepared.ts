import { ambientTransaction } from './ambient.js';
import type { Executor } from './database.js';

/** A drizzle query built with `sql.placeholder(...)` values: it can be prepared, or executed as it is. */
export interface Preparable<T> {
  prepare(name: string): { execute(params?: Record<string, unknown>): Promise<T> };
  execute(params?: Record<string, unknown>): Promise<T>;
}

const statements = new WeakMap<object, Map<string, { execute(params?: Record<string, unknown>): Promise<unknown> }>>();

/**
 * Runs a read of a hot path (every authenticated request, GET /api/inf) as a prepared query:
 * drizzle builds its SQL once per process instead of at every call, and on PostgreSQL it is a
 * named server-side statement (parsed and planned once per connection). Inside a transaction it is
 * built on the transaction and run like any other query, so it keeps the ambient-transaction rule
 * (a prepared query is bound to the root database's connection pool).
 *
 * `name` must be unique per query text in the whole process (it names the PostgreSQL statement).
 */
export function runPrepared<T>(ex: Executor, name: string, build: (ex: Executor) => Preparable<T>, params: Record<string, unknown>): Promise<T> {
  if (ambientTransaction()) return build(ex).execute(params);
  let byName = statements.get(ex);
  if (!byName) {
    byName = new Map();
    statements.set(ex, byName);
  }
  let statement = byName.get(name);
  if (!statement) {
    statement = build(ex).prepare(name);
    byName.set(name, statement);
  }
  return statement.execute(params) as Promise<T>;
}
