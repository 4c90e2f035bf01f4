import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { TicketEventRow, TicketsRepository } from './tickets.repository.js';
import { TICKET_EVENTS_CHANNEL } from './tickets.service.js';

/** Stream events are kept this long for Last-Event-ID resumes; older ids get a `reset`. */
export const TICKET_EVENT_RETENTION_DAYS = 7;
/** A resume that would replay more than this many events gets a `reset` instead. */
export const MAX_REPLAY = 1000;

export type StreamOut =
  | { kind: 'event'; id: number; type: string; payload: unknown }
  | { kind: 'reset'; id: number; reason: 'unknown_id' | 'too_old' | 'too_many' };

type Listener = (e: TicketEventRow) => void;

/**
 * The ticket stream of one API process. It LISTENs on the PostgreSQL channel once (at the first
 * client), reads the new rows of `ticket_events` when a NOTIFY says there are some, and hands them
 * to every open connection of this process. Event ids follow commit order, so a connection only
 * has to remember the last id it sent.
 */
export class TicketStream {
  private readonly listeners = new Set<Listener>();
  private head = 0;
  private ready: Promise<void> | undefined;
  private fetching: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly repo: TicketsRepository,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  readonly pruneJob = defineJob<object>({
    name: 'tickets.prune-stream-events',
    schedule: '25 * * * *',
    description: `Deletes ticket stream events older than ${TICKET_EVENT_RETENTION_DAYS} days (a resume from an older id gets a reset)`,
    handler: async (_p, ctx) => {
      const n = await this.prune();
      if (n > 0) ctx.log.info({ pruned: n }, 'ticket stream events pruned');
    },
  });

  async prune(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - TICKET_EVENT_RETENTION_DAYS * 86_400_000);
    return this.db.transaction((tx) => this.repo.pruneEvents(tx, before));
  }

  private start(): Promise<void> {
    if (!this.ready) {
      this.ready = (async () => {
        // after a lost listening connection, what was committed meanwhile is read at once
        this.unlisten = await this.events.subscribe(TICKET_EVENTS_CHANNEL, () => this.pull(), { onRestored: () => this.pull() });
        this.head = await this.repo.headEventId(this.db);
      })();
      this.ready.catch(() => {
        this.ready = undefined;
      });
      this.fetching = this.ready.catch(() => undefined);
    }
    return this.ready;
  }

  /** Reads what is new since the last read, one read at a time, in id order. */
  private pull(): void {
    this.fetching = this.fetching
      .then(async () => {
        for (;;) {
          const rows = await this.repo.eventsAfter(this.db, this.head, 500);
          for (const row of rows) {
            this.head = row.id;
            for (const l of this.listeners) l(row);
          }
          if (rows.length < 500) return;
        }
      })
      .catch((err) => this.log.error({ err }, 'ticket stream: reading new events failed'));
  }

  /**
   * Opens one client: with a Last-Event-ID, replays what came after it (or sends a reset when
   * the id is unknown, pruned or too far back); then every new event. Returns the unsubscribe.
   */
  async open(lastEventId: string | undefined, send: (m: StreamOut) => void): Promise<() => void> {
    await this.start();
    await this.fetching;
    let replaying = true;
    let lastSent = this.head;
    const buffered: TicketEventRow[] = [];
    const deliver = (e: TicketEventRow) => {
      if (e.id <= lastSent) return;
      lastSent = e.id;
      send({ kind: 'event', id: e.id, type: e.type, payload: e.payload });
    };
    const listener: Listener = (e) => (replaying ? buffered.push(e) : deliver(e));
    this.listeners.add(listener);
    try {
      if (lastEventId !== undefined) {
        const upTo = Math.max(this.head, await this.repo.headEventId(this.db));
        const n = /^\d{1,15}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : NaN;
        const reset = (reason: 'unknown_id' | 'too_old' | 'too_many') => {
          lastSent = upTo;
          send({ kind: 'reset', id: upTo, reason });
        };
        if (!Number.isSafeInteger(n) || n > upTo) reset('unknown_id');
        else if (n < (await this.repo.prunedThrough(this.db))) reset('too_old');
        else if ((await this.repo.countEventsAfter(this.db, n, upTo)) > MAX_REPLAY) reset('too_many');
        else {
          lastSent = n;
          for (const e of await this.repo.eventsAfter(this.db, n, MAX_REPLAY, upTo)) deliver(e);
          lastSent = Math.max(lastSent, upTo);
        }
      }
    } catch (err) {
      this.listeners.delete(listener);
      throw err;
    } finally {
      replaying = false;
      for (const e of buffered) deliver(e);
    }
    return () => this.listeners.delete(listener);
  }

  /** Open connections of this process (for tests and metrics). */
  connections(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
  }
}
