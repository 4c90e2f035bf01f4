import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Decimal } from 'decimal.js';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { METER_QUANTITY_MAX } from '../../src/modules/charging/index.js';
import { usageRecords } from '../../src/modules/charging/charging.tables.js';
import { CreateVmBody } from '../../src/modules/compute/compute.schemas.js';
import { CreateBucketBody, ResizeBody } from '../../src/modules/object-storage/object-storage.schemas.js';
import { priceSchedules } from '../../src/modules/pricing/pricing.tables.js';
import { priceVersions } from '../../src/modules/pricing/price-versions.tables.js';
import { MONEY_INPUT_MAX } from '../../src/platform/money.js';

/*
 * The arithmetic behind the one money-input bound: the largest price a request may set, its
 * hourly price, and that hourly price times the largest metered quantity all fit their columns,
 * and every quantity a request may ask for is within what a meter counts.
 */

/** The largest value a NUMERIC(p, s) column holds. */
function columnMax(table: PgTable, name: string): Decimal {
  const column = getTableConfig(table).columns.find((c) => c.name === name);
  assert.ok(column, `${getTableConfig(table).name}.${name}`);
  const m = /^numeric\((\d+), ?(\d+)\)$/.exec(column.getSQLType());
  assert.ok(m, `${name} is ${column.getSQLType()}`);
  const [precision, scale] = [Number(m[1]), Number(m[2])];
  return new Decimal(10).pow(precision - scale).minus(new Decimal(10).pow(-scale));
}

const hourlyOf = (monthly: Decimal.Value) => new Decimal(monthly).div(730).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);

describe('the money-input bound fits every column derived from it', () => {
  test('the largest monthly price and its hourly price fit price_versions and price_schedules', () => {
    for (const table of [priceVersions, priceSchedules]) {
      assert.ok(new Decimal(MONEY_INPUT_MAX).lte(columnMax(table, 'monthly_price')));
      assert.ok(hourlyOf(MONEY_INPUT_MAX).lte(columnMax(table, 'hourly_price')));
    }
  });

  test('the largest hourly price times the largest meter quantity fits one usage record (and its price and quantity columns)', () => {
    const amount = hourlyOf(MONEY_INPUT_MAX).times(METER_QUANTITY_MAX);
    assert.ok(amount.lte(columnMax(usageRecords, 'amount')), `${amount.toFixed()} fits usage_records.amount`);
    assert.ok(new Decimal(METER_QUANTITY_MAX).lte(columnMax(usageRecords, 'quantity')));
    assert.ok(hourlyOf(MONEY_INPUT_MAX).lte(columnMax(usageRecords, 'hourly_price')));
  });

  test('every quantity a request may ask for (volume GB, bucket GB) is within what a meter counts', () => {
    const volume = (CreateVmBody.properties.block_storage_gb as unknown as { maximum: number }).maximum;
    const bucket = (CreateBucketBody.properties.size as unknown as { maximum: number }).maximum;
    const resize = (ResizeBody.properties.size as unknown as { maximum: number }).maximum;
    for (const max of [volume, bucket, resize]) {
      assert.ok(Number.isInteger(max), 'the schema names a maximum');
      assert.ok(max <= METER_QUANTITY_MAX, `${max} ≤ ${METER_QUANTITY_MAX}`);
    }
  });
});
