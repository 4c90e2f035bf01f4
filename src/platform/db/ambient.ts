import { AsyncLocalStorage } from 'node:async_hooks';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { writePendingActivity } from '../audit-scope.js';

type Drizzle = PgDatabase<PgQueryResultHKT>;

/** The transaction open in the current async context; `open` turns false when it ends. */
interface Scope {
  tx: Drizzle;
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** The transaction of the current async context, if one is open. */
export function ambientTransaction(): Drizzle | undefined {
  const scope = scopes.getStore();
  return scope?.open ? scope.tx : undefined;
}

/** True inside the async context of a transaction that has not ended yet. */
export function insideOpenTransaction(): boolean {
  return scopes.getStore()?.open === true;
}

/**
 * Runs `fn(tx)` in a transaction on `base` and makes that transaction the ambient one for every
 * call made from inside it. A continuation that outlives the transaction (a promise nobody
 * awaited) falls back to the root database instead of using a finished transaction.
 */
async function inTransaction<T>(base: Drizzle, fn: (tx: Drizzle) => Promise<T>, config: unknown, outermost: boolean): Promise<T> {
  return base.transaction(async (tx) => {
    const scope: Scope = { tx: tx as unknown as Drizzle, open: true };
    try {
      return await scopes.run(scope, async () => {
        const result = await fn(scope.tx);
        // a customer write's activity entry commits with the first change the request makes
        if (outermost) await writePendingActivity(scope.tx);
        return result;
      });
    } finally {
      scope.open = false;
    }
  }, config as never);
}

/**
 * The root database as services see it. Inside a transaction every query runs on that
 * transaction, whichever object the code holds: `db.select()`, a repository given `db`, a port of
 * another module, the audit log, the mailer, the job queue. So a query can never wait for the
 * connection its own transaction holds (PGlite has one connection; PostgreSQL's pool only hides the
 * bug), and `db.transaction()` inside a transaction is a savepoint of it.
 */
export function ambientDatabase(root: Drizzle): Drizzle {
  const transaction = (fn: (tx: Drizzle) => Promise<unknown>, config?: unknown) => {
    const outer = ambientTransaction();
    return inTransaction(outer ?? root, fn, config, outer === undefined);
  };
  return new Proxy(root, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const base = ambientTransaction() ?? target;
      const value = Reflect.get(base, prop, base);
      return typeof value === 'function' ? value.bind(base) : value;
    },
  });
}
