import { Type, type TSchema, type TProperties } from 'typebox';
import { INSTANT_MAX, INSTANT_MIN, INSTANT_PATTERN, MONTH_PATTERN } from './instant.js';
import { MONEY_INPUT_MAX } from '../money.js';
import { MONEY_KEYWORD } from './money-json.js';

/** A request body object: unknown fields are refused (docs/decisions.md §1). */
export function StrictObject<T extends TProperties>(properties: T, options: Record<string, unknown> = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code, e.g. VALIDATION_FAILED' }),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    request_id: Type.String(),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

export const PageMeta = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

/** `{ message, data }` */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ message: Type.String(), data });
}

/** `{ message, data: [...], meta }` */
export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({ message: Type.String(), data: Type.Array(item), meta: PageMeta });
}

export const MessageOnly = Type.Object({ message: Type.String(), data: Type.Null() });

/** page defaults to 1 (max 1,000,000), limit to 10 (max 100); anything else is a 400. */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});

/** Integer id in a path or query parameter. */
export const IntId = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** Error responses every route may give, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorBody')]));
}

/**
 * What a service hands a money field: the exact decimal as text (`moneyJson` of platform/money.ts),
 * e.g. "1000999999999999.99". The response carries it as a JSON number written from that text
 * (platform/http/money-json.ts), never through a JS float.
 */
export type MoneyText = string;

/** A money amount in a response: a JSON number with at most 2 decimals, written exactly. */
export function MoneyAmount(options: { description?: string } = {}) {
  return Type.Unsafe<MoneyText>({
    type: 'number',
    [MONEY_KEYWORD]: true,
    description: options.description ?? 'Amount in the platform currency: at most 2 decimals, written exactly (not through a binary float)',
  });
}

export const Money = MoneyAmount();

/**
 * A money amount a request carries: every one uses this schema (platform/money.ts, MONEY_INPUT_MAX),
 * so no route has a bound of its own. `positive`: above zero (default), else zero or more. Services
 * check the 2 decimals with isMoneyInput, which applies the same bound.
 */
export function MoneyInput(options: { positive?: boolean; description?: string } = {}) {
  const positive = options.positive ?? true;
  return Type.Number({
    ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }),
    maximum: Number(MONEY_INPUT_MAX),
    description: `${options.description ? `${options.description}; ` : ''}at most 2 decimals, ${positive ? 'above 0' : '0 or more'}, at most ${MONEY_INPUT_MAX}`,
  });
}
/** A date-time the API answers with (always UTC, `Z`). */
export const Timestamp = Type.String({ format: 'date-time' });

/**
 * A date-time the API accepts: every date-time input uses this one schema (platform/http/instant.ts
 * has the rule; `Date`s come from parseInstant or `new Date` of the validated text).
 */
export const Instant = Type.String({
  format: 'date-time',
  pattern: INSTANT_PATTERN,
  description: `ISO 8601 instant with an explicit offset (Z or ±hh:mm), e.g. 2030-01-31T17:00:00Z; between ${INSTANT_MIN} and ${INSTANT_MAX} in UTC; fractions of a second are kept to the millisecond`,
});

/** A calendar month a request names (`YYYY-MM`, years 1970 to 9999: the date rule of instant.ts). */
export const Month = Type.String({ pattern: MONTH_PATTERN, description: 'YYYY-MM, a year between 1970 and 9999' });
