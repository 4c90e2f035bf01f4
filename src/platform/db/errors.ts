import { AppError, ConflictError } from '../errors.js';
import { DatabaseBusyError } from './gate.js';

/** PostgreSQL SQLSTATE of an error thrown by a query (drizzle wraps the driver's error in `cause`). */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => sqlStateOf(err) === '23505';

/**
 * What a database failure means to a client, when it means something: an AppError thrown below
 * the driver (the embedded database's busy gate), a pool that found no free connection in time
 * (503), or a unique constraint a concurrent request won (409). Anything else stays a 500.
 */
export function clientErrorOf(err: unknown): AppError | undefined {
  for (let e = err as { cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof AppError) return e;
    if (e.message === 'timeout exceeded when trying to connect') return new DatabaseBusyError(0);
  }
  if (isUniqueViolation(err)) return new ConflictError('This conflicts with a change made at the same moment; it may already exist');
  return undefined;
}
