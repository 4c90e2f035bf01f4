import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { retentionSettings } from './retention.tables.js';

/**
 * The tables partitioned by month (drizzle/0023_partitioned_history.sql) and the column each is
 * partitioned by. Every one has a DEFAULT partition, so a row whose month has no partition yet is
 * stored all the same; the partitions job creates the months ahead and moves such rows out.
 */
export const PARTITIONED_TABLES = {
  usage_records: 'hour',
  usage_charges: 'hour',
  usage_daily: 'day',
  balance_logs: 'created_at',
  audit_logs: 'created_at',
  notifications: 'created_at',
  ticket_events: 'created_at',
  payment_callbacks: 'received_at',
} as const;
export type PartitionedTable = keyof typeof PARTITIONED_TABLES;

/** The history staff may export a month of, and the table behind it. */
export const EXPORTABLE = { audit: 'audit_logs', ledger: 'balance_logs' } as const;
export type ExportKind = keyof typeof EXPORTABLE;

export interface RetentionSettings {
  usageRawMonths: number;
  auditLogMonths: number | null;
}
export const RETENTION_DEFAULTS: RetentionSettings = { usageRawMonths: 3, auditLogMonths: null };

export interface MonthPartition {
  name: string;
  /** the first instant of the month (UTC) */
  from: Date;
  to: Date;
}

export interface RollUp {
  records: number;
  days: number;
  recordsAmount: string;
  dailyAmount: string;
}

export class RetentionRepository {
  async settings(ex: Executor): Promise<RetentionSettings> {
    const [row] = await ex.select().from(retentionSettings);
    return row ? { usageRawMonths: row.usageRawMonths, auditLogMonths: row.auditLogMonths } : { ...RETENTION_DEFAULTS };
  }

  async saveSettings(ex: Executor, s: RetentionSettings): Promise<void> {
    await ex
      .insert(retentionSettings)
      .values({ id: 1, usageRawMonths: s.usageRawMonths, auditLogMonths: s.auditLogMonths })
      .onConflictDoUpdate({ target: retentionSettings.id, set: { usageRawMonths: s.usageRawMonths, auditLogMonths: s.auditLogMonths, updatedAt: sql`now()` } });
  }

  /** Creates the month's partition of `table` when missing (true), moving that month's rows out of the DEFAULT partition. */
  async ensureMonth(ex: Executor, table: PartitionedTable, month: Date): Promise<boolean> {
    const [row] = await queryRows<{ created: boolean }>(ex, sql`select ensure_monthly_partition(${table}::regclass, ${month.toISOString()}::timestamptz) as created`);
    return row!.created;
  }

  /** The months that have rows in the DEFAULT partition of `table` (rows stored before their month's partition existed). */
  async monthsInDefault(ex: Executor, table: PartitionedTable): Promise<Date[]> {
    const key = PARTITIONED_TABLES[table];
    const rows = await queryRows<{ m: Date | string }>(
      ex,
      sql`select distinct date_trunc('month', ${sql.identifier(key)} at time zone 'UTC') at time zone 'UTC' as m from ${sql.identifier(`${table}_default`)}`,
    );
    return rows.map((r) => new Date(r.m));
  }

  /** The monthly partitions of `table`, oldest first (the DEFAULT partition left out). */
  async monthPartitions(ex: Executor, table: PartitionedTable): Promise<MonthPartition[]> {
    const rows = await queryRows<{ name: string; bound: string }>(
      ex,
      sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = ${table}::regclass`,
    );
    const out: MonthPartition[] = [];
    for (const r of rows) {
      const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(r.bound);
      if (!m) continue; // the DEFAULT partition
      out.push({ name: r.name, from: new Date(m[1]!), to: new Date(m[2]!) });
    }
    return out.sort((a, b) => a.from.getTime() - b.from.getTime());
  }

  /**
   * Rolls the usage records of [from, to) up per meter and UTC day into usage_daily (a re-run adds
   * nothing: the (meter, day) key) and answers both sums, which the caller compares before it drops
   * the month's records.
   */
  async rollUpUsage(tx: Executor, from: Date, to: Date): Promise<RollUp> {
    const f = from.toISOString();
    const t = to.toISOString();
    await tx.execute(sql`
      insert into usage_daily (meter_id, day, customer_id, hours, seconds, amount)
      select meter_id, date_trunc('day', hour, 'UTC'), min(customer_id), count(*)::int, sum(seconds), sum(amount)
      from usage_records where hour >= ${f}::timestamptz and hour < ${t}::timestamptz
      group by meter_id, date_trunc('day', hour, 'UTC')
      on conflict do nothing`);
    const [row] = await queryRows<{ records: number; days: number; records_amount: string; daily_amount: string }>(
      tx,
      sql`select (select count(*) from usage_records where hour >= ${f}::timestamptz and hour < ${t}::timestamptz)::int as records,
                 (select coalesce(sum(amount), 0) from usage_records where hour >= ${f}::timestamptz and hour < ${t}::timestamptz)::text as records_amount,
                 (select count(*) from usage_daily where day >= ${f}::timestamptz and day < ${t}::timestamptz)::int as days,
                 (select coalesce(sum(amount), 0) from usage_daily where day >= ${f}::timestamptz and day < ${t}::timestamptz)::text as daily_amount`,
    );
    return { records: row!.records, days: row!.days, recordsAmount: row!.records_amount, dailyAmount: row!.daily_amount };
  }

  /**
   * Why the usage records of [from, to) are still needed, or undefined: an hour before `to` not
   * completely charged, a customer set aside whose hours are charged again later (their records
   * are written then), or postpaid usage of the month no invoice covers yet (the invoice's lines
   * are read from the records).
   */
  async usageStillNeeded(ex: Executor, from: Date, to: Date): Promise<string | undefined> {
    const f = from.toISOString();
    const t = to.toISOString();
    const [row] = await queryRows<{ charging: boolean; invoicing: boolean }>(
      ex,
      sql`select exists (select 1 from charge_hours where hour < ${t}::timestamptz and completed_at is null)
              or exists (select 1 from charge_failures where resolved_at is null and first_hour < ${t}::timestamptz) as charging,
            exists (select 1 from usage_charges uc
                    where uc.postpaid and uc.hour >= ${f}::timestamptz and uc.hour < ${t}::timestamptz and uc.amount > 0
                      and not exists (select 1 from postpaid_invoices i where i.customer_id = uc.customer_id and uc.hour >= i.period_start and uc.hour < i.period_end)) as invoicing`,
    );
    if (row!.charging) return 'hours of that month are still to be charged';
    if (row!.invoicing) return 'postpaid usage of that month is not invoiced yet';
    return undefined;
  }

  /** Detaches a month's partition and drops it (no trigger fires: the rows are gone as a whole). */
  async dropPartition(tx: Executor, table: PartitionedTable, partition: string): Promise<void> {
    await tx.execute(sql`alter table ${sql.identifier(table)} detach partition ${sql.identifier(partition)}`);
    await tx.execute(sql`drop table ${sql.identifier(partition)}`);
  }

  /** Rows of [from, to) of an exportable table with an id above `afterId`, in id order (a page of an export). */
  async exportPage(ex: Executor, kind: ExportKind, month: Date, afterId: number, limit: number): Promise<Record<string, unknown>[]> {
    const table = EXPORTABLE[kind];
    // The month's end is worked out by PostgreSQL, in UTC: after 9999-12 it is in year 10000,
    // which JavaScript writes as "+010000-…" and PostgreSQL cannot read.
    const from = sql`${month.toISOString()}::timestamptz`;
    return queryRows<Record<string, unknown>>(
      ex,
      sql`select * from ${sql.identifier(table)}
          where created_at >= ${from} and created_at < ((${from} at time zone 'UTC') + interval '1 month') at time zone 'UTC' and id > ${afterId}
          order by id limit ${limit}`,
    );
  }
}
