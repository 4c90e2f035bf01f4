import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DatabaseHandle, Executor, ListenHooks } from '../db/database.js';

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

  /**
   * Calls `handler` with every event published on `channel` from now on. On PostgreSQL the
   * listening connection is opened again when it is lost; `hooks` hear about the loss and the
   * return, so a subscriber can catch up on what it missed in between.
   */
  async subscribe<T>(channel: string, handler: EventHandler<T>, hooks?: ListenHooks): Promise<() => Promise<void>> {
    const guarded = (what: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        this.log.error({ err, channel }, `event ${what} failed`);
      }
    };
    return this.database.listen(
      channel,
      (payload) => guarded('handler', () => handler(JSON.parse(payload) as T)),
      hooks && {
        onLost: () => guarded('onLost hook', () => hooks.onLost?.()),
        onRestored: () => guarded('onRestored hook', () => hooks.onRestored?.()),
      },
    );
  }
}
