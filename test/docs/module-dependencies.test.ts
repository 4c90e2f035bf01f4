import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DOC, renderList, updatedDoc } from '../../scripts/module-dependencies.js';

const root = path.resolve(import.meta.dirname, '../..');

test('the module dependency list of docs/architecture.md is the one the imports give', () => {
  const doc = readFileSync(path.join(root, DOC), 'utf8');
  // stale: run `node --import tsx scripts/module-dependencies.ts` and commit the doc
  assert.equal(updatedDoc(doc), doc);
});

test('the list names an import of tables alone, and a module that imports none', () => {
  const list = renderList(
    new Map([
      ['a', new Map([['b', 'tables' as const], ['c', 'code' as const]])],
      ['b', new Map()],
    ]),
  );
  assert.match(list, /^- `a` → b \(tables\), c$/m);
  assert.match(list, /^- `b` → no module$/m);
});
