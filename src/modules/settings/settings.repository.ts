import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { appSettings, firewallRuleTypes } from './settings.tables.js';

export type AppSettings = typeof appSettings.$inferSelect;
export type FirewallRuleType = typeof firewallRuleTypes.$inferSelect;

export const DEFAULT_SETTINGS = {
  id: 1,
  appName: 'Cloud Platform',
  privacyPolicyUrl: 'https://cloud.example.com/legal/privacy',
  termsAndConditionsUrl: 'https://cloud.example.com/legal/terms',
  maintenanceMode: false,
  primaryColor: '#1D4ED8',
  secondaryColor: '#0F172A',
  accentColor: '#F59E0B',
  errorColor: '#DC2626',
} as const;

export const DEFAULT_FIREWALL_RULE_TYPES = [
  { name: 'SSH', protocol: 'tcp', description: 'Secure shell, port 22', defaultPort: 22 },
  { name: 'HTTP', protocol: 'tcp', description: 'Web traffic, port 80', defaultPort: 80 },
  { name: 'HTTPS', protocol: 'tcp', description: 'Encrypted web traffic, port 443', defaultPort: 443 },
  { name: 'DNS', protocol: 'udp', description: 'Domain name lookups, port 53', defaultPort: 53 },
  { name: 'ICMP', protocol: 'icmp', description: 'Ping and network diagnostics' },
  { name: 'All traffic', protocol: 'any', description: 'Every protocol and port' },
];

export class SettingsRepository {
  async get(ex: Executor): Promise<AppSettings> {
    const [row] = await ex.select().from(appSettings).where(eq(appSettings.id, 1));
    if (!row) throw new Error('app_settings row is missing: run the seed');
    return row;
  }

  /** Locks the row for a read-modify-write. */
  async getForUpdate(ex: Executor): Promise<AppSettings> {
    const [row] = await ex.select().from(appSettings).where(eq(appSettings.id, 1)).for('update');
    if (!row) throw new Error('app_settings row is missing: run the seed');
    return row;
  }

  async update(ex: Executor, set: Partial<typeof appSettings.$inferInsert>): Promise<AppSettings> {
    const [row] = await ex.update(appSettings).set(set).where(eq(appSettings.id, 1)).returning();
    return row!;
  }

  async seedDefaults(ex: Executor): Promise<void> {
    await ex.insert(appSettings).values(DEFAULT_SETTINGS).onConflictDoNothing();
  }

  /** Defaults for an empty table (a fresh database). */
  async seedFirewallRuleTypes(ex: Executor): Promise<void> {
    const [any] = await ex.select({ id: firewallRuleTypes.id }).from(firewallRuleTypes).limit(1);
    if (!any) await ex.insert(firewallRuleTypes).values(DEFAULT_FIREWALL_RULE_TYPES).onConflictDoNothing();
  }

  listFirewallRuleTypes(ex: Executor): Promise<FirewallRuleType[]> {
    return ex.select().from(firewallRuleTypes).orderBy(asc(firewallRuleTypes.id));
  }

  async findFirewallRuleType(ex: Executor, id: number): Promise<FirewallRuleType | undefined> {
    const [row] = await ex.select().from(firewallRuleTypes).where(eq(firewallRuleTypes.id, id));
    return row;
  }

  async insertFirewallRuleType(ex: Executor, row: typeof firewallRuleTypes.$inferInsert): Promise<FirewallRuleType> {
    const [created] = await ex.insert(firewallRuleTypes).values(row).returning();
    return created!;
  }

  async updateFirewallRuleType(ex: Executor, id: number, set: Partial<typeof firewallRuleTypes.$inferInsert>): Promise<FirewallRuleType | undefined> {
    const [row] = await ex.update(firewallRuleTypes).set(set).where(eq(firewallRuleTypes.id, id)).returning();
    return row;
  }

  async deleteFirewallRuleType(ex: Executor, id: number): Promise<FirewallRuleType | undefined> {
    const [row] = await ex.delete(firewallRuleTypes).where(eq(firewallRuleTypes.id, id)).returning();
    return row;
  }
}
