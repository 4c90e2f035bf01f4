import type { Logger } from 'pino';
import type { DatabaseHandle } from '../../platform/db/database.js';
import { DELIVERIES_DUE_CHANNEL, type ClaimedDelivery } from './attempts.repository.js';

/** Attempts one worker process has in flight at once. */
export const DELIVERY_SLOTS = 128;
/** With nothing to wake it, the dispatcher looks for due deliveries this often (retries whose time came). */
export const IDLE_POLL_MS = 5_000;

export interface DeliveryWork {
  claim(limit: number): Promise<ClaimedDelivery[]>;
  attempt(c: ClaimedDelivery): Promise<void>;
}

/**
 * Runs webhook attempts in a worker process, each on its own: a slot frees the moment its attempt
 * is recorded, and the next claim fills the free slots, so no attempt waits for another's answer.
 * It claims when woken (new or replayed deliveries, the sweep: a notification from any process),
 * when an attempt ends, and every few seconds otherwise.
 */
export class DeliveryDispatcher {
  private running = false;
  private readonly active = new Set<Promise<void>>();
  /** a reason to claim came while the loop was busy */
  private poked = false;
  private wake: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly work: DeliveryWork,
    private readonly database: Pick<DatabaseHandle, 'listen'>,
    private readonly log: Logger,
    private readonly opts: { slots: number; idlePollMs: number } = { slots: DELIVERY_SLOTS, idlePollMs: IDLE_POLL_MS },
  ) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.database.listen(DELIVERIES_DUE_CHANNEL, () => this.poke(), { onRestored: () => this.poke() });
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the attempts under way (each ends within its request's timeout). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.poke();
    await this.loopDone;
    await this.unlisten?.().catch(() => undefined);
    await Promise.allSettled([...this.active]);
  }

  private poke(): void {
    this.poked = true;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.poked = false;
      // attempts that end together free their slots before one claim fills them
      await new Promise((resolve) => setImmediate(resolve));
      const free = this.opts.slots - this.active.size;
      if (free > 0) {
        try {
          for (const c of await this.work.claim(free)) this.launch(c);
        } catch (err) {
          this.log.error({ err }, 'could not claim webhook deliveries');
          await this.sleep(this.opts.idlePollMs);
          continue;
        }
      }
      if (this.running && !this.poked) await this.sleep(this.opts.idlePollMs);
    }
  }

  private launch(c: ClaimedDelivery): void {
    const run: Promise<void> = this.work
      .attempt(c)
      .catch((err: unknown) => this.log.error({ err, deliveryId: c.delivery_id }, 'webhook attempt failed'))
      .finally(() => {
        this.active.delete(run);
        this.poke();
      });
    this.active.add(run);
  }

  /** Until poked or `ms` have passed. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
