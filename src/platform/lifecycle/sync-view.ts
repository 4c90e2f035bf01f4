import { Type } from 'typebox';
import { Timestamp } from '../http/schemas.js';
import type { SyncState } from './lifecycle.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** The same error-and-retry shape on every resource that lives at a backend (docs/api.md, "Backend work"). */
export const Sync = Type.Object(
  {
    state: Type.String({ enum: ['synced', 'pending', 'failed'], description: 'synced: the backend has the latest change; pending: it is being applied; failed: the last attempt failed' }),
    last_error: Nullable(Type.String({ description: "the backend's answer to the last failed attempt (cleared by a success)" })),
    last_error_at: Nullable(Timestamp),
    attempts: Type.Integer({ description: 'failed attempts in a row' }),
    next_retry_at: Nullable(Timestamp),
  },
  { description: "The backend work of this resource. A failed change with next_retry_at is tried again then by itself; without it, it waits for the resource's retry action or a new change." },
);

export function syncView(s: SyncState) {
  return {
    state: s.state,
    last_error: s.lastError,
    last_error_at: s.lastErrorAt ? s.lastErrorAt.toISOString() : null,
    attempts: s.attempts,
    next_retry_at: s.nextRetryAt ? s.nextRetryAt.toISOString() : null,
  };
}
