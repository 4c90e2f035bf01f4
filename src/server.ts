import { ConfigError, loadConfig } from './config/index.js';
import { buildApp } from './app.js';
import { buildContainer } from './container.js';
import { createLogger } from './platform/logger.js';

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
  const container = await buildContainer(config, { log });
  const app = config.role === 'worker' ? undefined : await buildApp(container);
  if (config.role !== 'api') await container.startWorker();
  if (app) await app.listen({ port: config.port, host: config.host });
  log.info(
    { role: config.role, database: container.database.kind, ms: Math.round(performance.now() - startedAt), url: config.publicUrl },
    app ? `ready: API on ${config.publicUrl}, docs at ${config.publicUrl}/docs` : 'ready: worker',
  );

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

main().catch((err: unknown) => {
  console.error('start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
