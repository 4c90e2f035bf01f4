import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { AppSettings, FirewallRuleType, SettingsRepository } from './settings.repository.js';

/** How long a process trusts its cached maintenance flag (other processes see a change this late). */
export const MAINTENANCE_CACHE_MS = 3000;

export interface GeneralSettingsInput {
  app_name: string;
  privacy_policy_url: string;
  terms_and_conditions_url: string;
  maintenance_mode: boolean;
}

export interface ColorsInput {
  primary_color: string;
  secondary_color: string;
  error_color: string;
  accent_color?: string;
}

export interface FirewallRuleTypeInput {
  name: string;
  protocol: 'tcp' | 'udp' | 'icmp' | 'any';
  description: string;
}

const general = (s: AppSettings) => ({
  app_name: s.appName,
  privacy_policy_url: s.privacyPolicyUrl,
  terms_and_conditions_url: s.termsAndConditionsUrl,
  maintenance_mode: s.maintenanceMode,
});
const colors = (s: AppSettings) => ({ primary_color: s.primaryColor, secondary_color: s.secondaryColor, error_color: s.errorColor, accent_color: s.accentColor });
const firewallSnapshot = (f: FirewallRuleType) => ({ name: f.name, protocol: f.protocol, description: f.description });

function checkUrls(input: Record<string, string>): void {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(input)) {
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0 && !/\s/.test(value);
    } catch {
      ok = false;
    }
    if (!ok) errors.push({ field, message: 'must be an absolute http(s) URL' });
  }
  if (errors.length > 0) throw new ValidationError('Validation failed', errors);
}

export class SettingsService {
  private maintenanceCache: { value: boolean; until: number } | undefined;

  constructor(
    private readonly db: Database,
    private readonly repo: SettingsRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  get(): Promise<AppSettings> {
    return this.repo.get(this.db);
  }

  async general() {
    const s = await this.get();
    return { ...general(s), updated_at: s.updatedAt.toISOString() };
  }

  /**
   * Is the customer API in maintenance mode? Cached for a few seconds per process (it is asked on
   * every customer request); a write through this service clears the cache at once.
   */
  async isMaintenance(): Promise<boolean> {
    const now = this.clock.now().getTime();
    if (this.maintenanceCache && this.maintenanceCache.until > now) return this.maintenanceCache.value;
    const value = (await this.get()).maintenanceMode;
    this.maintenanceCache = { value, until: now + MAINTENANCE_CACHE_MS };
    return value;
  }

  /**
   * Must staff whose role moves money use two-factor authentication? Asked on backoffice requests
   * of such staff: cached per process like the maintenance flag, cleared by a write through here.
   */
  async staffTwoFactorRequired(): Promise<boolean> {
    const now = this.clock.now().getTime();
    if (this.staffTwoFactorCache && this.staffTwoFactorCache.until > now) return this.staffTwoFactorCache.value;
    const value = (await this.get()).staffTwoFactorRequired;
    this.staffTwoFactorCache = { value, until: now + MAINTENANCE_CACHE_MS };
    return value;
  }

  private staffTwoFactorCache: { value: boolean; until: number } | undefined;

  async setStaffTwoFactorRequired(actor: Actor, required: boolean): Promise<{ required: boolean }> {
    const result = await this.db.transaction(async (tx) => {
      const before = await this.repo.getForUpdate(tx);
      const row = await this.repo.update(tx, { staffTwoFactorRequired: required, updatedAt: this.clock.now() });
      await this.audit.record(tx, {
        actor,
        action: 'settings.staff_2fa_changed',
        targetType: 'settings',
        targetId: 1,
        before: { staff_two_factor_required: before.staffTwoFactorRequired },
        after: { staff_two_factor_required: row.staffTwoFactorRequired },
      });
      return { required: row.staffTwoFactorRequired };
    });
    this.staffTwoFactorCache = undefined;
    return result;
  }

  async updateGeneral(actor: Actor, input: GeneralSettingsInput) {
    checkUrls({ privacy_policy_url: input.privacy_policy_url, terms_and_conditions_url: input.terms_and_conditions_url });
    const updated = await this.db.transaction(async (tx) => {
      const before = await this.repo.getForUpdate(tx);
      const row = await this.repo.update(tx, {
        appName: input.app_name.trim(),
        privacyPolicyUrl: input.privacy_policy_url,
        termsAndConditionsUrl: input.terms_and_conditions_url,
        maintenanceMode: input.maintenance_mode,
        updatedAt: this.clock.now(),
      });
      await this.audit.record(tx, { actor, action: 'settings.updated', targetType: 'settings', targetId: 1, before: general(before), after: general(row) });
      if (before.maintenanceMode !== row.maintenanceMode) {
        await this.audit.record(tx, {
          actor,
          action: row.maintenanceMode ? 'settings.maintenance_on' : 'settings.maintenance_off',
          targetType: 'settings',
          targetId: 1,
        });
      }
      return row;
    });
    this.maintenanceCache = undefined;
    return { ...general(updated), updated_at: updated.updatedAt.toISOString() };
  }

  async colors() {
    return colors(await this.get());
  }

  async updateColors(actor: Actor, input: ColorsInput) {
    const updated = await this.db.transaction(async (tx) => {
      const before = await this.repo.getForUpdate(tx);
      const row = await this.repo.update(tx, {
        primaryColor: input.primary_color.toUpperCase(),
        secondaryColor: input.secondary_color.toUpperCase(),
        errorColor: input.error_color.toUpperCase(),
        ...(input.accent_color ? { accentColor: input.accent_color.toUpperCase() } : {}),
        updatedAt: this.clock.now(),
      });
      await this.audit.record(tx, { actor, action: 'settings.colors_updated', targetType: 'settings', targetId: 1, before: colors(before), after: colors(row) });
      return row;
    });
    return colors(updated);
  }

  listFirewallRuleTypes(): Promise<FirewallRuleType[]> {
    return this.repo.listFirewallRuleTypes(this.db);
  }

  /** For other modules validating a rule's type. */
  findFirewallRuleType(id: number): Promise<FirewallRuleType | undefined> {
    return this.repo.findFirewallRuleType(this.db, id);
  }

  async createFirewallRuleType(actor: Actor, input: FirewallRuleTypeInput): Promise<FirewallRuleType> {
    return this.uniqueName(() =>
      this.db.transaction(async (tx) => {
        const row = await this.repo.insertFirewallRuleType(tx, { name: input.name.trim(), protocol: input.protocol, description: input.description });
        await this.audit.record(tx, { actor, action: 'firewall_rule_type.created', targetType: 'firewall_rule_type', targetId: row.id, after: firewallSnapshot(row) });
        return row;
      }),
    );
  }

  async updateFirewallRuleType(actor: Actor, id: number, input: FirewallRuleTypeInput): Promise<FirewallRuleType> {
    return this.uniqueName(() =>
      this.db.transaction(async (tx) => {
        const before = await this.repo.findFirewallRuleType(tx, id);
        if (!before) throw new NotFoundError('Firewall rule type');
        const row = (await this.repo.updateFirewallRuleType(tx, id, {
          name: input.name.trim(),
          protocol: input.protocol,
          description: input.description,
          updatedAt: this.clock.now(),
        }))!;
        await this.audit.record(tx, {
          actor,
          action: 'firewall_rule_type.updated',
          targetType: 'firewall_rule_type',
          targetId: id,
          before: firewallSnapshot(before),
          after: firewallSnapshot(row),
        });
        return row;
      }),
    );
  }

  async deleteFirewallRuleType(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.repo.deleteFirewallRuleType(tx, id);
      if (!row) throw new NotFoundError('Firewall rule type');
      await this.audit.record(tx, { actor, action: 'firewall_rule_type.deleted', targetType: 'firewall_rule_type', targetId: id, before: firewallSnapshot(row) });
    });
  }

  async seed(): Promise<void> {
    await this.repo.seedDefaults(this.db);
    await this.repo.seedFirewallRuleTypes(this.db);
  }

  private async uniqueName<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('A firewall rule type with this name exists', 'NAME_TAKEN');
      throw err;
    }
  }
}
