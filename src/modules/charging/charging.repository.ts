import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';

/** The advisory lock every chunk of the hourly job takes: one chunk at a time, in any process. */
const CHARGING_LOCK = 730_001;

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
  locationId: number;
  quantity: string;
  startedAt: Date;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** SQL of the charging engine: set-based, one statement per chunk of customers. */
export class ChargingRepository {
  async lock(tx: Executor): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHARGING_LOCK})`);
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

  /** The hour's progress row, created on first use. */
  async hourState(tx: Executor, hour: Date, now: Date): Promise<HourState> {
    await tx.execute(sql`insert into charge_hours (hour, started_at) values (${ts(hour)}, ${ts(now)}) on conflict do nothing`);
    const [row] = await queryRows<{ cursor_customer_id: number; completed_at: string | Date | null }>(
      tx,
      sql`select cursor_customer_id, completed_at from charge_hours where hour = ${ts(hour)}`,
    );
    return { hour, cursorCustomerId: row!.cursor_customer_id, completedAt: row!.completed_at ? new Date(row!.completed_at) : null };
  }

  /**
   * The last customer of the next chunk: customers after `cursor` whose meters ran in the hour,
   * taken in id order until about `chunkMeters` meters (a customer's meters stay in one chunk).
   */
  async chunkEnd(tx: Executor, hour: Date, cursor: number, chunkMeters: number): Promise<{ hi: number; last: boolean } | undefined> {
    const end = new Date(hour.getTime() + 3_600_000);
    const [row] = await queryRows<{ hi: number | null; n: number }>(
      tx,
      sql`select max(customer_id) as hi, count(*)::int as n from (
            select customer_id from meters
            where customer_id > ${cursor} and started_at < ${ts(end)} and (stopped_at is null or stopped_at > ${ts(hour)})
            order by customer_id limit ${chunkMeters}) x`,
    );
    if (row?.hi === null || row?.hi === undefined) return undefined;
    // fewer meters than a chunk: nothing is left after this one
    return { hi: row.hi, last: row.n < chunkMeters };
  }

  /**
   * Charges one hour for the customers in (lo, hi], in one statement:
   * 1. usage rows for every meter that ran in the hour, at the price version in force at the
   *    hour's start, prorated by the second (unique (meter_id, hour): what exists is skipped);
   * 2. one usage_charges row per customer: the whole cents of (previous carry + the usage just
   *    recorded), the remainder carried on;
   * 3. for prepaid customers with cents to pay: their wallets locked (FOR UPDATE returns the
   *    latest committed balances), updated, and one BalanceLogCharge entry each
   *    (reference usage_charge/<id>), bonus credit first.
   * Only rows this statement inserted flow into the sums, so a repeat charges nothing.
   */
  async chargeChunk(tx: Executor, hour: Date, lo: number, hi: number, description: string): Promise<ChunkResult> {
    const end = new Date(hour.getTime() + 3_600_000);
    const h = ts(hour);
    const e = ts(end);
    const [row] = await queryRows<{ usage_rows: number; customers: number; ledger: number; charged: string | null }>(
      tx,
      sql`
      with prices as (
        select distinct on (price_key, location_id) id, price_key, location_id, hourly_price
        from price_versions where effective_from <= ${h}
        order by price_key, location_id, effective_from desc
      ), due as (
        select m.id, m.customer_id, m.quantity, p.id as price_version_id, coalesce(p.hourly_price, 0) as hourly_price,
          extract(epoch from least(${e}, coalesce(m.stopped_at, ${e})) - greatest(${h}, m.started_at))::int as seconds
        from meters m left join prices p on p.price_key = m.price_key and p.location_id = m.location_id
        where m.customer_id > ${lo} and m.customer_id <= ${hi} and m.started_at < ${e} and (m.stopped_at is null or m.stopped_at > ${h})
      ), u as (
        insert into usage_records (meter_id, hour, customer_id, price_version_id, hourly_price, quantity, seconds, amount)
        select d.id, ${h}, d.customer_id, d.price_version_id, d.hourly_price, d.quantity, d.seconds,
          case when d.seconds = 3600 then d.hourly_price * d.quantity else round(d.hourly_price * d.quantity * d.seconds / 3600, 6) end
        from due d where d.seconds > 0
        on conflict do nothing
        returning customer_id, amount
      ), s as (
        select customer_id, count(*)::int as n, sum(amount) as usage_amount from u group by customer_id
      ), t as (
        select s.customer_id, s.n, s.usage_amount, c.billing_type = 'POSTPAID' as postpaid,
          coalesce(prev.carry, 0) + s.usage_amount as total
        from s join customers c on c.id = s.customer_id
        left join lateral (
          select pc.carry from usage_charges pc where pc.customer_id = s.customer_id and pc.hour < ${h}
          order by pc.hour desc limit 1
        ) prev on true
      ), ch as (
        insert into usage_charges (customer_id, hour, postpaid, usage_rows, usage_amount, amount, carry)
        select customer_id, ${h}, postpaid, n, usage_amount, trunc(total, 2), total - trunc(total, 2) from t
        on conflict do nothing
        returning id, customer_id, postpaid, amount
      ), l as (
        select w.customer_id, w.actual_balance, w.current_balance, ch.id as charge_id, ch.amount,
          least(ch.amount, greatest(w.current_balance - w.actual_balance, 0)) as from_bonus
        from wallets w join ch on ch.customer_id = w.customer_id
        where not ch.postpaid and ch.amount > 0
        for update of w
      ), upd as (
        update wallets w set actual_balance = l.actual_balance - (l.amount - l.from_bonus), current_balance = l.current_balance - l.amount
        from l where w.customer_id = l.customer_id
        returning w.customer_id
      ), led as (
        insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after,
          reference_type, reference_id, description)
        select l.customer_id, 'BalanceLogCharge', -l.amount, -(l.amount - l.from_bonus), -l.from_bonus,
          l.actual_balance - (l.amount - l.from_bonus), l.current_balance - l.amount, 'usage_charge', l.charge_id::text, ${description}
        from l
        returning amount
      )
      select (select count(*) from u)::int as usage_rows, (select count(*) from ch)::int as customers,
        (select count(*) from led)::int as ledger, (select -sum(amount) from led)::text as charged,
        (select count(*) from upd)::int as updated`,
    );
    return { usageRows: row!.usage_rows, customers: row!.customers, ledgerEntries: row!.ledger, charged: row!.charged ?? '0' };
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

  async advance(tx: Executor, hour: Date, cursor: number, r: ChunkResult): Promise<void> {
    await tx.execute(sql`
      update charge_hours set cursor_customer_id = ${cursor}, usage_rows = usage_rows + ${r.usageRows},
        customers = customers + ${r.customers}, charged = charged + ${r.charged}::numeric
      where hour = ${ts(hour)}`);
  }

  async completeHour(tx: Executor, hour: Date, now: Date): Promise<void> {
    await tx.execute(sql`update charge_hours set completed_at = ${ts(now)} where hour = ${ts(hour)} and completed_at is null`);
  }

  // ---- meters ----

  async openMeter(ex: Executor, m: OpenMeterInput): Promise<{ id: number; created: boolean }> {
    const [row] = await queryRows<{ id: number }>(
      ex,
      sql`insert into meters (customer_id, resource_type, resource_id, description, price_key, location_id, quantity, started_at)
          values (${m.customerId}, ${m.resourceType}, ${m.resourceId}, ${m.description}, ${m.priceKey}, ${m.locationId}, ${m.quantity}::numeric, ${ts(m.startedAt)})
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
