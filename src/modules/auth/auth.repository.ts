import { and, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/database.js';
import { customers } from '../customers/customers.tables.js';
import { customerAuthTokens, customerMfaChallenges, customerRecoveryCodes } from './auth.tables.js';

const credentialColumns = {
  id: customers.id,
  email: customers.email,
  passwordHash: customers.passwordHash,
  firstName: customers.firstName,
  isActive: customers.isActive,
  isRegistrationCompleted: customers.isRegistrationCompleted,
  is2faActive: customers.is2faActive,
  totpSecretEnc: customers.totpSecretEnc,
  totpPendingSecretEnc: customers.totpPendingSecretEnc,
  maxSession: customers.maxSession,
};

export type Credentials = NonNullable<Awaited<ReturnType<AuthRepository['findByEmail']>>>;

export type TokenPurpose = 'register_verify' | 'password_reset' | 'email_change_otp' | 'email_change_verified' | 'email_change_link';

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export class AuthRepository {
  // ---- customers: credentials -------------------------------------------------------------

  async findByEmail(ex: Executor, email: string) {
    const [row] = await ex.select(credentialColumns).from(customers).where(sql`lower(${customers.email}) = lower(${email})`);
    return row;
  }

  async findById(ex: Executor, id: number, opts: { forUpdate?: boolean } = {}) {
    const q = ex.select(credentialColumns).from(customers).where(eq(customers.id, id));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async emailTaken(ex: Executor, email: string, exceptId?: number): Promise<boolean> {
    const rows = await ex
      .select({ id: customers.id })
      .from(customers)
      .where(and(sql`lower(${customers.email}) = lower(${email})`, exceptId === undefined ? undefined : sql`${customers.id} <> ${exceptId}`));
    return rows.length > 0;
  }

  async insertCustomer(
    ex: Executor,
    v: { email: string; passwordHash: string; firstName: string; lastName: string; accountType: string; now: Date },
  ): Promise<number | undefined> {
    const rows = await ex
      .insert(customers)
      .values({ email: v.email, passwordHash: v.passwordHash, firstName: v.firstName, lastName: v.lastName, accountType: v.accountType, createdAt: v.now, updatedAt: v.now, passwordChangedAt: v.now })
      .onConflictDoNothing()
      .returning({ id: customers.id });
    return rows[0]?.id;
  }

  async completeRegistration(ex: Executor, id: number, now: Date): Promise<void> {
    await ex
      .update(customers)
      .set({ isRegistrationCompleted: true, emailVerifiedAt: sql`coalesce(${customers.emailVerifiedAt}, ${iso(now)})`, updatedAt: now })
      .where(eq(customers.id, id));
  }

  async updatePassword(ex: Executor, id: number, passwordHash: string, now: Date): Promise<void> {
    await ex
      .update(customers)
      .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
      .where(eq(customers.id, id));
  }

  async updateEmail(ex: Executor, id: number, email: string, now: Date): Promise<void> {
    await ex.update(customers).set({ email, emailVerifiedAt: now, updatedAt: now }).where(eq(customers.id, id));
  }

  async setMaxSession(ex: Executor, id: number, maxSession: number): Promise<void> {
    await ex.update(customers).set({ maxSession }).where(eq(customers.id, id));
  }

  // ---- 2FA ------------------------------------------------------------------------------------

  /** Accepts a TOTP time step once: true only for the one caller that moves last_totp_step forward. */
  async consumeTotpStep(ex: Executor, id: number, step: number): Promise<boolean> {
    const rows = await ex
      .update(customers)
      .set({ lastTotpStep: step })
      .where(and(eq(customers.id, id), sql`${customers.lastTotpStep} < ${step}`))
      .returning({ id: customers.id });
    return rows.length > 0;
  }

  async setPendingSecret(ex: Executor, id: number, secretEnc: string, now: Date): Promise<void> {
    await ex.update(customers).set({ totpPendingSecretEnc: secretEnc, updatedAt: now }).where(eq(customers.id, id));
  }

  async activate2fa(ex: Executor, id: number, pendingEnc: string, now: Date): Promise<boolean> {
    const rows = await ex
      .update(customers)
      .set({ is2faActive: true, totpSecretEnc: pendingEnc, totpPendingSecretEnc: null, twoFactorEnabledAt: now, updatedAt: now })
      .where(and(eq(customers.id, id), eq(customers.is2faActive, false), eq(customers.totpPendingSecretEnc, pendingEnc)))
      .returning({ id: customers.id });
    return rows.length > 0;
  }

  /** Switches 2FA off; returns whether it was on. */
  async deactivate2fa(ex: Executor, id: number, now: Date): Promise<boolean | undefined> {
    const rows = await queryRows<{ was_active: boolean }>(
      ex,
      sql`with old as (select id, is_2fa_active from customers where id = ${id} for update)
          update customers c set is_2fa_active = false, totp_secret_enc = null, totp_pending_secret_enc = null,
                                 two_factor_enabled_at = null, updated_at = ${iso(now)}
          from old where c.id = old.id
          returning old.is_2fa_active as was_active`,
    );
    await ex.delete(customerRecoveryCodes).where(eq(customerRecoveryCodes.customerId, id));
    return rows[0]?.was_active;
  }

  // ---- recovery codes ------------------------------------------------------------------------

  async replaceRecoveryCodes(ex: Executor, customerId: number, codes: { salt: string; codeHash: string; hint: string }[], now: Date) {
    await ex.delete(customerRecoveryCodes).where(eq(customerRecoveryCodes.customerId, customerId));
    await ex.insert(customerRecoveryCodes).values(codes.map((c) => ({ ...c, customerId, createdAt: now })));
  }

  listRecoveryCodes(ex: Executor, customerId: number) {
    return ex
      .select({ id: customerRecoveryCodes.id, salt: customerRecoveryCodes.salt, codeHash: customerRecoveryCodes.codeHash, hint: customerRecoveryCodes.hint, usedAt: customerRecoveryCodes.usedAt })
      .from(customerRecoveryCodes)
      .where(eq(customerRecoveryCodes.customerId, customerId))
      .orderBy(customerRecoveryCodes.id);
  }

  /** Marks a recovery code used; true only for the single caller that wins. */
  async useRecoveryCode(ex: Executor, id: number, now: Date): Promise<boolean> {
    const rows = await ex
      .update(customerRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(customerRecoveryCodes.id, id), isNull(customerRecoveryCodes.usedAt)))
      .returning({ id: customerRecoveryCodes.id });
    return rows.length > 0;
  }

  // ---- 2FA login challenges -----------------------------------------------------------------

  async insertChallenge(ex: Executor, customerId: number, expiresAt: Date, now: Date): Promise<string> {
    const [row] = await ex.insert(customerMfaChallenges).values({ customerId, expiresAt, createdAt: now }).returning({ id: customerMfaChallenges.id });
    return row!.id;
  }

  async findChallenge(ex: Executor, id: string) {
    const [row] = await ex.select().from(customerMfaChallenges).where(eq(customerMfaChallenges.id, id));
    return row;
  }

  async failChallenge(ex: Executor, id: string): Promise<void> {
    await ex
      .update(customerMfaChallenges)
      .set({ failedAttempts: sql`${customerMfaChallenges.failedAttempts} + 1` })
      .where(eq(customerMfaChallenges.id, id));
  }

  async consumeChallenge(ex: Executor, id: string, now: Date): Promise<boolean> {
    const rows = await ex
      .update(customerMfaChallenges)
      .set({ consumedAt: now })
      .where(and(eq(customerMfaChallenges.id, id), isNull(customerMfaChallenges.consumedAt), sql`${customerMfaChallenges.failedAttempts} < 5`))
      .returning({ id: customerMfaChallenges.id });
    return rows.length > 0;
  }

  async voidChallenges(ex: Executor, customerId: number, now: Date): Promise<void> {
    await ex
      .update(customerMfaChallenges)
      .set({ consumedAt: now })
      .where(and(eq(customerMfaChallenges.customerId, customerId), isNull(customerMfaChallenges.consumedAt)));
  }

  // ---- single-use tokens ---------------------------------------------------------------------

  async insertToken(
    ex: Executor,
    v: { customerId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date; now: Date; payload?: Record<string, string> },
  ): Promise<void> {
    await ex.insert(customerAuthTokens).values({
      customerId: v.customerId,
      purpose: v.purpose,
      tokenHash: v.tokenHash,
      expiresAt: v.expiresAt,
      createdAt: v.now,
      payload: v.payload ?? {},
    });
  }

  /** A live (unused, unexpired) token by its hash. */
  async findLiveToken(ex: Executor, purpose: TokenPurpose, tokenHash: string, now: Date) {
    const [row] = await ex
      .select()
      .from(customerAuthTokens)
      .where(
        and(
          eq(customerAuthTokens.purpose, purpose),
          eq(customerAuthTokens.tokenHash, tokenHash),
          isNull(customerAuthTokens.usedAt),
          sql`${customerAuthTokens.expiresAt} > ${iso(now)}`,
        ),
      );
    return row;
  }

  /**
   * Counts one attempt at the customer's newest live token of `purpose` and returns it, in one
   * statement (a row lock orders parallel attempts): nothing once `maxAttempts` attempts were
   * made, so no more than that many codes are ever checked against it (failed_attempts counts
   * every attempt here; an exhausted token is dead although used_at stays empty). A right code then
   * consumes the token ({@link consumeToken}).
   */
  async claimOtpAttempt(ex: Executor, customerId: number, purpose: TokenPurpose, maxAttempts: number, now: Date) {
    const [row] = await ex
      .update(customerAuthTokens)
      .set({ failedAttempts: sql`${customerAuthTokens.failedAttempts} + 1` })
      .where(
        and(
          eq(
            customerAuthTokens.id,
            sql`(select id from customer_auth_tokens
                 where customer_id = ${customerId} and purpose = ${purpose} and used_at is null and expires_at > ${iso(now)}
                 order by id desc limit 1)`,
          ),
          isNull(customerAuthTokens.usedAt),
          sql`${customerAuthTokens.expiresAt} > ${iso(now)}`,
          sql`${customerAuthTokens.failedAttempts} < ${maxAttempts}`,
        ),
      )
      .returning({ id: customerAuthTokens.id, tokenHash: customerAuthTokens.tokenHash, payload: customerAuthTokens.payload });
    return row;
  }

  /** Marks a token used; true only for the single caller that wins. */
  async consumeToken(ex: Executor, id: number, now: Date): Promise<boolean> {
    const rows = await ex
      .update(customerAuthTokens)
      .set({ usedAt: now })
      .where(and(eq(customerAuthTokens.id, id), isNull(customerAuthTokens.usedAt)))
      .returning({ id: customerAuthTokens.id });
    return rows.length > 0;
  }

  async voidTokens(ex: Executor, customerId: number, purposes: TokenPurpose[], now: Date): Promise<void> {
    for (const purpose of purposes) {
      await ex
        .update(customerAuthTokens)
        .set({ usedAt: now })
        .where(and(eq(customerAuthTokens.customerId, customerId), eq(customerAuthTokens.purpose, purpose), isNull(customerAuthTokens.usedAt)));
    }
  }

  /** Deletes mail tokens and 2FA challenges that expired before `before`, used or not. */
  async pruneExpiredSecrets(ex: Executor, before: Date): Promise<number> {
    const at = before.toISOString();
    const tokens = await ex.delete(customerAuthTokens).where(sql`${customerAuthTokens.expiresAt} < ${at}::timestamptz`).returning({ id: customerAuthTokens.id });
    const challenges = await ex
      .delete(customerMfaChallenges)
      .where(sql`${customerMfaChallenges.expiresAt} < ${at}::timestamptz`)
      .returning({ id: customerMfaChallenges.id });
    return tokens.length + challenges.length;
  }
}
