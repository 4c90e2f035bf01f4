import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { AuditService, type AuditRepository } from '../../src/modules/audit/index.js';
import { enforceSecurityAudit, SecurityAction, SecurityEvents } from '../../src/modules/auth/security-events.js';
import { systemClock } from '../../src/platform/clock.js';
import type { Database } from '../../src/platform/db/database.js';
import { installCustomerSurface } from '../../src/platform/http/surfaces.js';

/**
 * Every writer of the audit log (services, SecurityEvents, the surfaces' entries, the customer
 * activity, the impersonation trail) goes through AuditService.write, and only a service's own
 * entry stands for a request's change: the surface's entry is written when no service wrote one.
 */
describe('one audit writer, one rule for the surface entry', () => {
  async function customerApp(principal: { customerId: number; impersonatorAdminId?: number }) {
    const rows: { action: string; actorType: string }[] = [];
    const repo = { insert: async (_ex: unknown, row: { action: string; actorType: string }) => void rows.push(row) } as unknown as AuditRepository;
    const db = {} as Database;
    const audit = new AuditService(db, repo, systemClock, { emailsOf: async () => new Map() });
    const events = new SecurityEvents(db, audit);
    const app = Fastify();
    await app.register(async (customerApi) => {
      installCustomerSurface(customerApi, {
        authenticator: { authenticate: async () => ({ kind: 'customer', sessionId: 's', ...principal }) },
        maintenanceMode: async () => false,
        auditLog: audit,
      });
      await customerApi.register(async (auth) => {
        enforceSecurityAudit(auth, events);
        // a signed-in auth write whose service records nothing: the surface's back-up entry covers it
        auth.post('/api/auth/silent', { config: { securityEvent: SecurityAction.logout } }, async () => ({ message: 'OK', data: null }));
        // one whose service records its own entry: no second one
        auth.post('/api/auth/described', { config: { securityEvent: SecurityAction.logout } }, async () => {
          await events.record(undefined, SecurityAction.logout, principal.customerId, { how: 'service' });
          return { message: 'OK', data: null };
        });
      });
    });
    return { app, rows };
  }

  test('the impersonation trail does not stand for the change: the security back-up is still written', async () => {
    const { app, rows } = await customerApp({ customerId: 4, impersonatorAdminId: 9 });
    assert.equal((await app.inject({ method: 'POST', url: '/api/auth/silent' })).statusCode, 200);
    assert.deepEqual(rows.map((r) => r.action).sort(), ['customer.logout', 'impersonation.request']);
    rows.length = 0;
    assert.equal((await app.inject({ method: 'POST', url: '/api/auth/described' })).statusCode, 200);
    assert.deepEqual(rows.map((r) => r.action).sort(), ['customer.logout', 'impersonation.request']);
    await app.close();
  });

  test('without impersonation: one entry per write, the service\'s when it wrote one', async () => {
    const { app, rows } = await customerApp({ customerId: 4 });
    await app.inject({ method: 'POST', url: '/api/auth/silent' });
    await app.inject({ method: 'POST', url: '/api/auth/described' });
    assert.deepEqual(rows.map((r) => r.action), ['customer.logout', 'customer.logout']);
    await app.close();
  });
});
