import { Type } from 'typebox';
import { Timestamp } from '../../platform/http/schemas.js';

export const JobRunSchema = Type.Object({
  trigger: Type.String({ description: 'worker or manual' }),
  started_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
  status: Type.String({ description: 'running, succeeded or failed' }),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const JobItem = Type.Object({
  name: Type.String(),
  queue: Type.String(),
  schedule: Type.Union([Type.String({ description: 'cron expression, UTC' }), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  last_run: Type.Union([JobRunSchema, Type.Null()]),
});

export const JobNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
