import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * A customer account. Identity issue owns this table; other modules reference `customers.id`
 * and read customers through the customers module's index.
 */
export const customers = pgTable(
  'customers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    accountType: text('account_type').notNull().default('P'),
    billingType: text('billing_type').notNull().default('PREPAID'),
    isActive: boolean('is_active').notNull().default(true),
    isRegistrationCompleted: boolean('is_registration_completed').notNull().default(false),
    isIdentityVerified: boolean('is_identity_verified').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendReason: text('suspend_reason'),
    doNotSuspendUntil: timestamp('do_not_suspend_until', { withTimezone: true }),
    rewardFirstTopUp: boolean('reward_first_top_up').notNull().default(false),
    rewardReferral: boolean('reward_referral').notNull().default(false),
    blockStorageLimit: integer('block_storage_limit').notNull().default(sql`5`),
    loadbalancerLimit: integer('loadbalancer_limit').notNull().default(sql`2`),
    objectStorageLimit: integer('object_storage_limit').notNull().default(sql`5`),
    privateIpLimit: integer('private_ip_limit').notNull().default(sql`20`),
    publicIpLimit: integer('public_ip_limit').notNull().default(sql`5`),
    vmLimit: integer('vm_limit').notNull().default(sql`10`),
    snapshotLimit: integer('snapshot_limit').notNull().default(sql`10`),
    maxSession: integer('max_session').notNull().default(sql`5`),
    personalProfile: jsonb('personal_profile').$type<Record<string, string | null>>().notNull().default(sql`'{}'::jsonb`),
    businessProfile: jsonb('business_profile').$type<Record<string, string | null>>().notNull().default(sql`'{}'::jsonb`),
    allowMarketingEmail: boolean('allow_marketing_email').notNull().default(false),
    allowBillingReminder: boolean('allow_billing_reminder').notNull().default(true),
    // Two-factor authentication: secrets are AES-256-GCM encrypted with ENCRYPTION_KEY.
    is2faActive: boolean('is_2fa_active').notNull().default(false),
    totpSecretEnc: text('totp_secret_enc'),
    totpPendingSecretEnc: text('totp_pending_secret_enc'),
    /** The last TOTP time step accepted: a code of that step or an earlier one is a replay. */
    lastTotpStep: integer('last_totp_step').notNull().default(sql`0`),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    // The brute-force lock of the login lives in account_lockouts (src/platform/account-lock).
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customers_email_unique').on(sql`lower(${t.email})`), index('customers_created_idx').on(t.createdAt)],
);

/** What a request that loses a race on these constraints answers (409; platform/db/errors.ts). */
export const customersConstraintMeanings = {
  customers_email_unique: { code: 'EMAIL_TAKEN', message: 'This e-mail address is already registered' },
} as const;
