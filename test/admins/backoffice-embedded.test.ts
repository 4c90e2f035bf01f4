import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginAdminFull, strongPassword } from '../helpers/admins.js';

// The same backoffice on the embedded database (PGlite), as `npm start` runs it by default.
let t: TestApp;
before(async () => {
  t = await buildTestApp({ db: 'embedded', worker: false, env: { BOOTSTRAP_ADMIN_EMAIL: 'root@embedded.test', BOOTSTRAP_ADMIN_PASSWORD: 'Embedded-Pass-1!' } });
});
after(() => t.close());

describe('backoffice on the embedded database', () => {
  test('login, create staff, change password, audit log append-only', async () => {
    const login = await loginAdminFull(t, 'root@embedded.test', 'Embedded-Pass-1!');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/admin',
      headers: { cookie: login.cookie },
      payload: { name: 'Embedded Staff', email: 'staff@embedded.test', role: 'Admin Support' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const staff = await loginAdminFull(t, 'staff@embedded.test', created.json().data.password);
    assert.equal(staff.body.data.must_change_password, true);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/auth/change-password',
      headers: { cookie: staff.cookie },
      payload: { current_password: created.json().data.password, new_password: strongPassword() },
    });
    assert.equal(changed.statusCode, 200);
    const logs = await t.app.inject({ method: 'GET', url: '/api/backoffice/audit-logs?limit=100', headers: { cookie: login.cookie } });
    const actions = logs.json().data.map((e: any) => e.action);
    for (const a of ['admin.created', 'admin.login', 'admin.password_changed']) assert.ok(actions.includes(a), a);
    await assert.rejects(t.container.db.execute(sql`delete from audit_logs`));
    const [row] = await queryRows<{ n: number }>(t.container.db, sql`select count(*)::int as n from audit_logs`);
    assert.equal(row!.n, logs.json().meta.total);
  });
});
