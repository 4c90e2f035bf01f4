import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { dec } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.js';
import { sqlStateOf } from '../../platform/db/errors.js';
import { offsetOf, type PageRequest } from '../../platform/http/pagination.js';
import type { ChargeFailureRow, ChargingRepository } from './charging.repository.js';

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

type PerHour = { hour: string; usage_rows: number; customers: number; charged: string };

/** Told when a customer the hourly charge had set aside is charged again, from `firstHour` on. */
export interface ResolvedListener {
  chargesResolved(customerId: number, firstHour: Date): Promise<void>;
}

/** A failure of the data (SQLSTATE class 22 data exception, 23 integrity constraint): one customer's, not the run's. */
function isDataError(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/** How long a customer set aside waits after `attempts` failed runs: 1 h, doubling, at most a day. */
const retryWait = (attempts: number) => Math.min(24, 2 ** Math.min(attempts - 1, 5)) * HOUR;

/** What staff read of a failure: a stable code and the database's words (never SQL: platform/db/query-errors.ts). */
function describeFailure(err: unknown): { code: string; text: string } {
  const code = err instanceof AppError ? err.code : (sqlStateOf(err) ?? 'ERROR');
  return { code, text: String((err as Error)?.message ?? err).slice(0, 500) };
}

/** What runs after the charges of a run (suspension, notices); the suspension service implements it. */
export interface AfterCharging {
  afterCharging(): Promise<void>;
}

/**
 * The hourly charge (docs/decisions.md §5). Each complete clock hour is charged once, in order, from the
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
    description: 'Charges every complete hour not yet charged (usage records, prepaid wallet charges, postpaid accrual), retries the customers set aside, then suspends and warns',
    retryLimit: 3,
    handler: async (_p, ctx) => {
      const r = await this.runHourly();
      for (const h of r.hours) if (h.chunks > 0) ctx.log.info(h, 'hour charged');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: ChargingRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** what runs after each run's charges (the suspension sweep) */
    private readonly after: AfterCharging,
    /** told when a customer set aside is charged again (the postpaid invoices of the months they missed) */
    private readonly resolved: ResolvedListener,
    private readonly opts: { chunkMeters?: number; maxHoursPerBatch?: number } = {},
  ) {}

  /** Charges every complete hour not charged yet, retries the customers set aside, then runs the after-charging sweep. */
  async runHourly(): Promise<RunResult> {
    const hours = await this.chargeDueHours();
    await this.retryFailures();
    await this.after.afterCharging();
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
   *
   * One customer never holds the others hostage: when a chunk's statement fails on the data (a value
   * no column holds, a constraint: SQLSTATE classes 22 and 23) its transaction rolls back and the
   * chunk is halved until the failing customer is alone; that customer is set aside (charge_failures,
   * from this batch's first hour, listed for staff and retried for them alone by retryFailures) and
   * the cursor moves past them. Any other error (the connection, a timeout) fails the run as before.
   */
  private async chargeBatch(from: Date, hours: number): Promise<HourResult[]> {
    const chunkMeters = this.opts.chunkMeters ?? 200_000;
    const fullLimit = Math.max(1, Math.floor(chunkMeters / hours));
    let limit = fullLimit;
    const to = new Date(from.getTime() + hours * HOUR);
    const totals = new Map<string, HourResult>();
    for (let i = 0; i < hours; i++) {
      const h = new Date(from.getTime() + i * HOUR).toISOString();
      totals.set(h, { hour: h, usageRows: 0, customers: 0, charged: '0.00', chunks: 0 });
    }
    for (;;) {
      let attempt: { cursor: number; chunk: { first: number; hi: number; last: boolean } } | undefined;
      let outcome: { done: boolean; perHour: PerHour[] };
      try {
        outcome = await this.db.transaction(async (tx) => {
          await this.repo.lock(tx);
          const state = await this.repo.batchState(tx, from, hours, this.clock.now());
          if (state.completed) return { done: true, perHour: [] };
          const chunk = await this.repo.chunkEnd(tx, from, to, state.cursor, limit);
          if (chunk === undefined) {
            await this.repo.complete(tx, from, hours, this.clock.now());
            return { done: true, perHour: [] };
          }
          attempt = { cursor: state.cursor, chunk };
          await this.repo.ensureWallets(tx, state.cursor, chunk.hi);
          const r = await this.repo.chargeChunk(tx, from, to, state.cursor, chunk.hi);
          await this.repo.advance(tx, from, hours, chunk.hi, r.perHour);
          // the last chunk also completes the batch (one transaction less)
          if (chunk.last) await this.repo.complete(tx, from, hours, this.clock.now());
          return { done: chunk.last, perHour: r.perHour };
        });
      } catch (err) {
        if (!attempt || !isDataError(err)) throw err;
        if (attempt.chunk.first !== attempt.chunk.hi) {
          // several customers: halve the chunk until the one whose charge fails is alone
          limit = Math.max(1, Math.floor(limit / 2));
          continue;
        }
        await this.setAside(from, hours, attempt.cursor, attempt.chunk, err);
        limit = fullLimit;
        continue;
      }
      for (const ph of outcome.perHour) {
        const t = totals.get(new Date(ph.hour).toISOString());
        if (!t) continue;
        t.usageRows += Number(ph.usage_rows);
        t.customers += Number(ph.customers);
        t.charged = dec(t.charged).plus(ph.charged).toFixed(2);
        t.chunks++;
      }
      if (outcome.done) break;
    }
    const out = [...totals.values()];
    const busy = out.filter((t) => t.chunks > 0);
    if (busy.length > 0) this.log.debug({ from: from.toISOString(), hours, usageRows: busy.reduce((n, t) => n + t.usageRows, 0) }, 'hours charged');
    return out;
  }

  /** Sets the one customer of a failed chunk aside and moves the batch's cursor past them. */
  private async setAside(from: Date, hours: number, cursor: number, chunk: { hi: number; last: boolean }, err: unknown): Promise<void> {
    const customerId = chunk.hi;
    const { code, text } = describeFailure(err);
    await this.db.transaction(async (tx) => {
      await this.repo.lock(tx);
      const state = await this.repo.batchState(tx, from, hours, this.clock.now());
      // another worker moved on meanwhile: its own run decides
      if (state.completed || state.cursor !== cursor) return;
      const now = this.clock.now();
      if (await this.repo.setAside(tx, customerId, from, code, text, now, new Date(now.getTime() + retryWait(1)))) {
        this.log.error({ customerId, firstHour: from.toISOString(), code, error: text }, 'hourly charge failed for a customer: set aside, the others are charged (GET /api/backoffice/billing/charge-failures)');
      }
      await this.repo.advance(tx, from, hours, customerId, []);
      if (chunk.last) await this.repo.complete(tx, from, hours, this.clock.now());
    });
  }

  // ---- customers set aside ----

  /**
   * Retries the customers set aside whose retry is due (or one customer, now, when staff ask): their
   * hours from the failed one up to the last charged hour, in order, for them alone, in one
   * transaction under the charging lock. Success resolves the failure; a data error again counts
   * the attempt and waits (1 h, doubling, at most a day). Runs only when no batch is half done.
   */
  async retryFailures(customerId?: number): Promise<ChargeFailureRow[]> {
    const out: ChargeFailureRow[] = [];
    for (const f of await this.repo.dueFailures(this.db, this.clock.now(), customerId)) {
      let resolved: ChargeFailureRow | undefined;
      try {
        resolved = await this.db.transaction(async (tx) => {
          await this.repo.lock(tx);
          if ((await this.repo.openHours(tx)).length > 0) return undefined;
          const current = await this.repo.openFailure(tx, f.customer_id);
          const latest = await this.repo.latestHour(tx);
          if (!current || !latest) return undefined;
          const end = latest.hour.getTime() + HOUR;
          await this.repo.ensureWallets(tx, f.customer_id - 1, f.customer_id);
          for (let h = current.first_hour.getTime(); h < end; ) {
            const n = Math.min(this.opts.maxHoursPerBatch ?? 168, (end - h) / HOUR);
            await this.repo.chargeChunk(tx, new Date(h), new Date(h + n * HOUR), f.customer_id - 1, f.customer_id, 'include');
            h += n * HOUR;
          }
          const now = this.clock.now();
          await this.repo.resolveFailure(tx, current.id, now);
          return { ...current, resolved_at: now, last_attempt_at: now };
        });
      } catch (err) {
        if (!isDataError(err)) throw err;
        const { code, text } = describeFailure(err);
        const now = this.clock.now();
        await this.repo.failedAgain(this.db, f.id, code, text, now, new Date(now.getTime() + retryWait(f.attempts + 1)));
        this.log.error({ customerId: f.customer_id, attempts: f.attempts + 1, code, error: text }, 'retried hourly charge of a customer set aside failed again');
        out.push((await this.repo.dueFailures(this.db, now, f.customer_id))[0] ?? f);
        continue;
      }
      if (!resolved) continue;
      this.log.info({ customerId: f.customer_id, firstHour: f.first_hour.toISOString() }, 'customer set aside by the hourly charge is charged again');
      await this.resolved.chargesResolved(f.customer_id, f.first_hour);
      out.push(resolved);
    }
    return out;
  }

  /** GET /api/backoffice/billing/charge-failures */
  listFailures(resolved: boolean, p: PageRequest) {
    return this.repo.listFailures(this.db, resolved, p.limit, offsetOf(p));
  }

  openFailures(): Promise<number> {
    return this.repo.openFailureCount(this.db);
  }

  /** POST /api/backoffice/billing/charge-failures/{customer_id}/retry: now, whatever the wait. */
  async retryCustomer(customerId: number): Promise<ChargeFailureRow> {
    if ((await this.repo.dueFailures(this.db, this.clock.now(), customerId)).length === 0) throw new NotFoundError('Open charge failure');
    const [after] = await this.retryFailures(customerId);
    if (after) return after;
    throw new ConflictError('The hourly charge is running; retry in a moment', 'CHARGING_BUSY');
  }
}
