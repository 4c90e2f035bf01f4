// A second worker process of the deployment (started by startWorkerProcess in test/helpers/worker-process.ts,
// for tests that kill one):
// the container on DATABASE_URL, the job workers started, no schedules written, "worker ready" on stdout.
import { loadConfig } from '../../src/config/index.js';
import { buildContainer } from '../../src/container.js';
import { createLogger } from '../../src/platform/logger.js';

const config = loadConfig();
const container = await buildContainer(config, { log: createLogger(config.logLevel), jobPollingIntervalSeconds: 0.5, schedules: false, skipBootstrapAdmin: true });
await container.startWorker();
console.log('worker ready');
