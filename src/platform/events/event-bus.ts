import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DatabaseHandle, Executor } from '../db/database.js';

export type EventHandler<T> = (event: T) => void;

/**
 * Publish/subscribe over PostgreSQL LISTEN/NOTIFY. Published inside a transaction, an event is
 * delivered only if and when the transaction commits. Works in one process on the embedded
 * database and across processes on PostgreSQL.
 */
export class EventBus {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: Logger,
  ) {}

  async publish(channel: string, event: unknown, tx?: Executor): Promise<void> {
    const payload = JSON.stringify(event);
    // NOTIFY payloads are limited to 8000 bytes; larger events should carry ids, not bodies.
    if (Buffer.byteLength(payload) > 7900) throw new Error(`event on ${channel} is too large for NOTIFY`);
    await (tx ?? this.database.db).execute(sql`SELECT pg_notify(${channel}, ${payload})`);
  }

  async subscribe<T>(channel: string, handler: EventHandler<T>): Promise<() => Promise<void>> {
    return this.database.listen(channel, (payload) => {
      try {
        handler(JSON.parse(payload) as T);
      } catch (err) {
        this.log.error({ err, channel }, 'event handler failed');
      }
    });
  }
}
