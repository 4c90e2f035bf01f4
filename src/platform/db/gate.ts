import { AppError } from '../errors.js';

/** 503: the one connection of the embedded database (or every connection of the pool) stayed busy too long. */
export class DatabaseBusyError extends AppError {
  constructor(readonly waitedMs: number) {
    super(503, 'DATABASE_BUSY', 'The database is busy, please try again', undefined, { 'retry-after': '5' });
  }
}

export interface GateHolder {
  /** what holds the connection: the SQL of a query, or where a transaction was opened (built only when asked) */
  what: () => string;
  since: number;
}

export interface GateOptions {
  waitMs: number;
  /** called once per refused waiter, with what held the connection the whole time */
  onTimeout(waitedMs: number, holder: GateHolder | undefined): void;
}

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout;
}

/**
 * Turns for the embedded database's one connection, first come first served. A caller that waits
 * longer than `waitMs` is refused with DatabaseBusyError and leaves the line without ever running,
 * so a transaction that waits for itself rolls back instead of stopping the service for good.
 */
export class ConnectionGate {
  private holder: GateHolder | undefined;
  private readonly line: Waiter[] = [];

  constructor(private readonly opts: GateOptions) {}

  /** `what` is called only to report a holder; it must not depend on the caller's stack at that later time. */
  async run<T>(what: () => string, fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    this.holder = { what, since: Date.now() };
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /** Who holds the connection now, and since when. */
  current(): GateHolder | undefined {
    return this.holder;
  }

  private acquire(): Promise<void> {
    if (!this.holder && this.line.length === 0) {
      this.holder = { what: () => 'starting', since: Date.now() };
      return Promise.resolve();
    }
    const asked = Date.now();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const i = this.line.indexOf(waiter);
          if (i >= 0) this.line.splice(i, 1);
          const waited = Date.now() - asked;
          this.opts.onTimeout(waited, this.holder);
          reject(new DatabaseBusyError(waited));
        }, this.opts.waitMs),
      };
      this.line.push(waiter);
    });
  }

  private release(): void {
    const next = this.line.shift();
    if (next) {
      this.holder = { what: () => 'starting', since: Date.now() };
      next.grant();
    } else {
      this.holder = undefined;
    }
  }
}
