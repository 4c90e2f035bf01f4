import { AppError, ConflictError } from '../errors.js';
import { DatabaseBusyError } from './gate.js';

/** A field of a query error (drizzle wraps the driver's error in `cause`). */
function driverField(err: unknown, name: 'code' | 'constraint' | 'detail'): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause as typeof e, depth++) {
    const value = e[name];
    if (typeof value === 'string' && (name !== 'code' || /^[0-9A-Z]{5}$/.test(value))) return value;
  }
  return undefined;
}

/** PostgreSQL SQLSTATE of an error thrown by a query. */
export function sqlStateOf(err: unknown): string | undefined {
  return driverField(err, 'code');
}

/** The name of the constraint a query broke, when PostgreSQL names one. */
export function constraintOf(err: unknown): string | undefined {
  return driverField(err, 'constraint');
}

export const isUniqueViolation = (err: unknown) => sqlStateOf(err) === '23505';

/** What breaking a named constraint means to a client: a stable code and a message (409). */
export interface ConstraintMeaning {
  code: string;
  message: string;
}

const meanings = new Map<string, ConstraintMeaning>();

/**
 * Modules name what their unique constraints mean (e.g. customers_email_unique → EMAIL_TAKEN), so
 * the constraint a concurrent request won answers the same code as the service's own check.
 * app.ts registers them once at start-up; registering the same name again replaces it.
 */
export function registerConstraintMeanings(map: Readonly<Record<string, ConstraintMeaning>>): void {
  for (const [name, meaning] of Object.entries(map)) meanings.set(name, meaning);
}

/** 409 for a transaction that lost a race PostgreSQL could not serialize; the same request may simply be sent again. */
export class ConcurrentUpdateError extends AppError {
  constructor() {
    super(409, 'CONCURRENT_UPDATE', 'Another change to the same data happened at the same moment; please try again', undefined, { 'retry-after': '1' });
  }
}

/**
 * What a database failure means to a client, when it means something: an AppError thrown below
 * the driver (the embedded database's busy gate), a pool that found no free connection in time
 * (503), or a race a concurrent request won (409): a unique or exclusion constraint (the
 * constraint's registered code, else CONFLICT), a foreign key whose row went away (REFERENCE_GONE)
 * or is still used (IN_USE), a check constraint a module named (its code), a serialization failure, deadlock or lock timeout
 * (CONCURRENT_UPDATE). Anything else stays a 500.
 */
export function clientErrorOf(err: unknown): AppError | undefined {
  for (let e = err as { cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof AppError) return e;
    if (e.message === 'timeout exceeded when trying to connect') return new DatabaseBusyError(0);
  }
  const state = sqlStateOf(err);
  const known = meanings.get(constraintOf(err) ?? '');
  switch (state) {
    case '23505': // unique_violation
    case '23P01': // exclusion_violation
      return known ? new ConflictError(known.message, known.code) : new ConflictError('This conflicts with a change made at the same moment; it may already exist');
    case '23503': // foreign_key_violation
      if (known) return new ConflictError(known.message, known.code);
      return /still referenced/.test(driverField(err, 'detail') ?? '')
        ? new ConflictError('This is still in use and cannot be removed', 'IN_USE')
        : new ConflictError('This refers to something that was removed at the same moment', 'REFERENCE_GONE');
    case '23514': // check_violation: only the checks a module named (a race on a counted limit) are a 409
      return known ? new ConflictError(known.message, known.code) : undefined;
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
    case '55P03': // lock_not_available
      return new ConcurrentUpdateError();
    default:
      return undefined;
  }
}
