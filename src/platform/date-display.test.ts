import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayTime } from './date-display.js';

test('moments for people: day, short month, year, 24-hour time, and the zone it is in', () => {
  assert.equal(displayTime(new Date('2026-03-10T08:05:09.123Z')), '10 Mar 2026, 08:05 UTC');
  assert.equal(displayTime(new Date('2026-12-31T23:59:59Z')), '31 Dec 2026, 23:59 UTC');
  assert.equal(displayTime(new Date('2027-01-01T00:00:00Z')), '1 Jan 2027, 00:00 UTC');
});
