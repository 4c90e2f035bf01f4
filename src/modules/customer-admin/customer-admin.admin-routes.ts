import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, Paginated } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { clientMeta, setSessionCookies } from '../auth/index.js';
import { AdminCustomerDetail, AdminCustomerListItem, AdminCustomerListQuery, AdminCustomerPatch, customerDetailView, customerListItemView } from '../customers/index.js';
import { customerResourceView, deviceSessionView, impersonationView, maxSessionView, twoFactorOffView } from './customer-admin.present.js';
import type { CustomerAdminService } from './customer-admin.service.js';
import type { ResourceKind } from './customer-resources.repository.js';
import {
  CustomerIdParams,
  CustomerResource,
  CustomerResourcesQuery,
  DeviceSession,
  ForceDisableBody,
  ForceDisableResult,
  Impersonation,
  MaxSessionBody,
  MaxSessionResult,
  RevokedSessions,
  SessionParams,
} from './customer-admin.schemas.js';

const tags = ['Backoffice: customers'];

export interface CustomerAdminRoutesOptions {
  service: CustomerAdminService;
  cookieSecure: boolean;
}

/** Mounted at /api/backoffice: customer administration, device sessions, forced 2FA off, impersonation. */
export const customerAdminRoutes: FastifyPluginAsyncTypebox<CustomerAdminRoutesOptions> = async (app, { service, cookieSecure }) => {
  app.get(
    '/customer',
    {
      config: { permission: 'view_users' },
      schema: {
        tags,
        summary: 'Customers, newest first; search matches e-mail and name',
        querystring: AdminCustomerListQuery,
        response: { 200: Paginated(AdminCustomerListItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await service.list(p, req.query.search);
      return paginated('OK', p, { items: page.items.map(customerListItemView), total: page.total });
    },
  );

  app.get(
    '/customer/:id',
    {
      config: { permission: 'view_users' },
      schema: { tags, summary: 'One customer with quotas and max_session', params: CustomerIdParams, response: { 200: Envelope(AdminCustomerDetail), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ message: 'OK', data: customerDetailView(await service.detail(req.params.id)) }),
  );

  app.get(
    '/customer/:id/resources',
    {
      config: { permission: 'view_users' },
      schema: {
        tags,
        summary: "What the customer runs: VMs, volumes, private networks, buckets and load balancers (not deleted), newest first",
        params: CustomerIdParams,
        querystring: CustomerResourcesQuery,
        response: { 200: Paginated(CustomerResource), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const page = await service.resources(req.params.id, req.query.kind as ResourceKind | undefined, p);
      return paginated('OK', p, { items: page.items.map(customerResourceView), total: page.total });
    },
  );

  app.patch(
    '/customer/:id',
    {
      config: { permission: 'edit_users', audit: 'customer.updated' },
      schema: {
        tags,
        summary: 'Changes billing type, activation, identity verification, do_not_suspend_until, max_session or quotas (audited)',
        params: CustomerIdParams,
        body: AdminCustomerPatch,
        response: { 200: Envelope(AdminCustomerDetail), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Customer updated', data: customerDetailView(await service.update(actorOf(req), req.params.id, req.body)) }),
  );

  app.get(
    '/customer/:id/device-sessions',
    {
      config: { permission: 'view_users' },
      schema: { tags, summary: "The customer's live device sessions", params: CustomerIdParams, response: { 200: Envelope(Type.Array(DeviceSession)), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({
      message: 'OK',
      data: (await service.deviceSessions(req.params.id)).map(deviceSessionView),
    }),
  );

  app.delete(
    '/customer/:id/device-sessions/:sid',
    {
      config: { permission: 'manage_sessions', audit: 'customer.sessions_revoked' },
      schema: {
        tags,
        summary: "Ends one device session, or every one with sid 'all'; the next request with it gets 401",
        params: SessionParams,
        response: { 200: Envelope(RevokedSessions), ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => ({ message: 'Session removed', data: { revoked: await service.revokeSessions(actorOf(req), req.params.id, req.params.sid) } }),
  );

  app.patch(
    '/auth/device-session/update',
    {
      config: { permission: 'manage_sessions', audit: 'customer.max_session_changed' },
      schema: {
        tags,
        summary: "Sets the customer's max_session; the least recently used sessions beyond it end at once",
        body: MaxSessionBody,
        response: { 200: Envelope(MaxSessionResult), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const { customer_id, max_session } = req.body;
      return { message: 'Max session updated', data: maxSessionView(customer_id, max_session, await service.setMaxSession(actorOf(req), customer_id, max_session)) };
    },
  );

  app.patch(
    '/2fa/force-disable',
    {
      config: { permission: 'manage_2fa', audit: 'customer.2fa_force_disabled' },
      schema: {
        tags,
        summary: "Switches the customer's 2FA off; the reason is audited and the customer is e-mailed",
        body: ForceDisableBody,
        response: { 200: Envelope(ForceDisableResult), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await service.forceDisable2fa(actorOf(req), req.body.customer_id, req.body.reason.trim());
      return { message: 'Two-factor authentication disabled', data: twoFactorOffView(req.body.customer_id) };
    },
  );

  app.post(
    '/customer/:id/impersonate',
    {
      config: { permission: 'impersonate_user', audit: 'customer.impersonation_started' },
      schema: {
        tags,
        summary: 'Opens a customer session marked with the admin (customer cookies are set); every request in it is audited',
        params: CustomerIdParams,
        response: { 200: Envelope(Impersonation), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const issued = await service.impersonate(actorOf(req), req.params.id, clientMeta(req));
      setSessionCookies(reply, issued, cookieSecure);
      return { message: 'Impersonation started', data: impersonationView(issued) };
    },
  );
};
