import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noticeMail } from '../../platform/mail/templates.js';
import { Decimal, dec } from '../../platform/money.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { MetricName, MetricsReader } from '../metrics/index.js';
import type { NotificationContent, NotificationKind } from '../notifications/index.js';
import { exactNumber, type WebhookEmitter } from '../webhooks/index.js';
import type { Alert, AlertPolicy, AlertsRepository } from './alerts.repository.js';
import type { OpenAlertsCloser } from './alerts.service.js';

const MINUTE = 60_000;
const PAGE = 200;

/** What the evaluation reads of the metrics module. */
export type AlertMetrics = Pick<MetricsReader, 'minutePoints' | 'collectedUntil'>;

/** The in-app notifications port (the notifications module). */
export interface AlertNotifier {
  notify(customerId: number, kind: NotificationKind, content: NotificationContent, tx: Executor): Promise<boolean>;
}

/**
 * The share of a window's minutes that must have a point before avg, min or max is judged: a VM
 * that was not running, or a collection that missed a minute or two, is not judged on a scrap.
 */
export const MIN_COVERAGE = 0.8;

/**
 * The aggregate of a window's points, or null when there are too few to judge (sum: none at all;
 * a minute without a point adds nothing to a sum: no traffic was counted in it).
 */
export function aggregate(values: readonly number[], aggregation: string, windowMinutes: number): Decimal | null {
  if (values.length === 0) return null;
  const ds = values.map((v) => dec(v));
  if (aggregation === 'sum') return ds.reduce((a, b) => a.plus(b), new Decimal(0));
  if (values.length < Math.ceil(windowMinutes * MIN_COVERAGE)) return null;
  if (aggregation === 'min') return Decimal.min(...ds);
  if (aggregation === 'max') return Decimal.max(...ds);
  return ds.reduce((a, b) => a.plus(b), new Decimal(0)).div(ds.length);
}

const UNITS: Record<string, string> = { cpu_percent: '%', memory_bytes: 'bytes' };

/** A metric value as the notices write it: a percentage with one decimal, bytes in GB/MB, else a count. */
export function displayValue(metric: string, value: Decimal.Value): string {
  const v = dec(value);
  if (metric === 'cpu_percent') return `${v.toDecimalPlaces(1).toString()}%`;
  if (metric.endsWith('_bytes')) {
    for (const [unit, size] of [
      ['TB', 1e12],
      ['GB', 1e9],
      ['MB', 1e6],
      ['kB', 1e3],
    ] as const) {
      if (v.abs().gte(size)) return `${v.div(size).toDecimalPlaces(2).toString()} ${unit}`;
    }
    return `${v.toDecimalPlaces(0).toString()} bytes`;
  }
  return `${v.toDecimalPlaces(2).toString()}${UNITS[metric] ? ` ${UNITS[metric]}` : ''}`;
}

function describeCondition(a: Pick<Alert, 'metric' | 'comparison' | 'threshold' | 'aggregation' | 'windowMinutes'>): string {
  const over = a.windowMinutes === 1 ? 'in the last minute' : `over the last ${a.windowMinutes} minutes`;
  const how = a.aggregation === 'sum' ? 'total' : a.aggregation === 'avg' ? 'average' : a.aggregation === 'min' ? 'lowest minute' : 'highest minute';
  return `${a.metric} (${how} ${over}) ${a.comparison} ${displayValue(a.metric, a.threshold)}`;
}

/**
 * Evaluates every enabled metric alert policy once a minute (`alerts.evaluate`), on the minutes the
 * metrics collection has stored: the window is the `window_minutes` minutes before the
 * collection's progress (MetricsReader.collectedUntil, where the next minute to collect
 * begins), so it never takes in a minute still being collected. Per policy, in one transaction holding its row locked (a second
 * worker skips it), for each VM it watches: the window's aggregate breaches → an incident opens
 * (at most one open per policy and VM) and ALERT_FIRED, `alert.fired` and, when the policy says
 * so, a mail go out; an open incident whose window no longer breaches (or has too few points:
 * the VM stopped) resolves once with ALERT_RESOLVED, `alert.resolved` and the mail. The policy's
 * `evaluated_until` makes a repeated run over the same minute a no-op.
 */
export class AlertEvaluationService implements OpenAlertsCloser {
  readonly evaluateJob = defineJob<object>({
    name: 'alerts.evaluate',
    schedule: '* * * * *',
    description: 'Evaluates the metric alert policies on the latest collected minute: fires and resolves alerts (app, mail, webhooks)',
    retryLimit: 0,
    handler: async (_p, ctx) => {
      const r = await this.evaluateAll();
      if (r.fired + r.resolved > 0) ctx.log.info(r, 'metric alerts evaluated');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: AlertsRepository,
    private readonly metrics: AlertMetrics,
    private readonly notifier: AlertNotifier,
    private readonly webhooks: WebhookEmitter,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async evaluateAll(): Promise<{ policies: number; fired: number; resolved: number; minute: string | null }> {
    const out = { policies: 0, fired: 0, resolved: 0, minute: null as string | null };
    const last = await this.metrics.collectedUntil();
    if (!last) return out;
    out.minute = last.toISOString();
    let failed = 0;
    for (let after = 0; ; ) {
      const page = await this.repo.enabledPoliciesAfter(this.db, after, PAGE);
      for (const p of page) {
        try {
          const r = await this.evaluatePolicy(p, last);
          if (r) {
            out.policies++;
            out.fired += r.fired;
            out.resolved += r.resolved;
          }
        } catch (err) {
          failed++;
          this.log.error({ err, policyId: p.id }, 'alert policy evaluation failed');
        }
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.id;
    }
    if (failed > 0) throw new Error(`${failed} alert polic${failed === 1 ? 'y' : 'ies'} could not be evaluated`);
    return out;
  }

  /** One policy on the window that ends at `last` (exclusive); undefined when it was evaluated there already or is busy. */
  async evaluatePolicy(p: AlertPolicy, last: Date): Promise<{ fired: number; resolved: number } | undefined> {
    if (p.evaluatedUntil && p.evaluatedUntil.getTime() >= last.getTime()) return undefined;
    const watched = await this.repo.watchedVms(this.db, p.customerId, p.vmId);
    // the collection's progress is the end of the minutes it stored (exclusive): the window is the minutes just before it
    const from = new Date(last.getTime() - p.windowMinutes * MINUTE);
    const to = last;
    const points = await this.metrics.minutePoints(
      watched.map((v) => v.id),
      p.metric as MetricName,
      from,
      to,
    );
    const byVm = new Map<number, number[]>();
    for (const pt of points) if (pt.value !== null) byVm.set(pt.vmId, [...(byVm.get(pt.vmId) ?? []), pt.value]);
    const threshold = dec(p.threshold);

    return this.db.transaction(async (tx) => {
      const locked = await this.repo.lockPolicy(tx, p.id);
      // another worker has it, it was deleted or disabled, changed since it was read, or done for this minute
      if (!locked || !locked.enabled || locked.updatedAt.getTime() !== p.updatedAt.getTime()) return undefined;
      if (locked.evaluatedUntil && locked.evaluatedUntil.getTime() >= last.getTime()) return undefined;
      const open = new Map((await this.repo.openAlerts(tx, p.id)).map((a) => [a.vmId, a]));
      const fired: { alert: Alert; vmName: string }[] = [];
      const resolved: { alert: Alert; vmName: string }[] = [];
      for (const vm of watched) {
        const values = byVm.get(vm.id) ?? [];
        const value = aggregate(values, p.aggregation, p.windowMinutes);
        const breach = value !== null && (p.comparison === '>' ? value.gt(threshold) : value.lt(threshold));
        const current = open.get(vm.id);
        open.delete(vm.id);
        // a window short of points (a minute or two the collection missed) judges nothing: an open
        // incident stays open rather than resolve for want of data and fire again a minute later
        if (value === null && values.length > 0) continue;
        if (breach && !current) {
          const alert = await this.repo.fire(tx, {
            customerId: p.customerId,
            policyId: p.id,
            vmId: vm.id,
            policyName: p.name,
            metric: p.metric,
            comparison: p.comparison,
            threshold: p.threshold,
            aggregation: p.aggregation,
            windowMinutes: p.windowMinutes,
            firedValue: value.toDecimalPlaces(4).toFixed(4),
            startedAt: last,
          });
          if (alert) fired.push({ alert, vmName: vm.name });
        } else if (!breach && current) {
          const done = await this.repo.resolve(tx, current.id, last, value === null ? null : value.toDecimalPlaces(4).toFixed(4), value === null ? 'no_data' : 'recovered');
          if (done) resolved.push({ alert: done, vmName: vm.name });
        }
      }
      // open incidents of VMs the policy no longer watches (deleted): closed, told as resolved
      for (const a of open.values()) {
        const done = await this.repo.resolve(tx, a.id, last, null, 'vm_deleted');
        if (done) resolved.push({ alert: done, vmName: (await this.repo.vmNames(tx, [a.vmId])).get(a.vmId) ?? `VM ${a.vmId}` });
      }
      await this.repo.updatePolicy(tx, p.id, { evaluatedUntil: last });
      if (fired.length + resolved.length > 0) await this.tell(tx, p, fired, resolved);
      return { fired: fired.length, resolved: resolved.length };
    });
  }

  /** Closes a policy's open incidents without a notice (the policy changed or was deleted). */
  async closeOpen(policyId: number, resolution: 'policy_changed' | 'policy_deleted', tx: Executor): Promise<number> {
    let n = 0;
    const now = this.clock.now();
    for (const a of await this.repo.openAlerts(tx, policyId)) if (await this.repo.resolve(tx, a.id, now, null, resolution)) n++;
    return n;
  }

  private async tell(tx: Executor, p: AlertPolicy, fired: { alert: Alert; vmName: string }[], resolved: { alert: Alert; vmName: string }[]): Promise<void> {
    const contact = p.notifyEmail ? await this.repo.contact(tx, p.customerId) : undefined;
    for (const { alert: a, vmName } of fired) {
      const title = `Alert: ${a.policyName} on ${vmName}`;
      const body = `${describeCondition(a)}: it is ${displayValue(a.metric, a.firedValue)} at ${a.startedAt.toISOString()}. You will be told once it resolves.`;
      await this.notifier.notify(a.customerId, 'ALERT_FIRED', { title, body, reference: { type: 'alert', id: a.id } }, tx);
      await this.webhooks.emit(tx, {
        customerId: a.customerId,
        type: 'alert.fired',
        data: {
          alert_id: a.id,
          policy_id: p.id,
          policy_name: a.policyName,
          vm_id: a.vmId,
          vm_name: vmName,
          metric: a.metric,
          comparison: a.comparison,
          threshold: exactNumber(dec(a.threshold).toString()),
          aggregation: a.aggregation,
          window_minutes: a.windowMinutes,
          value: exactNumber(dec(a.firedValue).toString()),
          started_at: a.startedAt.toISOString(),
        },
      });
      if (contact) await this.mailer.queueMail(contact.email, noticeMail({ template: 'alert_fired', subject: title, lines: [`Hello ${contact.first_name},`, body] }), tx);
    }
    for (const { alert: a, vmName } of resolved) {
      const title = `Resolved: ${a.policyName} on ${vmName}`;
      const why = a.resolution === 'recovered' ? `it is ${displayValue(a.metric, a.resolvedValue!)} now` : a.resolution === 'vm_deleted' ? 'the VM was deleted' : 'the VM reports no data any more (stopped?)';
      const body = `No longer ${describeCondition(a)}: ${why}, at ${a.resolvedAt!.toISOString()} (fired at ${a.startedAt.toISOString()}).`;
      await this.notifier.notify(a.customerId, 'ALERT_RESOLVED', { title, body, reference: { type: 'alert', id: a.id } }, tx);
      await this.webhooks.emit(tx, {
        customerId: a.customerId,
        type: 'alert.resolved',
        data: {
          alert_id: a.id,
          policy_id: p.id,
          policy_name: a.policyName,
          vm_id: a.vmId,
          vm_name: vmName,
          metric: a.metric,
          value: a.resolvedValue === null ? null : exactNumber(dec(a.resolvedValue).toString()),
          resolution: a.resolution,
          started_at: a.startedAt.toISOString(),
          resolved_at: a.resolvedAt!.toISOString(),
        },
      });
      if (contact) await this.mailer.queueMail(contact.email, noticeMail({ template: 'alert_resolved', subject: title, lines: [`Hello ${contact.first_name},`, body] }), tx);
    }
  }
}
