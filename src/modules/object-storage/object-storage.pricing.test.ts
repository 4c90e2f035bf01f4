import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hourlyCost, priceTiers } from './object-storage.pricing.js';

test('price tiers derive from one GB-month price: 90 % and 80 % tiers, hourly = monthly / 730 to 6 decimals', () => {
  const tiers = priceTiers('1000');
  assert.deepEqual(tiers, [
    { from_gb: 0, to_gb: 100, price_per_gb_month: '1000.00', price_per_gb_hour: '1.369863' },
    { from_gb: 100, to_gb: 1000, price_per_gb_month: '900.00', price_per_gb_hour: '1.232877' },
    { from_gb: 1000, to_gb: null, price_per_gb_month: '800.00', price_per_gb_hour: '1.095890' },
  ]);
});

test('hourly cost is marginal over the tiers', () => {
  const tiers = priceTiers('1000');
  assert.equal(hourlyCost(0, tiers), '0.000000');
  assert.equal(hourlyCost(10, tiers), '13.698630');
  assert.equal(hourlyCost(100, tiers), '136.986300');
  // 100 × 1.369863 + 50 × 1.232877
  assert.equal(hourlyCost(150, tiers), '198.630150');
  // 100 × 1.369863 + 900 × 1.232877 + 24 × 1.095890
  assert.equal(hourlyCost(1024, tiers), '1272.876960');
});
