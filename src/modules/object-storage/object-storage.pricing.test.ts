import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hourlyCost, priceTiers } from './object-storage.pricing.js';

test('price tiers derive from one GB-month price: one tier (what the hourly charge bills), hourly = monthly / 730 to 6 decimals', () => {
  const tiers = priceTiers('1000');
  assert.deepEqual(tiers, [{ from_gb: 0, to_gb: null, price_per_gb_month: '1000.00', price_per_gb_hour: '1.369863' }]);
});

test('hourly cost is marginal over the tiers', () => {
  const tiers = priceTiers('1000');
  assert.equal(hourlyCost(0, tiers), '0.000000');
  assert.equal(hourlyCost(10, tiers), '13.698630');
  assert.equal(hourlyCost(100, tiers), '136.986300');
  assert.equal(hourlyCost(1024, tiers), '1402.739712');
  // marginal over several tiers: 100 × 1 + 50 × 0.9
  const twoTiers = [
    { from_gb: 0, to_gb: 100, price_per_gb_month: '730.00', price_per_gb_hour: '1.000000' },
    { from_gb: 100, to_gb: null, price_per_gb_month: '657.00', price_per_gb_hour: '0.900000' },
  ];
  assert.equal(hourlyCost(150, twoTiers), '145.000000');
});
