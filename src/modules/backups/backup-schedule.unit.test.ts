import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latestSlot, nextSlot } from './backup-schedule.js';

test('daily: the slot of today once its hour came, else yesterday’s; the next one a day later', () => {
  const plan = { frequency: 'daily', hour: 3, weekday: null };
  assert.equal(latestSlot(plan, new Date('2026-03-10T03:00:00Z')).toISOString(), '2026-03-10T03:00:00.000Z');
  assert.equal(latestSlot(plan, new Date('2026-03-10T02:59:59Z')).toISOString(), '2026-03-09T03:00:00.000Z');
  assert.equal(nextSlot(plan, new Date('2026-03-10T02:59:59Z')).toISOString(), '2026-03-10T03:00:00.000Z');
  assert.equal(latestSlot(plan, new Date('2026-03-01T01:00:00Z')).toISOString(), '2026-02-28T03:00:00.000Z');
});

test('weekly: the weekday at the hour, this week once it came, else the week before', () => {
  // 2026-03-10 is a Tuesday (2)
  const plan = { frequency: 'weekly', hour: 22, weekday: 2 };
  assert.equal(latestSlot(plan, new Date('2026-03-10T22:30:00Z')).toISOString(), '2026-03-10T22:00:00.000Z');
  assert.equal(latestSlot(plan, new Date('2026-03-10T21:00:00Z')).toISOString(), '2026-03-03T22:00:00.000Z');
  assert.equal(latestSlot({ ...plan, weekday: 0 }, new Date('2026-03-10T21:00:00Z')).toISOString(), '2026-03-08T22:00:00.000Z');
  assert.equal(nextSlot(plan, new Date('2026-03-10T21:00:00Z')).toISOString(), '2026-03-10T22:00:00.000Z');
});
