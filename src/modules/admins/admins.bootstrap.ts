import type { Logger } from 'pino';
import { isStrongPassword, passwordRule } from '../../platform/password-policy.js';
import type { AdminsService } from './admins.service.js';

export interface BootstrapOptions {
  email: string | undefined;
  password: string | undefined;
  /** The embedded default database (no DATABASE_URL): create admin@cloud.local when nothing is configured. */
  embeddedDefault: boolean;
  log: Logger;
  /** Where the generated password is printed once (the console). */
  print?: (line: string) => void;
}

export const DEMO_ADMIN_EMAIL = 'admin@cloud.local';

/**
 * On start with no admin at all: BOOTSTRAP_ADMIN_EMAIL (+ BOOTSTRAP_ADMIN_PASSWORD) creates the
 * first Super Admin; the embedded demo creates admin@cloud.local. A generated password is printed
 * once and must be changed at first login.
 */
export async function bootstrapFirstAdmin(admins: AdminsService, opts: BootstrapOptions): Promise<void> {
  if (!(await admins.isEmpty())) return;
  const email = opts.email ?? (opts.embeddedDefault ? DEMO_ADMIN_EMAIL : undefined);
  if (!email) {
    opts.log.warn('no backoffice admin exists: run `npm run admin:create -- --email you@example.com --name "Your Name"`');
    return;
  }
  if (opts.password !== undefined && !isStrongPassword(opts.password)) {
    throw new Error(`Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must be ${passwordRule.description}`);
  }
  const r = await admins.createSuperAdmin({ email, name: 'Super Admin', ...(opts.password !== undefined ? { password: opts.password } : {}) });
  opts.log.info({ email, adminId: r.admin.id }, 'first Super Admin created');
  if (r.generated) {
    const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`));
    print(`\n  Backoffice Super Admin created: ${email}\n  Password (shown once, change it at first login): ${r.password}\n`);
  }
}
