const FORMAT = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/**
 * A moment as a person reads it in a notification, a mail or a document: "10 Mar 2026, 08:00 UTC".
 * The API's fields stay ISO 8601; this is for text written into sentences, where the reader's own
 * time zone is not known, so it says UTC.
 */
export function displayTime(at: Date): string {
  return `${FORMAT.format(at)} UTC`;
}

const DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const MONTH = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/** A day in a sentence: "10 Mar 2026" (UTC, as the invoices' dates are). */
export function displayDay(at: Date): string {
  return DAY.format(at);
}

/** A month in a sentence: "March 2026". */
export function displayMonth(at: Date): string {
  return MONTH.format(at);
}
