import { and, count, eq, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { offsetOf, type Page, type PageRequest } from '../../platform/http/pagination.js';
import { customers } from '../customers/customers.tables.js';
import { webhookEndpoints } from './webhooks.tables.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface EventFilter {
  endpointId?: number;
  type?: string;
  /** events with at least one delivery in this state */
  status?: 'pending' | 'succeeded' | 'failed';
}

export interface EventRow {
  id: number;
  uuid: string;
  type: string;
  data: string;
  occurred_at: string | Date;
}

export interface DeliveryRow {
  id: number;
  event_id: number;
  endpoint_id: number;
  status: string;
  attempts: number;
  next_attempt_at: string | Date | null;
  last_attempt_at: string | Date | null;
  succeeded_at: string | Date | null;
}

export interface AttemptRow {
  id: number;
  delivery_id: number;
  attempt: number;
  status: string;
  started_at: string | Date;
  finished_at: string | Date | null;
  status_code: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
}

/** Endpoints and the customer's view of events, deliveries and attempts. */
export class WebhooksRepository {
  async insertEndpoint(ex: Executor, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
    const [created] = await ex.insert(webhookEndpoints).values(row).returning();
    return created!;
  }

  async findEndpoint(ex: Executor, customerId: number, id: number): Promise<EndpointRow | undefined> {
    const [row] = await ex
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, customerId)));
    return row;
  }

  async listEndpoints(ex: Executor, customerId: number): Promise<EndpointRow[]> {
    return ex.select().from(webhookEndpoints).where(eq(webhookEndpoints.customerId, customerId)).orderBy(webhookEndpoints.id);
  }

  async countEndpoints(ex: Executor, customerId: number): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.customerId, customerId));
    return row?.n ?? 0;
  }

  async lockCustomer(ex: Executor, customerId: number): Promise<void> {
    await ex.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for('update');
  }

  async updateEndpoint(ex: Executor, customerId: number, id: number, set: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointRow | undefined> {
    const [row] = await ex
      .update(webhookEndpoints)
      .set(set)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, customerId)))
      .returning();
    return row;
  }

  async deleteEndpoint(ex: Executor, customerId: number, id: number): Promise<boolean> {
    const rows = await ex
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, customerId)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }

  /** The customer's events, newest first. */
  async listEvents(ex: Executor, customerId: number, f: EventFilter, p: PageRequest): Promise<Page<EventRow>> {
    const where = sql`e.customer_id = ${customerId}
      ${f.type ? sql`and e.type = ${f.type}` : sql``}
      ${f.endpointId !== undefined || f.status ? sql`and exists (select 1 from webhook_deliveries d where d.event_id = e.id
          ${f.endpointId !== undefined ? sql`and d.endpoint_id = ${f.endpointId}` : sql``} ${f.status ? sql`and d.status = ${f.status}` : sql``})` : sql``}`;
    const items = await queryRows<EventRow>(
      ex,
      sql`select e.id::int as id, e.uuid::text as uuid, e.type, e.data::text as data, e.occurred_at
            from webhook_events e where ${where} order by e.id desc limit ${p.limit} offset ${offsetOf(p)}`,
    );
    const [total] = await queryRows<{ n: number }>(ex, sql`select count(*)::int as n from webhook_events e where ${where}`);
    return { items, total: total?.n ?? 0 };
  }

  async findEvent(ex: Executor, customerId: number, uuid: string): Promise<EventRow | undefined> {
    const [row] = await queryRows<EventRow>(
      ex,
      sql`select id::int as id, uuid::text as uuid, type, data::text as data, occurred_at from webhook_events where uuid = ${uuid}::uuid and customer_id = ${customerId}`,
    );
    return row;
  }

  async deliveriesOf(ex: Executor, eventIds: readonly number[]): Promise<DeliveryRow[]> {
    if (eventIds.length === 0) return [];
    return queryRows<DeliveryRow>(
      ex,
      sql`select id::int as id, event_id::int as event_id, endpoint_id, status, attempts, next_attempt_at, last_attempt_at, succeeded_at
            from webhook_deliveries where event_id in (select (jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb))::bigint)
           order by event_id, endpoint_id`,
    );
  }

  async attemptsOf(ex: Executor, deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return queryRows<AttemptRow>(
      ex,
      sql`select id::int as id, delivery_id::int as delivery_id, attempt, status, started_at, finished_at, status_code, duration_ms, response_body, error
            from webhook_attempts where delivery_id in (select (jsonb_array_elements_text(${JSON.stringify(deliveryIds)}::jsonb))::bigint)
           order by delivery_id, id`,
    );
  }
}
