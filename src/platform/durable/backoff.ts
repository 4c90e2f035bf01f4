/**
 * When durable work is tried again after a failure. `delayMs(failures)` is the wait after the
 * `failures`-th failed attempt in a row (1 for the first), or null when the schedule is spent (the
 * work gives up). `random` in [0, 1) moves a jittered wait; without jitter it is ignored.
 */
export interface Backoff {
  delayMs(failures: number, random?: number): number | null;
  /** the schedule in words, for logs and job descriptions */
  readonly text: string;
}

const minutes = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`);

/** firstMs, twice that, four times, … up to maxMs, then every maxMs; never spent. */
export function doubling(opts: { firstMs: number; maxMs: number }): Backoff {
  return {
    text: `${minutes(opts.firstMs)} doubling up to ${minutes(opts.maxMs)}, then every ${minutes(opts.maxMs)}`,
    delayMs: (failures) => Math.min(opts.firstMs * 2 ** Math.max(0, failures - 1), opts.maxMs),
  };
}

/**
 * A fixed list of waits, one per retry, each moved by up to ±`jitter` (0.1: ±10 %) at random, so
 * work that failed together is not retried together; spent after the last one.
 */
export function steps(delaysMs: readonly number[], opts: { jitter: number } = { jitter: 0 }): Backoff {
  return {
    text: `${delaysMs.map(minutes).join(', ')}${opts.jitter ? ` (±${Math.round(opts.jitter * 100)} %)` : ''}, then none`,
    delayMs: (failures, random = Math.random()) => {
      const base = delaysMs[failures - 1];
      if (base === undefined) return null;
      return Math.round(base * (1 + opts.jitter * (2 * random - 1)));
    },
  };
}

/** The same wait after every failure; never spent. */
export function every(ms: number): Backoff {
  return { text: `every ${minutes(ms)}`, delayMs: () => ms };
}
