import type PgBoss from 'pg-boss';
import type { RawSql } from '../db/database.js';

/**
 * What the queue has running on the database: pg-boss's own statements and the job handlers. stop()
 * waits for them so none outlives the pool; a worker start on the embedded database waits for
 * pg-boss's statements to settle before it starts the next worker.
 */
export class StatementTracker {
  /** pg-boss statements and job handlers still running. */
  private inFlight = 0;
  /** pg-boss's own statements running, and who waits for there to be none. */
  private statements = 0;
  private statementsDone: (() => void)[] = [];
  /** The database as pg-boss sees it: every statement counted. */
  readonly db: PgBoss.Db;

  constructor(raw: RawSql) {
    this.db = {
      executeSql: async (text, values) => {
        this.inFlight++;
        this.statements++;
        try {
          return (await raw.executeSql(text, values)) as { rows: any[] };
        } finally {
          this.inFlight--;
          if (--this.statements === 0) for (const done of this.statementsDone.splice(0)) done();
        }
      },
    };
  }

  /** Counts `fn` (a job handler) as running until it settles. */
  async around<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await fn();
    } finally {
      this.inFlight--;
    }
  }

  /** Resolves when no pg-boss statement is running, or after `boundMs` at most. */
  settled(boundMs: number): Promise<void> {
    if (this.statements === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, boundMs);
      this.statementsDone.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Waits until nothing runs (statements and handlers), or `boundMs` at most. */
  async drained(boundMs: number): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
}
