// npm run admin:create -- --email you@example.com --name "Your Name" [--password 'Secret-123!']
// Creates a Super Admin. Without --password one is generated, printed once, and must be changed at
// first login.
import { runCli } from './cli.js';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.js';
import { buildContainer } from '../src/container.js';
import { AppError } from '../src/platform/errors.js';
import { createLogger } from '../src/platform/logger.js';

const usage = 'usage: npm run admin:create -- --email <email> --name <name> [--password <password>]';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } } }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  if (!args.email || !args.name) {
    console.error(usage);
    return 2;
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(args.email)) {
    console.error(`not an e-mail address: ${args.email}`);
    return 2;
  }
  const config = loadConfig();
  // The CLI must not create the demo admin (or the BOOTSTRAP_ one) as a side effect.
  const container = await buildContainer(config, {
    log: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
    skipBootstrapAdmin: true,
  });
  try {
    const r = await container.services.admins.createSuperAdmin({
      email: args.email,
      name: args.name,
      ...(args.password !== undefined ? { password: args.password } : {}),
    });
    console.log(`Super Admin created: ${r.admin.email} (id ${r.admin.id})`);
    if (r.generated) console.log(`Password (shown once, must be changed at first login): ${r.password}`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      const detail = err.errors?.map((e) => `${e.field} ${e.message}`).join('; ');
      console.error(`${err.message}${detail ? `: ${detail}` : ''}`);
      return 1;
    }
    throw err;
  } finally {
    await container.close();
  }
}

runCli(main);
