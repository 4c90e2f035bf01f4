import { param, sql, type SQL } from 'drizzle-orm';
import { ambientTransaction } from './ambient.js';
import type { Executor, RawSql } from './handle.js';

/** Turns `text` with $1..$n placeholders into a drizzle SQL object, so it can run on a transaction. */
export function rawToSql(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(part));
    // param() keeps arrays as one parameter; drizzle would drop an undefined chunk, so send NULL.
    else chunks.push(sql`${param(values[Number(part) - 1] ?? null)}`);
  });
  return sql.join(chunks, sql.raw(''));
}

/** Runs raw SQL on an executor (database or transaction) and returns its rows. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Runs raw SQL on the ambient transaction when there is one, else on `root`. */
export function ambientRaw(root: RawSql): RawSql {
  return {
    async executeSql(text, values) {
      const tx = ambientTransaction();
      if (!tx) return root.executeSql(text, values);
      return (await tx.execute(rawToSql(text, values))) as unknown as { rows: any[] };
    },
  };
}

export type PreparedRunner = (name: string, text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
const preparedRunners = new WeakMap<object, PreparedRunner>();

/** How a root database runs a prepared read (platform/db/prepared.ts); undefined for a transaction. */
export function preparedRunnerOf(db: Executor): PreparedRunner | undefined {
  return preparedRunners.get(db);
}

/** Registers how a root database runs a prepared read (each opener does, for its database). */
export function setPreparedRunner(db: Executor, runner: PreparedRunner): void {
  preparedRunners.set(db, runner);
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

