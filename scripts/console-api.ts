// `npm run console:api`: regenerates the console's typed API client (console/src/api/schema.d.ts,
// and permissions.ts: the permission of each backoffice operation)
// from the OpenAPI document the server serves. test/console/api-types.test.ts fails when the
// committed file differs from what this writes, so the console cannot drift from the API.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { createLogger } from '../src/platform/logger.js';
import { renderApiPermissions, renderApiTypes } from './console-api-types.js';
import { runCli } from './cli.js';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../console/src/api');
export const typesFile = path.join(apiDir, 'schema.d.ts');
export const permissionsFile = path.join(apiDir, 'permissions.ts');

runCli(async () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-api-')) });
  const container = await buildContainer(config, { log: createLogger('silent') });
  try {
    const app = await buildApp(container);
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    writeFileSync(typesFile, await renderApiTypes(res.json()));
    writeFileSync(permissionsFile, renderApiPermissions(res.json()));
    await app.close();
    console.log(`wrote ${path.relative(process.cwd(), typesFile)} and ${path.relative(process.cwd(), permissionsFile)}`);
    return 0;
  } finally {
    await container.close();
  }
});
