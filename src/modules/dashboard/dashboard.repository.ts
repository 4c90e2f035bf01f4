import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';

export type MoneyMetric = 'revenue' | 'deposit' | 'gateway_fee';
export type VmGroupBy = 'ram' | 'cpu' | 'os';

export interface CounterRow {
  name: string;
  location_id: number;
  key: string;
  value: string;
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

/** Aggregates for the backoffice dashboard: counters, hourly totals and one index range scan. */
export class DashboardRepository {
  /** Counters (dashboard_counters plus the deltas not yet folded in) with these names. */
  async counters(ex: Executor, names: string[]): Promise<CounterRow[]> {
    const list = sql.join(names.map((n) => sql`${n}`), sql`, `);
    return queryRows<CounterRow>(
      ex,
      sql`select name, location_id, key, sum(value)::text as value
          from (select name, location_id, key, value from dashboard_counters where name in (${list})
                union all
                select name, location_id, key, value from dashboard_counter_deltas where name in (${list})) s
          group by 1, 2, 3
          having sum(value) <> 0`,
    );
  }

  /** Distinct customers with a top-up credit (BalanceLogAdd) in the month of `now` in `tz`. */
  async depositorsInMonth(ex: Executor, now: Date, tz: string): Promise<number> {
    const m = monthBounds(now, tz);
    const [row] = await queryRows<{ n: number }>(
      ex,
      sql`select count(distinct customer_id)::int as n from balance_logs
          where type = 'BalanceLogAdd' and created_at >= ${m.start} and created_at < ${m.end}`,
    );
    return row!.n;
  }

  /** Folds the counter deltas into dashboard_counters (one statement: readers see either). */
  async compactCounters(ex: Executor): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      ex,
      sql`with moved as (delete from dashboard_counter_deltas returning name, location_id, key, value),
               folded as (insert into dashboard_counters as c (name, location_id, key, value)
                          select name, location_id, key, sum(value) from moved group by 1, 2, 3
                          on conflict (name, location_id, key) do update set value = c.value + excluded.value
                          returning 1)
          select count(*)::int as n from moved`,
    );
    return row!.n;
  }

  /** Locations by id with their names: the active ones and the ones given. */
  async locations(ex: Executor, alsoIds: number[]): Promise<{ id: number; code: string; name: string }[]> {
    const ids = alsoIds.length > 0 ? sql`or id in (${sql.join(alsoIds.map((i) => sql`${i}`), sql`, `)})` : sql``;
    return queryRows(ex, sql`select id, code, name from locations where is_active ${ids} order by id`);
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
}
