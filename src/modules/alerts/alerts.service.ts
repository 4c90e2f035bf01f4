import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, QuotaExceededError, ValidationError, type FieldError } from '../../platform/errors.js';
import { offsetOf, type PageRequest } from '../../platform/http/pagination.js';
import { dec } from '../../platform/money.js';
import type { MetricName } from '../metrics/index.js';
import type { AlertFilter, AlertPolicy, AlertsRepository } from './alerts.repository.js';
import type { AlertAggregation, AlertComparison } from './alerts.tables.js';

/** Policies per account. */
export const MAX_ALERT_POLICIES = 50;
/** The longest window: the per-minute points are kept two days. */
export const MAX_ALERT_WINDOW_MINUTES = 1440;
/** The largest threshold (bytes in a day of a fast link fit well below it). */
export const MAX_ALERT_THRESHOLD = '1000000000000000';

/** Gauges (a level at each minute) against counters (an amount in each minute): a sum of a level means nothing. */
export const LEVEL_METRICS: readonly MetricName[] = ['cpu_percent', 'memory_bytes'];

export interface PolicyInput {
  name: string;
  vm_id?: number | null | undefined;
  metric: MetricName;
  comparison: AlertComparison;
  threshold: number;
  aggregation?: AlertAggregation | undefined;
  window_minutes?: number | undefined;
  notify_email?: boolean | undefined;
  enabled?: boolean | undefined;
}

export type PolicyChange = Partial<Pick<PolicyInput, 'name' | 'comparison' | 'threshold' | 'aggregation' | 'window_minutes' | 'notify_email' | 'enabled'>>;

/** Where a policy's open incidents go when it changes (the evaluation service implements it). */
export interface OpenAlertsCloser {
  closeOpen(policyId: number, resolution: 'policy_changed' | 'policy_deleted', tx: Executor): Promise<number>;
}

function checkCondition(metric: MetricName, aggregation: AlertAggregation, threshold: number, errors: FieldError[]): void {
  const t = dec(threshold);
  if (!t.isFinite() || t.isNegative() || t.gt(MAX_ALERT_THRESHOLD) || !t.isInteger()) errors.push({ field: 'threshold', message: `must be a whole number from 0 to ${MAX_ALERT_THRESHOLD}` });
  else if (metric === 'cpu_percent' && t.gt(100)) errors.push({ field: 'threshold', message: 'cpu_percent is a percentage: 0 to 100' });
  if (aggregation === 'sum' && LEVEL_METRICS.includes(metric)) errors.push({ field: 'aggregation', message: `${metric} is a level, not an amount: avg, min or max` });
}

/** Metric alert policies and their incidents (the evaluation is AlertEvaluationService). */
export class AlertsService {
  constructor(
    private readonly db: Database,
    private readonly repo: AlertsRepository,
    private readonly clock: Clock,
    private readonly closer: OpenAlertsCloser,
  ) {}

  async listPolicies(customerId: number, p: PageRequest) {
    const page = await this.repo.policies(this.db, customerId, { limit: p.limit, offset: offsetOf(p) });
    return { ...page, open: await this.repo.openCounts(this.db, customerId) };
  }

  openCounts(customerId: number): Promise<Map<number, number>> {
    return this.repo.openCounts(this.db, customerId);
  }

  async getPolicy(customerId: number, id: number): Promise<AlertPolicy> {
    const p = await this.repo.policy(this.db, customerId, id);
    if (!p) throw new NotFoundError('Alert policy');
    return p;
  }

  async createPolicy(customerId: number, input: PolicyInput): Promise<AlertPolicy> {
    const errors: FieldError[] = [];
    const name = input.name.trim();
    const aggregation = input.aggregation ?? 'avg';
    checkCondition(input.metric, aggregation, input.threshold, errors);
    if (errors.length > 0) throw new ValidationError('Validation failed', errors);
    return this.db.transaction(async (tx) => {
      // the account's policies counted under the account's lock: two creates cannot both take the last place
      await this.repo.lockPoliciesOf(tx, customerId);
      if ((await this.repo.countPolicies(tx, customerId)) >= MAX_ALERT_POLICIES) throw new QuotaExceededError(`At most ${MAX_ALERT_POLICIES} alert policies per account`);
      const vmId = input.vm_id ?? null;
      if (vmId !== null) {
        const vm = await this.repo.vmOf(tx, customerId, vmId);
        if (!vm || vm.status === 'Deleted') throw new NotFoundError('VM');
      }
      const now = this.clock.now();
      return this.repo.insertPolicy(tx, {
        customerId,
        name,
        vmId,
        metric: input.metric,
        comparison: input.comparison,
        threshold: dec(input.threshold).toFixed(4),
        aggregation,
        windowMinutes: input.window_minutes ?? 5,
        notifyEmail: input.notify_email ?? true,
        enabled: input.enabled ?? true,
        createdAt: now,
        updatedAt: now,
      });
    });
  }

  /**
   * Changes a policy. A change of its condition (comparison, threshold, aggregation, window) or
   * disabling it closes its open incidents without a notice (resolution `policy_changed`): the
   * next evaluation judges the VMs afresh by the new condition.
   */
  async updatePolicy(customerId: number, id: number, change: PolicyChange): Promise<AlertPolicy> {
    return this.db.transaction(async (tx) => {
      const p = await this.repo.policy(tx, customerId, id, { forUpdate: true });
      if (!p) throw new NotFoundError('Alert policy');
      const aggregation = change.aggregation ?? p.aggregation;
      const threshold = change.threshold ?? Number(p.threshold);
      const errors: FieldError[] = [];
      checkCondition(p.metric as MetricName, aggregation, threshold, errors);
      if (change.name !== undefined && change.name.trim() === '') errors.push({ field: 'name', message: 'must not be blank' });
      if (errors.length > 0) throw new ValidationError('Validation failed', errors);
      const next = {
        name: change.name?.trim() ?? p.name,
        comparison: change.comparison ?? p.comparison,
        threshold: change.threshold === undefined ? p.threshold : dec(change.threshold).toFixed(4),
        aggregation,
        windowMinutes: change.window_minutes ?? p.windowMinutes,
        notifyEmail: change.notify_email ?? p.notifyEmail,
        enabled: change.enabled ?? p.enabled,
      };
      const conditionChanged =
        next.comparison !== p.comparison || !dec(next.threshold).eq(p.threshold) || next.aggregation !== p.aggregation || next.windowMinutes !== p.windowMinutes || (p.enabled && !next.enabled);
      if (conditionChanged) await this.closer.closeOpen(p.id, 'policy_changed', tx);
      return this.repo.updatePolicy(tx, p.id, { ...next, ...(conditionChanged ? { evaluatedUntil: null } : {}), updatedAt: this.clock.now() });
    });
  }

  /** Deletes a policy; its open incidents are closed (resolution `policy_deleted`), its history kept. */
  async deletePolicy(customerId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const p = await this.repo.policy(tx, customerId, id, { forUpdate: true });
      if (!p) throw new NotFoundError('Alert policy');
      await this.closer.closeOpen(p.id, 'policy_deleted', tx);
      await this.repo.deletePolicy(tx, p.id);
    });
  }

  /** The incidents, newest first. */
  async listAlerts(f: AlertFilter, p: PageRequest) {
    if (f.vmId !== undefined && !(await this.repo.vmOf(this.db, f.customerId, f.vmId))) throw new NotFoundError('VM');
    return this.repo.list(this.db, f, { limit: p.limit, offset: offsetOf(p) });
  }
}
