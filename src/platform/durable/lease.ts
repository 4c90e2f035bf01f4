import { sql, type SQL } from 'drizzle-orm';

/**
 * The lease conditions every durable work table uses, on its own `lease_until` column (a
 * timestamptz, null when nobody holds the work). A lease ends at its `lease_until`: from that
 * instant on, another worker may take the work, and the sweep may recover it.
 */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Nobody holds the work at `now`: never leased, let go, or the lease ran out. */
export function leaseFree(leaseUntil: SQL, now: Date): SQL {
  return sql`(${leaseUntil} is null or ${leaseUntil} <= ${at(now)})`;
}

/** A worker holds the work at `now`. */
export function leaseLive(leaseUntil: SQL, now: Date): SQL {
  return sql`${leaseUntil} > ${at(now)}`;
}

/** A lease was taken and ran out before its worker let go (the worker stopped). */
export function leaseRanOut(leaseUntil: SQL, now: Date): SQL {
  return sql`${leaseUntil} <= ${at(now)}`;
}
