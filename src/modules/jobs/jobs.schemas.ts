import { Type } from 'typebox';
import { Timestamp } from '../../platform/http/schemas.js';

export const JobRunSchema = Type.Object({
  trigger: Type.String({ description: 'worker or manual' }),
  started_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
  status: Type.String({ description: 'running, succeeded or failed' }),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const ScheduledRunSchema = Type.Object({
  state: Type.String({ description: "pg-boss's state of the job: created, retry, active, completed, cancelled or failed" }),
  created_at: Timestamp,
  started_at: Type.Union([Timestamp, Type.Null()]),
  finished_at: Type.Union([Timestamp, Type.Null()]),
});

export const JobItem = Type.Object({
  name: Type.String(),
  queue: Type.String(),
  schedule: Type.Union([Type.String({ description: 'cron expression, UTC' }), Type.Null()]),
  schedule_registered: Type.Union([
    Type.Boolean({ description: 'the job queue holds this schedule exactly as declared; false: the job does not run by itself' }),
    Type.Null(),
  ]),
  next_run_at: Type.Union([Timestamp, Type.Null()], { description: 'when the schedule the job queue holds fires next; null when it holds none' }),
  last_scheduled_run: Type.Union([ScheduledRunSchema, Type.Null()], {
    description: 'the latest job the schedule created, read from the job queue (kept about 7 days)',
  }),
  description: Type.Union([Type.String(), Type.Null()]),
  last_run: Type.Union([JobRunSchema, Type.Null()]),
});

export const JobNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
