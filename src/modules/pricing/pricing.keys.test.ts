import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hourlyOf, parseKey, tierKey } from './pricing.keys.js';

test('hourly = monthly / 730 kept to 6 decimals (half up)', () => {
  assert.equal(hourlyOf('100000'), '136.986301');
  assert.equal(hourlyOf('730'), '1.000000');
  assert.equal(hourlyOf('0'), '0.000000');
  assert.equal(hourlyOf('0.01'), '0.000014');
  assert.equal(hourlyOf('999999999999999.99'), '1369863013698.630123');
});

test('price keys', () => {
  assert.equal(tierKey(7), 'tier:7');
  assert.deepEqual(parseKey('storage_tier:3'), { kind: 'storage_tier', id: 3 });
  assert.equal(parseKey('tier:x'), undefined);
});
