import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { locations } from './lookups.tables.js';

/**
 * The port every module asks "does this location take new resources?" through: a location is
 * usable when it exists and `is_active` is set. Each caller keeps its own answer to a refusal
 * (a 400 naming the field, or a 404), but the rule is this one. Read inside the caller's
 * transaction when it checks before an insert; it takes no lock (a location is deactivated by
 * staff, and resources already in it stay).
 */
export interface ActiveLocations {
  isActive(ex: Executor, locationId: number): Promise<boolean>;
  /** ids of the usable locations, ascending */
  ids(ex: Executor): Promise<number[]>;
  /** whether the location exists at all, active or not (staff views of what a location holds) */
  exists(ex: Executor, locationId: number): Promise<boolean>;
}

export const activeLocations: ActiveLocations = {
  async isActive(ex, locationId) {
    const [row] = await ex.select({ id: locations.id }).from(locations).where(and(eq(locations.id, locationId), eq(locations.isActive, true)));
    return row !== undefined;
  },
  async ids(ex) {
    const rows = await ex.select({ id: locations.id }).from(locations).where(eq(locations.isActive, true)).orderBy(asc(locations.id));
    return rows.map((r) => r.id);
  },
  async exists(ex, locationId) {
    const [row] = await ex.select({ id: locations.id }).from(locations).where(eq(locations.id, locationId));
    return row !== undefined;
  },
};
