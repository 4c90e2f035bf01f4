import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { eventually, type TestApp } from '../helpers/app.js';

/**
 * Resolves once webhooks have nothing left to do at the platform clock's time: no fan-out job
 * waiting or running, no event still to fan out, no attempt under way and no delivery due.
 */
export async function deliveriesSettled(t: TestApp, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () => {
      const now = t.container.clock.now().toISOString();
      const [row] = await queryRows<{ n: number }>(
        t.container.db,
        sql`select (select count(*) from pgboss.job where name = 'webhooks' and state in ('created', 'active', 'retry'))
                 + (select count(*) from webhook_events where fanned_out_at is null)
                 + (select count(*) from webhook_attempts where status = 'sending')
                 + (select count(*) from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id and w.disabled_at is null
                     where d.status = 'pending' and d.next_attempt_at <= ${now}::timestamptz and (d.lease_until is null or d.lease_until <= ${now}::timestamptz)) as n`,
      );
      return Number(row!.n) === 0;
    },
    timeoutMs,
    50,
  );
}
