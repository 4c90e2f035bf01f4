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
      for (const h of r.hours) if (h.chunks > 0) ctx.log.info(h, 'hour charged');
    },
  });

  private after: AfterCharging | undefined;

  constructor(
    private readonly db: Database,
    private readonly repo: ChargingRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: { chunkMeters?: number; maxHoursPerBatch?: number } = {},
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
    const lastComplete = hourStart(this.clock.now()).getTime() - HOUR;
    const results: HourResult[] = [];
    // a batch a worker left unfinished first (its hours move together)
    const open = await this.repo.openHours(this.db);
    let next: number;
    if (open.length > 0) {
      results.push(...(await this.chargeBatch(open[0]!.hour, open.length)));
      next = open[open.length - 1]!.hour.getTime() + HOUR;
    } else {
      const latest = await this.repo.latestHour(this.db);
      if (latest) next = latest.hour.getTime() + HOUR;
      else {
        const first = await this.repo.earliestMeterStart(this.db);
        if (!first) return [];
        next = hourStart(first).getTime();
      }
    }
    const maxBatch = this.opts.maxHoursPerBatch ?? 168;
    while (next <= lastComplete) {
      const hours = Math.min(maxBatch, (lastComplete - next) / HOUR + 1);
      results.push(...(await this.chargeBatch(new Date(next), hours)));
      next += hours * HOUR;
    }
    return results;
  }

  /** Charges one hour (and the hours of its batch), chunk after chunk, from the batch's cursor. */
  chargeHour(hour: Date): Promise<HourResult[]> {
    return this.chargeBatch(hour, 1);
  }

  /**
   * Charges `hours` consecutive hours from `from` together: each chunk of customers is charged for
   * all of them in one statement (catching up after downtime costs one pass over the meters per
   * batch, not one per hour); chunks hold about `chunkMeters` meter-hours.
   */
  private async chargeBatch(from: Date, hours: number): Promise<HourResult[]> {
    const chunkMeters = this.opts.chunkMeters ?? 200_000;
    const limit = Math.max(1, Math.floor(chunkMeters / hours));
    const to = new Date(from.getTime() + hours * HOUR);
    const totals = new Map<string, HourResult>();
    for (let i = 0; i < hours; i++) {
      const h = new Date(from.getTime() + i * HOUR).toISOString();
      totals.set(h, { hour: h, usageRows: 0, customers: 0, charged: '0.00', chunks: 0 });
    }
    for (;;) {
      const done = await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        const state = await this.repo.batchState(tx, from, hours, this.clock.now());
        if (state.completed) return true;
        const chunk = await this.repo.chunkEnd(tx, from, to, state.cursor, limit);
        if (chunk === undefined) {
          await this.repo.complete(tx, from, hours, this.clock.now());
          return true;
        }
        await this.repo.ensureWallets(tx, state.cursor, chunk.hi);
        const r = await this.repo.chargeChunk(tx, from, to, state.cursor, chunk.hi);
        await this.repo.advance(tx, from, hours, chunk.hi, r.perHour);
        // the last chunk also completes the batch (one transaction less)
        if (chunk.last) await this.repo.complete(tx, from, hours, this.clock.now());
        for (const ph of r.perHour) {
          const t = totals.get(new Date(ph.hour).toISOString());
          if (!t) continue;
          t.usageRows += Number(ph.usage_rows);
          t.customers += Number(ph.customers);
          t.charged = dec(t.charged).plus(ph.charged).toFixed(2);
          t.chunks++;
        }
        return chunk.last;
      });
      if (done) break;
    }
    const out = [...totals.values()];
    const busy = out.filter((t) => t.chunks > 0);
    if (busy.length > 0) this.log.debug({ from: from.toISOString(), hours, usageRows: busy.reduce((n, t) => n + t.usageRows, 0) }, 'hours charged');
    return out;
  }
}
