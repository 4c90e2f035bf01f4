import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { noteActivityReplay } from '../audit-scope.js';
import type { Database, Executor } from '../db/database.js';
import { ConflictError, ValidationError } from '../errors.js';
import { idempotencyKeys } from './idempotency.tables.js';

export interface IdempotencyRef {
  /** the operation, e.g. "billing.deposit" */
  scope: string;
  /** who sent the request, e.g. "customer:12" */
  owner: string;
  key: string;
  requestHash: string;
}

export interface StoredAnswer<T = unknown> {
  status: number;
  body: T;
}

export type Claim<T> = { kind: 'claimed'; id: number } | { kind: 'replay'; answer: StoredAnswer<T> } | { kind: 'in_progress' };

/** JSON with sorted keys, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

/** The reference of a request, or undefined when it came without a key. */
export function idempotencyRef(scope: string, owner: string, key: string | undefined, body: unknown): IdempotencyRef | undefined {
  return key === undefined ? undefined : { scope, owner, key, requestHash: requestHash(body) };
}

/**
 * What `IdempotencyStore.run` hands its work: the key's claim, taken and answered inside the
 * work's own transactions. Every method does nothing for a request without a key.
 */
export interface IdempotencyClaim<T> {
  /**
   * First thing in the work's first transaction: claims the key. A repeat of a request stops the
   * work here (its transaction rolls back) and `run` answers for it instead.
   */
  claim(tx: Executor): Promise<void>;
  /** In the transaction that makes the answer final: stores it for repeats. */
  complete(tx: Executor, answer: T): Promise<void>;
  /** After a failure that committed part of the work: frees the key so the client may retry. */
  release(ex: Executor): Promise<void>;
}

/** Thrown out of the work by `claim` when the request is a repeat; `run` catches it. */
class Repeat<T> {
  constructor(readonly claim: Exclude<Claim<T>, { kind: 'claimed' }>) {}
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Longer than any request holding a claim may take (gateway calls time out after 10 s). */
export const STALE_CLAIM_SECONDS = 5 * 60;

/** Checks the header value: 1..255 visible ASCII characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !KEY_PATTERN.test(value)) {
    throw new ValidationError('Invalid Idempotency-Key', [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  }
  return value;
}

/**
 * Idempotency-Key semantics (docs/decisions.md §4): the same key and body replay the first answer and do
 * nothing else; the same key with another body is a 409. `claim` runs in the caller's transaction:
 * the row is inserted with the work, so a parallel repeat blocks on the unique index until the
 * first transaction ends, then sees the stored answer (or the claim, if the answer is written in a
 * later step). A failed first attempt leaves no row (its transaction rolls back, or `release`
 * removes it), so the client may retry with the same key.
 */
export class IdempotencyStore {
  constructor(private readonly db: Database) {}

  /**
   * Runs `work` once per key (every request runs it when `ref` is undefined). The work claims the
   * key in its first transaction and completes it in the transaction that makes its answer final,
   * which may be a later one (after a gateway call outside any transaction). A repeat of a request
   * answered before replays that answer; a repeat while the first request still runs waits for its
   * answer (`awaitAnswer`: up to 15 s, then 409 IDEMPOTENCY_IN_PROGRESS). If the work fails, the key
   * is released (unless its answer was stored), so the client may retry with the same key.
   */
  async run<T>(ref: IdempotencyRef | undefined, work: (claim: IdempotencyClaim<T>) => Promise<T>): Promise<T> {
    let claimId: number | undefined;
    const handle: IdempotencyClaim<T> = {
      claim: async (tx) => {
        if (!ref) return;
        const claim = await this.claim<T>(tx, ref);
        if (claim.kind !== 'claimed') throw new Repeat(claim);
        claimId = claim.id;
      },
      complete: async (tx, answer) => {
        if (claimId !== undefined) await this.complete(tx, claimId, { status: 200, body: answer });
      },
      release: async (ex) => {
        if (claimId !== undefined) await this.release(ex, claimId);
      },
    };
    try {
      return await work(handle);
    } catch (err) {
      if (err instanceof Repeat) {
        const repeat = err as Repeat<T>;
        return repeat.claim.kind === 'replay' ? repeat.claim.answer.body : (await this.awaitAnswer<T>(ref!)).body;
      }
      // Only a claim still in progress is removed: a stored answer stays. Should this fail too, the
      // original error is what the client sees, and the claim is taken over once it is stale.
      if (claimId !== undefined) await this.release(this.db, claimId).catch(() => undefined);
      throw err;
    }
  }

  async claim<T>(tx: Executor, ref: IdempotencyRef): Promise<Claim<T>> {
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ scope: ref.scope, owner: ref.owner, key: ref.key, requestHash: ref.requestHash })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted[0]) return { kind: 'claimed', id: inserted[0].id };
    const existing = await this.find(tx, ref);
    if (!existing) {
      noteActivityReplay();
      return { kind: 'in_progress' };
    }
    if (existing.requestHash !== ref.requestHash) {
      throw new ConflictError('This Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
    }
    if (existing.state === 'done') {
      noteActivityReplay();
      return { kind: 'replay', answer: { status: existing.responseStatus ?? 200, body: existing.responseBody as T } };
    }
    // A claim that never got its answer (the process died mid-request) is taken over once it is
    // older than any request can run, so the key does not stay blocked forever.
    const [taken] = await tx
      .update(idempotencyKeys)
      .set({ createdAt: sql`now()` })
      .where(
        and(
          eq(idempotencyKeys.id, existing.id),
          eq(idempotencyKeys.state, 'in_progress'),
          sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`,
        ),
      )
      .returning({ id: idempotencyKeys.id });
    if (taken) return { kind: 'claimed', id: taken.id };
    // the first request records what it does; this one only waits for its answer
    noteActivityReplay();
    return { kind: 'in_progress' };
  }

  async complete(tx: Executor, id: number, answer: StoredAnswer): Promise<void> {
    await tx
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: answer.status, responseBody: answer.body, completedAt: sql`now()` })
      .where(eq(idempotencyKeys.id, id));
  }

  async release(ex: Executor, id: number): Promise<void> {
    await ex.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, 'in_progress')));
  }

  /** Waits for the answer of a claim held by another request. */
  async awaitAnswer<T>(ref: IdempotencyRef, timeoutMs = 15_000): Promise<StoredAnswer<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.find(this.db, ref);
      if (row && row.requestHash !== ref.requestHash) {
        throw new ConflictError('This Idempotency-Key was already used with a different request', 'IDEMPOTENCY_KEY_REUSED');
      }
      if (row?.state === 'done') return { status: row.responseStatus ?? 200, body: row.responseBody as T };
      if (!row) {
        // The first attempt failed and released the key: the caller may simply retry.
        throw new ConflictError('The first request with this Idempotency-Key failed; retry it', 'IDEMPOTENCY_KEY_RELEASED');
      }
      if (Date.now() > deadline) {
        throw new ConflictError('A request with this Idempotency-Key is still being processed', 'IDEMPOTENCY_IN_PROGRESS');
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Forgets keys created before `before` (answered or abandoned); a repeat after that is a new request. */
  async prune(before: Date): Promise<number> {
    const rows = await this.db
      .delete(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} < ${before.toISOString()}::timestamptz`)
      .returning({ id: idempotencyKeys.id });
    return rows.length;
  }

  private async find(ex: Executor, ref: IdempotencyRef) {
    const [row] = await ex
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.owner, ref.owner), eq(idempotencyKeys.key, ref.key)));
    return row;
  }
}
