// npm run job -- <name> [json-payload]
// Runs one registered job now, in this process, against the configured database.
import { runCli } from './cli.js';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { createLogger } from '../src/platform/logger.js';

async function main(): Promise<number> {
  const [name, payloadText] = process.argv.slice(2);
  const config = loadConfig();
  const container = await buildContainer(config, { log: createLogger(config.logLevel), skipBootstrapAdmin: true });
  try {
    const names = container.queue.definitions().map((d) => d.name).sort();
    if (!name || !container.queue.definition(name)) {
      console.error(`${name ? `unknown job: ${name}\n` : ''}usage: npm run job -- <name> [json-payload]\njobs: ${names.join(', ')}`);
      return 2;
    }
    let payload: object = {};
    if (payloadText !== undefined) {
      try {
        payload = JSON.parse(payloadText) as object;
      } catch {
        console.error(`the payload is not JSON: ${payloadText}`);
        return 2;
      }
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
        console.error('the payload must be a JSON object');
        return 2;
      }
    }
    const started = Date.now();
    await container.queue.runNow(name, payload);
    console.log(`${name}: done in ${Date.now() - started} ms`);
    return 0;
  } catch (err) {
    console.error(`${name}: failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await container.close();
  }
}

runCli(main);
