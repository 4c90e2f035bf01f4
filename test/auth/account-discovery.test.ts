import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createAdmin } from '../helpers/admins.js';
import { createCustomer } from '../helpers/customers.js';
import { client } from '../helpers/http.js';

// No worker: what a request does by itself is what an observer can time.
let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

const { post } = client(() => t);
/** What an answer tells an observer: status, code, message and Retry-After presence. */
const shape = (r: { statusCode: number; json(): any; headers: Record<string, unknown> }) => ({
  status: r.statusCode,
  code: r.json().code,
  message: r.json().message,
  retryAfter: r.headers['retry-after'] !== undefined,
});

async function tenWrongThenRight(url: string, email: string, password: string) {
  const answers = [];
  for (let i = 0; i < 11; i++) answers.push(shape(await post(url, { email, password: i < 10 ? `Wr0ng!pass${i}` : password })));
  return answers;
}

describe('login answers do not tell which addresses have accounts', () => {
  test('customers: 10 wrong passwords answer the same for an existing and an unknown e-mail (429 from the 10th)', async () => {
    const c = await createCustomer(t);
    const known = await tenWrongThenRight('/api/auth/login', c.email, c.password);
    const unknown = await tenWrongThenRight('/api/auth/login', `nobody-${c.id}@example.test`, c.password);
    assert.deepEqual(unknown, known);
    assert.equal(known[9]!.status, 429);
    assert.equal(known[10]!.status, 429);
    // the address is compared without case or surrounding blanks, like the login itself
    assert.equal((await post('/api/auth/login', { email: ` NOBODY-${c.id}@EXAMPLE.TEST `, password: 'x' })).statusCode, 429);
  });

  test('staff: the same for the backoffice login', async () => {
    const a = await createAdmin(t);
    const known = await tenWrongThenRight('/api/backoffice/auth/login', a.email, a.password);
    const unknown = await tenWrongThenRight('/api/backoffice/auth/login', `nobody-${a.id}@staff.test`, a.password);
    assert.deepEqual(unknown, known);
    assert.equal(known[9]!.status, 429);
  });
});

describe('password/forgot and register/resend do the same work for every address', () => {
  const footprint = async (customerId: number) => {
    const [row] = await queryRows<{ tokens: number; mails: number; jobs: number }>(
      t.container.db,
      sql`select (select count(*)::int from customer_auth_tokens where customer_id = ${customerId}) as tokens,
                 (select count(*)::int from mail_outbox) as mails,
                 (select count(*)::int from pgboss.job) as jobs`,
    );
    return row!;
  };

  for (const [url, overrides] of [
    ['/api/auth/password/forgot', {}],
    ['/api/auth/register/resend', { isRegistrationCompleted: false, emailVerifiedAt: null }],
  ] as const) {
    test(`${url}: one queued job, no token and no mail written during the request, known or not`, async () => {
      const c = await createCustomer(t, overrides);
      const start = await footprint(c.id);
      const unknown = await post(url, { email: `nobody-${c.id}@example.test` });
      const afterUnknown = await footprint(c.id);
      const known = await post(url, { email: c.email });
      const afterKnown = await footprint(c.id);
      assert.deepEqual(unknown.json(), known.json());
      assert.equal(unknown.statusCode, 200);
      const delta = (a: typeof start, b: typeof start) => ({ tokens: b.tokens - a.tokens, mails: b.mails - a.mails, jobs: b.jobs - a.jobs });
      assert.deepEqual(delta(start, afterUnknown), { tokens: 0, mails: 0, jobs: 1 });
      assert.deepEqual(delta(afterUnknown, afterKnown), { tokens: 0, mails: 0, jobs: 1 }, 'an existing address must not cost the request more work');
    });
  }
});
