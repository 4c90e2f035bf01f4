import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { bootstrapFirstAdmin } from '../../src/modules/admins/index.js';
import { queryRows } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { buildTestApp } from '../helpers/app.js';
import { loginAdminFull } from '../helpers/admins.js';
import { nodeEntry } from '../helpers/node-entry.js';

const run = promisify(execFile);
const adminRows = (t: Awaited<ReturnType<typeof buildTestApp>>) =>
  queryRows<{ email: string; must_change_password: boolean; role: string }>(
    t.container.db,
    sql`select a.email, a.must_change_password, r.name as role from admins a join roles r on r.id = a.role_id order by a.id`,
  );

describe('first Super Admin', () => {
  test('BOOTSTRAP_ADMIN_EMAIL/PASSWORD create it on the first start only', async () => {
    const t = await buildTestApp({ worker: false, env: { BOOTSTRAP_ADMIN_EMAIL: 'root@ops.test', BOOTSTRAP_ADMIN_PASSWORD: 'Bootstrap-Pass-1!' } });
    try {
      assert.deepEqual(await adminRows(t), [{ email: 'root@ops.test', must_change_password: false, role: 'Super Admin' }]);
      const login = await loginAdminFull(t, 'root@ops.test', 'Bootstrap-Pass-1!');
      assert.equal(login.body.data.must_change_password, false);
      // a second start with other values changes nothing
      await bootstrapFirstAdmin(t.container.services.admins, { email: 'other@ops.test', password: 'Other-Pass-1!', embeddedDefault: true, log: createLogger('silent') });
      assert.equal((await adminRows(t)).length, 1);
    } finally {
      await t.close();
    }
  });

  test('embedded default without BOOTSTRAP_*: admin@cloud.local with a generated password printed once, must change', async () => {
    const t = await buildTestApp({ worker: false });
    try {
      assert.deepEqual(await adminRows(t), [], 'no admin on a non-embedded database without BOOTSTRAP_*');
      const printed: string[] = [];
      await bootstrapFirstAdmin(t.container.services.admins, { email: undefined, password: undefined, embeddedDefault: true, log: createLogger('silent'), print: (l) => printed.push(l) });
      assert.equal(printed.length, 1);
      const password = /Password[^:]*: (\S+)/.exec(printed[0]!)![1]!;
      const login = await loginAdminFull(t, 'admin@cloud.local', password);
      assert.equal(login.body.data.must_change_password, true);
      await bootstrapFirstAdmin(t.container.services.admins, { email: undefined, password: undefined, embeddedDefault: true, log: createLogger('silent'), print: (l) => printed.push(l) });
      assert.equal(printed.length, 1, 'printed once');
    } finally {
      await t.close();
    }
  });

  test('a weak BOOTSTRAP_ADMIN_PASSWORD stops start-up with a line naming the variable', async () => {
    const t = await buildTestApp({ worker: false });
    try {
      await assert.rejects(
        bootstrapFirstAdmin(t.container.services.admins, { email: 'root@ops.test', password: 'weak', embeddedDefault: false, log: createLogger('silent') }),
        /^Error: Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD/,
      );
      assert.deepEqual(await adminRows(t), []);
    } finally {
      await t.close();
    }
  });

  test('npm run admin:create: generated password printed, must change; given password used; duplicates refused', async () => {
    // The CLI is a second process on the same database: a server's, as operators run it.
    const t = await buildTestApp({ db: 'postgres', worker: false });
    const env = { ...process.env, DATABASE_URL: t.database!.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'chp-cli-')), LOG_LEVEL: 'silent', NODE_ENV: 'test' };
    const cli = (...args: string[]) => run(process.execPath, [...nodeEntry(path.resolve('scripts/admin-create.ts')), ...args], { env });
    try {
      const { stdout } = await cli('--email', 'cli@ops.test', '--name', 'CLI Admin');
      const password = /Password[^:]*: (\S+)/.exec(stdout)![1]!;
      assert.equal((await loginAdminFull(t, 'cli@ops.test', password)).body.data.must_change_password, true);
      await cli('--email', 'cli2@ops.test', '--name', 'CLI Two', '--password', 'Chosen-Pass-1!');
      assert.equal((await loginAdminFull(t, 'cli2@ops.test', 'Chosen-Pass-1!')).body.data.must_change_password, false);
      await assert.rejects(cli('--email', 'CLI@ops.test', '--name', 'Again'), (err: any) => err.code === 1 && /exists/.test(err.stderr));
      await assert.rejects(cli('--email', 'cli3@ops.test', '--name', 'Weak', '--password', 'weak'), (err: any) => err.code === 1);
      await assert.rejects(cli('--name', 'No Email'), (err: any) => err.code === 2);
      const rows = await adminRows(t);
      assert.deepEqual(rows.map((r) => [r.email, r.role]), [['cli@ops.test', 'Super Admin'], ['cli2@ops.test', 'Super Admin']]);
    } finally {
      await t.close();
    }
  });
});
