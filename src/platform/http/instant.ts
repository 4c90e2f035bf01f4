/**
 * The one date-time input rule of the API: an ISO 8601 / RFC 3339 instant with a calendar date,
 * a time to the second (fractions allowed, kept to the millisecond), an explicit offset
 * (`Z` or `±hh:mm`), and, once converted to UTC, between 1970-01-01T00:00:00Z and
 * 9999-12-31T23:59:59.999Z. Anything else (`0000-…`, `0099-…`, no offset, `24:00`, leap
 * seconds, `2023-02-29`, six-digit years) is a 400, never a 500 or a silently shifted date.
 */
export const INSTANT_MIN = '1970-01-01T00:00:00Z';
export const INSTANT_MAX = '9999-12-31T23:59:59.999Z';

/** Shape only; the calendar and the UTC range are checked by isInstant. */
export const INSTANT_PATTERN =
  '^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$';

const SHAPE = new RegExp(INSTANT_PATTERN);
const MIN_MS = Date.parse(INSTANT_MIN);
const MAX_MS = Date.parse(INSTANT_MAX);

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether `text` is an instant the API accepts (see above). */
export function isInstant(text: string): boolean {
  if (!SHAPE.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (day > daysIn(year, month)) return false;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;
}

/**
 * A calendar month (`YYYY-MM`, a report period, an invoice month) under the same rule: a year
 * between 1970 and 9999. Every month a request names, in a body or a query string, uses the shared
 * `Month` schema (schemas.ts) built on this pattern.
 */
export const MONTH_PATTERN = '^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])$';
const MONTH_SHAPE = new RegExp(MONTH_PATTERN);

/** Whether `text` is a month the API accepts (see MONTH_PATTERN). */
export function isMonth(text: string): boolean {
  return MONTH_SHAPE.test(text);
}

/** The Date of an instant that passed isInstant (validated input); throws on anything else. */
export function parseInstant(text: string): Date {
  if (!isInstant(text)) throw new RangeError(`not an accepted instant: ${text.slice(0, 40)}`);
  return new Date(Date.parse(text));
}

interface FormatRegistry {
  addFormat(name: string, format: { type: 'string'; validate: (s: string) => boolean }): unknown;
}

/**
 * Makes `format: 'date-time'` mean the rule above in every request validator, so a schema that
 * forgets the shared `Instant` still cannot let a year 0030 through.
 */
export function registerInstantFormat(ajv: FormatRegistry): void {
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
}
