import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseKey, tierComponentKey, tierKey } from './pricing.keys.js';

test('price keys', () => {
  assert.equal(tierKey(7), 'tier:7');
  assert.deepEqual(parseKey('storage_tier:3'), { kind: 'storage_tier', id: 3 });
  assert.equal(parseKey('tier:x'), undefined);
  assert.equal(tierComponentKey(7, 4), 'tier:7:component:4');
  assert.deepEqual(parseKey('tier:7:component:4'), { kind: 'tier_component', id: 7, componentId: 4 });
});
