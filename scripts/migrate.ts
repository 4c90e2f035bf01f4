// `npm run db:migrate`: applies the migrations and routines to the configured database
// (DATABASE_URL, or the embedded one under DATA_DIR) and seeds reference data, then exits.
import { ConfigError, loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { createLogger } from '../src/platform/logger.js';

try {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const started = performance.now();
  const container = await buildContainer(config, { log });
  await container.close();
  log.info({ database: container.database.kind, ms: Math.round(performance.now() - started) }, 'database migrated and seeded');
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `migration failed: ${(err as Error).message}`);
  process.exit(1);
}
