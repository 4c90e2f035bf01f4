import cronParser from 'cron-parser';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/database.js';
import { scheduleQueueOf, type Envelope, type JobDefinition, type JobRegistry } from './definitions.js';

/** A row of pgboss.schedule (pg-boss's type leaves out the time zone column). */
type ScheduleRow = PgBoss.Schedule & { timezone?: string | null };

/** A declared schedule as pg-boss holds it, or why it is not there as declared. */
export interface ScheduleState {
  job: string;
  /** the declared cron expression (UTC) */
  declared: string;
  /** what pg-boss holds under the job's schedule, or null when it holds nothing */
  registered: { cron: string; timezone: string | null } | null;
  /** pg-boss holds exactly the declared schedule (cron, UTC, task, retries) */
  ok: boolean;
}

/** The latest job a schedule created, as pg-boss records it. */
export interface ScheduledRun {
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/**
 * The declared schedules against pg-boss's: written at a worker start (only what is missing or
 * differs), compared for operators, and the latest job each one created.
 */
export class Schedules {
  constructor(
    private readonly boss: PgBoss,
    private readonly registry: JobRegistry,
    private readonly database: DatabaseHandle,
    private readonly log: Logger,
  ) {}

  /** The schedule row pg-boss must hold for a scheduled job. */
  private declared(def: JobDefinition<any>) {
    return {
      name: scheduleQueueOf(def),
      cron: def.schedule!,
      data: { task: def.name, payload: {}, source: 'schedule' } satisfies Envelope,
      options: { tz: 'UTC', retryLimit: def.retryLimit ?? 5, retryBackoff: true },
    };
  }

  private matchesDeclared(def: JobDefinition<any>, row: ScheduleRow | undefined): boolean {
    if (!row) return false;
    const want = this.declared(def);
    const data = row.data as Partial<Envelope> | undefined;
    const options = (row.options ?? {}) as Record<string, unknown>;
    return (
      row.cron === want.cron &&
      (row.timezone ?? 'UTC') === 'UTC' &&
      data?.task === def.name &&
      data.source === 'schedule' &&
      options.tz === 'UTC' &&
      options.retryLimit === want.options.retryLimit &&
      options.retryBackoff === true
    );
  }

  /**
   * Makes pg-boss hold exactly the declared schedules: one read, an upsert only for those that are
   * missing or differ, and the removal of schedules no job declares (a renamed job's, or the one
   * a shared queue held before every schedule had its own). Then reads them back and says loudly
   * which declared schedule is still not there as declared: that job would never run by itself.
   */
  async sync(): Promise<void> {
    const held = await this.held();
    const scheduled = this.registry.scheduled();
    for (const def of scheduled) {
      if (this.matchesDeclared(def, held.get(scheduleQueueOf(def)))) continue;
      const want = this.declared(def);
      await this.boss.schedule(want.name, want.cron, want.data, want.options);
    }
    const declaredNames = new Set(scheduled.map((d) => scheduleQueueOf(d)));
    for (const name of held.keys()) {
      if (declaredNames.has(name)) continue;
      this.log.warn({ schedule: name, cron: held.get(name)!.cron }, 'removing a schedule no job declares');
      await this.boss.unschedule(name);
    }
    const wrong = (await this.states()).filter((s) => !s.ok);
    for (const s of wrong) {
      this.log.error({ job: s.job, declared: s.declared, registered: s.registered }, `schedule of ${s.job} is not in pg-boss as declared: the job will not run by itself`);
    }
  }

  private async held(): Promise<Map<string, ScheduleRow>> {
    return new Map(((await this.boss.getSchedules()) as ScheduleRow[]).map((s) => [s.name, s]));
  }

  /** Every declared schedule against what pg-boss holds now. */
  async states(): Promise<ScheduleState[]> {
    const held = await this.held();
    return this.registry.scheduled().map((def) => {
      const row = held.get(scheduleQueueOf(def));
      return {
        job: def.name,
        declared: def.schedule!,
        registered: row ? { cron: row.cron, timezone: row.timezone ?? null } : null,
        ok: this.matchesDeclared(def, row),
      };
    });
  }

  /**
   * The latest job each schedule created, from pg-boss's job table, and from its archive for jobs
   * it has already moved there (12 hours after they finish; kept 7 days).
   */
  async lastRuns(): Promise<Map<string, ScheduledRun>> {
    const scheduled = this.registry.scheduled();
    if (scheduled.length === 0) return new Map();
    const queues = scheduled.map((d) => scheduleQueueOf(d));
    const columns = `data->>'task' AS task, state, created_on, started_on, completed_on`;
    const { rows } = await this.database.raw.executeSql(
      `SELECT DISTINCT ON (task) task, state, created_on, started_on, completed_on FROM (
         SELECT ${columns} FROM pgboss.job WHERE name = ANY($1::text[]) AND data->>'source' = 'schedule'
         UNION ALL
         SELECT ${columns} FROM pgboss.archive WHERE name = ANY($1::text[]) AND data->>'source' = 'schedule'
       ) runs ORDER BY task, created_on DESC`,
      [queues],
    );
    const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
    return new Map(
      (rows as { task: string; state: ScheduledRun['state']; created_on: unknown; started_on: unknown; completed_on: unknown }[]).map((r) => [
        r.task,
        { state: r.state, createdAt: date(r.created_on)!, startedAt: date(r.started_on), finishedAt: date(r.completed_on) },
      ]),
    );
  }
}

/** When a cron expression (as pg-boss holds it, in its time zone) fires next after `after`. */
export function nextRun(cron: string, timezone: string | null, after: Date): Date {
  return cronParser.parseExpression(cron, { tz: timezone ?? 'UTC', currentDate: after }).next().toDate();
}
