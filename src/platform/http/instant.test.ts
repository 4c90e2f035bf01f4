import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isInstant, parseInstant } from './instant.js';

describe('the instant rule', () => {
  test('accepts ISO 8601 instants with an offset, 1970–9999 in UTC', () => {
    for (const ok of [
      '1970-01-01T00:00:00Z',
      '2030-01-31T17:00:00Z',
      '2030-01-31T17:00:00.5Z',
      '2030-01-31T17:00:00.123456+07:00',
      '2024-02-29T00:00:00-00:00',
      '2000-02-29T12:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '1970-01-01T05:00:00+05:00',
    ]) {
      assert.ok(isInstant(ok), ok);
    }
  });

  test('refuses years outside 1970–9999, missing offsets, impossible dates and times, other shapes', () => {
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '0030-01-01T00:00:00Z',
      '0050-01-01T00:00:00Z',
      '0099-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:00:00+01:00',
      '9999-12-31T23:00:00-05:00',
      '+010000-01-01T00:00:00Z',
      '-000001-01-01T00:00:00Z',
      '2030-01-01T00:00:00',
      '2030-01-01',
      '2030-01-01 00:00:00Z',
      '2030-01-01t00:00:00z',
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2030-04-31T00:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2030-06-30T23:59:60Z',
      '2030-01-01T00:00:00+24:00',
      '2030-01-01T00:00:00.Z',
      '2030-01-01T00:00:00.1234567890Z',
      '2030-01-01T00:00:00Z\n',
      ' 2030-01-01T00:00:00Z',
      '1e3',
      '',
    ]) {
      assert.ok(!isInstant(bad), JSON.stringify(bad));
    }
  });

  test('parseInstant gives the UTC instant and refuses what isInstant refuses', () => {
    assert.equal(parseInstant('2030-01-01T07:00:00+07:00').toISOString(), '2030-01-01T00:00:00.000Z');
    assert.equal(parseInstant('2030-01-01T00:00:00.123456Z').toISOString(), '2030-01-01T00:00:00.123Z');
    assert.throws(() => parseInstant('0099-01-01T00:00:00Z'), RangeError);
  });
});
