import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GLOBAL_LOCKS, SCOPED_LOCKS } from './advisory-locks.js';

test('every advisory-lock key is unique and fits its key space', () => {
  const keys = [...Object.values(GLOBAL_LOCKS), ...Object.values(SCOPED_LOCKS)];
  assert.equal(new Set(keys).size, keys.length, `duplicate advisory-lock key in ${keys.join(', ')}`);
  for (const k of Object.values(SCOPED_LOCKS)) assert.ok(Number.isInteger(k) && k > 0 && k <= 2 ** 31 - 1, `${k} is not an int4`);
  for (const k of Object.values(GLOBAL_LOCKS)) assert.ok(Number.isSafeInteger(k) && k > 0, `${k} is not a safe bigint`);
});

test('no module takes an advisory lock with a key of its own', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const path = await import('node:path');
  const root = path.resolve(import.meta.dirname, '../..');
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !full.endsWith(path.join('db', 'advisory-locks.ts'))) {
        if (/pg_(try_)?advisory_(xact_)?lock/.test(readFileSync(full, 'utf8'))) offenders.push(path.relative(root, full));
      }
    }
  };
  walk(root);
  assert.deepEqual(offenders, []);
});
