import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import type { Vm } from '../compute/index.js';
import { floorTo, MINUTE_MS, utcMonth } from './metrics.points.js';
import type { MetricsRepository, MetricTable, SeriesRow, TrafficMonth } from './metrics.repository.js';
import type { MetricRange } from './metrics.schemas.js';
import { KEEP } from './metrics.service.js';

/** The VM a caller may read: the customer's own (another's is a 404) or, for staff, any. */
export interface VmLookup {
  get(customerId: number, id: number): Promise<Vm>;
  adminGet(id: number): Promise<Vm>;
}

interface RangePlan {
  spanMs: number;
  widthMs: number;
  width: string;
  table: MetricTable;
  /** the finer table read for what is not rolled up yet, and the progress that says how far that is */
  tail?: { table: MetricTable; progress: '5min' | 'hour' };
}

/** The resolution of each range: about 60 to 720 points. */
export const RANGES: Record<MetricRange, RangePlan> = {
  '1h': { spanMs: 3_600_000, widthMs: MINUTE_MS, width: '1 minute', table: 'vm_metrics_minute' },
  '24h': { spanMs: 86_400_000, widthMs: 5 * MINUTE_MS, width: '5 minutes', table: 'vm_metrics_5min', tail: { table: 'vm_metrics_minute', progress: '5min' } },
  '7d': { spanMs: 7 * 86_400_000, widthMs: 3_600_000, width: '1 hour', table: 'vm_metrics_hour', tail: { table: 'vm_metrics_5min', progress: 'hour' } },
  '30d': { spanMs: 30 * 86_400_000, widthMs: 3_600_000, width: '1 hour', table: 'vm_metrics_hour', tail: { table: 'vm_metrics_5min', progress: 'hour' } },
};

export interface VmSeries {
  vm: Vm;
  range: MetricRange;
  resolutionSeconds: number;
  from: Date;
  to: Date;
  points: SeriesRow[];
}

/** Reading a VM's graphs and traffic, for its customer and for staff. */
export class MetricsQueries {
  constructor(
    private readonly db: Database,
    private readonly repo: MetricsRepository,
    private readonly vms: VmLookup,
    private readonly clock: Clock,
  ) {}

  /** The customer's VM (customerId) or any VM (staff: undefined). */
  private vm(customerId: number | undefined, vmId: number): Promise<Vm> {
    return customerId === undefined ? this.vms.adminGet(vmId) : this.vms.get(customerId, vmId);
  }

  async series(customerId: number | undefined, vmId: number, range: MetricRange): Promise<VmSeries> {
    const vm = await this.vm(customerId, vmId);
    const plan = RANGES[range];
    // up to the end of the period of the last minute that ended: a period still running holds the minutes collected so far
    const lastMinuteEnd = floorTo(this.clock.now(), MINUTE_MS).getTime();
    const to = new Date(Math.ceil(lastMinuteEnd / plan.widthMs) * plan.widthMs);
    const from = new Date(to.getTime() - plan.spanMs);
    let tail: { table: MetricTable; doneUntil: Date } | undefined;
    if (plan.tail) {
      const doneUntil = (await this.repo.progress(this.db, plan.tail.progress)) ?? from;
      tail = { table: plan.tail.table, doneUntil };
    }
    const points = await this.repo.series(this.db, vm.id, plan.table, plan.width, from, to, tail);
    return { vm, range, resolutionSeconds: plan.widthMs / 1000, from, to, points };
  }

  /** Traffic per calendar month: the current one always, then earlier months with traffic, newest first. */
  async traffic(customerId: number | undefined, vmId: number): Promise<{ vm: Vm; months: TrafficMonth[] }> {
    const vm = await this.vm(customerId, vmId);
    const current = utcMonth(this.clock.now());
    const months = await this.repo.traffic(this.db, vm.id, utcMonth(current, -KEEP.hourMonths));
    if (!months.some((m) => m.month.getTime() === current.getTime())) months.unshift({ month: current, inBytes: 0, outBytes: 0, inPackets: 0, outPackets: 0 });
    return { vm, months: months.filter((m) => m.month <= current) };
  }
}
