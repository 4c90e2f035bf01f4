import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import type { TestApp } from '../helpers/app.js';

/** A price version straight in the table (the pricing module owns the writes). */
export async function insertPrice(t: TestApp, priceKey: string, monthly: string, effectiveFrom: string, locationId = 1): Promise<void> {
  await t.container.db.execute(sql`
    insert into price_versions (price_key, location_id, monthly_price, hourly_price, effective_from)
    values (${priceKey}, ${locationId}, ${monthly}::numeric, round(${monthly}::numeric / 730, 6), ${effectiveFrom}::timestamptz)`);
}

export async function usageOf(t: TestApp, customerId: number) {
  return queryRows<{ meter_id: number; hour: Date | string; amount: string; seconds: number; hourly_price: string }>(
    t.container.db,
    sql`select meter_id, hour, amount::text, seconds, hourly_price::text from usage_records where customer_id = ${customerId} order by hour, meter_id`,
  );
}

export async function one<T>(t: TestApp, q: ReturnType<typeof sql>): Promise<T> {
  const [row] = await queryRows<T>(t.container.db, q);
  return row!;
}
