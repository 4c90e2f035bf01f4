// A template builder for test/platform/embedded-template.test.ts: the real builder's protocol
// (buildEmbeddedTemplate into the folder named by BUILD_TEMPLATE_ENV) with a fake database, one
// file. FAKE_BUILDER=crash dies halfway through, as a killed or crashed builder does.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_TEMPLATE_ENV, buildEmbeddedTemplate } from '../../src/platform/db/embedded-template.js';

await buildEmbeddedTemplate(process.env[BUILD_TEMPLATE_ENV]!, async (dataDir) => {
  mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
  writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '18\n');
  if (process.env.FAKE_BUILDER === 'crash') process.exit(3);
  writeFileSync(path.join(dataDir, 'pglite', 'built-by'), String(process.pid));
});
