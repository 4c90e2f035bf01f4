import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HOURS_PER_MONTH, hourlyOf, percentBonus, rateJson, rateText } from './money.js';

describe('money rounding', () => {
  test('hourly = monthly / 730 kept to 6 decimals (half up)', () => {
    assert.equal(HOURS_PER_MONTH, 730);
    assert.equal(hourlyOf('100000'), '136.986301');
    assert.equal(hourlyOf('730'), '1.000000');
    assert.equal(hourlyOf('0'), '0.000000');
    assert.equal(hourlyOf('0.01'), '0.000014');
    assert.equal(hourlyOf('999999999999999.99'), '1369863013698.630123');
  });

  test('a rate is 6 decimals, half up; its JSON form is a number', () => {
    assert.equal(rateText('1.0000005'), '1.000001');
    assert.equal(rateText('1.00000049'), '1.000000');
    assert.equal(rateText(2), '2.000000');
    assert.equal(rateJson('136.9863014'), 136.986301);
    assert.equal(rateJson('0.0000005'), 0.000001);
    assert.equal(rateJson('0'), 0);
  });

  test('a percent bonus is rounded down to the cent, then capped', () => {
    assert.equal(percentBonus('10.00', '15', null), '1.50');
    assert.equal(percentBonus('0.99', '10', null), '0.09');
    assert.equal(percentBonus('33.33', '33.3', null), '11.09');
    assert.equal(percentBonus('1000', '50', '100'), '100.00');
    assert.equal(percentBonus('100', '50', '100'), '50.00');
    assert.equal(percentBonus('100', '0', null), '0.00');
  });
});
