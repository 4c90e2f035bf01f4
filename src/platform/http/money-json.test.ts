import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { moneyJson, plainMoneyText } from '../money.js';
import { exactMoneySerializers, moneyText } from './money-json.js';
import { Money, MoneyAmount } from './schemas.js';

const compile = (schema: unknown) => exactMoneySerializers()({}, {})({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('exact money serialization', () => {
  test('money is written from its decimal value, wherever it sits in the schema', () => {
    const schema = Type.Object({
      total: Money,
      maybe: Type.Union([Money, Type.Null()]),
      list: Type.Array(Type.Object({ amount: MoneyAmount({ description: 'x' }), note: Type.String() })),
      byKey: Type.Record(Type.String(), Money),
      count: Type.Integer(),
    });
    const json = compile(schema)({
      total: '1000999999999999.99',
      maybe: null,
      list: [{ amount: new Decimal('-0.10'), note: '\u0000 1.5' }, { amount: 9000000000010000, note: 'x' }],
      byKey: { a: '12.345', b: '7.00' },
      count: 3,
      extra: 'never leaves',
    });
    assert.equal(
      json,
      '{"total":1000999999999999.99,"maybe":null,"list":[{"amount":-0.1,"note":"\\u0000 1.5"},{"amount":9000000000010000,"note":"x"}],"byKey":{"a":12.35,"b":7},"count":3}',
    );
    assert.equal(compile(schema)({ total: '1', maybe: '2.5', list: [], byKey: {}, count: 0 }), '{"total":1,"maybe":2.5,"list":[],"byKey":{},"count":0}');
  });

  test('schemas without money compile as before; a value that is not money is an error, not garbage', () => {
    assert.equal(compile(Type.Object({ n: Type.Number() }))({ n: 0.1 }), '{"n":0.1}');
    assert.throws(() => compile(Type.Object({ m: Money }))({ m: 'abc' }));
    assert.throws(() => compile(Type.Object({ m: Money }))({ m: Number.NaN }));
    assert.equal(moneyText('1e3'.replace('e3', '000')), '1000');
    assert.equal(moneyText('0.005'), '0.01');
  });
});

describe('decimal texts that need no rounding', () => {
  test('plainMoneyText writes what decimal.js writes, for every text of at most two decimals', () => {
    const texts = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.constantFrom('', '.', '.0', '.00', '.5', '.50', '.05', '.99', '.10'));
    fc.assert(
      fc.property(texts, ([negative, whole, fraction]) => {
        const text = `${negative ? '-' : ''}${whole}${fraction === '.' ? '' : fraction}`;
        assert.equal(plainMoneyText(text), new Decimal(text).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed());
        assert.equal(moneyJson(text), moneyText(text));
      }),
      { numRuns: 2000 },
    );
    for (const other of ['0.005', '1.234', '01.5', '1.', '.5', '1e3', ' 1', '+1', '']) assert.equal(plainMoneyText(other), undefined, other);
    assert.equal(moneyJson('-0.00'), '0');
    assert.equal(moneyJson('0.005'), '0.01');
  });
});
