import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { dec } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { ChargingRepository } from './charging.repository.js';

const HOUR = 3_600_000;

export function hourStart(t: Date): Date {
  return new Date(Math.floor(t.getTime() / HOUR) * HOUR);
}

export interface HourResult {
  hour: string;
  usageRows: number;
  customers: number;
  ledgerEntries: number;
  charged: string;
  chunks: number;
}

export interface RunResult {
  hours: HourResult[];
}

/** What runs after the charges of a run (suspension, notices); the suspension service implements it. */
export interface AfterCharging {
  afterCharging(): Promise<void>;
}

function hourLabel(h: Date): string {
  const end = new Date(h.getTime() + HOUR);
  return `Hourly usage ${h.toISOString().slice(0, 16).replace('T', ' ')}–${end.toISOString().slice(11, 16)} UTC`;
}

/**
 * The hourly charge (DECISIONS 5). Each complete clock hour is charged once, in order, from the
 * first hour not yet completed up to the last complete hour, so missed hours are caught up. An
 * hour is charged in chunks of customers (about `chunkMeters` meters each), one transaction and
 * one set-based statement per chunk, under an advisory lock; the hour's row in charge_hours keeps
 * the cursor, so a second worker (or a re-run after a crash) continues where the last chunk
 * committed and never repeats one. The unique keys (usage (meter, hour), usage_charges
 * (customer, hour), ledger (type, reference)) make even a repeated statement a no-op.
 */
export class ChargingService {
  readonly hourlyJob = defineJob<object>({
    name: 'charging.hourly',
    queue: 'charging',
    // five minutes past: every meter stamped in the last hour has committed by then
    schedule: '5 * * * *',
    description: 'Charges every complete hour not yet charged (usage records, prepaid wallet charges, postpaid accrual), then suspends and warns',
    retryLimit: 3,
    handler: async (_p, ctx) => {
      const r = await this.runHourly();
      for (const h of r.hours) ctx.log.info(h, 'hour charged');
    },
  });

  private after: AfterCharging | undefined;

  constructor(
    private readonly db: Database,
    private readonly repo: ChargingRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: { chunkMeters?: number } = {},
  ) {}

  /** What runs after each run's charges (the suspension sweep). */
  setAfterCharging(after: AfterCharging): void {
    this.after = after;
  }

  /** Charges every complete hour not charged yet, then runs the after-charging sweep. */
  async runHourly(): Promise<RunResult> {
    const hours = await this.chargeDueHours();
    await this.after?.afterCharging();
    return { hours };
  }

  async chargeDueHours(): Promise<HourResult[]> {
    const lastComplete = new Date(hourStart(this.clock.now()).getTime() - HOUR);
    const latest = await this.repo.latestHour(this.db);
    let next: Date;
    if (latest) next = latest.completedAt ? new Date(latest.hour.getTime() + HOUR) : latest.hour;
    else {
      const first = await this.repo.earliestMeterStart(this.db);
      if (!first) return [];
      next = hourStart(first);
    }
    const results: HourResult[] = [];
    for (let h = next; h.getTime() <= lastComplete.getTime(); h = new Date(h.getTime() + HOUR)) {
      results.push(await this.chargeHour(h));
    }
    return results;
  }

  /** Charges one hour, chunk after chunk, continuing from the hour's cursor. */
  async chargeHour(hour: Date): Promise<HourResult> {
    const chunkMeters = this.opts.chunkMeters ?? 200_000;
    const total: HourResult = { hour: hour.toISOString(), usageRows: 0, customers: 0, ledgerEntries: 0, charged: '0', chunks: 0 };
    const description = hourLabel(hour);
    for (;;) {
      const done = await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        const state = await this.repo.hourState(tx, hour, this.clock.now());
        if (state.completedAt) return true;
        const chunk = await this.repo.chunkEnd(tx, hour, state.cursorCustomerId, chunkMeters);
        if (chunk === undefined) {
          await this.repo.completeHour(tx, hour, this.clock.now());
          return true;
        }
        const hi = chunk.hi;
        await this.repo.ensureWallets(tx, state.cursorCustomerId, hi);
        const r = await this.repo.chargeChunk(tx, hour, state.cursorCustomerId, hi, description);
        await this.repo.advance(tx, hour, hi, r);
        // the last chunk also completes the hour (one transaction less per hour)
        if (chunk.last) await this.repo.completeHour(tx, hour, this.clock.now());
        total.usageRows += r.usageRows;
        total.customers += r.customers;
        total.ledgerEntries += r.ledgerEntries;
        total.charged = dec(total.charged).plus(r.charged).toFixed(2);
        total.chunks++;
        return chunk.last;
      });
      if (done) break;
    }
    total.charged = dec(total.charged).toFixed(2);
    if (total.chunks > 0) this.log.debug(total, 'hour charged');
    return total;
  }
}
