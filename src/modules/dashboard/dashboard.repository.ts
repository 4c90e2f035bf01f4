import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';

export type MoneyMetric = 'revenue' | 'deposit';
export type VmGroupBy = 'ram' | 'cpu' | 'os';

export interface CustomerInsightRow {
  registered: number;
  active_customers: number;
  wallet_current: string;
  wallet_actual: string;
  running_vms: number;
  vms: number;
  depositors: number;
}

export interface MonthRow {
  month: string;
  amount: string;
  entries: number;
}

export interface SourceRow {
  source: string;
  amount: string;
  entries: number;
}

/** The month of `now` in `tz`, as [start, end) instants, computed by PostgreSQL from local time. */
function monthBounds(now: Date, tz: string): { start: SQL; end: SQL } {
  const local = sql`date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${tz})`;
  return { start: sql`(${local} at time zone ${tz})`, end: sql`((${local} + interval '1 month') at time zone ${tz})` };
}

/** Aggregates for the backoffice dashboard, each one statement. */
export class DashboardRepository {
  async customerInsight(ex: Executor, now: Date, tz: string): Promise<CustomerInsightRow> {
    const m = monthBounds(now, tz);
    const [row] = await queryRows<CustomerInsightRow>(
      ex,
      sql`select c.registered, c.active_customers, w.wallet_current, w.wallet_actual, v.running_vms, v.vms, d.depositors
          from (select count(*)::int as registered, count(*) filter (where is_active)::int as active_customers from customers) c,
               (select coalesce(sum(w.current_balance), 0)::text as wallet_current, coalesce(sum(w.actual_balance), 0)::text as wallet_actual
                  from wallets w join customers cu on cu.id = w.customer_id where cu.is_active) w,
               (select count(*) filter (where status = 'Running')::int as running_vms, count(*)::int as vms
                  from vms where status <> 'Deleted') v,
               (select count(distinct customer_id)::int as depositors from balance_logs
                  where type = 'BalanceLogAdd' and created_at >= ${m.start} and created_at < ${m.end}) d`,
    );
    return row!;
  }

  /** The last 12 months of `tz` up to the month of `now`, oldest first, missing months as 0. */
  async monthlyTrend(ex: Executor, metric: MoneyMetric, now: Date, tz: string): Promise<MonthRow[]> {
    const local = sql`date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${tz})`;
    return queryRows<MonthRow>(
      ex,
      sql`select to_char(m.local_start, 'YYYY-MM') as month, coalesce(sum(b.amount), 0)::text as amount, coalesce(sum(b.entries), 0)::int as entries
          from (select ${local} - make_interval(months => i) as local_start from generate_series(0, 11) as i) m
          left join dashboard_hourly_totals b
            on b.metric = ${metric}
           and b.hour >= (m.local_start at time zone ${tz})
           and b.hour < ((m.local_start + interval '1 month') at time zone ${tz})
          group by m.local_start
          order by m.local_start`,
    );
  }

  /** All-time totals of a metric per source. */
  async totalsBySource(ex: Executor, metric: MoneyMetric): Promise<SourceRow[]> {
    return queryRows<SourceRow>(
      ex,
      sql`select source, sum(amount)::text as amount, sum(entries)::int as entries
          from dashboard_hourly_totals where metric = ${metric} group by source order by source`,
    );
  }

  /** VMs that exist (not Deleted), counted by size or image; optionally in one location. */
  async vmDistribution(ex: Executor, groupBy: VmGroupBy, locationId: number | undefined): Promise<{ key: string; count: number }[]> {
    const column = groupBy === 'ram' ? sql`memory_mb::text` : groupBy === 'cpu' ? sql`cpu::text` : sql`os`;
    const order = groupBy === 'os' ? sql`1` : sql`min(${groupBy === 'ram' ? sql`memory_mb` : sql`cpu`})`;
    const where = locationId === undefined ? sql`status <> 'Deleted'` : sql`status <> 'Deleted' and location_id = ${locationId}`;
    return queryRows(ex, sql`select ${column} as key, count(*)::int as count from vms where ${where} group by 1 order by ${order}`);
  }

  /** Active locations (and any other where VMs still hold addresses) with the number of public addresses VMs hold there. */
  async publicIpsHeld(ex: Executor): Promise<{ location_id: number; code: string; name: string; rented: number }[]> {
    return queryRows(
      ex,
      sql`select l.id as location_id, l.code, l.name, coalesce(v.rented, 0)::int as rented
          from locations l
          left join (select location_id, count(*) as rented from vms where public_ip is not null group by location_id) v on v.location_id = l.id
          where l.is_active or v.rented > 0
          order by l.id`,
    );
  }
}
