import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { INSTANT_PATTERN, MONTH_PATTERN } from '../../src/platform/http/instant.js';
import { MONEY_INPUT_MAX } from '../../src/platform/money.js';

/*
 * "No 5xx for anything a client can send", for the whole API: every operation of the generated
 * OpenAPI document gets random path parameters, query strings, headers and bodies (random JSON,
 * objects of the schema's own property names with wrong-typed or extreme values, raw non-JSON text
 * labelled application/json, form-encoded bodies), with the cookie the route needs or none.
 * Every answer must be < 500, and every 4xx must carry the error body { message, code, request_id }.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** Operations that would end the sessions this test works with. */
const SKIPPED = new Set([
  'POST /api/backoffice/auth/logout',
  'POST /api/backoffice/auth/change-password',
  'POST /api/auth/logout',
  'POST /api/auth/password/change',
]);

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: any;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  bodyProperties: string[] | undefined;
  bodySchema: any;
  auth: 'admin' | 'customer' | 'none';
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

let t: TestApp;
let adminCookie: string;
let customerCookie: string;
let operations: Operation[];

before(async () => {
  t = await buildTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MIN: '1000000' } });
  adminCookie = (await adminSession(t)).cookie;
  customerCookie = (await customerSession(t)).cookie;
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  operations = operationsOf(res.json());
});
after(() => t.close());

function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const m = method.toUpperCase();
      if (SKIPPED.has(`${m} ${path}`) || path.startsWith('/docs')) continue;
      const security = JSON.stringify(op.security ?? []);
      const schema = op.requestBody?.content?.['application/json']?.schema;
      out.push({
        method: m,
        path,
        parameters: (op.parameters ?? []) as Parameter[],
        bodyProperties: schema ? propertyNames(schema) : undefined,
        bodySchema: schema,
        auth: security.includes('backoffice') ? 'admin' : security.includes('customer') ? 'customer' : 'none',
      });
    }
  }
  return out;
}

/** Property names of a body schema, nested ones included (for anyOf/oneOf too). */
function propertyNames(schema: any, out = new Set<string>()): string[] {
  if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries<any>(schema.properties ?? {})) {
      out.add(k);
      propertyNames(v, out);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const s of schema[key] ?? []) propertyNames(s, out);
    if (schema.items) propertyNames(schema.items, out);
  }
  return [...out];
}

// --- arbitraries ----------------------------------------------------------------------------------

const junkText = fc.constantFrom(
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%00',
  '%ZZ',
  '%',
  '%C0%AE',
  '%FF%FE',
  '%E2%82',
  '%u0000',
  '0',
  '-0',
  '-1',
  '01',
  '1.5',
  '1e308',
  '1e999',
  'NaN',
  'Infinity',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999999999999',
  '-99999999999999999999999999999999',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  "'; drop table customers; --",
  'Admin',
  'Super Admin',
  'mail.deliver',
  'pgone',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(300),
);

/**
 * Dates, months and periods out of the API's range (years 0000–1969, 10000), and impossible ones:
 * a query string must refuse them with a 400 like a body does (`?period=0000-01` reached
 * PostgreSQL and failed there).
 */
const outOfRangeDates = [
  '0000-01',
  '0000-12',
  '1969-12',
  '10000-01',
  '9999-13',
  '2024-00',
  '0000-01-01',
  '0001-01-01',
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-02-29T24:00:00Z',
];
const dateText = fc.constantFrom(...outOfRangeDates);

/** Money amounts no column can hold with their derived figures (a price of 7.3e14 per month overflowed its hourly price). */
const hugeMoney = fc.constantFrom(700000000000000, 730000000000000, 1e15, 1e16, 99999999999999.98, 1000000000.01);

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the three bytes
 * a UTF-8 encoder that ignores the rule would write (ED A0 80 for \ud800): invalid UTF-8 in a URL.
 */
function urlEncode(text: string): string {
  return text
    .split(/([\ud800-\udfff])/u)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');
}

/** A path or query value as it appears in the URL (already encoded, or deliberately broken). */
const urlValue: fc.Arbitrary<string> = fc.oneof(
  dateText.map(encodeURIComponent),
  hugeMoney.map(String),
  fc.integer({ min: 1, max: 5 }).map(String),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  junkText,
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map(encodeURIComponent),
  fc.string({ minLength: 100, maxLength: 3000 }).map(encodeURIComponent),
  fc.constant(''),
);

function queryArb(op: Operation): fc.Arbitrary<string> {
  const known = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const name = known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, fc.string({ maxLength: 10 }).map(encodeURIComponent)) : fc.string({ maxLength: 10 }).map(encodeURIComponent);
  const typed = op.parameters
    .filter((p) => p.in === 'query')
    .flatMap((p) => [
      schemaValue(p.schema).map((v) => `${p.name}=${urlEncode(String(v))}`),
      // every query parameter also gets the out-of-range dates and the huge amounts
      fc.oneof(dateText, hugeMoney.map(String)).map((v) => `${p.name}=${encodeURIComponent(v)}`),
    ]);
  const pair = fc.oneof(fc.tuple(name, urlValue).map(([k, v]) => `${k}=${v}`), ...typed);
  const bare = name;
  return fc.array(fc.oneof({ weight: 4, arbitrary: pair }, bare), { maxLength: 6 }).map((pairs) => (pairs.length > 0 ? `?${pairs.join('&')}` : ''));
}

function pathArb(op: Operation): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant(op.path);
  const schemaOf = (n: string) => op.parameters.find((p) => p.in === 'path' && p.name === n)?.schema;
  return fc.tuple(...names.map((n) => fc.oneof(urlValue, schemaValue(schemaOf(n)).map((v) => urlEncode(String(v)))))).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++] || 'x');
  });
}

/** Header values must be latin-1 printable for the HTTP layer, so keep to that. */
const headerValue = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')), junkText);

function headersArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  const names = op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
  return fc.tuple(...names.map(() => fc.option(headerValue, { nil: undefined }))).map((values) => {
    const out: Record<string, string> = {};
    names.forEach((n, i) => {
      if (values[i] !== undefined) out[n] = values[i]!;
    });
    return out;
  });
}

/**
 * Text that is not well-formed UTF-16: a lone surrogate, alone or inside other text (JSON carries it
 * as "\ud800"; no UTF-8 text, so no PostgreSQL text or jsonb column, can hold it).
 */
const loneSurrogateText = fc.constantFrom('\ud800', '\udfff', 'name\ud800', '\udc00tail', 'a\ud83d', '😀\ud83d');

/** Wrong-typed or extreme values for one field. */
const extremeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(1e308, -1e308, -0, 0, 1, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 0.1 + 0.2, 5e-324, true, false, null, '', ' ', '\u0000', 'null', '1e308', '-1', '💸🔥', 'é'.normalize('NFD'), []),
  loneSurrogateText,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ minLength: 1000, maxLength: 5000 }),
  fc.emailAddress(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
);

/**
 * A value the schema accepts, or nearly: boundary lengths and numbers, extreme dates, every enum
 * member. These get past validation, into handlers and the database, where the 5xx hide.
 */
function schemaValue(schema: any, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  const alternatives = schema.anyOf ?? schema.oneOf;
  let arb: fc.Arbitrary<unknown>;
  if (alternatives) arb = fc.oneof(...alternatives.map((s: any) => schemaValue(s, depth + 1)));
  else if (schema.enum) arb = fc.constantFrom(...schema.enum);
  else if (schema.type === 'string') arb = stringFor(schema);
  else if (schema.type === 'integer' || schema.type === 'number') arb = numberFor(schema);
  else if (schema.type === 'boolean') arb = fc.boolean();
  else if (schema.type === 'null') arb = fc.constant(null);
  else if (schema.type === 'array') {
    const max = Math.min(schema.maxItems ?? 4, 6);
    arb = fc.array(schemaValue(schema.items, depth + 1), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
  } else if (schema.type === 'object' || schema.properties) {
    const props = Object.fromEntries(Object.entries<any>(schema.properties ?? {}).map(([k, v]) => [k, schemaValue(v, depth + 1)]));
    arb = fc.record(props, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) });
  } else arb = fc.jsonValue({ maxDepth: 2 });
  return schema.nullable ? fc.oneof(fc.constant(null), arb) : arb;
}

function stringFor(schema: any): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 5000, 5000);
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.constant(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.test`));
  if (schema.format === 'date-time') {
    return fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00+14:00', '2024-02-29T24:00:00Z', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z'),
    );
  }
  if (schema.pattern) return fc.oneof(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max), dateText);
  const exact = (c: string) => fc.constant(c.repeat(Math.max(min, 1)).slice(0, max) + c.repeat(Math.max(0, max - Math.max(min, 1))));
  return fc.oneof(
    fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }),
    fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 40) }),
    exact('x'),
    exact('é'),
    fc.constantFrom(' '.repeat(Math.max(min, 1)), "O'Brien; drop table x --", '%s%n', '\\', '😀'.repeat(Math.max(min, 1))),
    // within the schema's length, so it gets past validation to the handler and the database
    loneSurrogateText.map((x) => (x + 'x'.repeat(min)).slice(0, Math.max(min, x.length))).filter((x) => x.length <= max),
  );
}

function numberFor(schema: any): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  const lo = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : (schema.minimum ?? -Number.MAX_SAFE_INTEGER);
  const hi = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : (schema.maximum ?? Number.MAX_SAFE_INTEGER);
  const bounds = fc.constantFrom(lo, hi, Math.max(lo, Math.min(hi, 0)), Math.max(lo, Math.min(hi, 1)), Math.max(lo, Math.min(hi, 2 ** 31)), Math.min(hi, Math.max(lo, 99999999999.99)));
  const inRange = integer ? fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31) }) : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  // and beyond the schema's own bounds: the huge amounts a column cannot hold
  return fc.oneof({ weight: 3, arbitrary: bounds }, { weight: 3, arbitrary: inRange }, hugeMoney).filter((n) => !integer || Number.isInteger(n));
}

/** Raw JSON number tokens JSON.stringify cannot write. */
const rawNumber = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '20000.000000000001', '0.0000000000000000000000001', '-0.0', '1E5', '00012');

interface Body {
  contentType?: string;
  payload: string;
}

function bodyArb(op: Operation): fc.Arbitrary<Body | undefined> {
  const names = op.bodyProperties && op.bodyProperties.length > 0 ? op.bodyProperties : ['amount', 'email', 'name'];
  const json = (payload: string): Body => ({ contentType: 'application/json', payload });
  const schemaObject = fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, fc.string({ maxLength: 8 })), extremeValue, { maxKeys: names.length + 1 });
  const rawNumbers = fc.tuple(fc.subarray(names, { minLength: 1 }), rawNumber).map(([keys, n]) => `{${keys.map((k) => `"${k}":${n}`).join(',')}}`);
  const rawText = fc.oneof(
    fc.constantFrom('', '{', '{"a":', '[', 'null', '[]', '"text"', '1e999', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"a":1,"a":2}', '\uFEFF{}', '{"a":"\\ud800"}'),
    fc.string({ maxLength: 200 }),
  );
  const form = fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.string({ maxLength: 50 }), junkText), { maxKeys: names.length }).map((o) => new URLSearchParams(o).toString());
  const nearlyValid = op.bodySchema
    ? fc.tuple(schemaValue(op.bodySchema), fc.option(fc.tuple(fc.constantFrom(...names), extremeValue), { nil: undefined })).map(([value, swap]) =>
        swap && value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [swap[0]]: swap[1] } : value,
      )
    : fc.jsonValue();
  return fc.oneof(
    fc.constant(undefined),
    { weight: 6, arbitrary: nearlyValid.map((v) => json(JSON.stringify(v) ?? 'null')) },
    fc.jsonValue({ maxDepth: 4 }).map((v) => json(JSON.stringify(v) ?? 'null')),
    { weight: 4, arbitrary: schemaObject.map((o) => json(JSON.stringify(o))) },
    rawNumbers.map(json),
    rawText.map(json),
    form.map((payload) => ({ contentType: 'application/x-www-form-urlencoded', payload })),
    fc.string({ maxLength: 100 }).map((payload) => ({ contentType: 'text/plain', payload })),
  );
}

function cookieArb(op: Operation): fc.Arbitrary<string | undefined> {
  const own = op.auth === 'admin' ? adminCookie : op.auth === 'customer' ? customerCookie : undefined;
  const other = op.auth === 'admin' ? customerCookie : adminCookie;
  return fc.oneof({ weight: 6, arbitrary: fc.constant(own) }, fc.constant(undefined), fc.constant(other), fc.constant('access_token=garbage; refresh_token=%ZZ'));
}

function requestArb(op: Operation): fc.Arbitrary<Sent> {
  const withBody = op.method !== 'GET';
  return fc
    .record({
      path: pathArb(op),
      query: queryArb(op),
      headers: headersArb(op),
      cookie: cookieArb(op),
      body: withBody ? bodyArb(op) : fc.constant(undefined),
    })
    .map(({ path, query, headers, cookie, body }) => ({
      method: op.method,
      url: path + query,
      headers: {
        ...headers,
        ...(cookie ? { cookie } : {}),
        ...(body?.contentType ? { 'content-type': body.contentType } : {}),
      },
      ...(body ? { payload: body.payload } : {}),
    }));
}

// --- the property ---------------------------------------------------------------------------------

function describeExchange(req: Sent, status: number, body: string): string {
  const payload = req.payload === undefined ? '(none)' : req.payload.length > 600 ? `${req.payload.slice(0, 600)}… (${req.payload.length} chars)` : req.payload;
  const headers = { ...req.headers };
  if (headers.cookie) headers.cookie = headers.cookie === adminCookie ? '<admin session>' : headers.cookie === customerCookie ? '<customer session>' : headers.cookie;
  return `${req.method} ${req.url}\n  headers: ${JSON.stringify(headers)}\n  body: ${payload}\n  → ${status} ${body.slice(0, 800)}`;
}

/** Answers by status class, logged at the end to show how deep the requests got. */
const statusCounts: Record<string, number> = {};

async function check(req: Sent): Promise<string | undefined> {
  const res = await t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
  const bucket = res.statusCode < 400 ? `${String(res.statusCode)[0]}xx` : String(res.statusCode);
  statusCounts[bucket] = (statusCounts[bucket] ?? 0) + 1;
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${describeExchange(req, res.statusCode, res.body)}`;
  if (res.statusCode >= 400) {
    let body: any;
    try {
      body = res.json();
    } catch {
      return `4xx is not JSON: ${describeExchange(req, res.statusCode, res.body)}`;
    }
    const shaped = body && typeof body.message === 'string' && typeof body.code === 'string' && typeof body.request_id === 'string';
    if (!shaped) return `4xx without { message, code, request_id }: ${describeExchange(req, res.statusCode, res.body)}`;
  }
  return undefined;
}

/** Puts the fixture back when an operation ended a session or disabled an account, so later operations still run signed in. */
async function restoreFixture() {
  const admin = await t.app.inject({ method: 'GET', url: '/api/backoffice/admin/inf', headers: { cookie: adminCookie } });
  if (admin.statusCode !== 200) adminCookie = (await adminSession(t)).cookie;
  const settings = await t.app.inject({ method: 'GET', url: '/api/backoffice/setting', headers: { cookie: adminCookie } });
  const current = settings.json().data;
  if (current?.maintenance_mode) {
    const { updated_at: _updated, ...rest } = current;
    await t.app.inject({ method: 'PUT', url: '/api/backoffice/setting/update', headers: { cookie: adminCookie }, payload: { ...rest, maintenance_mode: false } });
  }
  const customer = await t.app.inject({ method: 'GET', url: '/api/inf', headers: { cookie: customerCookie } });
  if (customer.statusCode !== 200) customerCookie = (await customerSession(t)).cookie;
}

describe('no 5xx for anything a client can send', () => {
  test('every operation of the OpenAPI document, with random paths, queries, headers and bodies', async () => {
    assert.ok(operations.length >= 80, `only ${operations.length} operations in /openapi.json`);
    console.log(`# no-5xx fuzz: ${operations.length} operations × ${RUNS} runs, seed ${SEED} (FUZZ_SEED/FUZZ_RUNS to change)`);
    const failures: string[] = [];
    for (const [i, op] of operations.entries()) {
      let problem: string | undefined;
      const details = await fc.check(
        fc.asyncProperty(requestArb(op), async (req) => {
          problem = await check(req);
          return problem === undefined;
        }),
        { seed: SEED + i, numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) failures.push(`${op.method} ${op.path} (seed ${SEED + i}): ${problem ?? String(details.errorInstance)}`);
      await restoreFixture();
    }
    console.log(`# answers: ${JSON.stringify(statusCounts)}`);
    if (failures.length > 0) console.log(`# ${failures.length} operations failed (seed ${SEED}):\n\n${failures.join('\n\n')}`);
    assert.equal(failures.length, 0, `${failures.length} operations answered 5xx or a malformed error (seed ${SEED}); see the log above`);
  });
});

/** Every schema node under `schema` with the path that leads to it. */
function* schemaNodes(schema: any, path: string): Generator<[string, any]> {
  if (!schema || typeof schema !== 'object') return;
  yield [path, schema];
  for (const [k, v] of Object.entries<any>(schema.properties ?? {})) yield* schemaNodes(v, `${path}.${k}`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const s of schema[key] ?? []) yield* schemaNodes(s, path);
  if (schema.items) yield* schemaNodes(schema.items, `${path}[]`);
}

/** What every request schema of every route must say, so the next route cannot reopen these holes. */
describe('the input rules every route follows (checked on the OpenAPI document)', () => {
  const inputsOf = (op: Operation): [string, any][] => [
    ...op.parameters.filter((p) => p.in !== 'header').flatMap((p) => [...schemaNodes(p.schema, `${op.method} ${op.path} ${p.in} ${p.name}`)]),
    ...(op.bodySchema ? [...schemaNodes(op.bodySchema, `${op.method} ${op.path} body`)] : []),
  ];

  test('every number a request carries has a maximum, and no amount exceeds the bound of every money input', () => {
    const unbounded: string[] = [];
    for (const op of operations) {
      for (const [where, node] of inputsOf(op)) {
        if (node.type !== 'number' && node.type !== 'integer') continue;
        const max = node.maximum ?? node.exclusiveMaximum;
        if (typeof max !== 'number') unbounded.push(`${where}: no maximum`);
        else if (node.type === 'number' && max > Number(MONEY_INPUT_MAX)) unbounded.push(`${where}: maximum ${max} > ${MONEY_INPUT_MAX}`);
      }
    }
    assert.deepEqual(unbounded, []);
  });

  test('every query parameter of every route, alone, with each out-of-range date and each huge amount: never a 5xx', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const own = op.auth === 'admin' ? adminCookie : op.auth === 'customer' ? customerCookie : undefined;
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      for (const p of op.parameters.filter((x) => x.in === 'query')) {
        // one value of each class (the random runs above draw from all of them)
        for (const value of ['0000-01', '10000-01', '0000-01-01', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '2023-02-29T00:00:00Z', '730000000000000', '1e16']) {
          const req: Sent = { method: op.method, url: `${path}?${p.name}=${encodeURIComponent(value)}`, headers: own ? { cookie: own } : {} };
          const problem = await check(req);
          if (problem) failures.push(problem);
        }
      }
      if (op.method !== 'GET') await restoreFixture();
    }
    assert.deepEqual(failures, []);
  });

  test('every date, month or period a request names uses the shared Instant or Month rule (years 1970 to 9999)', () => {
    const loose: string[] = [];
    const dateLike = /(^|[._ ])(date|period|month|day|from|until|since|before|after)$|_at$|_date$|_from$|_until$/;
    for (const op of operations) {
      for (const [where, node] of inputsOf(op)) {
        if (node.type !== 'string') continue;
        const name = where.split(/[ .]/).at(-1) ?? '';
        const looksLikeDate = node.format === 'date-time' || node.format === 'date' || dateLike.test(name) || /\\d\{4\}|\[0-9\]\{4\}/.test(String(node.pattern ?? ''));
        if (looksLikeDate && node.pattern !== INSTANT_PATTERN && node.pattern !== MONTH_PATTERN) loose.push(`${where}: ${JSON.stringify(node)}`);
      }
    }
    assert.deepEqual(loose, []);
  });
});

describe('5xx the fuzz found, as fixed examples', () => {
  const errorShaped = (res: { statusCode: number; json(): any; headers: Record<string, unknown> }, status: number, code: string) => {
    assert.equal(res.statusCode, status);
    const body = res.json();
    assert.equal(body.code, code);
    assert.equal(typeof body.message, 'string');
    assert.equal(body.request_id, res.headers['x-request-id']);
  };

  test('a query number the coercion turns into Infinity is 400, not a database error (page/limit=1e999, Infinity)', async () => {
    for (const url of ['/api/backoffice/admin?limit=1e999', '/api/backoffice/admin?page=Infinity', '/api/backoffice/coupons?page=-1e999', '/api/backoffice/audit-logs?limit=Infinity']) {
      errorShaped(await t.app.inject({ method: 'GET', url, headers: { cookie: adminCookie } }), 400, 'VALIDATION_FAILED');
    }
    errorShaped(await t.app.inject({ method: 'GET', url: '/api/billing/deposit?limit=1e999', headers: { cookie: customerCookie } }), 400, 'VALIDATION_FAILED');
  });

  test('a month in a query string follows the date rule of bodies: ?period=0000-01 is 400 (it was "date/time field value out of range")', async () => {
    for (const period of ['0000-01', '0099-12', '1969-12', '10000-01']) {
      errorShaped(await t.app.inject({ method: 'GET', url: `/api/backoffice/billing/postpaid/invoices?period=${period}`, headers: { cookie: adminCookie } }), 400, 'VALIDATION_FAILED');
    }
    const ok = await t.app.inject({ method: 'GET', url: '/api/backoffice/billing/postpaid/invoices?period=1970-01', headers: { cookie: adminCookie } });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('the backoffice customer list caps page like every other list (page=5.7e39 was a database error)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/customer?page=5730448625656367422336574205637294758292', headers: { cookie: adminCookie } });
    errorShaped(res, 400, 'VALIDATION_FAILED');
  });

  test('a lone UTF-16 surrogate in a string is 400 naming the field, on every route that stores text (it was a 500 from the audit jsonb)', async () => {
    const c = await customerSession(t);
    const sudo = (await t.app.inject({ method: 'POST', url: '/api/auth/profile/sudo', headers: { cookie: c.cookie }, payload: { password: c.password } })).json().data.token;
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDL+pMvhw0Y8sCgeO2i1Fz2+cQdNV4Kp8TvR3MIVY0xE';
    const cases: [string, string, Record<string, string>, string, string][] = [
      ['POST', '/api/auth/login', {}, JSON.stringify({ email: 'x\ud800@example.test', password: 'whatever' }), 'email'],
      ['POST', '/api/auth/login', {}, JSON.stringify({ email: 'x@example.test', password: '\udfff' }), 'password'],
      ['POST', '/api/tokens', { cookie: c.cookie, 'x-access-token': sudo }, JSON.stringify({ name: 'ci\ud800', scopes: ['compute:read'] }), 'name'],
      ['POST', '/api/webhooks/endpoints', { cookie: c.cookie }, JSON.stringify({ url: 'https://hooks.example.test/x', event_types: ['*'], description: 'billing \ud800' }), 'description'],
      ['POST', '/api/ssh-keys', { cookie: c.cookie }, JSON.stringify({ name: 'laptop\ud800', public_key: key }), 'name'],
      ['POST', '/api/ssh-keys', { cookie: c.cookie }, JSON.stringify({ name: 'laptop', public_key: `${key} me\ud800@laptop` }), 'public_key'],
      ['POST', '/api/ticket', { cookie: c.cookie }, JSON.stringify({ title: 'help \ud800', message: 'please' }), 'title'],
      ['PATCH', '/api/customer/profile', { cookie: c.cookie }, JSON.stringify({ first_name: '\ud800' }), 'first_name'],
      ['POST', '/api/ticket', { cookie: c.cookie }, JSON.stringify({ title: 'help', message: 'please', '\ud800': 1 }), '\ud800'],
    ];
    for (const [method, url, headers, payload, field] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload });
      assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body}`);
      errorShaped(res, 400, 'VALIDATION_FAILED');
      assert.equal(res.json().errors[0].field, field, `${method} ${url}: ${res.body}`);
    }
    // a well-formed surrogate pair (an emoji) stays fine
    const emoji = await t.app.inject({ method: 'POST', url: '/api/ticket', headers: { cookie: c.cookie }, payload: { title: 'help 😀', message: 'please' } });
    assert.equal(emoji.statusCode, 201, emoji.body);
  });

  test('router errors use the error body: a path parameter over the length limit (414) and bad percent-encoding (400)', async () => {
    errorShaped(await t.app.inject({ method: 'POST', url: `/api/backoffice/admin/${'x'.repeat(300)}/restore`, headers: { cookie: adminCookie } }), 414, 'URI_TOO_LONG');
    errorShaped(await t.app.inject({ method: 'GET', url: '/api/billing/deposit/%ZZ', headers: { cookie: customerCookie } }), 400, 'BAD_REQUEST');
  });
});
