import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { ambientTransaction } from '../../platform/db/ambient.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { AppSettings, FirewallRuleType, SettingsRepository } from './settings.repository.js';
import type { StaffTwoFactorScope } from './settings.schemas.js';

/**
 * The NOTIFY channel of settings changes: sent in the transaction of every change to the settings
 * row, so every process (this one included) drops its cached copy when the change commits.
 */
export const SETTINGS_CHANNEL = 'settings_changed';

/** A notification's payload: which process made the change, and its number there. */
interface SettingsChange {
  by: string;
  seq: number;
}

/** How long a change waits for its own notification before it answers anyway. */
const SETTINGS_ECHO_WAIT_MS = 1000;

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
  default_port?: number | null;
}

/** What the audit log keeps of each change. */
const general = (s: AppSettings) => ({
  app_name: s.appName,
  privacy_policy_url: s.privacyPolicyUrl,
  terms_and_conditions_url: s.termsAndConditionsUrl,
  maintenance_mode: s.maintenanceMode,
});
const colors = (s: AppSettings) => ({ primary_color: s.primaryColor, secondary_color: s.secondaryColor, error_color: s.errorColor, accent_color: s.accentColor });
const firewallSnapshot = (f: FirewallRuleType) => ({ name: f.name, protocol: f.protocol, description: f.description, default_port: f.defaultPort });

/** A default port only for the protocols that have ports; a type that changes to icmp or any drops its port. */
function defaultPortOf(input: FirewallRuleTypeInput, current: number | null): number | null {
  const hasPorts = input.protocol === 'tcp' || input.protocol === 'udp';
  if (input.default_port === undefined) return hasPorts ? current : null;
  if (input.default_port !== null && !hasPorts) throw new ValidationError('Validation failed', [{ field: 'default_port', message: `not allowed for a ${input.protocol} rule type` }]);
  return input.default_port;
}

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
  /**
   * The settings row as last read, for the flags asked on every request (maintenance, staff 2FA).
   * Kept only while this process listens on SETTINGS_CHANNEL, and dropped at every notification.
   */
  private cached: Promise<AppSettings> | undefined;
  /** What `cached` resolved to, while it is still the cached read. */
  private settled: AppSettings | undefined;
  private listening = false;
  private unlisten: (() => Promise<void>) | undefined;
  /** This process among those that send settings notifications, and its changes' numbers. */
  private readonly instance = randomUUID();
  private seq = 0;
  /** Changes of this process waiting for their own notification to come back. */
  private readonly echoes = new Map<number, () => void>();

  constructor(
    private readonly db: Database,
    private readonly repo: SettingsRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly log: Logger,
  ) {}

  /**
   * Starts listening for settings changes. Until then, and while the listening connection is
   * lost, nothing is cached: every question reads the row.
   */
  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.events.subscribe<SettingsChange>(
      SETTINGS_CHANNEL,
      (change: SettingsChange) => {
        this.invalidate();
        this.log.info('settings changed: cached settings dropped');
        if (change.by === this.instance) this.echoes.get(change.seq)?.();
      },
      {
        onLost: () => {
          this.listening = false;
          this.invalidate();
          this.log.warn('settings: the listening connection was lost; settings are read at every request until it is back');
        },
        onRestored: () => {
          this.invalidate();
          this.listening = true;
          this.log.info('settings: listening again; settings are cached until the next change');
        },
      },
    );
    this.invalidate();
    this.listening = true;
  }

  async close(): Promise<void> {
    this.listening = false;
    this.invalidate();
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
  }

  private invalidate(): void {
    this.cached = undefined;
    this.settled = undefined;
  }

  /** The row from the cache, or read once for every request asking meanwhile. */
  private current(): Promise<AppSettings> {
    if (ambientTransaction()) {
      // A read in flight was started by another request, outside this transaction: on the
      // embedded database it waits for the one connection this transaction holds, so waiting for
      // it here never ends. Inside a transaction only a settled copy is used; otherwise the row is
      // read on the transaction itself, and not cached (the transaction may have changed it).
      return this.settled ? Promise.resolve(this.settled) : (async () => this.repo.get(this.db))();
    }
    if (this.cached) return this.cached;
    // run it once now: a drizzle query is a thenable that runs again at every await
    const row = (async () => this.repo.get(this.db))();
    if (this.listening) {
      this.cached = row;
      row.then(
        (value) => {
          if (this.cached === row) this.settled = value;
        },
        // a failed read is not kept; a notification meanwhile has already dropped it
        () => {
          if (this.cached === row) this.cached = undefined;
        },
      );
    }
    return row;
  }

  /**
   * Runs a change of the settings row in a transaction that also sends the notification, so every
   * process (this one included) drops its cached settings when it commits. This process drops its
   * own at once; the answer then waits (up to SETTINGS_ECHO_WAIT_MS) for the notification to come
   * back to this process, by when the database has signalled every other one too: an admin who
   * switches maintenance on gets the answer when the other processes are switching as well.
   */
  private async change<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const seq = ++this.seq;
    let heard: () => void = () => undefined;
    const echo = this.listening ? new Promise<void>((resolve) => (heard = resolve)) : undefined;
    if (echo) this.echoes.set(seq, heard);
    try {
      const result = await this.db.transaction(async (tx) => {
        const out = await work(tx);
        await this.events.publish(SETTINGS_CHANNEL, { by: this.instance, seq } satisfies SettingsChange, tx);
        return out;
      });
      this.invalidate();
      if (echo) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([echo, new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTINGS_ECHO_WAIT_MS)))]);
        clearTimeout(timer);
      }
      return result;
    } finally {
      this.echoes.delete(seq);
    }
  }

  get(): Promise<AppSettings> {
    return this.repo.get(this.db);
  }

  /**
   * Is the customer API in maintenance mode? Asked on every customer request, so it is answered
   * from the cached row; a change in any process drops that cache here when it commits.
   */
  async isMaintenance(): Promise<boolean> {
    return (await this.current()).maintenanceMode;
  }

  /** Which staff must use two-factor authentication; cached like the maintenance flag (asked on every backoffice request). */
  async staffTwoFactorScope(): Promise<StaffTwoFactorScope> {
    return (await this.current()).staffTwoFactorScope as StaffTwoFactorScope;
  }

  /** Must any staff member use two-factor authentication? */
  async staffTwoFactorRequired(): Promise<boolean> {
    return (await this.staffTwoFactorScope()) !== 'nobody';
  }

  /**
   * Sets who must use 2FA. `required` is the older form of the same setting: true is the roles that
   * move money, false is nobody.
   */
  async setStaffTwoFactor(actor: Actor, input: { required_for?: StaffTwoFactorScope | undefined; required?: boolean | undefined }): Promise<StaffTwoFactorScope> {
    if ((input.required_for === undefined) === (input.required === undefined)) {
      throw new ValidationError('Send required_for (or the older required), not both', [{ field: 'required_for', message: 'is required' }]);
    }
    const scope: StaffTwoFactorScope = input.required_for ?? (input.required ? 'money_roles' : 'nobody');
    return this.change(async (tx) => {
      const before = await this.repo.getForUpdate(tx);
      const row = await this.repo.update(tx, { staffTwoFactorScope: scope, updatedAt: this.clock.now() });
      await this.audit.record(tx, {
        actor,
        action: 'settings.staff_2fa_changed',
        targetType: 'settings',
        targetId: 1,
        before: { staff_two_factor_required_for: before.staffTwoFactorScope },
        after: { staff_two_factor_required_for: row.staffTwoFactorScope },
      });
      return row.staffTwoFactorScope as StaffTwoFactorScope;
    });
  }

  async updateGeneral(actor: Actor, input: GeneralSettingsInput): Promise<AppSettings> {
    checkUrls({ privacy_policy_url: input.privacy_policy_url, terms_and_conditions_url: input.terms_and_conditions_url });
    return this.change(async (tx) => {
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
  }

  async updateColors(actor: Actor, input: ColorsInput): Promise<AppSettings> {
    return this.change(async (tx) => {
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
        const row = await this.repo.insertFirewallRuleType(tx, { name: input.name.trim(), protocol: input.protocol, description: input.description, defaultPort: defaultPortOf(input, null) });
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
          defaultPort: defaultPortOf(input, before.defaultPort),
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
