import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError } from '../../platform/errors.js';
import { offsetOf, type PageRequest } from '../../platform/http/pagination.js';
import { Decimal, dec, moneyJson, rateJson } from '../../platform/money.js';
import type { ChargingSettings, SuspensionRepository, UsageViewRepository } from './suspension.repository.js';

/** The customer's billing data (runway) and the charging settings staff change. */
export class BillingUsageService {
  constructor(
    private readonly db: Database,
    private readonly repo: UsageViewRepository,
    private readonly settingsRepo: SuspensionRepository,
    private readonly clock: Clock,
  ) {}

  async usageOf(customerId: number) {
    const now = this.clock.now();
    const c = await this.repo.customer(this.db, customerId);
    if (!c) throw new NotFoundError('Customer');
    const running = await this.repo.running(this.db, customerId, now);
    const items = running.map((m) => {
      const price = dec(m.hourly_price ?? 0);
      return {
        resource_type: m.resource_type,
        resource_id: m.resource_id,
        description: m.description,
        quantity: Number(m.quantity),
        hourly_price: rateJson(price),
        hourly_cost: rateJson(price.times(m.quantity)),
        started_at: new Date(m.started_at).toISOString(),
        cost: price.times(m.quantity),
      };
    });
    const burn = items.reduce((s, i) => s.plus(i.cost), new Decimal(0));
    const balance = dec(c.current_balance ?? 0);
    const runway = burn.gt(0) ? Decimal.max(balance, 0).div(burn).floor().toNumber() : null;
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const settings = await this.settingsRepo.settings(this.db);
    return {
      billing_type: c.billing_type,
      current_balance: moneyJson(balance),
      hourly_burn: rateJson(burn),
      runway_hours: runway,
      runway_warning_hours: settings.runwayWarningHours,
      suspended_at: c.suspended_at ? new Date(c.suspended_at).toISOString() : null,
      suspend_reason: c.suspend_reason,
      month_to_date: moneyJson(await this.repo.chargedSince(this.db, customerId, monthStart)),
      running: items.map(({ cost: _cost, ...rest }) => rest),
    };
  }

  /** What the customer was charged (or accrued, postpaid) for the hours of the UTC month that starts at `month`. */
  async chargedInMonth(customerId: number, month: Date): Promise<string> {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    return moneyJson(await this.repo.chargedBetween(this.db, customerId, month, next));
  }

  /** GET /api/billing/usage/hours: the charged hours, newest first, with what each charged and why. */
  async chargedHours(customerId: number, p: PageRequest) {
    const { hours, lines, total } = await this.repo.chargedHours(this.db, customerId, p.limit, offsetOf(p));
    const byHour = new Map<number, typeof lines>();
    for (const l of lines) {
      const k = new Date(l.hour).getTime();
      byHour.set(k, [...(byHour.get(k) ?? []), l]);
    }
    const items = hours.map((h) => ({
      hour: new Date(h.hour).toISOString(),
      postpaid: h.postpaid,
      usage_amount: rateJson(h.usage_amount),
      amount: moneyJson(h.amount),
      lines: (byHour.get(new Date(h.hour).getTime()) ?? []).map((l) => ({
        resource_type: l.resource_type,
        resource_id: l.resource_id,
        description: l.description,
        quantity: Number(l.quantity),
        hourly_price: rateJson(l.hourly_price),
        seconds: l.seconds,
        amount: rateJson(l.amount),
      })),
    }));
    return { items, total };
  }

  async settings() {
    return view(await this.settingsRepo.settings(this.db));
  }

  async updateSettings(body: { runway_warning_hours: number; low_balance_warning_hours: number; postpaid_due_days: number; postpaid_suspend_grace_days: number }) {
    const s: ChargingSettings = {
      runwayWarningHours: body.runway_warning_hours,
      lowBalanceWarningHours: body.low_balance_warning_hours,
      postpaidDueDays: body.postpaid_due_days,
      postpaidSuspendGraceDays: body.postpaid_suspend_grace_days,
    };
    await this.settingsRepo.saveSettings(this.db, s);
    return view(s);
  }
}

function view(s: ChargingSettings) {
  return {
    runway_warning_hours: s.runwayWarningHours,
    low_balance_warning_hours: s.lowBalanceWarningHours,
    postpaid_due_days: s.postpaidDueDays,
    postpaid_suspend_grace_days: s.postpaidSuspendGraceDays,
  };
}
