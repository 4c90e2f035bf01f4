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
    /**
     * Which staff must use TOTP 2FA: nobody (the default, so the first Super Admin's login is not a
     * set-up before anything else), money_roles (roles holding a permission that moves money,
     * MONEY_PERMISSIONS) or all_staff.
     */
    staffTwoFactorScope: text('staff_two_factor_scope').notNull().default('nobody'),
    primaryColor: text('primary_color').notNull(),
    secondaryColor: text('secondary_color').notNull(),
    accentColor: text('accent_color').notNull(),
    errorColor: text('error_color').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('app_settings_singleton', sql`${t.id} = 1`),
    check('app_settings_staff_two_factor_scope', sql`${t.staffTwoFactorScope} in ('nobody', 'money_roles', 'all_staff')`),
  ],
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
    /** The port a rule of this type gets when it names none (tcp and udp only; null: the rule names its ports). */
    defaultPort: integer('default_port'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('firewall_rule_types_name_unique').on(sql`lower(${t.name})`),
    check('firewall_rule_types_protocol', sql`${t.protocol} in ('tcp', 'udp', 'icmp', 'any')`),
    check('firewall_rule_types_default_port', sql`${t.defaultPort} is null or (${t.protocol} in ('tcp', 'udp') and ${t.defaultPort} between 1 and 65535)`),
  ],
);

/** What a request that loses a race on these constraints answers (409; platform/db/errors.ts). */
export const settingsConstraintMeanings = {
  firewall_rule_types_name_unique: { code: 'NAME_TAKEN', message: 'A firewall rule type with this name exists' },
} as const;
