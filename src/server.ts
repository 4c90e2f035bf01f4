import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config/index.js';
import { buildApp } from './app.js';
import { buildContainer } from './container.js';
import { createLogger } from './platform/logger.js';
import { embeddedDataFolder } from './platform/db/database.js';
import { BUILD_TEMPLATE_ENV, buildEmbeddedTemplate, ensureEmbeddedTemplate, isFreshDataFolder, templateDir } from './platform/db/embedded-template.js';

/** The builder process of the embedded template (embedded-template.ts): migrations, seeds and pg-boss's schema, no admin. */
async function buildTemplate(target: string): Promise<void> {
  await buildEmbeddedTemplate(target, async (dataDir) => {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' });
    const container = await buildContainer(config, { log: createLogger('warn'), skipBootstrapAdmin: true });
    await container.close();
  });
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel, config.nodeEnv === 'development' && process.stdout.isTTY);
  const startedAt = performance.now();
  // A new embedded data folder starts as a copy of the prepared template (built once per schema version).
  const dataFolder = embeddedDataFolder(config.dataDir);
  const template =
    config.databaseUrl === undefined && isFreshDataFolder(dataFolder)
      ? ensureEmbeddedTemplate(fileURLToPath(import.meta.url), (msg) => log.warn(msg))
      : undefined;
  const container = await buildContainer(config, { log, ...(template ? { pgliteTemplate: template } : {}) });
  const app = config.role === 'worker' ? undefined : await buildApp(container);
  // Listen first: the workers' first fetches and schedule upserts then do not delay /readyz.
  if (app) await app.listen({ port: config.port, host: config.host });
  if (config.role !== 'api') await container.startWorker();
  log.info(
    { role: config.role, database: container.database.kind, ms: Math.round(performance.now() - startedAt), url: config.publicUrl },
    app ? `ready: API on ${config.publicUrl}, docs at ${config.publicUrl}/docs` : 'ready: worker',
  );
  if (app) {
    // The server answers on every address it listens on, but the links it writes (mails, the
    // sandbox payment page, gateway callbacks) name one: say which, and how to change it.
    log.info(
      { publicUrl: config.publicUrl, listening: `${config.host}:${config.port}` },
      `links in e-mails and payment callbacks use ${config.publicUrl}; set PUBLIC_URL to the address people and gateways reach this server on`,
    );
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const force = setTimeout(() => {
      log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      await app?.close();
      await container.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

// `--build-embedded-template`: this checkout's template (npm install); BUILD_TEMPLATE_ENV: the one a starting server asks for.
const templateToBuild = process.argv.includes('--build-embedded-template') ? templateDir() : process.env[BUILD_TEMPLATE_ENV];
(templateToBuild ? buildTemplate(templateToBuild).then(() => process.exit(0)) : main()).catch((err: unknown) => {
  console.error('start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
