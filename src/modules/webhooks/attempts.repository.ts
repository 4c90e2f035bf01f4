import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { leaseFree, leaseLive, leaseRanOut } from '../../platform/durable/index.js';

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The channel that tells the worker processes' dispatchers that deliveries may be due. */
export const DELIVERIES_DUE_CHANNEL = 'webhook_deliveries_due';

export interface ClaimedDelivery {
  delivery_id: number;
  attempt: number;
  step: number;
  attempt_id: number;
  endpoint_id: number;
  customer_id: number;
  event_uuid: string;
  type: string;
  /** the event's data as PostgreSQL writes the jsonb (numbers exactly as stored) */
  data: string;
  occurred_at: string | Date;
  url: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: string | Date | null;
}

export interface AttemptOutcome {
  attemptId: number;
  status: 'succeeded' | 'failed';
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  finishedAt: Date;
}

export interface ClaimLimits {
  /** deliveries to take at most (the caller's free slots) */
  limit: number;
  /** attempts in flight at once to one endpoint, counted over every worker process */
  perEndpoint: number;
  /** attempts in flight at once to one account's endpoints, counted over every worker process */
  perCustomer: number;
}

/**
 * The durable-work side of deliveries, in one place: a due delivery is claimed with a lease
 * (`lease_until`) and an attempt written as `sending` before any byte leaves; the attempt is
 * settled with its outcome and the delivery's next time (or its end); an attempt whose lease ran
 * out without an outcome (its worker died) is marked `interrupted`, and its delivery is due again.
 * The numbers (lease, retry times, when to give up) are the WEBHOOK_DELIVERY policy of
 * deliveries.policy.ts; the lease conditions are platform/durable's.
 */
export class AttemptsRepository {
  /**
   * Takes up to `limit` due deliveries for one attempt each, fairly: never more than the caps in
   * flight per endpoint and per account (attempts `sending` under a live lease, in any process),
   * an endpoint's oldest deliveries first, and the accounts with the fewest attempts in flight
   * first, so one account's backlog or silent endpoint cannot take the turns of another. Run it
   * under the claim lock: the counts it reads must not change until it commits.
   */
  async claim(ex: Executor, at: Date, leaseUntil: Date, caps: ClaimLimits): Promise<ClaimedDelivery[]> {
    if (caps.limit <= 0) return [];
    return queryRows<ClaimedDelivery>(
      ex,
      sql`with busy as (
            select d.endpoint_id, d.customer_id
              from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
             where a.status = 'sending' and ${leaseLive(sql`a.lease_until`, at)}
          ), endpoint_busy as (
            select endpoint_id, count(*)::int as n from busy group by endpoint_id
          ), customer_busy as (
            select customer_id, count(*)::int as n from busy group by customer_id
          ), open as (
            select w.id, w.customer_id, coalesce(eb.n, 0) as endpoint_n, coalesce(cb.n, 0) as customer_n
              from webhook_endpoints w
              left join endpoint_busy eb on eb.endpoint_id = w.id
              left join customer_busy cb on cb.customer_id = w.customer_id
             where w.disabled_at is null and coalesce(eb.n, 0) < ${caps.perEndpoint} and coalesce(cb.n, 0) < ${caps.perCustomer}
          ), candidates as (
            select o.id as endpoint_id, o.customer_id, o.customer_n, d.id, d.created_at
              from open o cross join lateral (
                select d.id, d.created_at from webhook_deliveries d
                 where d.endpoint_id = o.id and d.status = 'pending' and d.next_attempt_at <= ${ts(at)}
                   and ${leaseFree(sql`d.lease_until`, at)}
                 order by d.created_at
                 limit ${caps.perEndpoint} - o.endpoint_n
              ) d
          ), endpoint_turns as (
            select c.*, row_number() over (partition by c.endpoint_id order by c.created_at, c.id) as endpoint_turn from candidates c
          ), customer_turns as (
            select e.*, row_number() over (partition by e.customer_id order by e.endpoint_turn, e.created_at, e.id) as customer_turn from endpoint_turns e
          ), picked as (
            select id from customer_turns
             where customer_turn <= ${caps.perCustomer} - customer_n
             order by customer_n + customer_turn, created_at, id
             limit ${caps.limit}
          ), c as (
            update webhook_deliveries d set lease_until = ${ts(leaseUntil)}, attempts = d.attempts + 1, last_attempt_at = ${ts(at)}
              from picked p
             where d.id = p.id and d.status = 'pending' and ${leaseFree(sql`d.lease_until`, at)}
            returning d.id, d.attempts, d.step, d.event_id, d.endpoint_id, d.customer_id
          ), a as (
            insert into webhook_attempts (delivery_id, attempt, status, started_at, lease_until)
            select id, attempts, 'sending', ${ts(at)}, ${ts(leaseUntil)} from c
            returning id, delivery_id
          )
          select c.id::int as delivery_id, c.attempts as attempt, c.step, a.id::int as attempt_id, c.endpoint_id, c.customer_id,
                 e.uuid::text as event_uuid, e.type, e.data::text as data, e.occurred_at,
                 w.url, w.secret_enc, w.previous_secret_enc, w.previous_secret_expires_at
            from c join a on a.delivery_id = c.id join webhook_events e on e.id = c.event_id join webhook_endpoints w on w.id = c.endpoint_id`,
    );
  }

  async finishAttempt(ex: Executor, o: AttemptOutcome): Promise<void> {
    await ex.execute(
      sql`update webhook_attempts set status = ${o.status}, status_code = ${o.statusCode}, duration_ms = ${o.durationMs},
                 response_body = ${o.responseBody}, error = ${o.error}, finished_at = ${ts(o.finishedAt)}
           where id = ${o.attemptId}`,
    );
  }

  /**
   * The delivery after its attempt `attempt`: written only while that attempt is still the
   * delivery's latest (a worker whose lease ran out and was overtaken changes nothing).
   */
  async settleDelivery(
    ex: Executor,
    d: { id: number; attempt: number; status: 'pending' | 'succeeded' | 'failed'; step: number; nextAttemptAt: Date | null; at: Date },
  ): Promise<boolean> {
    const rows = await queryRows(
      ex,
      sql`update webhook_deliveries set status = ${d.status}, step = ${d.step},
                 next_attempt_at = ${d.nextAttemptAt ? ts(d.nextAttemptAt) : null}, lease_until = null,
                 succeeded_at = case when ${d.status} = 'succeeded' then ${ts(d.at)} else succeeded_at end
           where id = ${d.id} and attempts = ${d.attempt} and status = 'pending'
          returning id`,
    );
    return rows.length > 0;
  }

  /** Attempts whose worker stopped before it recorded an answer (their lease ran out). */
  async interruptAbandoned(ex: Executor, at: Date): Promise<number> {
    const rows = await queryRows(
      ex,
      sql`update webhook_attempts set status = 'interrupted', finished_at = ${ts(at)},
                 error = 'the worker stopped before it recorded an answer; the delivery is tried again'
           where status = 'sending' and ${leaseRanOut(sql`lease_until`, at)}
          returning id`,
    );
    return rows.length;
  }

  /** Deliveries of enabled endpoints that are due at `at` and under no live lease. */
  async countDue(ex: Executor, at: Date): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      ex,
      sql`select count(*)::int as n from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id and w.disabled_at is null
           where d.status = 'pending' and d.next_attempt_at <= ${ts(at)} and ${leaseFree(sql`d.lease_until`, at)}`,
    );
    return row?.n ?? 0;
  }

  /** Wakes every dispatcher (at commit, when `ex` is a transaction). */
  async wakeDispatchers(ex: Executor): Promise<void> {
    await ex.execute(sql`select pg_notify(${DELIVERIES_DUE_CHANNEL}, '')`);
  }
}
