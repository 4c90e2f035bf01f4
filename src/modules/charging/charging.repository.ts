import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { lockGlobal } from '../../platform/db/advisory-locks.js';

export interface HourState {
  hour: Date;
  cursorCustomerId: number;
  completedAt: Date | null;
}

export interface ChunkResult {
  usageRows: number;
  customers: number;
  ledgerEntries: number;
  charged: string;
}

export interface OpenMeterInput {
  customerId: number;
  resourceType: string;
  resourceId: string;
  description: string;
  priceKey: string;
  fallbackPriceKey: string | null;
  locationId: number;
  quantity: string;
  startedAt: Date;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Customers the hourly run leaves out: set aside after their charge failed (charge_failures), until it is resolved. */
const notSetAside = (column: SQL) => sql`${column} not in (select customer_id from charge_failures where resolved_at is null)`;

export interface ChargeFailureRow {
  id: number;
  customer_id: number;
  customer_email: string;
  first_hour: Date;
  error_code: string;
  error: string;
  attempts: number;
  failed_at: Date;
  last_attempt_at: Date;
  next_retry_at: Date;
  resolved_at: Date | null;
}

const failureColumns = sql`f.id, f.customer_id, c.email as customer_email, f.first_hour, f.error_code, f.error, f.attempts, f.failed_at, f.last_attempt_at, f.next_retry_at, f.resolved_at`;

function failureRow(r: ChargeFailureRow): ChargeFailureRow {
  const d = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    ...r,
    id: Number(r.id),
    first_hour: d(r.first_hour)!,
    failed_at: d(r.failed_at)!,
    last_attempt_at: d(r.last_attempt_at)!,
    next_retry_at: d(r.next_retry_at)!,
    resolved_at: d(r.resolved_at),
  };
}

/** SQL of the charging engine: set-based, one statement per chunk of customers. */
export class ChargingRepository {
  async lock(tx: Executor): Promise<void> {
    await lockGlobal(tx, 'hourlyCharge');
    // The statement's estimates are large enough to trigger JIT compilation, which took longer
    // (seconds, measured) than running it.
    await tx.execute(sql`set local jit = off`);
  }

  /** The latest hour the job has started (its row exists), or undefined before the first run. */
  async latestHour(ex: Executor): Promise<HourState | undefined> {
    const [row] = await queryRows<{ hour: string | Date; cursor_customer_id: number; completed_at: string | Date | null }>(
      ex,
      sql`select hour, cursor_customer_id, completed_at from charge_hours order by hour desc limit 1`,
    );
    return row && { hour: new Date(row.hour), cursorCustomerId: row.cursor_customer_id, completedAt: row.completed_at ? new Date(row.completed_at) : null };
  }

  async earliestMeterStart(ex: Executor): Promise<Date | undefined> {
    const [row] = await queryRows<{ t: string | Date | null }>(ex, sql`select min(started_at) as t from meters`);
    return row?.t ? new Date(row.t) : undefined;
  }

  /** Hours started but not completed (a batch in progress), oldest first. */
  async openHours(ex: Executor): Promise<HourState[]> {
    const rows = await queryRows<{ hour: string | Date; cursor_customer_id: number }>(
      ex,
      sql`select hour, cursor_customer_id from charge_hours where completed_at is null order by hour`,
    );
    return rows.map((r) => ({ hour: new Date(r.hour), cursorCustomerId: r.cursor_customer_id, completedAt: null }));
  }

  /**
   * The progress of a batch of consecutive hours (created on first use): the smallest cursor
   * and whether all are completed. The hours of a batch move together.
   */
  async batchState(tx: Executor, from: Date, hours: number, now: Date): Promise<{ cursor: number; completed: boolean }> {
    const to = new Date(from.getTime() + (hours - 1) * 3_600_000);
    await tx.execute(sql`
      insert into charge_hours (hour, started_at)
      select h, ${ts(now)} from generate_series(${ts(from)}, ${ts(to)}, interval '1 hour') h
      on conflict do nothing`);
    const [row] = await queryRows<{ cursor: number; open: number }>(
      tx,
      sql`select coalesce(min(cursor_customer_id), 0)::int as cursor, count(*) filter (where completed_at is null)::int as open
          from charge_hours where hour >= ${ts(from)} and hour <= ${ts(to)}`,
    );
    return { cursor: row!.cursor, completed: row!.open === 0 };
  }

  /**
   * The last customer of the next chunk: customers after `cursor` whose meters ran in the hours
   * [from, to), taken in id order until `limit` meters (a customer's meters stay in one chunk).
   */
  async chunkEnd(tx: Executor, from: Date, to: Date, cursor: number, limit: number): Promise<{ first: number; hi: number; last: boolean } | undefined> {
    const [row] = await queryRows<{ first: number | null; hi: number | null; n: number }>(
      tx,
      sql`select min(customer_id) as first, max(customer_id) as hi, count(*)::int as n from (
            select customer_id from meters
            where customer_id > ${cursor} and started_at < ${ts(to)} and (stopped_at is null or stopped_at > ${ts(from)})
              and ${notSetAside(sql`customer_id`)}
            order by customer_id limit ${limit}) x`,
    );
    if (row?.hi === null || row?.hi === undefined) return undefined;
    // fewer meters than a chunk: nothing is left after this one
    return { first: row.first!, hi: row.hi, last: row.n < limit };
  }

  /**
   * Charges the consecutive hours [from, to) for the customers in (lo, hi], in one statement:
   * 1. usage rows for every meter and hour it ran, at the price version in force at that hour's
   *    start (of the meter's price key, else of its fallback key), prorated by the second (unique (meter_id, hour): what exists is skipped);
   * 2. one usage_charges row per customer and hour: the whole cents of the running total
   *    (the carry before + the usage so far, hour by hour), the remainder carried on;
   * 3. for prepaid customers with cents to pay: their wallets locked (FOR UPDATE returns the
   *    latest committed balances) and updated once, and one BalanceLogCharge entry per hour
   *    (reference usage_charge/<id>) with the balances after it, bonus credit first.
   * Only rows this statement inserted flow into the sums, so a repeat charges nothing. Customers set
   * aside (charge_failures) are left out, unless `setAside: 'include'` (their retry, one customer).
   */
  async chargeChunk(tx: Executor, from: Date, to: Date, lo: number, hi: number, setAside: 'skip' | 'include' = 'skip'): Promise<ChunkResult & { perHour: { hour: string; usage_rows: number; customers: number; charged: string }[] }> {
    const f = ts(from);
    const e = ts(to);
    const lastHour = ts(new Date(to.getTime() - 3_600_000));
    const [row] = await queryRows<{ usage_rows: number; customers: number; ledger: number; charged: string | null; per_hour: unknown }>(
      tx,
      sql`
      with hours as (
        select h as hour, h + interval '1 hour' as hour_end from generate_series(${f}, ${lastHour}, interval '1 hour') h
      ), prices as (
        select distinct on (hours.hour, pv.price_key, pv.location_id) hours.hour, pv.id, pv.price_key, pv.location_id, pv.hourly_price
        from hours join price_versions pv on pv.effective_from <= hours.hour
        order by hours.hour, pv.price_key, pv.location_id, pv.effective_from desc
      ), due as (
        select m.id, m.customer_id, hours.hour, m.quantity, coalesce(p.id, pf.id) as price_version_id, coalesce(p.hourly_price, pf.hourly_price, 0) as hourly_price,
          extract(epoch from least(hours.hour_end, coalesce(m.stopped_at, hours.hour_end)) - greatest(hours.hour, m.started_at))::int as seconds
        from meters m
        join hours on m.started_at < hours.hour_end and (m.stopped_at is null or m.stopped_at > hours.hour)
        left join prices p on p.hour = hours.hour and p.price_key = m.price_key and p.location_id = m.location_id
        -- the meter's own key first (a tier's own price), else its fallback (the location's)
        left join prices pf on p.id is null and pf.hour = hours.hour and pf.price_key = m.fallback_price_key and pf.location_id = m.location_id
        where m.customer_id > ${lo} and m.customer_id <= ${hi} and m.started_at < ${e} and (m.stopped_at is null or m.stopped_at > ${f})
          ${setAside === 'skip' ? sql`and ${notSetAside(sql`m.customer_id`)}` : sql``}
      ), u as (
        insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
        select d.id, d.hour, d.customer_id, d.price_version_id, d.hourly_price, d.quantity, d.seconds,
          case when d.seconds = 3600 then d.hourly_price * d.quantity else round(d.hourly_price * d.quantity * d.seconds / 3600, 6) end
        from due d where d.seconds > 0
        on conflict do nothing
        returning customer_id, hour, amount
      ), s as (
        select customer_id, hour, count(*)::int as n, sum(amount) as usage_amount from u group by customer_id, hour
      ), c0 as (
        select x.customer_id, c.billing_type = 'POSTPAID' as postpaid, coalesce(prev.carry, 0) as carry
        from (select distinct customer_id from s) x
        join customers c on c.id = x.customer_id
        left join lateral (
          -- the last carry, looked for in the last 2 days first: usage_charges is partitioned by month
          -- and has a DEFAULT partition, so an unbounded "latest before" probes every month's index
          select coalesce(
            (select pc.carry from usage_charges pc
             where pc.customer_id = x.customer_id and pc.hour < ${f} and pc.hour >= ${f}::timestamptz - interval '2 days'
             order by pc.hour desc limit 1),
            (select pc.carry from usage_charges pc
             where pc.customer_id = x.customer_id and pc.hour < ${f}::timestamptz - interval '2 days'
             order by pc.hour desc limit 1)) as carry
        ) prev on true
      ), t as (
        select s.customer_id, s.hour, s.n, s.usage_amount, c0.postpaid,
          c0.carry + sum(s.usage_amount) over (partition by s.customer_id order by s.hour) as cum
        from s join c0 on c0.customer_id = s.customer_id
      ), ch as (
        insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
        select customer_id, hour, postpaid, n, usage_amount,
          trunc(cum, 2) - coalesce(lag(trunc(cum, 2)) over (partition by customer_id order by hour), 0), cum - trunc(cum, 2)
        from t
        on conflict do nothing
        returning id, customer_id, hour, postpaid, usage_rows, amount
      ), locked as (
        select w.customer_id, w.actual_balance as a0, w.current_balance as c0, greatest(w.current_balance - w.actual_balance, 0) as b0
        from wallets w
        where w.customer_id in (select customer_id from ch where not postpaid and amount > 0)
        for update
      ), lg as (
        select ch.id as charge_id, ch.customer_id, ch.hour, ch.amount, k.a0, k.c0, k.b0,
          sum(ch.amount) over (partition by ch.customer_id order by ch.hour) as cum
        from ch join locked k on k.customer_id = ch.customer_id
        where not ch.postpaid and ch.amount > 0
      ), lg2 as (
        select lg.*, greatest(b0 - cum, 0) as bonus_after, greatest(b0 - (cum - amount), 0) as bonus_before from lg
      ), upd as (
        update wallets w set current_balance = x.c0 - x.cum, actual_balance = x.a0 - (x.cum - (x.b0 - x.bonus_after))
        from (select distinct on (customer_id) customer_id, a0, c0, b0, cum, bonus_after from lg2 order by customer_id, hour desc) x
        where w.customer_id = x.customer_id
        returning w.customer_id
      ), led as (
        insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after,
          reference_type, reference_id, description)
        select customer_id, 'BalanceLogCharge', -amount, -(amount - (bonus_before - bonus_after)), -(bonus_before - bonus_after),
          a0 - (cum - (b0 - bonus_after)), c0 - cum, 'usage_charge', charge_id::text,
          'Hourly usage ' || to_char(hour at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || '–' || to_char((hour + interval '1 hour') at time zone 'UTC', 'HH24:MI') || ' UTC'
        from lg2 order by customer_id, hour
        returning amount
      ), stats as (
        select hour, sum(usage_rows)::int as usage_rows, count(*)::int as customers,
          coalesce(sum(amount) filter (where not postpaid), 0)::text as charged
        from ch group by hour
      )
      select (select count(*) from u)::int as usage_rows, (select count(*) from ch)::int as customers,
        (select count(*) from led)::int as ledger, (select -sum(amount) from led)::text as charged,
        (select count(*) from upd)::int as updated,
        (select coalesce(json_agg(stats), '[]'::json) from stats) as per_hour`,
    );
    const perHour = (typeof row!.per_hour === 'string' ? JSON.parse(row!.per_hour) : row!.per_hour) as { hour: string; usage_rows: number; customers: number; charged: string }[];
    return { usageRows: row!.usage_rows, customers: row!.customers, ledgerEntries: row!.ledger, charged: row!.charged ?? '0', perHour };
  }

  /** Wallets are created on first credit; a customer charged before any top-up gets one here (balance 0). */
  async ensureWallets(tx: Executor, lo: number, hi: number): Promise<void> {
    await tx.execute(sql`
      insert into wallets (customer_id)
      select c.id from customers c
      where c.id > ${lo} and c.id <= ${hi}
        and not exists (select 1 from wallets w where w.customer_id = c.id)
        and exists (select 1 from meters m where m.customer_id = c.id)
      on conflict do nothing`);
  }

  async advance(tx: Executor, from: Date, hours: number, cursor: number, perHour: { hour: string; usage_rows: number; customers: number; charged: string }[]): Promise<void> {
    const to = new Date(from.getTime() + (hours - 1) * 3_600_000);
    await tx.execute(sql`
      update charge_hours c set cursor_customer_id = ${cursor},
        usage_rows = c.usage_rows + coalesce(x.usage_rows, 0), customers = c.customers + coalesce(x.customers, 0),
        charged = c.charged + coalesce(x.charged, 0)
      from charge_hours c2
      left join json_to_recordset(${JSON.stringify(perHour)}::json) as x(hour timestamptz, usage_rows bigint, customers int, charged numeric) on x.hour = c2.hour
      where c.hour = c2.hour and c.hour >= ${ts(from)} and c.hour <= ${ts(to)}`);
  }

  async complete(tx: Executor, from: Date, hours: number, now: Date): Promise<void> {
    const to = new Date(from.getTime() + (hours - 1) * 3_600_000);
    await tx.execute(sql`update charge_hours set completed_at = ${ts(now)} where hour >= ${ts(from)} and hour <= ${ts(to)} and completed_at is null`);
  }

  // ---- customers set aside ----

  /** Sets a customer aside from `firstHour` on, retried from `retryAt` (no-op when they already are). */
  async setAside(tx: Executor, customerId: number, firstHour: Date, errorCode: string, error: string, now: Date, retryAt: Date): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`insert into charge_failures (customer_id, first_hour, error_code, error, failed_at, last_attempt_at, next_retry_at)
          values (${customerId}, ${ts(firstHour)}, ${errorCode}, ${error}, ${ts(now)}, ${ts(now)}, ${ts(retryAt)})
          on conflict (customer_id) where resolved_at is null do nothing
          returning id`,
    );
    return rows.length > 0;
  }

  /** Open failures due for a retry (all open ones of `customerId` when given), oldest first. */
  async dueFailures(ex: Executor, now: Date, customerId?: number): Promise<ChargeFailureRow[]> {
    const rows = await queryRows<ChargeFailureRow>(
      ex,
      sql`select ${failureColumns} from charge_failures f join customers c on c.id = f.customer_id
          where f.resolved_at is null and ${customerId === undefined ? sql`f.next_retry_at <= ${ts(now)}` : sql`f.customer_id = ${customerId}`}
          order by f.failed_at, f.id`,
    );
    return rows.map(failureRow);
  }

  /** The open failure of a customer, locked. */
  async openFailure(tx: Executor, customerId: number): Promise<ChargeFailureRow | undefined> {
    const [row] = await queryRows<ChargeFailureRow>(
      tx,
      sql`select ${failureColumns} from charge_failures f join customers c on c.id = f.customer_id
          where f.customer_id = ${customerId} and f.resolved_at is null for update of f`,
    );
    return row && failureRow(row);
  }

  async resolveFailure(tx: Executor, id: number, now: Date): Promise<void> {
    await tx.execute(sql`update charge_failures set resolved_at = ${ts(now)}, last_attempt_at = ${ts(now)} where id = ${id} and resolved_at is null`);
  }

  /** A retry that failed again: counted, with its error and the time of the next try. */
  async failedAgain(ex: Executor, id: number, errorCode: string, error: string, now: Date, nextRetryAt: Date): Promise<void> {
    await ex.execute(sql`update charge_failures set attempts = attempts + 1, error_code = ${errorCode}, error = ${error},
      last_attempt_at = ${ts(now)}, next_retry_at = ${ts(nextRetryAt)} where id = ${id} and resolved_at is null`);
  }

  async listFailures(ex: Executor, resolved: boolean, limit: number, offset: number): Promise<{ items: ChargeFailureRow[]; total: number }> {
    const where = resolved ? sql`f.resolved_at is not null` : sql`f.resolved_at is null`;
    const items = await queryRows<ChargeFailureRow>(
      ex,
      sql`select ${failureColumns} from charge_failures f join customers c on c.id = f.customer_id where ${where}
          order by ${resolved ? sql`f.resolved_at desc` : sql`f.failed_at`}, f.id limit ${limit} offset ${offset}`,
    );
    const [n] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from charge_failures f where ${where}`);
    return { items: items.map(failureRow), total: n?.n ?? 0 };
  }

  async openFailureCount(ex: Executor): Promise<number> {
    const [n] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from charge_failures where resolved_at is null`);
    return n?.n ?? 0;
  }

  // ---- meters ----

  async openMeter(ex: Executor, m: OpenMeterInput): Promise<{ id: number; created: boolean }> {
    const [row] = await queryRows<{ id: number }>(
      ex,
      sql`insert into meters (customer_id, resource_type, resource_id, description, price_key, fallback_price_key, location_id, quantity, started_at)
          values (${m.customerId}, ${m.resourceType}, ${m.resourceId}, ${m.description}, ${m.priceKey}, ${m.fallbackPriceKey}, ${m.locationId}, ${m.quantity}::numeric, ${ts(m.startedAt)})
          on conflict (resource_type, resource_id, price_key) where stopped_at is null do nothing
          returning id`,
    );
    if (row) return { id: Number(row.id), created: true };
    const [open] = await queryRows<{ id: number }>(
      ex,
      sql`select id from meters where resource_type = ${m.resourceType} and resource_id = ${m.resourceId} and price_key = ${m.priceKey} and stopped_at is null`,
    );
    return { id: Number(open!.id), created: false };
  }

  async closeMeters(ex: Executor, resourceType: string, resourceId: string, at: Date, priceKey?: string): Promise<number> {
    const rows = await queryRows<{ id: number }>(
      ex,
      sql`update meters set stopped_at = greatest(started_at, ${ts(at)})
          where resource_type = ${resourceType} and resource_id = ${resourceId} and stopped_at is null
          ${priceKey === undefined ? sql`` : sql`and price_key = ${priceKey}`}
          returning id`,
    );
    return rows.length;
  }
}
