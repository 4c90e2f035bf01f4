import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import { defineJob } from '../../platform/queue/queue.js';
import { EXPORTABLE, PARTITIONED_TABLES, type ExportKind, type PartitionedTable, type RetentionRepository, type RetentionSettings } from './retention.repository.js';

/** Months of partitions kept ready ahead of the clock (and one behind, for late rows). */
export const PARTITION_MONTHS_AHEAD = 3;
const EXPORT_PAGE = 1000;

/** The first instant (UTC) of the month `n` months from the month of `at`. */
export function monthStart(at: Date, n = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + n, 1));
}

export interface RetentionRun {
  /** usage months rolled up and dropped, as YYYY-MM */
  usageMonthsRolledUp: string[];
  auditMonthsDropped: string[];
  /** months past the retention still kept, and why */
  kept: { table: string; month: string; reason: string }[];
}

const ym = (d: Date) => d.toISOString().slice(0, 7);

/**
 * History that grows by the hour: the monthly partitions (created ahead by a daily job, so no row
 * waits in the DEFAULT partition), the retention of usage records (rolled up per meter and day,
 * then the month's partition dropped) and of the audit log (dropped only when staff set a number
 * of months), and the monthly export of the audit log and the wallet ledger.
 */
export class RetentionService {
  constructor(
    private readonly db: Database,
    private readonly repo: RetentionRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  readonly ensurePartitionsJob = defineJob<object>({
    name: 'partitions.ensure',
    schedule: '15 2 * * *',
    description: `Creates the monthly partitions of the history tables from last month to ${PARTITION_MONTHS_AHEAD} months ahead, and partitions for rows that landed in a DEFAULT partition`,
    handler: async (_payload, ctx) => {
      const created = await this.ensurePartitions();
      if (created.length > 0) ctx.log.info({ created }, 'partitions created');
    },
  });

  readonly retentionJob = defineJob<object>({
    name: 'retention.apply',
    schedule: '40 2 * * *',
    description: 'Rolls usage records older than the retention up per meter and day and drops their months; drops audit log months past their retention when one is set',
    handler: async (_payload, ctx) => {
      const run = await this.applyRetention();
      ctx.log.info(run, 'retention applied');
    },
  });

  /** Creates the missing monthly partitions (last month to PARTITION_MONTHS_AHEAD ahead, and every month found in a DEFAULT partition). */
  async ensurePartitions(): Promise<string[]> {
    const now = this.clock.now();
    const created: string[] = [];
    for (const table of Object.keys(PARTITIONED_TABLES) as PartitionedTable[]) {
      const months = new Map<string, Date>();
      for (let n = -1; n <= PARTITION_MONTHS_AHEAD; n++) months.set(ym(monthStart(now, n)), monthStart(now, n));
      for (const m of await this.repo.monthsInDefault(this.db, table)) months.set(ym(m), m);
      for (const [key, m] of [...months].sort()) {
        // one transaction per partition: the DDL holds its locks only that long
        if (await this.db.transaction((tx) => this.repo.ensureMonth(tx, table, m))) created.push(`${table} ${key}`);
      }
    }
    return created;
  }

  async settings(): Promise<RetentionSettings> {
    return this.repo.settings(this.db);
  }

  async updateSettings(s: RetentionSettings): Promise<RetentionSettings> {
    await this.repo.saveSettings(this.db, s);
    return this.repo.settings(this.db);
  }

  /**
   * Usage months entirely older than `usage_raw_months` whole months before the current one are
   * rolled up into usage_daily and their partition dropped, one month per transaction, only when the
   * roll-up's sum equals the records' sum to the last of their 6 decimals and no charge or postpaid invoice still
   * needs those hours. Audit log months go only when `audit_log_months` is set.
   */
  async applyRetention(): Promise<RetentionRun> {
    const now = this.clock.now();
    const s = await this.repo.settings(this.db);
    const run: RetentionRun = { usageMonthsRolledUp: [], auditMonthsDropped: [], kept: [] };
    const usageBefore = monthStart(now, -s.usageRawMonths);
    for (const p of await this.repo.monthPartitions(this.db, 'usage_records')) {
      if (p.to > usageBefore) continue;
      const needed = await this.repo.usageStillNeeded(this.db, p.from, p.to);
      if (needed) {
        run.kept.push({ table: 'usage_records', month: ym(p.from), reason: needed });
        continue;
      }
      await this.db.transaction((tx) => this.repo.ensureMonth(tx, 'usage_daily', p.from));
      const done = await this.db.transaction(async (tx) => {
        const r = await this.repo.rollUpUsage(tx, p.from, p.to);
        if (r.recordsAmount !== r.dailyAmount) {
          this.log.error({ month: ym(p.from), ...r }, 'usage roll-up does not add up: the month is kept');
          return false;
        }
        await this.repo.dropPartition(tx, 'usage_records', p.name);
        return true;
      });
      if (done) run.usageMonthsRolledUp.push(ym(p.from));
      else run.kept.push({ table: 'usage_records', month: ym(p.from), reason: 'the roll-up does not add up to the records' });
    }
    if (s.auditLogMonths !== null) {
      const auditBefore = monthStart(now, -s.auditLogMonths);
      for (const p of await this.repo.monthPartitions(this.db, 'audit_logs')) {
        if (p.to > auditBefore) continue;
        await this.db.transaction((tx) => this.repo.dropPartition(tx, 'audit_logs', p.name));
        run.auditMonthsDropped.push(ym(p.from));
      }
    }
    return run;
  }

  /**
   * One month (YYYY-MM, UTC) of the audit log or the ledger, in pages of EXPORT_PAGE rows by id,
   * read as they are consumed, so memory stays bounded whatever the month holds.
   */
  exportMonth(kind: ExportKind, month: string): { pages: AsyncGenerator<Record<string, unknown>[]>; filename: string } {
    const m = /^(\d{4})-(\d{2})$/.exec(month);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new ValidationError('month must be YYYY-MM');
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
    const repo = this.repo;
    const db = this.db;
    async function* pages(): AsyncGenerator<Record<string, unknown>[]> {
      let afterId = 0;
      for (;;) {
        const rows = await repo.exportPage(db, kind, from, afterId, EXPORT_PAGE);
        if (rows.length > 0) yield rows;
        if (rows.length < EXPORT_PAGE) return;
        afterId = Number(rows[rows.length - 1]!.id);
      }
    }
    return { pages: pages(), filename: `${EXPORTABLE[kind]}-${month}` };
  }
}
