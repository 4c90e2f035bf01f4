/** When a plan's backups are due (UTC): pure rules, unit-tested beside. */
export interface PlanTimes {
  frequency: string;
  hour: number;
  weekday: number | null;
}

const DAY = 24 * 3600_000;

/** The plan's latest slot at or before `now`. */
export function latestSlot(plan: PlanTimes, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), plan.hour);
  if (plan.frequency === 'weekly') {
    const back = (now.getUTCDay() - (plan.weekday ?? 0) + 7) % 7;
    let slot = today - back * DAY;
    if (slot > now.getTime()) slot -= 7 * DAY;
    return new Date(slot);
  }
  return new Date(today > now.getTime() ? today - DAY : today);
}

/** The plan's next slot after `now`. */
export function nextSlot(plan: PlanTimes, now: Date): Date {
  const latest = latestSlot(plan, now);
  return new Date(latest.getTime() + (plan.frequency === 'weekly' ? 7 : 1) * DAY);
}
