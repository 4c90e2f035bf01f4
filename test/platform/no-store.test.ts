import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { totpCode } from '../../src/platform/crypto/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';

/* An answer that carries a secret shown once must not be kept by a browser's cache or a proxy. */

const clock = new ManualClock(new Date());
let t: TestApp;
before(async () => {
  t = await buildTestApp({ clock, worker: false });
});
after(() => t.close());

type Res = { statusCode: number; body: string; headers: Record<string, unknown>; json(): any };
function notStored(res: Res, what: string) {
  assert.ok(res.statusCode < 300, `${what}: ${res.statusCode} ${res.body}`);
  assert.equal(res.headers['cache-control'], 'no-store', what);
}

describe('Cache-Control: no-store on the answers that carry a secret', () => {
  test('sudo, 2FA set-up and recovery codes, API token, webhook secret (create and rotate), a generated staff password', async () => {
    const c = await customerSession(t);
    const inject = (method: 'GET' | 'POST', url: string, payload?: object, sudo?: string) =>
      t.app.inject({ method, url, headers: { cookie: c.cookie, ...(sudo ? { 'x-access-token': sudo } : {}) }, ...(payload ? { payload } : {}) });

    const sudoRes = await inject('POST', '/api/auth/profile/sudo', { password: c.password });
    notStored(sudoRes, 'sudo');
    const sudo = sudoRes.json().data.token as string;
    const generated = await inject('POST', '/api/auth/profile/2fa/generate-code', undefined, sudo);
    notStored(generated, '2FA generate-code');
    clock.advance(30_000);
    notStored(await inject('POST', '/api/auth/profile/2fa/enable', { code: totpCode(generated.json().data.secret, clock.now()) }, sudo), '2FA enable (recovery codes)');
    notStored(await inject('POST', '/api/auth/profile/2fa/recovery/regenerate', undefined, sudo), 'recovery codes regenerated');

    notStored(await inject('POST', '/api/tokens', { name: 'ci', scopes: ['compute:read'] }, sudo), 'API token');
    const endpoint = await inject('POST', '/api/webhooks/endpoints', { url: 'https://hooks.example.test/in', event_types: ['*'] });
    notStored(endpoint, 'webhook endpoint');
    notStored(await inject('POST', `/api/webhooks/endpoints/${endpoint.json().data.id}/rotate-secret`), 'webhook secret rotated');

    const boss = await adminSession(t);
    const admin = await t.app.inject({ method: 'POST', url: '/api/backoffice/admin', headers: { cookie: boss.cookie }, payload: { name: 'New', email: 'new.staff@example.test', role: 'Admin' } });
    notStored(admin, 'staff created with a generated password');

    // reference data stays cacheable
    const lookup = await t.app.inject({ method: 'GET', url: '/api/lookup/country' });
    assert.match(String(lookup.headers['cache-control']), /public, max-age=\d+/);
  });
});
