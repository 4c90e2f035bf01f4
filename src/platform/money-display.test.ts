import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayMoney } from './money-display.js';

test('money for people: grouped thousands, cents only when there are some, no float on the way', () => {
  assert.equal(displayMoney('504000.00', 'IDR'), 'IDR 504,000');
  assert.equal(displayMoney('1250.5', 'IDR'), 'IDR 1,250.50');
  assert.equal(displayMoney('999', 'IDR'), 'IDR 999');
  assert.equal(displayMoney('0', 'IDR'), 'IDR 0');
  assert.equal(displayMoney('-20000', 'IDR'), '-IDR 20,000');
  assert.equal(displayMoney('1000999999999999.99', 'IDR'), 'IDR 1,000,999,999,999,999.99');
});
