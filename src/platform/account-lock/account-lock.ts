import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { queryRows, type Database, type Executor } from '../db/database.js';
import { RateLimitedError } from '../errors.js';
import { defineJob } from '../queue/queue.js';
import { accountLockouts } from './account-lock.tables.js';

/** The one account-lock rule (docs/decisions.md §2): 10 failures within 15 minutes lock for 15 minutes. */
export const ACCOUNT_LOCK_RULE = { maxFailures: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

export type LockScope = 'customer' | 'admin';

/** The lock's subject for an existing account. */
export const accountSubject = (id: number) => `id:${id}`;
/** The lock's subject for an address that has no account (counted all the same). */
export const unknownEmailSubject = (email: string) => `email:${email.trim().toLowerCase()}`;

export interface ReservedAttempt {
  scope: LockScope;
  subject: string;
  /** this attempt was the last one allowed and set the lock */
  locks: boolean;
  lockedUntil: Date | null;
}

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export const accountLocked = (until: Date, now: Date) =>
  new RateLimitedError((until.getTime() - now.getTime()) / 1000, 'Too many failed attempts, try again later');

/**
 * Per-account brute-force lock, shared by customers and staff and by every check that proves who
 * someone is (password at login, sudo and change-password; TOTP codes in sudo and 2FA changes).
 * An attempt is counted before the slow check, so parallel guesses cannot outrun the lock; a right
 * answer releases it again ({@link release}); a wrong one leaves it counted ({@link wrong}).
 */
export class AccountLock {
  readonly pruneJob = defineJob<object>({
    name: 'platform.account-lock-prune',
    schedule: '50 3 * * *',
    description: 'Deletes account-lock counters whose window and lock are over',
    handler: async (_p, ctx) => ctx.log.info({ deleted: await this.prune() }, 'account-lock counters pruned'),
  });

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts one attempt; 429 while the subject is locked. */
  async reserve(scope: LockScope, subject: string, ex: Executor = this.db): Promise<ReservedAttempt> {
    const now = this.clock.now();
    const { maxFailures, windowSeconds, lockSeconds } = ACCOUNT_LOCK_RULE;
    const fresh = sql`(l.window_started_at is null or l.window_started_at <= ${iso(now)} - make_interval(secs => ${windowSeconds}))`;
    const n = sql`(case when ${fresh} then 1 else l.failed_count + 1 end)`;
    const rows = await queryRows<{ locks: boolean; locked_until: string | Date | null }>(
      ex,
      sql`insert into account_lockouts as l (scope, subject, failed_count, window_started_at, locked_until, updated_at)
          values (${scope}, ${subject}, 1, ${iso(now)},
                  case when 1 >= ${maxFailures} then ${iso(now)} + make_interval(secs => ${lockSeconds}) end, ${iso(now)})
          on conflict (scope, subject) do update set
            failed_count = ${n},
            window_started_at = case when ${fresh} then ${iso(now)} else l.window_started_at end,
            locked_until = case when ${n} >= ${maxFailures} then ${iso(now)} + make_interval(secs => ${lockSeconds}) end,
            updated_at = ${iso(now)}
          where l.locked_until is null or l.locked_until <= ${iso(now)}
          returning l.failed_count >= ${maxFailures} as locks, l.locked_until`,
    );
    const row = rows[0];
    if (!row) throw accountLocked((await this.lockedUntil(ex, scope, subject)) ?? now, now);
    return { scope, subject, locks: row.locks, lockedUntil: row.locked_until ? new Date(row.locked_until) : null };
  }

  /** A wrong answer: it stays counted. 429 when this very attempt set the lock, else false for the caller's own error. */
  wrong(attempt: ReservedAttempt): false {
    if (attempt.locks && attempt.lockedUntil) throw accountLocked(attempt.lockedUntil, this.clock.now());
    return false;
  }

  /**
   * A right answer: the count starts again. Run it in the transaction that grants access: it holds
   * the counter's row lock, and it answers 429 when another attempt locked the subject meanwhile.
   */
  async release(attempt: ReservedAttempt, ex: Executor = this.db): Promise<void> {
    const now = this.clock.now();
    const rows = await ex
      .update(accountLockouts)
      .set({ failedCount: 0, windowStartedAt: null, lockedUntil: null, updatedAt: now })
      .where(
        and(
          eq(accountLockouts.scope, attempt.scope),
          eq(accountLockouts.subject, attempt.subject),
          attempt.locks ? undefined : sql`(${accountLockouts.lockedUntil} is null or ${accountLockouts.lockedUntil} <= ${iso(now)})`,
        ),
      )
      .returning({ subject: accountLockouts.subject });
    if (rows.length > 0) return;
    const until = await this.lockedUntil(ex, attempt.scope, attempt.subject);
    if (until && until > now) throw accountLocked(until, now);
  }

  /** The whole round: true for a right answer, false for a wrong one, 429 while locked. */
  async check(scope: LockScope, subject: string, verify: () => Promise<boolean> | boolean, ex: Executor = this.db): Promise<boolean> {
    const attempt = await this.reserve(scope, subject, ex);
    if (!(await verify())) return this.wrong(attempt);
    await this.release(attempt, ex);
    return true;
  }

  /** Forgets failures and lifts the lock (a password reset by link or by a Super Admin). */
  async clear(scope: LockScope, subject: string, ex: Executor = this.db): Promise<void> {
    await ex.delete(accountLockouts).where(and(eq(accountLockouts.scope, scope), eq(accountLockouts.subject, subject)));
  }

  /** Deletes counters whose window and lock are both over. */
  async prune(): Promise<number> {
    const now = this.clock.now();
    const rows = await this.db
      .delete(accountLockouts)
      .where(
        sql`(${accountLockouts.lockedUntil} is null or ${accountLockouts.lockedUntil} <= ${iso(now)})
            and (${accountLockouts.windowStartedAt} is null or ${accountLockouts.windowStartedAt} <= ${iso(now)} - make_interval(secs => ${ACCOUNT_LOCK_RULE.windowSeconds}))`,
      )
      .returning({ subject: accountLockouts.subject });
    return rows.length;
  }

  private async lockedUntil(ex: Executor, scope: LockScope, subject: string): Promise<Date | null> {
    const [row] = await ex
      .select({ at: accountLockouts.lockedUntil })
      .from(accountLockouts)
      .where(and(eq(accountLockouts.scope, scope), eq(accountLockouts.subject, subject)));
    return row?.at ?? null;
  }
}
