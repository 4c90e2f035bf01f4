import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { ManualClock } from '../../src/platform/clock.js';
import { queryRows } from '../../src/platform/db/database.js';
import { LOST_AFTER_MS, type Applied, type FailureKind, type ResourceAdapter } from '../../src/platform/lifecycle/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// The mechanism alone, with a fake kind of resource whose "backend" is an array: no worker runs, so
// each test decides when a job runs (lifecycle.run) and when the sweep runs.
const clock = new ManualClock('2031-01-01T00:00:00Z');
let t: TestApp;

class BackendRefusal extends Error {}
class Outage extends Error {}

/** A resource whose desired state is a number held here; the backend records what it was told. */
class FakeAdapter implements ResourceAdapter {
  readonly kind = 'test_thing';
  desired = new Map<number, number>();
  backend = new Map<number, number>();
  calls: { id: number; value: number }[] = [];
  recorded: { id: number; value: number }[] = [];
  failures: { id: number; final: boolean; attempts: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** run before the backend call returns (e.g. a change arriving meanwhile) */
  during: ((id: number) => Promise<void>) | undefined;
  fail: Error | undefined;

  classify(err: unknown): FailureKind | undefined {
    if (err instanceof BackendRefusal) return 'final';
    return err instanceof Outage ? 'retry' : undefined;
  }

  async apply(id: number): Promise<Applied | void> {
    const value = this.desired.get(id);
    if (value === undefined) return;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      this.calls.push({ id, value });
      const during = this.during;
      this.during = undefined;
      if (during) await during(id);
      await new Promise((r) => setTimeout(r, 5));
      if (this.fail) {
        const err = this.fail;
        this.fail = undefined;
        throw err;
      }
      this.backend.set(id, value);
    } finally {
      this.inFlight--;
    }
    return { record: async () => void this.recorded.push({ id, value }) };
  }

  async failed(_tx: unknown, id: number, f: { final: boolean; attempts: number }): Promise<void> {
    this.failures.push({ id, final: f.final, attempts: f.attempts });
  }
}

const fake = new FakeAdapter();
let nextId = 1;

before(async () => {
  t = await buildTestApp({ clock, worker: false });
  t.container.lifecycle.register(fake);
});
after(() => t.close());
beforeEach(() => {
  fake.calls = [];
  fake.recorded = [];
  fake.failures = [];
});

const lc = () => t.container.lifecycle;

/** The customer's side: the desired state changes in a transaction that tells the lifecycle. */
async function change(id: number, value: number): Promise<void> {
  await t.container.db.transaction(async (tx) => {
    fake.desired.set(id, value);
    await lc().changed(tx, fake.kind, id);
  });
}

async function waitingJobs(id: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.container.db,
    sql`select count(*)::int as n from pgboss.job where name = 'resources' and singleton_key = ${`test_thing:${id}`} and state = 'created'`,
  );
  return row!.n;
}

async function dropJobs(id: number): Promise<void> {
  await t.container.db.execute(sql`delete from pgboss.job where name = 'resources' and singleton_key = ${`test_thing:${id}`}`);
}

describe('the resource lifecycle', () => {
  test('a change is applied by one job; changes while it waits collapse into that job', async () => {
    const id = nextId++;
    await change(id, 1);
    await change(id, 2);
    await change(id, 3);
    assert.equal(await waitingJobs(id), 1, 'one waiting job per resource');
    assert.equal((await lc().state(fake.kind, id)).state, 'pending');
    await lc().run(fake.kind, id);
    assert.deepEqual(fake.calls, [{ id, value: 3 }], 'the latest state, once');
    assert.equal(fake.backend.get(id), 3);
    assert.equal((await lc().state(fake.kind, id)).state, 'synced');
    await lc().run(fake.kind, id);
    assert.equal(fake.calls.length, 1, 'a repeated job does nothing');
  });

  test('conditional finish: a change that lands while the job applies makes it apply again, and only the latest is recorded', async () => {
    const id = nextId++;
    await change(id, 1);
    fake.during = async () => change(id, 2);
    await lc().run(fake.kind, id);
    assert.deepEqual(fake.calls.map((c) => c.value), [1, 2]);
    assert.deepEqual(fake.recorded.map((c) => c.value), [2], 'the finish of the stale apply recorded nothing');
    assert.equal(fake.backend.get(id), 2);
    const [row] = await queryRows<{ desired: number; applied: number }>(
      t.container.db,
      sql`select desired_generation as desired, applied_generation as applied from resource_lifecycle where kind = 'test_thing' and resource_id = ${id}`,
    );
    assert.deepEqual(row, { desired: 2, applied: 2 });
  });

  test('one job at a time per resource: a second job finds the lease taken and leaves the work to the holder', async () => {
    const id = nextId++;
    await change(id, 1);
    fake.maxInFlight = 0;
    let second: Promise<void> | undefined;
    fake.during = async () => {
      await change(id, 2);
      second = lc().run(fake.kind, id);
      await second;
    };
    await lc().run(fake.kind, id);
    await second;
    assert.equal(fake.maxInFlight, 1);
    assert.equal(fake.backend.get(id), 2);
    assert.equal((await lc().state(fake.kind, id)).state, 'synced');
  });

  test('an outage is retried with back-off by the sweep; a success clears the error', async () => {
    const id = nextId++;
    await change(id, 1);
    await dropJobs(id);
    fake.fail = new Outage('backend down');
    await lc().run(fake.kind, id);
    let s = await lc().state(fake.kind, id);
    assert.equal(s.state, 'failed');
    assert.equal(s.lastError, 'backend down');
    assert.equal(s.attempts, 1);
    assert.equal(s.nextRetryAt?.toISOString(), new Date(clock.now().getTime() + 60_000).toISOString());
    assert.deepEqual(fake.failures, [{ id, final: false, attempts: 1 }]);
    await lc().run(fake.kind, id);
    assert.equal(fake.calls.length, 1, 'a job before the retry time does not try again');
    assert.equal(await lc().sweep(), 0, 'not due yet');

    clock.advance(61_000);
    fake.fail = new Outage('still down');
    assert.equal(await lc().sweep(), 1);
    assert.equal(await waitingJobs(id), 1);
    await dropJobs(id);
    await lc().run(fake.kind, id);
    s = await lc().state(fake.kind, id);
    assert.deepEqual([s.state, s.attempts, s.lastError], ['failed', 2, 'still down']);
    assert.equal(s.nextRetryAt?.toISOString(), new Date(clock.now().getTime() + 120_000).toISOString(), 'the delay doubles');

    clock.advance(121_000);
    assert.equal(await lc().sweep(), 1);
    await dropJobs(id);
    await lc().run(fake.kind, id);
    s = await lc().state(fake.kind, id);
    assert.deepEqual(s, { state: 'synced', lastError: null, lastErrorAt: null, attempts: 0, nextRetryAt: null });
    assert.equal(fake.backend.get(id), 1);
  });

  test('a refusal is final: nothing tries again until a new change (or a retry) asks', async () => {
    const id = nextId++;
    await change(id, 1);
    fake.fail = new BackendRefusal('no such image');
    await lc().run(fake.kind, id);
    const s = await lc().state(fake.kind, id);
    assert.deepEqual([s.state, s.nextRetryAt, s.lastError], ['failed', null, 'no such image']);
    assert.deepEqual(fake.failures, [{ id, final: true, attempts: 1 }]);
    clock.advance(24 * 3_600_000);
    assert.equal(await lc().sweep(), 0);
    await lc().run(fake.kind, id);
    assert.equal(fake.calls.length, 1);
    await change(id, 5);
    await lc().run(fake.kind, id);
    assert.equal(fake.backend.get(id), 5);
    assert.equal((await lc().state(fake.kind, id)).state, 'synced');
  });

  test('an error that is not the backend\'s is thrown to the queue, and the sweep catches the change once it is overdue', async () => {
    const id = nextId++;
    await change(id, 1);
    await dropJobs(id);
    fake.fail = new TypeError('a bug');
    await assert.rejects(lc().run(fake.kind, id), TypeError);
    assert.equal((await lc().state(fake.kind, id)).state, 'pending', 'not recorded as a backend failure');
    assert.equal(await lc().sweep(), 0);
    clock.advance(LOST_AFTER_MS + 1000);
    assert.equal(await lc().sweep(), 1, 'the lease was let go and the change is overdue');
    await lc().run(fake.kind, id);
    assert.equal(fake.backend.get(id), 1);
  });

  test('a lost job: the change committed but its job vanished; the sweep queues it after LOST_AFTER_MS', async () => {
    const id = nextId++;
    await change(id, 7);
    await dropJobs(id);
    assert.equal(await lc().sweep(), 0);
    clock.advance(LOST_AFTER_MS + 1000);
    assert.equal(await lc().sweep(), 1);
    assert.equal(await waitingJobs(id), 1);
    await lc().run(fake.kind, id);
    assert.equal(fake.backend.get(id), 7);
    assert.equal(await lc().sweep(), 0, 'nothing left to do');
  });

  test('a change rolled back leaves neither a generation nor a job', async () => {
    const id = nextId++;
    await assert.rejects(
      t.container.db.transaction(async (tx) => {
        await lc().changed(tx, fake.kind, id);
        throw new Error('rolled back');
      }),
    );
    assert.equal(await waitingJobs(id), 0);
    assert.equal((await lc().state(fake.kind, id)).state, 'synced');
  });
});
