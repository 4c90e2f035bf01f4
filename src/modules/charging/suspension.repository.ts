import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';

export const SUSPEND_BALANCE = 'INSUFFICIENT_BALANCE';
export const SUSPEND_OVERDUE = 'POSTPAID_OVERDUE';

export interface ChargingSettings {
  runwayWarningHours: number;
  lowBalanceWarningHours: number;
  postpaidDueDays: number;
  postpaidSuspendGraceDays: number;
}

export const DEFAULT_CHARGING_SETTINGS: ChargingSettings = {
  runwayWarningHours: 72,
  lowBalanceWarningHours: 24,
  postpaidDueDays: 14,
  postpaidSuspendGraceDays: 7,
};

export interface CustomerNoticeRow {
  id: number;
  email: string;
  first_name: string;
  current_balance: string;
  burn: string | null;
  episode: string;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The burn rate: what the customer's running meters cost per hour at the prices in force now.
 * Used for the runway (hours the current balance lasts).
 */
const burnSql = (now: Date) => sql`
  with p as (
    select distinct on (price_key, location_id) price_key, location_id, hourly_price from price_versions
    where effective_from <= ${ts(now)} order by price_key, location_id, effective_from desc
  )
  select m.customer_id, sum(coalesce(own.hourly_price, fb.hourly_price) * m.quantity) as burn
  from meters m
  left join p own on own.price_key = m.price_key and own.location_id = m.location_id
  left join p fb on own.price_key is null and fb.price_key = m.fallback_price_key and fb.location_id = m.location_id
  where m.stopped_at is null and (own.price_key is not null or fb.price_key is not null)`;

export class SuspensionRepository {
  /** The customer's row, locked, with their spendable balance (0 without a wallet): what BillableStartService decides on. */
  async spendingState(tx: Executor, customerId: number) {
    const [row] = await queryRows<{ is_active: boolean; billing_type: string; suspended_at: Date | string | null; suspend_reason: string | null; current_balance: string }>(
      tx,
      sql`select c.is_active, c.billing_type, c.suspended_at, c.suspend_reason, coalesce(w.current_balance, 0)::text as current_balance
          from customers c left join wallets w on w.customer_id = c.id
          where c.id = ${customerId}
          for update of c`,
    );
    return row;
  }

  async settings(ex: Executor): Promise<ChargingSettings> {
    const [row] = await queryRows<{ r: number; l: number; d: number; g: number }>(
      ex,
      sql`select runway_warning_hours as r, low_balance_warning_hours as l, postpaid_due_days as d, postpaid_suspend_grace_days as g
          from charging_settings where id = 1`,
    );
    return row ? { runwayWarningHours: row.r, lowBalanceWarningHours: row.l, postpaidDueDays: row.d, postpaidSuspendGraceDays: row.g } : DEFAULT_CHARGING_SETTINGS;
  }

  async saveSettings(ex: Executor, s: ChargingSettings): Promise<void> {
    await ex.execute(sql`
      insert into charging_settings (id, runway_warning_hours, low_balance_warning_hours, postpaid_due_days, postpaid_suspend_grace_days, updated_at)
      values (1, ${s.runwayWarningHours}, ${s.lowBalanceWarningHours}, ${s.postpaidDueDays}, ${s.postpaidSuspendGraceDays}, now())
      on conflict (id) do update set runway_warning_hours = excluded.runway_warning_hours,
        low_balance_warning_hours = excluded.low_balance_warning_hours, postpaid_due_days = excluded.postpaid_due_days,
        postpaid_suspend_grace_days = excluded.postpaid_suspend_grace_days, updated_at = now()`);
  }

  /** Marks prepaid customers below zero (and not protected by do_not_suspend_until) suspended. */
  async suspendNegative(tx: Executor, now: Date, limit: number): Promise<{ id: number; email: string; first_name: string; current_balance: string }[]> {
    return queryRows(
      tx,
      sql`update customers c set suspended_at = ${ts(now)}, suspend_reason = ${SUSPEND_BALANCE}
          from (
            select c2.id, w.current_balance from customers c2 join wallets w on w.customer_id = c2.id
            where c2.billing_type = 'PREPAID' and c2.suspended_at is null and w.current_balance < 0
              and (c2.do_not_suspend_until is null or c2.do_not_suspend_until <= ${ts(now)})
            order by c2.id limit ${limit}
            for update of c2 skip locked
          ) due
          where c.id = due.id
          returning c.id, c.email, c.first_name, due.current_balance::text as current_balance`,
    );
  }

  /**
   * Lifts balance suspensions that no longer hold: the balance is back at zero or more, the
   * account became postpaid, or staff set do_not_suspend_until in the future.
   */
  async resumeRecovered(tx: Executor, now: Date, limit: number, customerIds?: number[]): Promise<{ id: number }[]> {
    return queryRows(
      tx,
      sql`update customers c set suspended_at = null, suspend_reason = null
          from (
            select c2.id from customers c2 left join wallets w on w.customer_id = c2.id
            where c2.suspended_at is not null and c2.suspend_reason = ${SUSPEND_BALANCE}
              ${
                customerIds === undefined
                  ? sql``
                  : customerIds.length === 1
                    ? sql`and c2.id = ${customerIds[0]}`
                    : sql`and c2.id in (select id::int from json_array_elements_text(${JSON.stringify(customerIds)}::json) as j(id))`
              }
              and (coalesce(w.current_balance, 0) >= 0 or c2.billing_type <> 'PREPAID'
                   or (c2.do_not_suspend_until is not null and c2.do_not_suspend_until > ${ts(now)}))
            order by c2.id limit ${limit}
            for update of c2 skip locked
          ) ok
          where c.id = ok.id
          returning c.id`,
    );
  }

  async suspensionState(ex: Executor, customerId: number): Promise<{ suspendedAt: Date | null; reason: string | null } | undefined> {
    const [row] = await queryRows<{ suspended_at: string | Date | null; suspend_reason: string | null }>(
      ex,
      sql`select suspended_at, suspend_reason from customers where id = ${customerId}`,
    );
    return row && { suspendedAt: row.suspended_at ? new Date(row.suspended_at) : null, reason: row.suspend_reason };
  }

  /**
   * Prepaid customers with reminders on, not suspended, whose balance lasts fewer than `hours`
   * at the current burn and who have not had this notice in this episode (since their last credit).
   */
  async dueNotices(ex: Executor, now: Date, kind: string, hours: number, limit: number): Promise<CustomerNoticeRow[]> {
    return queryRows(
      ex,
      sql`with burn as (${burnSql(now)} group by m.customer_id)
          select c.id, c.email, c.first_name, w.current_balance::text as current_balance, b.burn::text as burn,
            coalesce((select max(l.id) from balance_logs l where l.customer_id = c.id and l.amount > 0), 0)::text as episode
          from burn b
          join customers c on c.id = b.customer_id
          join wallets w on w.customer_id = c.id
          where b.burn > 0 and c.billing_type = 'PREPAID' and c.suspended_at is null and c.allow_billing_reminder
            and w.current_balance >= 0 and w.current_balance < b.burn * ${hours}
            and not exists (
              select 1 from billing_notices n where n.customer_id = c.id and n.kind = ${kind}
                and n.episode = coalesce((select max(l.id) from balance_logs l where l.customer_id = c.id and l.amount > 0), 0)::text)
          order by c.id limit ${limit}`,
    );
  }

  /** Records a notice; false when it was already sent for this episode. */
  async recordNotice(tx: Executor, customerId: number, kind: string, episode: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`insert into billing_notices (customer_id, kind, episode, sent_at) values (${customerId}, ${kind}, ${episode}, ${ts(now)})
          on conflict do nothing returning id`,
    );
    return rows.length > 0;
  }

  async burnOf(ex: Executor, customerId: number, now: Date): Promise<string> {
    const [row] = await queryRows<{ burn: string | null }>(ex, sql`select sum(burn)::text as burn from (${burnSql(now)} and m.customer_id = ${customerId} group by m.customer_id) b`);
    return row?.burn ?? '0';
  }

  async runningMeters(ex: Executor, customerId: number) {
    return queryRows<{ id: number; resource_type: string; resource_id: string; description: string; price_key: string; location_id: number; quantity: string; started_at: string | Date }>(
      ex,
      sql`select id, resource_type, resource_id, description, price_key, location_id, quantity::text as quantity, started_at
          from meters where customer_id = ${customerId} and stopped_at is null order by id`,
    );
  }
}

export class UsageViewRepository {
  async customer(ex: Executor, customerId: number) {
    const [row] = await queryRows<{ billing_type: string; suspended_at: string | Date | null; suspend_reason: string | null; current_balance: string | null }>(
      ex,
      sql`select c.billing_type, c.suspended_at, c.suspend_reason, w.current_balance::text as current_balance
          from customers c left join wallets w on w.customer_id = c.id where c.id = ${customerId}`,
    );
    return row;
  }

  async running(ex: Executor, customerId: number, now: Date) {
    return queryRows<{ resource_type: string; resource_id: string; description: string; quantity: string; hourly_price: string | null; started_at: string | Date }>(
      ex,
      sql`select m.resource_type, m.resource_id, m.description, m.quantity::text as quantity, p.hourly_price::text as hourly_price, m.started_at
          from meters m
          left join lateral (
            -- the meter's own key first (a tier's own price), else its fallback (the location's)
            select hourly_price from price_versions pv
            where pv.price_key in (m.price_key, m.fallback_price_key) and pv.location_id = m.location_id and pv.effective_from <= ${ts(now)}
            order by pv.price_key = m.price_key desc, pv.effective_from desc, pv.id desc limit 1
          ) p on true
          where m.customer_id = ${customerId} and m.stopped_at is null order by m.id`,
    );
  }

  /**
   * The customer's charged hours, newest first, each with its usage records (one per meter: a
   * resource whose price changed within the hour, a resized VM, has one per part).
   */
  async chargedHours(ex: Executor, customerId: number, limit: number, offset: number) {
    const hours = await queryRows<{ hour: Date; postpaid: boolean; usage_amount: string; amount: string }>(
      ex,
      sql`select hour, postpaid, usage_amount::text as usage_amount, amount::text as amount from usage_charges
          where customer_id = ${customerId} order by hour desc limit ${limit} offset ${offset}`,
    );
    const [count] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from usage_charges where customer_id = ${customerId}`);
    const lines =
      hours.length === 0
        ? []
        : await queryRows<{ hour: Date; resource_type: string; resource_id: string; description: string; quantity: string; hourly_price: string; seconds: number; amount: string }>(
            ex,
            sql`select u.hour, m.resource_type, m.resource_id, m.description, u.quantity::text as quantity, u.hourly_price::text as hourly_price, u.seconds, u.amount::text as amount
                from meters m join usage_records u on u.meter_id = m.id
                where m.customer_id = ${customerId} and u.hour >= ${ts(new Date(hours[hours.length - 1]!.hour))} and u.hour <= ${ts(new Date(hours[0]!.hour))}
                order by u.hour desc, m.resource_type, m.resource_id, m.started_at, m.id`,
          );
    return { hours, lines, total: count!.n };
  }

  async chargedSince(ex: Executor, customerId: number, from: Date): Promise<string> {
    const [row] = await queryRows<{ s: string | null }>(ex, sql`select sum(amount)::text as s from usage_charges where customer_id = ${customerId} and hour >= ${ts(from)}`);
    return row?.s ?? '0';
  }

  /** What was charged for the hours from `from` up to (not including) `to`. */
  async chargedBetween(ex: Executor, customerId: number, from: Date, to: Date): Promise<string> {
    const [row] = await queryRows<{ s: string | null }>(ex, sql`select sum(amount)::text as s from usage_charges where customer_id = ${customerId} and hour >= ${ts(from)} and hour < ${ts(to)}`);
    return row?.s ?? '0';
  }
}
