import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The application settings: exactly one row, id 1. */
export const appSettings = pgTable(
  'app_settings',
  {
    id: integer('id').primaryKey().default(sql`1`),
    appName: text('app_name').notNull(),
    privacyPolicyUrl: text('privacy_policy_url').notNull(),
    termsAndConditionsUrl: text('terms_and_conditions_url').notNull(),
    maintenanceMode: boolean('maintenance_mode').notNull().default(false),
    /** On: staff whose role holds a permission that moves money (MONEY_PERMISSIONS) must use TOTP 2FA. Off by default (the first Super Admin would otherwise have to enrol before anything else); switch it on in production. */
    staffTwoFactorRequired: boolean('staff_two_factor_required').notNull().default(false),
    primaryColor: text('primary_color').notNull(),
    secondaryColor: text('secondary_color').notNull(),
    accentColor: text('accent_color').notNull(),
    errorColor: text('error_color').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('app_settings_singleton', sql`${t.id} = 1`)],
);

/** Firewall rule types offered when customers create security group / firewall rules. */
export const firewallRuleTypes = pgTable(
  'firewall_rule_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** tcp | udp | icmp | any */
    protocol: text('protocol').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('firewall_rule_types_name_unique').on(sql`lower(${t.name})`),
    check('firewall_rule_types_protocol', sql`${t.protocol} in ('tcp', 'udp', 'icmp', 'any')`),
  ],
);

/** What a request that loses a race on these constraints answers (409; platform/db/errors.ts). */
export const settingsConstraintMeanings = {
  firewall_rule_types_name_unique: { code: 'NAME_TAKEN', message: 'A firewall rule type with this name exists' },
} as const;
