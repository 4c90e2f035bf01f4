import { is, SQL, sql, type AnyColumn } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ambientTransaction } from './ambient.js';
import { preparedRunnerOf, queryRows, rawToSql, type Executor } from './database.js';

/**
 * A read on the path of every authenticated request (the session check, GET /api/inf): plain SQL
 * text built once, run as a named server-side statement on PostgreSQL (parsed and planned once per
 * connection), its rows turned into the caller's shape by `map`. It skips what a drizzle query
 * costs per call (building or filling the query, the tracing wrappers, the generic row mapping),
 * which on these reads was a tenth of the request's CPU.
 */
export interface PreparedRead<Row> {
  /** Unique per text in the whole process: it names the PostgreSQL statement. */
  name: string;
  /** SQL with $1, $2, … for its values. */
  text: string;
  map(row: Record<string, unknown>): Row;
}

/**
 * Runs a prepared read. Inside a transaction it runs on the transaction like any other query (the
 * ambient-transaction rule: the statement is bound to the root database's pool), as it does on an
 * executor that has no runner of its own.
 */
export async function runPrepared<Row>(ex: Executor, read: PreparedRead<Row>, values: unknown[]): Promise<Row[]> {
  const runner = ambientTransaction() ? undefined : preparedRunnerOf(ex);
  const rows = runner ? (await runner(read.name, read.text, values)).rows : await queryRows<Record<string, unknown>>(ex, rawToSql(read.text, values));
  return rows.map(read.map);
}

const dialect = new PgDialect();

/** The text of a drizzle `sql` fragment made of identifiers and SQL only: values are written $1, $2, … in it. */
export function sqlText(fragment: SQL): string {
  const query = dialect.sqlToQuery(fragment);
  if (query.params.length > 0) throw new Error('a prepared read takes its values as $1, $2, …, not interpolated');
  return query.sql;
}

/** `<column> as "<key>", …` for a select list whose rows come back keyed like `columns`. */
export function selectList(columns: Record<string, AnyColumn | SQL>): SQL {
  return sql.join(
    Object.entries(columns).map(([key, column]) => (is(column, SQL) ? sql`(${column}) as ${sql.identifier(key)}` : sql`${column} as ${sql.identifier(key)}`)),
    sql`, `,
  );
}

/**
 * A row mapper for `columns`: timestamps become Dates (the drivers give Dates, a transaction's raw
 * query gives their text), everything else is kept as the driver parsed it (NUMERIC as text,
 * integers as numbers, JSON parsed).
 */
export function rowMapper<Row>(columns: Record<string, AnyColumn | SQL>): (row: Record<string, unknown>) => Row {
  const dates = Object.entries(columns)
    .filter(([, column]) => !is(column, SQL) && column.getSQLType().startsWith('timestamp'))
    .map(([key]) => key);
  return (row) => {
    for (const key of dates) {
      const value = row[key];
      if (typeof value === 'string') row[key] = new Date(value);
    }
    return row as Row;
  };
}

/**
 * A read that rides in the statement of the request's authentication: the session's (or the API
 * token's) read joins it laterally, keyed by the customer it finds, so a route whose answer is one
 * read (GET /api/inf) costs one round trip in all. Its text takes the customer id as $1 and selects
 * `keys` (selectList's keys) and nothing else.
 */
export interface RiderRead<Row> extends PreparedRead<Row> {
  readonly keys: readonly string[];
}

/** A select list's keys, for a RiderRead. */
export function keysOf(columns: Record<string, AnyColumn | SQL>): readonly string[] {
  return Object.keys(columns);
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The SQL that adds `rider` to a read: `columns` goes at the end of its select list, `join` at the
 * end of its FROM clause; `customerId` is the read's own expression of the customer id.
 */
export function riderSql(rider: RiderRead<unknown>, customerId: SQL): { columns: string; join: string } {
  const text = rider.text.replace(/\$1(?!\d)/g, sqlText(customerId));
  return {
    columns: [...rider.keys.map((k) => `rider.${quoted(k)} as ${quoted(`rider.${k}`)}`), `not (rider is null) as "rider?"`].map((c) => `, ${c}`).join(''),
    join: ` left join lateral (${text}) as rider on true`,
  };
}

/** Splits a row of a read built with riderSql: the rider's row (undefined when it found none) and the rest. */
export function takeRider<Row>(rider: RiderRead<Row>, row: Record<string, unknown>): [Row | undefined, Record<string, unknown>] {
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const key in row) {
    if (key.startsWith('rider.')) own[key.slice(6)] = row[key];
    else if (key !== 'rider?') rest[key] = row[key];
  }
  return [row['rider?'] === true ? rider.map(own) : undefined, rest];
}
