import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions, RouteOptions } from 'fastify';
import { parse as parseLossless } from 'lossless-json';
import { Decimal } from '../money.js';
import { ValidationError } from '../errors.js';
import { registerInstantFormat } from './instant.js';

type ValidatorFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
}
type Compile = (route: RouteSchema) => unknown;

/**
 * Every request validator: `format: 'date-time'` is the API's instant rule (instant.ts).
 * Query strings, path parameters and headers arrive as text, so their validators coerce
 * (`?page=2` → 2). JSON bodies are typed by the client: their validators coerce nothing, so
 * `"amount": "100"`, `"amount": true` or `"name": 123` are 400, not silently converted.
 */
export function strictBodyValidators(): ValidatorFactory {
  const pool = AjvCompiler();
  const factory = (externalSchemas: Parameters<ValidatorFactory>[0], given: Parameters<ValidatorFactory>[1]) => {
    // After ajv-formats: `date-time` is the API's one instant rule (platform/http/instant.ts).
    const options = { ...given, onCreate: registerInstantFormat } as typeof given;
    const coercing = pool(externalSchemas, options) as unknown as Compile;
    const custom = options && 'customOptions' in options ? options.customOptions : {};
    const strict = pool(externalSchemas, { ...options, customOptions: { ...custom, coerceTypes: false } } as typeof options) as unknown as Compile;
    return ((route: RouteSchema) => (route.httpPart === 'body' ? strict(route) : coercing(route))) as unknown as ReturnType<ValidatorFactory>;
  };
  return factory as ValidatorFactory;
}

/** No request needs more fields in one object, or items in one array; validating more is work for nothing. */
const MAX_WIDTH = 1000;

/** A UTF-16 surrogate without its pair (`"\ud800"` in JSON): no UTF-8 text, so no PostgreSQL text or jsonb, can hold it. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Why a string cannot be stored as text, if it cannot. */
function textProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'must be well-formed Unicode text (a lone surrogate such as \\ud800 is not)';
  return undefined;
}

/** The first thing in a request part that no schema should even look at: text PostgreSQL cannot hold, or an object or array too wide. */
function refusedInput(value: unknown, path: string, depth = 0): { field: string; message: string } | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: path || '(value)', message: problem } : undefined;
  }
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  const entries = Object.entries(value);
  if (entries.length > MAX_WIDTH) return { field: path || '(body)', message: `has more than ${MAX_WIDTH} ${Array.isArray(value) ? 'items' : 'fields'}` };
  for (const [key, inner] of entries) {
    const at = path ? `${path}.${key}` : key;
    const keyProblem = textProblem(key);
    if (keyProblem) return { field: at, message: keyProblem };
    const found = refusedInput(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

type RouteHook = (request: FastifyRequest) => Promise<void>;

/**
 * Adds a hook to the routes that need it, from an onRoute hook, after the route's own: a check that
 * has nothing to look at on a route (a GET without parameters or query schema) costs that route
 * nothing per request, where an application-wide hook would run on every request.
 */
function onRoutesThatNeed(app: FastifyInstance, stage: 'preValidation' | 'preHandler', hookFor: (route: RouteOptions) => RouteHook | undefined): void {
  app.addHook('onRoute', (route) => {
    const hook = hookFor(route);
    if (!hook) return;
    const own = route[stage];
    route[stage] = [...(own ? [own].flat() : []), hook] as RouteOptions['preHandler'];
  });
}

type RoutePart = 'params' | 'query' | 'body';
const BODYLESS = new Set(['GET', 'HEAD']);

/** The request parts a route reads: its path parameters, its query string when it has a schema, and a body unless GET/HEAD. */
function partsOf(route: RouteOptions): RoutePart[] {
  const parts: RoutePart[] = [];
  if (/[:*]/.test(route.url)) parts.push('params');
  if ((route.schema as { querystring?: unknown } | undefined)?.querystring) parts.push('query');
  if ([route.method].flat().some((m) => !BODYLESS.has(String(m)))) parts.push('body');
  return parts;
}

/**
 * Refused at the edge (400), before any schema or handler sees them: NUL characters and lone
 * UTF-16 surrogates, which PostgreSQL text cannot hold, in bodies, query strings and path
 * parameters (in values and in field names); and objects or
 * arrays wider than any request needs, which would make the validator list one error per entry.
 */
export function rejectUnreasonableInput(app: FastifyInstance): void {
  onRoutesThatNeed(app, 'preValidation', (route) => {
    const parts = partsOf(route);
    if (parts.length === 0) return undefined;
    return async (request) => {
      for (const part of parts) {
        const refused = refusedInput(request[part], '');
        if (refused) throw new ValidationError('Validation failed', [refused]);
      }
    };
  });
}

const CANONICAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;
const CANONICAL_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** The JSON types a schema admits (through anyOf/oneOf too). */
function typesOf(schema: any, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  for (const t of [schema.type].flat()) if (typeof t === 'string') out.add(t);
  for (const key of ['anyOf', 'oneOf']) for (const s of schema[key] ?? []) typesOf(s, out);
  return out;
}

/** The problem with one text value of a query or path parameter whose schema wants a number, if any. */
function numberProblem(schema: any, value: string): string | undefined {
  const types = typesOf(schema);
  if (types.has('string')) return undefined;
  if (types.has('integer') && !types.has('number') && !CANONICAL_INTEGER.test(value)) return 'must be a whole number written in decimal digits';
  if (types.has('number') && !CANONICAL_NUMBER.test(value)) return 'must be a number written in decimal digits';
  return undefined;
}

/** The first way a query string or path parameters differ from what the route's schema says. */
function strictTextProblem(schema: any, values: unknown, closed: boolean): { field: string; message: string } | undefined {
  if (!schema || typeof schema !== 'object' || values === null || typeof values !== 'object') return undefined;
  const properties: Record<string, any> = schema.properties ?? {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    const property = properties[key];
    if (!property) {
      if (closed && schema.additionalProperties !== true) return { field: key, message: 'is not a parameter of this route' };
      continue;
    }
    const isArray = typesOf(property).has('array');
    if (Array.isArray(value) && !isArray) return { field: key, message: 'must be given once' };
    for (const item of [value].flat()) {
      if (typeof item !== 'string') continue;
      const problem = numberProblem(isArray ? property.items : property, item);
      if (problem) return { field: key, message: problem };
    }
  }
  return undefined;
}

/**
 * A query string is exactly what the route's schema says, or a 400 (before Ajv coerces it):
 * a parameter the schema does not name (`?page[]=1`, `?page[a]=1`, `?search[]=a`, a typo) is
 * refused unless the schema sets `additionalProperties: true`; a parameter given twice that is
 * not an array is refused; numbers are plain decimal (`?limit=0x10`, `1e1`, ` 16`, `+16`, `016`
 * are refused, where Ajv would read them as 16, 10, 16, 16, 16). Path parameters get the same
 * number rule. A route without a querystring schema ignores its query string.
 */
export function strictQueryStrings(app: FastifyInstance): void {
  onRoutesThatNeed(app, 'preValidation', (route) => {
    const schema = route.schema as { querystring?: unknown; params?: unknown } | undefined;
    if (!schema?.querystring && !schema?.params) return undefined;
    return async (request) => {
      const refused = strictTextProblem(schema.querystring, request.query, true) ?? strictTextProblem(schema.params, request.params, false);
      if (refused) throw new ValidationError('Validation failed', [refused]);
    };
  });
}

/**
 * Ajv coerces `?limit=1e999` or `?page=Infinity` to Infinity and then lets it through `integer`,
 * `minimum` and `maximum`: refuse any non-finite number the coercion produced in a query string,
 * path parameter or header (400) before a handler can send it to the database. Only routes with a
 * schema for one of them coerce anything.
 */
export function rejectNonFiniteNumbers(app: FastifyInstance): void {
  onRoutesThatNeed(app, 'preHandler', (route) => {
    const schema = route.schema as { querystring?: unknown; params?: unknown; headers?: unknown } | undefined;
    if (!schema?.querystring && !schema?.params && !schema?.headers) return undefined;
    return async (request) => {
      for (const part of [request.params, request.query, request.headers]) {
        if (part === null || typeof part !== 'object') continue;
        for (const [key, value] of Object.entries(part)) {
          const values = Array.isArray(value) ? value : [value];
          if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
            throw new ValidationError('Validation failed', [{ field: key, message: 'must be a finite number' }]);
          }
        }
      }
    };
  });
}

/** 16 or more digits in a row (dots allowed): the only JSON texts that may hold an inexact number. */
const LONG_NUMBER = /[0-9][0-9.]{15,}/;

/** The first number in a JSON text that a double cannot hold exactly (e.g. 20000.000000000001). */
function inexactNumber(text: string): string | undefined {
  let found: string | undefined;
  parseLossless(text, null, (raw: string) => {
    if (found === undefined && !new Decimal(raw).eq(new Decimal(Number(raw)))) found = raw;
    return 0;
  });
  return found;
}

/**
 * JSON bodies through Fastify's own parser (prototype-poisoning checks included), then refused
 * when a number would be silently rounded by JavaScript: `"amount": 20000.000000000001` is a
 * 400, not a deposit of 20000.
 */
export function exactJsonNumbers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    parseJson(request, text, (err, value) => {
      if (err) return done(err, undefined);
      const inexact = LONG_NUMBER.test(text) ? inexactNumber(text) : undefined;
      if (inexact !== undefined) {
        return done(new ValidationError('Validation failed', [{ field: '(body)', message: `the number ${inexact.slice(0, 40)} has more digits than can be kept exactly` }]), undefined);
      }
      done(null, value);
    });
  });
}
