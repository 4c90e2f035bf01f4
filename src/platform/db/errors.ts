/** PostgreSQL SQLSTATE of an error thrown by a query (drizzle wraps the driver's error in `cause`). */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => sqlStateOf(err) === '23505';
