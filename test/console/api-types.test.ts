import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { renderApiPermissions, renderApiTypes } from '../../scripts/console-api-types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

test("the console's API types are generated from the served OpenAPI document (npm run console:api when this fails)", async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  const expected = await renderApiTypes(res.json());
  const committed = readFileSync('console/src/api/schema.d.ts', 'utf8');
  assert.ok(committed === expected, 'console/src/api/schema.d.ts is stale: run `npm run console:api` and commit the result');
  const permissions = readFileSync('console/src/api/permissions.ts', 'utf8');
  assert.ok(permissions === renderApiPermissions(res.json()), 'console/src/api/permissions.ts is stale: run `npm run console:api` and commit the result');
  assert.match(permissions, /'POST \/api\/backoffice\/customer\/\{customer_id\}\/balance': 'manage_balance'/);
});
