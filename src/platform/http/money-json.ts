import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { Decimal } from 'decimal.js';
import { plainMoneyText } from '../money.js';

/**
 * Money leaves the server as a JSON number written from its decimal value, never through a JS
 * float: 1000999999999999.99 stays 1000999999999999.99 (a double would print 1001000000000000).
 *
 * A response schema marks money with `x-money: true` on a `type: number` schema (`Money` in
 * schemas.ts), so the OpenAPI document says "number". The serializer compiler below compiles
 * such a schema with those places turned into strings, writes each money value there as a
 * marked decimal text (from a decimal string, a Decimal or a number), and unquotes the marked
 * texts in the JSON it produced. The marker starts with a NUL character, which no other string
 * in a response can hold (PostgreSQL text refuses it, and so do the request validators).
 */
export const MONEY_KEYWORD = 'x-money';

const MARK = '\u0000';
const MARKED_IN_JSON = /"\\u0000(-?\d+(?:\.\d+)?)"/g;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

type Schema = Record<string, unknown>;
type Marker = (value: unknown) => unknown;

/** The decimal text of a money value, rounded to 2 decimals (half up), without exponent or trailing zeros. */
export function moneyText(value: unknown): string {
  let d: Decimal;
  if (value instanceof Decimal) d = value;
  else if (typeof value === 'number' && Number.isFinite(value)) d = new Decimal(value);
  else if (typeof value === 'string' && DECIMAL_TEXT.test(value)) {
    const plain = plainMoneyText(value);
    if (plain !== undefined) return plain;
    d = new Decimal(value);
  }
  else if (typeof value === 'bigint') d = new Decimal(value.toString());
  else throw new Error(`not a money value: ${typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value}`);
  return d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

const isMoneyLike = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || v instanceof Decimal;

function markMoney(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string' && value.startsWith(MARK)) return value;
  return MARK + moneyText(value);
}

/** A function that marks the money inside a value shaped by `schema`, or undefined when it has none. */
function markerOf(schema: unknown): Marker | undefined {
  if (!isObject(schema)) return undefined;
  if (schema[MONEY_KEYWORD] === true) return markMoney;
  const parts: Marker[] = [];
  const props = isObject(schema.properties) ? schema.properties : undefined;
  if (props) {
    const byKey = Object.entries(props)
      .map(([k, s]) => [k, markerOf(s)] as const)
      .filter((e): e is readonly [string, Marker] => e[1] !== undefined);
    if (byKey.length > 0) {
      parts.push((v) => {
        if (!isObject(v)) return v;
        const copy: Schema = { ...v };
        for (const [k, m] of byKey) if (k in copy) copy[k] = m(copy[k]);
        return copy;
      });
    }
  }
  const extra = markerOf(schema.additionalProperties);
  if (extra) {
    parts.push((v) => {
      if (!isObject(v)) return v;
      const copy: Schema = { ...v };
      for (const k of Object.keys(copy)) if (!props || !(k in props)) copy[k] = extra(copy[k]);
      return copy;
    });
  }
  const patterns = isObject(schema.patternProperties)
    ? Object.entries(schema.patternProperties)
        .map(([re, sub]) => [new RegExp(re, 'u'), markerOf(sub)] as const)
        .filter((e): e is readonly [RegExp, Marker] => e[1] !== undefined)
    : [];
  if (patterns.length > 0) {
    parts.push((v) => {
      if (!isObject(v)) return v;
      const copy: Schema = { ...v };
      for (const k of Object.keys(copy)) for (const [re, m] of patterns) if (re.test(k)) copy[k] = m(copy[k]);
      return copy;
    });
  }
  const items = markerOf(schema.items);
  if (items) parts.push((v) => (Array.isArray(v) ? v.map(items) : v));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = Array.isArray(schema[key]) ? (schema[key] as unknown[]).map(markerOf).filter((m): m is Marker => m !== undefined) : [];
    // a value fits one branch; the others leave what they do not recognise alone (a marked text stays marked)
    for (const m of branches) parts.push(m === markMoney ? (v) => (isMoneyLike(v) ? markMoney(v) : v) : m);
  }
  if (parts.length === 0) return undefined;
  return (v) => parts.reduce((acc, m) => m(acc), v);
}

/** The schema fast-json-stringify compiles: money places become strings (they carry the marked text). */
function withMoneyAsText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withMoneyAsText);
  if (!isObject(schema)) return schema;
  if (schema[MONEY_KEYWORD] === true) {
    const { description } = schema;
    return { type: 'string', ...(description !== undefined ? { description } : {}) };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'const' || k === 'enum' || k === 'default' ? v : withMoneyAsText(v)]));
}

/**
 * Fastify's default serializer compiler (fast-json-stringify), made exact for money: pass as
 * `schemaController.compilersFactory.buildSerializer`. Schemas without money compile as before.
 */
export function exactMoneySerializers(): SerializerFactory {
  const defaults = SerializerSelector();
  return (externalSchemas, serializerOpts) => {
    const compile = defaults(externalSchemas, serializerOpts);
    return (route) => {
      const mark = markerOf(route.schema);
      if (!mark) return compile(route);
      const serialize = compile({ ...route, schema: withMoneyAsText(route.schema) });
      return (data) => serialize(mark(data)).replace(MARKED_IN_JSON, '$1');
    };
  };
}
