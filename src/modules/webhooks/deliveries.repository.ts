import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { leaseFree } from '../../platform/durable/index.js';

/** Builds the INSERT of jobs for a SELECT of jsonb payloads (JobQueue.enqueueSql of one job). */
export type JobsSql = (payloads: SQL) => SQL;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const idList = (ids: readonly number[]) => sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::bigint)`;

/** An endpoint takes an event when it is the test event's target or subscribes to its type. */
const endpointTakes = (w: string, type: SQL, target: SQL) =>
  sql`${sql.raw(w)}.disabled_at is null and (${sql.raw(w)}.id = ${target} or (${target} is null and (${type} = any(${sql.raw(w)}.event_types) or '*' = any(${sql.raw(w)}.event_types))))`;

/** SQL of the outbox, the fan-out, replays, endpoints' health and retention (attempts: attempts.repository.ts). */
export class DeliveriesRepository {
  /**
   * Writes the events (one statement for any number) for the accounts with an enabled endpoint
   * that takes them, with one fan-out job for all of them; answers the events written.
   */
  async insertEvents(
    ex: Executor,
    events: { customer_id: number; type: string; data: unknown; endpoint_id: number | null }[],
    payloadJson: string,
    at: Date,
    fanOutJobs: JobsSql,
  ): Promise<{ id: number; uuid: string }[]> {
    if (events.length === 0) return [];
    return queryRows(
      ex,
      sql`with input as (
            select (e->>'customer_id')::int as customer_id, e->>'type' as type, e->'data' as data, (e->>'endpoint_id')::int as endpoint_id
              from jsonb_array_elements(${payloadJson}::jsonb) as e
          ), ev as (
            insert into webhook_events (customer_id, type, data, occurred_at, target_endpoint_id)
            select i.customer_id, i.type, i.data, ${ts(at)}, i.endpoint_id from input i
             where exists (select 1 from webhook_endpoints w where w.customer_id = i.customer_id and ${endpointTakes('w', sql`i.type`, sql`i.endpoint_id`)})
            returning id, uuid
          ), job as (${fanOutJobs(sql`select jsonb_build_object('eventIds', jsonb_agg(id order by id)) from ev having count(*) > 0`)})
          select id::int as id, uuid::text as uuid from ev`,
    );
  }

  /**
   * Turns events into deliveries, one per endpoint that takes each, due at once, in one
   * statement. An event is fanned out once: a repeated job finds it done.
   */
  async fanOut(ex: Executor, eventIds: readonly number[], at: Date): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      ex,
      sql`with ev as (
            update webhook_events set fanned_out_at = ${ts(at)}
             where id in ${idList(eventIds)} and fanned_out_at is null
            returning id, customer_id, type, target_endpoint_id
          ), d as (
            insert into webhook_deliveries (event_id, endpoint_id, customer_id, status, next_attempt_at, created_at)
            select ev.id, w.id, ev.customer_id, 'pending', ${ts(at)}, ${ts(at)}
              from ev join webhook_endpoints w on w.customer_id = ev.customer_id and ${endpointTakes('w', sql`ev.type`, sql`ev.target_endpoint_id`)}
            on conflict (event_id, endpoint_id) do nothing
            returning id
          )
          select count(*)::int as n from d`,
    );
    return row?.n ?? 0;
  }

  /** A success clears the endpoint's failing streak (written at most once a minute per endpoint). */
  async endpointSucceeded(ex: Executor, endpointId: number, at: Date): Promise<void> {
    await ex.execute(
      sql`update webhook_endpoints set failing_since = null, last_success_at = ${ts(at)}
           where id = ${endpointId} and (failing_since is not null or last_success_at is null or last_success_at < ${ts(new Date(at.getTime() - 60_000))})`,
    );
  }

  /** The first failure after a success starts the endpoint's failing streak. */
  async endpointFailed(ex: Executor, endpointId: number, at: Date): Promise<void> {
    await ex.execute(sql`update webhook_endpoints set failing_since = ${ts(at)} where id = ${endpointId} and failing_since is null`);
  }

  /**
   * Disables an enabled endpoint and fails its pending deliveries; answers the endpoint with its
   * owner's address for the notice, or nothing when it was already disabled.
   */
  async disableEndpoint(
    ex: Executor,
    endpointId: number,
    reason: 'gone' | 'failing' | 'customer',
    at: Date,
  ): Promise<{ id: number; customer_id: number; url: string; email: string; first_name: string } | undefined> {
    const [row] = await queryRows<{ id: number; customer_id: number; url: string; email: string; first_name: string }>(
      ex,
      sql`with w as (
            update webhook_endpoints set disabled_at = ${ts(at)}, disabled_reason = ${reason}, updated_at = ${ts(at)}
             where id = ${endpointId} and disabled_at is null
            returning id, customer_id, url
          ), d as (
            update webhook_deliveries set status = 'failed', next_attempt_at = null
             where endpoint_id in (select id from w) and status = 'pending'
          )
          select w.id, w.customer_id, w.url, c.email, c.first_name from w join customers c on c.id = w.customer_id`,
    );
    return row;
  }

  /** Events whose fan-out job never ran (queued again by the sweep). */
  async unfannedEvents(ex: Executor, before: Date, limit: number): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      ex,
      sql`select id::int as id from webhook_events where fanned_out_at is null and occurred_at <= ${ts(before)} order by id limit ${limit}`,
    );
    return rows.map((r) => r.id);
  }

  /** Enabled endpoints whose failing streak began at or before `before`. */
  async endpointsFailingSince(ex: Executor, before: Date): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      ex,
      sql`select id from webhook_endpoints where disabled_at is null and failing_since <= ${ts(before)} order by id`,
    );
    return rows.map((r) => r.id);
  }

  /**
   * Makes deliveries due now with a fresh retry schedule (replay). Deliveries in the middle of an
   * attempt and those of disabled endpoints are left alone.
   */
  async replay(ex: Executor, where: SQL, at: Date): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      ex,
      sql`with r as (
            update webhook_deliveries d set status = 'pending', step = 0, next_attempt_at = ${ts(at)}
              from webhook_endpoints w
             where w.id = d.endpoint_id and w.disabled_at is null and ${leaseFree(sql`d.lease_until`, at)} and ${where}
            returning d.id
          )
          select count(*)::int as n from r`,
    );
    return row?.n ?? 0;
  }

  /** Deletes events (with their deliveries and attempts) that occurred before `before`, a chunk at a time. */
  async pruneEvents(ex: Executor, before: Date, limit: number): Promise<number> {
    const rows = await queryRows(
      ex,
      sql`delete from webhook_events where id in (select id from webhook_events where occurred_at < ${ts(before)} order by id limit ${limit}) returning id`,
    );
    return rows.length;
  }
}
