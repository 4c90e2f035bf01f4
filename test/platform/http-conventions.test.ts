import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ConflictError } from '../../src/platform/errors.js';
import { paginated, pageOf } from '../../src/platform/http/pagination.js';
import { Envelope, PageQuery, Paginated, StrictObject, errorResponses } from '../../src/platform/http/schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Routes that exercise the conventions of platform/http the way feature routes use them. */
async function conventionRoutes(app: FastifyInstance) {
  app.post(
    '/_test/items',
    {
      schema: {
        body: StrictObject({ name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 201: Envelope(Type.Object({ name: Type.String() })), ...errorResponses(400) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Created', data: { name: (req.body as any).name, secret: 'never leaves' } as any }),
  );
  app.get(
    '/_test/items',
    { schema: { querystring: PageQuery, response: { 200: Paginated(Type.Object({ n: Type.Integer() })) } } },
    async (req) => {
      const p = pageOf(req.query as any);
      const all = Array.from({ length: 25 }, (_, i) => ({ n: i + 1 }));
      return paginated('OK', p, { items: all.slice((p.page - 1) * p.limit, p.page * p.limit), total: all.length });
    },
  );
  app.get('/_test/conflict', async () => {
    throw new ConflictError('Name already taken');
  });
  app.get('/_test/crash', async () => {
    throw new Error('relation "secret_table" does not exist at line 42');
  });
}

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false, extend: conventionRoutes });
});
after(() => t.close());

describe('success envelope and response allowlist', () => {
  test('the response schema drops fields it does not declare', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: 'a' } });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json(), { message: 'Created', data: { name: 'a' } });
  });
});

describe('validation', () => {
  test('unknown fields are refused with 400, naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: 'a', nmae: 'typo' } });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'VALIDATION_FAILED');
    assert.deepEqual(body.errors, [{ field: 'nmae', message: 'is not an allowed field' }]);
  });

  test('missing and mistyped fields are listed', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { size: 'big' } });
    assert.equal(res.statusCode, 400);
    const fields = res.json().errors.map((e: any) => e.field).sort();
    assert.deepEqual(fields, ['name', 'size']);
  });

  test('JSON bodies are not coerced: a string for a number, a number for a string, a bare value for an array are 400', async () => {
    for (const payload of [
      { name: 'a', size: '3' },
      { name: 'a', size: true },
      { name: 'a', size: null },
      { name: 123 },
      { name: true },
      { name: ['a'] },
      { name: null },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/_test/items', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    assert.equal((await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: 'a', size: 3 } })).statusCode, 201);
    // query strings are text, so they are still coerced
    const page = await t.app.inject({ method: 'GET', url: '/_test/items?page=2&limit=10' });
    assert.deepEqual(page.json().meta, { page: 2, limit: 10, total: 25, total_pages: 3 });
  });

  test('NUL characters (which PostgreSQL text cannot hold) are 400 in bodies, keys and query strings', async () => {
    for (const payload of [{ name: 'a\u0000b' }, { name: 'a', 'si\u0000ze': 1 }]) {
      const res = await t.app.inject({ method: 'POST', url: '/_test/items', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().errors[0].message, 'must not contain NUL characters');
    }
    const q = await t.app.inject({ method: 'GET', url: '/api/lookup/province?country_id=%00' });
    assert.equal(q.statusCode, 400);
    const form = await t.app.inject({ method: 'POST', url: '/api/webhook/pgone/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'merchantOrderId=%00&amount=1' });
    assert.equal(form.statusCode, 400);
  });

  test('a JSON number JavaScript would round (more digits than a double keeps) is 400, not silently changed', async () => {
    for (const raw of ['{"name":"a","size":20000.000000000001}', '{"name":"a","size":12345678901234567890}', '{"name":"a","size":9007199254740993}']) {
      const res = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/json' }, payload: raw });
      assert.equal(res.statusCode, 400, raw);
      assert.match(res.json().errors[0].message, /more digits than can be kept exactly/);
    }
    // long digit runs inside strings, and exact long numbers, are fine
    for (const raw of ['{"name":"12345678901234567890.5","size":3}', '{"name":"a","size":1000000000000000}', '{"name":"0.1000000000000000000","size":1}']) {
      const res = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/json' }, payload: raw });
      assert.equal(res.statusCode, 201, raw);
    }
    const poisoned = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/json' }, payload: '{"name":"a","__proto__":{"x":1}}' });
    assert.equal(poisoned.statusCode, 400, 'prototype poisoning is still refused by the default parser');
  });

  test('objects and arrays wider than any request needs are refused before validation; at most 50 errors are listed', async () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, i]));
    let res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: 'a', ...wide } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().errors, [{ field: '(body)', message: 'has more than 1000 fields' }]);
    res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: Array.from({ length: 1001 }, () => 'x') } });
    assert.deepEqual(res.json().errors, [{ field: 'name', message: 'has more than 1000 items' }]);
    const typos = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`typo${i}`, i]));
    res = await t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: 'a', ...typos } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors.length, 50);
  });

  test('page beyond 1,000,000, however written, is 400, never a database overflow', async () => {
    for (const page of ['1000001', '1e300', '99999999999999999999', '1.5', '-1', '0']) {
      const res = await t.app.inject({ method: 'GET', url: `/_test/items?page=${page}` });
      assert.equal(res.statusCode, 400, page);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/_test/items?page=1000000' })).statusCode, 200);
  });

  test('malformed JSON, an empty body and a wrong content type are 4xx in the error shape', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'VALIDATION_FAILED');
    const empty = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(empty.statusCode, 400);
    const xml = await t.app.inject({ method: 'POST', url: '/_test/items', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    assert.equal(xml.statusCode, 415);
    assert.equal(xml.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.ok(xml.json().request_id);
  });

  test('a body over the limit is a 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/_test/items',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
  });
});

describe('pagination', () => {
  test('defaults to page 1, limit 10, with meta', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/_test/items' });
    assert.deepEqual(res.json().meta, { page: 1, limit: 10, total: 25, total_pages: 3 });
    assert.equal(res.json().data.length, 10);
    const last = (await t.app.inject({ method: 'GET', url: '/_test/items?page=3&limit=10' })).json();
    assert.deepEqual(last.data.map((d: any) => d.n), [21, 22, 23, 24, 25]);
  });

  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1', 'page=1.5']) {
    test(`${q} → 400`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/_test/items?${q}` });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    });
  }
});

describe('errors', () => {
  test('an AppError keeps its status and stable code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/_test/conflict' });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'message', 'request_id']);
    assert.equal(res.json().code, 'CONFLICT');
  });

  test('an unexpected failure is a 500 that leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/_test/crash' });
    assert.equal(res.statusCode, 500);
    const body = res.json();
    assert.equal(body.code, 'INTERNAL');
    assert.equal(body.message, 'Internal server error');
    assert.ok(!res.body.includes('secret_table'));
    assert.ok(!res.body.includes('at '));
  });

  test('unknown routes are 404 in the error shape, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/does-not-exist?x=1' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'NOT_FOUND');
      assert.ok(res.json().request_id);
    }
  });

  test('a sane X-Request-Id is kept, a hostile one replaced', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-12345678' } });
    assert.equal(kept.json().request_id, 'trace-12345678');
    assert.equal(kept.headers['x-request-id'], 'trace-12345678');
    const replaced = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'bad id\n<script>' } });
    assert.notEqual(replaced.json().request_id, 'bad id\n<script>');
  });
});

describe('operations endpoints', () => {
  test('healthz, readyz and metrics', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().database, t.container.database.kind);
    await t.app.inject({ method: 'GET', url: '/api/lookup/country' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.match(metrics.headers['content-type'] as string, /text\/plain/);
    assert.match(metrics.body, /http_requests_total\{method="GET",route="\/api\/lookup\/country",status="200"\} 1/);
    assert.match(metrics.body, /process_resident_memory_bytes/);
  });

  test('metrics: a bearer token when METRICS_TOKEN is set; not served in production without one', async () => {
    const token = 'metrics-token-0123456789abcdef0123';
    const guarded = await buildTestApp({ worker: false, env: { METRICS_TOKEN: token } });
    try {
      const none = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(none.statusCode, 401);
      assert.equal(none.json().code, 'UNAUTHENTICATED');
      assert.match(String(none.headers['www-authenticate']), /^Bearer/);
      assert.equal((await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}x` } })).statusCode, 401);
      const ok = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /process_resident_memory_bytes/);
    } finally {
      await guarded.close();
    }
    // with the console on, as `npm start` runs it: its catch-all page must not answer in place of /metrics
    const consoleDir = mkdtempSync(path.join(tmpdir(), 'console-'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    const production = await buildTestApp({
      worker: false,
      env: {
        CONSOLE: 'on',
        CONSOLE_DIR: consoleDir,
        NODE_ENV: 'production',
        PAYMENT_MODE: 'live',
        JWT_SECRET: 'j'.repeat(48),
        ENCRYPTION_KEY: 'ab'.repeat(32),
        PGONE_MERCHANT_CODE: 'M12345',
        PGONE_API_KEY: 'live-pgone-key-0123456789',
        PGTWO_CALLBACK_SECRET: 'live-pgtwo-callback-0123456789',
        PGTWO_API_KEY: 'live-pgtwo-api-0123456789',
      },
    });
    try {
      const metrics = await production.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(metrics.statusCode, 404, metrics.body);
      assert.equal(metrics.json().code, 'NOT_FOUND');
      assert.equal((await production.app.inject({ method: 'GET', url: '/vms' })).statusCode, 200, 'the console is on');
    } finally {
      await production.close();
    }
  });

  test('readyz answers 503 when the database is gone', async () => {
    const other = await buildTestApp({ worker: false });
    await other.container.queue.stop();
    await other.container.database.close();
    const res = await other.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503);
    await other.app.close();
    await other.database?.drop();
  });

  test('the OpenAPI document describes the routes from their schemas; /docs serves the UI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    const city = doc.paths['/api/lookup/city'].get;
    assert.deepEqual(city.parameters.map((p: any) => [p.name, p.in, p.required]), [['province_id', 'query', true]]);
    assert.ok(city.responses['200']);
    assert.ok(city.responses['400']);
    assert.ok(doc.components.schemas.ErrorBody);
    assert.deepEqual(city.security, []);
    assert.deepEqual(doc.paths['/api/inf'].get.security, [{ customerCookie: [] }, { apiToken: ['account:read'] }]);
    assert.deepEqual(doc.paths['/api/backoffice/setting'].get.security, [{ backofficeCookie: [] }]);
    assert.match(doc.paths['/api/backoffice/setting'].get.description, /Needs the `\w+` permission/);
    assert.deepEqual(doc.paths['/api/auth/login'].post.security, []);
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(ui.statusCode, 200);
    assert.match(ui.body, /swagger/i);
  });
});

describe('headers of every response', () => {
  test("helmet's security headers and the request id come with answers, errors and 404s alike", async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/_test/items' }),
      t.app.inject({ method: 'POST', url: '/_test/items', payload: { name: '' } }),
      t.app.inject({ method: 'GET', url: '/_test/crash' }),
      t.app.inject({ method: 'GET', url: '/_test/nowhere' }),
      t.app.inject({ method: 'GET', url: '/api/inf' }),
    ]);
    assert.deepEqual(answers.map((r) => r.statusCode), [200, 400, 500, 404, 401]);
    for (const res of answers) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
      assert.match(String(res.headers['strict-transport-security']), /^max-age=\d+; includeSubDomains$/);
      assert.equal(res.headers['cross-origin-opener-policy'], 'same-origin');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['content-security-policy'], undefined, 'the API sets no CSP of its own (HTML pages set theirs)');
      assert.match(String(res.headers['x-request-id']), /^[A-Za-z0-9._-]{8,64}$/);
    }
  });
});
